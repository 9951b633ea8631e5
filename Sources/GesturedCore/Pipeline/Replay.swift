/// `gestured replay`: the daemon's pipeline over a recording, on a virtual clock taken from the
/// event timestamps. Deadlines fire at their exact virtual instants, pending ones after the last
/// event. Same input, same configuration: byte-identical lines.
public struct Replay: Sendable {
    public struct Options: Hashable, Sendable {
        public var format: LineFormat = .text
        /// Also print touch lines (`replay --touches`).
        public var touches = false
        /// Also print failed states.
        public var failed = false
        public init(format: LineFormat = .text, touches: Bool = false, failed: Bool = false) {
            self.format = format; self.touches = touches; self.failed = failed
        }
    }

    /// Replays `events` of one device through a pipeline built from `configuration`, calling
    /// `emit` with each line (newline-terminated), in order.
    public static func run(device: DeviceDescription, events: [RawEvent], configuration: Configuration,
                           options: Options = Options(), emit: (String) -> Void) throws(ReplayError) {
        try run(device: device, events: events, configuration: configuration, options: options) { bytes in
            var start = bytes.startIndex
            for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
                emit(String(decoding: bytes[start...i], as: UTF8.self))
                start = i + 1
            }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Replays as `run(device:events:configuration:options:emit:)` does, but encodes the lines
    /// into one reused byte buffer and hands it to `write` after each event, which drains it
    /// (or lets it grow; `gestured replay` writes it out 64 KiB at a time). No `String` per line.
    public static func run(device: DeviceDescription, events: [RawEvent], configuration: Configuration,
                           options: Options = Options(), write: (inout [UInt8]) -> Void) throws(ReplayError) {
        // No udev here: the device's kind follows from INPUT_PROP_DIRECT, as udev's rules would say.
        let properties = [device.isDirect ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD": "1"]
        let rule = configuration.devices.first { $0.matches(device, properties: properties) }
        let screen = GesturePipeline.screen(configuration: configuration, firstDevice: device,
                                            rotation: rule?.rotation ?? .none)
        var pipeline: GesturePipeline
        do { pipeline = try GesturePipeline(configuration: configuration, screen: screen) } catch {
            throw .configuration(error)
        }
        let id: GesturePipeline.DeviceID
        do { id = try pipeline.addDevice(device, rule: rule) } catch { throw .device(error) }
        var seq: UInt64 = 0
        var output: [GesturePipeline.Output] = []
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        func flush() {
            for o in output {
                switch o {
                case .touch where !options.touches: continue
                case .gesture(let g) where g.state == .failed && !options.failed: continue
                case .touch, .gesture: break
                }
                seq += 1
                LineEncoder.output(o, seq: seq, format: options.format, into: &bytes)
            }
            output.removeAll(keepingCapacity: true)
            if !bytes.isEmpty { write(&bytes) }
        }
        for event in events {
            pipeline.handle(event, from: id, into: &output)
            flush()
        }
        while let deadline = pipeline.nextDeadline {
            pipeline.advance(to: deadline, into: &output)
            flush()
        }
    }
}

public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    case configuration(GestureEngine.BuildError)
    case device(EvdevFrameDecoder.Unsupported)
    public var description: String {
        switch self {
        case .configuration(let e): "configuration: \(e)"
        case .device(let e): "device not usable: \(e)"
        }
    }
}

extension DeviceRule {
    /// Whether every key of `match` fits the device. `properties` are its udev properties
    /// (none in replay, where only name, sysname and ids can match).
    public func matches(_ device: DeviceDescription, properties: [String: String] = [:]) -> Bool {
        if let pattern = match.name, !Glob.matches(pattern, device.name) { return false }
        if let pattern = match.sysname, !Glob.matches(pattern, device.sysname) { return false }
        if let vendor = match.vendor, vendor != device.vendor { return false }
        if let product = match.product, product != device.product { return false }
        if let type = match.type, type != DeviceKind(properties: properties) { return false }
        for (key, pattern) in match.properties {
            guard let value = properties[key], Glob.matches(pattern, value) else { return false }
        }
        return true
    }
}

/// Shell-style globs: `*`, `?`, `[abc]`, `[a-z]`, `[!x]`; no special meaning for `/`.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern.unicodeScalars)[...], Array(text.unicodeScalars)[...])
    }

    private static func matches(_ p: ArraySlice<Unicode.Scalar>, _ t: ArraySlice<Unicode.Scalar>) -> Bool {
        var p = p, t = t
        while let c = p.first {
            switch c {
            case "*":
                let rest = p.dropFirst()
                var tail = t
                while true {
                    if matches(rest, tail) { return true }
                    guard !tail.isEmpty else { return false }
                    tail = tail.dropFirst()
                }
            case "?":
                guard !t.isEmpty else { return false }
                p = p.dropFirst(); t = t.dropFirst()
            case "[":
                guard let ch = t.first, let (matched, rest) = bracket(p.dropFirst(), ch) else {
                    if t.first == "[" { p = p.dropFirst(); t = t.dropFirst(); continue }
                    return false
                }
                guard matched else { return false }
                p = rest; t = t.dropFirst()
            default:
                guard t.first == c else { return false }
                p = p.dropFirst(); t = t.dropFirst()
            }
        }
        return t.isEmpty
    }

    /// Matches `ch` against a bracket expression starting after `[`; nil when unterminated.
    private static func bracket(_ p: ArraySlice<Unicode.Scalar>, _ ch: Unicode.Scalar)
        -> (Bool, ArraySlice<Unicode.Scalar>)? {
        var p = p
        let negate = p.first == "!" || p.first == "^"
        if negate { p = p.dropFirst() }
        var matched = false, first = true
        while let c = p.first {
            if c == "]" && !first { return (matched != negate, p.dropFirst()) }
            first = false
            p = p.dropFirst()
            if p.first == "-", let hi = p.dropFirst().first, hi != "]" {
                if c.value <= ch.value && ch.value <= hi.value { matched = true }
                p = p.dropFirst(2)
            } else if c == ch {
                matched = true
            }
        }
        return nil
    }
}
