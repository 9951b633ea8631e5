import GesturedCore

/// An evemu recording (`evemu-record` / `evemu-describe` output): an optional device description
/// and the recorded events.
///
/// Pure: the caller reads the file; this only parses text. Parsing works on the UTF-8 bytes
/// directly, without a `String` per line, because recordings of long sessions reach millions of
/// events. Timestamps are parsed exactly as integers (`sec.usec`, never through `Double`), so a
/// replayed event carries the very microsecond the kernel stamped.
public struct EvemuRecording: Sendable {
    /// The device, or nil when the text has no `N:`/`I:`/`P:`/`B:`/`A:` lines (an `.events`
    /// file recorded without its description; replay then needs the matching `.desc`).
    public var description: EvemuDescription?
    /// Events from `E:` lines, in file order.
    public var events: [RawEvent]

    public init(description: EvemuDescription?, events: [RawEvent]) {
        self.description = description; self.events = events
    }

    /// Parses evemu text: `N:`, `I:`, `P:`, `B:`, `A:`, `E:` lines, `#` comments (also after
    /// the fields of a line), blank lines, LF or CRLF line ends.
    ///
    /// - Parameters:
    ///   - text: the whole file.
    ///   - sysname: unused by the parser itself; kept so that callers name the device they are
    ///     replaying at the one place where a recording enters the core.
    /// - Throws: `EvemuParseError` naming the 1-based line of the first malformed line.
    public static func parse(_ text: String, sysname: String) throws(EvemuParseError) -> EvemuRecording {
        var text = text
        let result: Result<EvemuRecording, EvemuParseError> = text.withUTF8 { bytes in
            do throws(EvemuParseError) {
                return .success(try EvemuTextParser.parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses evemu text given as its bytes, as `parse(_:sysname:)` parses
    /// `String(decoding: bytes, as: UTF8.self)`, without building that `String`, which would be
    /// a copy and a UTF-8 validation of every byte of what can be a long recording.
    ///
    /// Invalid UTF-8 gives the same result as through a `String`: the parser only ever compares
    /// bytes with ASCII characters, which a repair never touches, and decodes names with the
    /// same repair.
    public static func parse(bytes: [UInt8], sysname: String) throws(EvemuParseError) -> EvemuRecording {
        let result: Result<EvemuRecording, EvemuParseError> = bytes.withUnsafeBufferPointer { bytes in
            do throws(EvemuParseError) {
                return .success(try EvemuTextParser.parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// A device as evemu describes it: identity, capability bits, axes and properties.
public struct EvemuDescription: Sendable, Hashable {
    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// `P:` bytes: the INPUT_PROP_* bitmask, concatenated over all `P:` lines.
    public var properties: [UInt8]
    /// `B:` type → bitmask bytes, concatenated in order when a type spans several lines.
    /// `bits[0]` (EV_SYN) holds the mask of event *types*, as `EVIOCGBIT(0)` does.
    public var bits: [UInt16: [UInt8]]
    /// `A:` axis code → range.
    public var axes: [UInt16: AxisInfo]

    public init(name: String = "", bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0,
                version: UInt16 = 0, properties: [UInt8] = [], bits: [UInt16: [UInt8]] = [:],
                axes: [UInt16: AxisInfo] = [:]) {
        self.name = name; self.bustype = bustype; self.vendor = vendor; self.product = product
        self.version = version; self.properties = properties; self.bits = bits; self.axes = axes
    }

    /// Whether the device has event type `type` (its bit in `B: 00`).
    public func hasType(_ type: UInt16) -> Bool {
        Self.bit(Int(type), in: bits[0] ?? [])
    }

    /// Whether the device can send `type`/`code`: the type is present and the code's bit is set
    /// in that type's mask. For `EV_SYN`, whose mask is the type mask, this asks about type `code`.
    public func hasCode(type: UInt16, code: UInt16) -> Bool {
        if type != 0 && !hasType(type) { return false }
        return Self.bit(Int(code), in: bits[type] ?? [])
    }

    /// Whether `INPUT_PROP_*` property `property` is set.
    public func hasProperty(_ property: UInt16) -> Bool {
        Self.bit(Int(property), in: properties)
    }

    /// What the core needs of this device: ranges, slots (ABS_MT_SLOT max + 1), tracking ids,
    /// and whether it is direct (INPUT_PROP_DIRECT: a touchscreen rather than a touchpad).
    public func deviceDescription(sysname: String) -> DeviceDescription {
        let slotAxis = axes[EventCode.ABS_MT_SLOT]
        return DeviceDescription(
            sysname: sysname, name: name, bustype: bustype, vendor: vendor, product: product,
            x: axes[EventCode.ABS_X], y: axes[EventCode.ABS_Y],
            mtX: axes[EventCode.ABS_MT_POSITION_X], mtY: axes[EventCode.ABS_MT_POSITION_Y],
            slotCount: slotAxis.map { Int($0.maximum) - Int($0.minimum) + 1 } ?? 0,
            hasTrackingID: axes[EventCode.ABS_MT_TRACKING_ID] != nil,
            isDirect: hasProperty(EventCode.INPUT_PROP_DIRECT),
            isFakeMultitouch: axes[EventCode.ABS_RESERVED] != nil)
    }

    private static func bit(_ index: Int, in bytes: [UInt8]) -> Bool {
        let byte = index / 8
        return byte < bytes.count && bytes[byte] & (1 << UInt8(index % 8)) != 0
    }
}

/// A malformed line: its 1-based number and what is wrong with it.
public struct EvemuParseError: Error, CustomStringConvertible, Equatable {
    public var line: Int
    public var message: String

    public init(line: Int, message: String) { self.line = line; self.message = message }

    public var description: String { "line \(line): \(message)" }
}

/// Parses a recording piece by piece, so a replay holds a buffer of it, not the file: each call
/// takes whole lines (the last piece may end without a newline) and returns their events, with
/// line numbers in errors counted from the start of the text. The result over all pieces is
/// `EvemuRecording.parse(bytes:sysname:)`'s over their concatenation.
public struct EvemuStreamParser: Sendable {
    private var progress = EvemuTextParser.Progress()

    /// With `descriptionFirst`, a description line after an event is an error: a streamed
    /// replay has made its device from the lines before the first event.
    public init(descriptionFirst: Bool = false) { progress.descriptionFirst = descriptionFirst }

    /// The device as described so far (nil until an `N:`, `I:`, `P:`, `B:` or `A:` line).
    public var description: EvemuDescription? { progress.sawDescription ? progress.description : nil }

    /// The events of `lines`, which must end at a line's end (or be the text's last piece).
    public mutating func parse(_ lines: UnsafeBufferPointer<UInt8>) throws(EvemuParseError) -> [RawEvent] {
        try EvemuTextParser.parse(lines, continuing: &progress)
    }
}
