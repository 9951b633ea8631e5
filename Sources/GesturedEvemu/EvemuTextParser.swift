import GesturedCore

/// Walks the UTF-8 bytes line by line; each line's fields are read with a cursor, no copies.
///
/// Two readers share the walk. `appendCanonicalEvent` takes the `E:` lines that make up nearly
/// all of a recording, in the form evemu-record writes, in a single forward pass; every other
/// line, and any `E:` line it does not recognise, goes to `parseLine`, which reads the whole
/// grammar and names what is wrong. The fast reader accepts a subset of what `parseLine`
/// accepts and produces the same event for it, so which reader took a line never shows.
struct EvemuTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// False makes `parseLine` read every line: the reference the tests compare the fast
    /// reader against.
    let readsCanonicalEvents: Bool
    var lineNumber = 0
    /// The current line's bytes are `bytes[position..<lineEnd]`.
    var position = 0
    var lineEnd = 0

    var description = EvemuDescription()
    var sawDescription = false
    /// An event came in an earlier piece (`Progress`).
    var sawEvent = false
    var descriptionFirst = false
    /// The events so far are `events[0..<eventCount]`: the storage of the array `parse` returns,
    /// written in place rather than appended to (no uniqueness or capacity check per event).
    let events: UnsafeMutableBufferPointer<RawEvent>
    var eventCount = 0

    /// The shortest `E:` line is `E:0.0 0 0 0` and its newline, so a text of `n` bytes holds at
    /// most `n / 12 + 1` events (the last line may lack its newline).
    static let shortestEventLine = 12

    /// Parses `bytes`; see `EvemuRecording.parse`.
    ///
    /// The events' array is allocated once, from the byte count, instead of counting the lines
    /// first: it never regrows, and the pages of the capacity a recording does not use are never
    /// touched, so they cost address space, not memory.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>,
                      readsCanonicalEvents: Bool = true) throws(EvemuParseError) -> EvemuRecording {
        var progress = Progress()
        let events = try parse(bytes, continuing: &progress, readsCanonicalEvents: readsCanonicalEvents)
        return EvemuRecording(description: progress.sawDescription ? progress.description : nil, events: events)
    }

    /// What a parse carries from one piece of a text to the next (`EvemuStreamParser`).
    struct Progress {
        var lineNumber = 0
        var description = EvemuDescription()
        var sawDescription = false
        var sawEvent = false
        /// A description line after an event is an error (`EvemuStreamParser`'s choice).
        var descriptionFirst = false
    }

    /// Parses the lines of `bytes`, continuing from `progress` (line numbers, the description so
    /// far) and leaving it where the text ends; returns the events of these lines.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, continuing progress: inout Progress,
                      readsCanonicalEvents: Bool = true) throws(EvemuParseError) -> [RawEvent] {
        var failure: EvemuParseError?
        let start = progress
        var end = progress
        let events = [RawEvent](unsafeUninitializedCapacity: bytes.count / shortestEventLine + 1) { buffer, count in
            var parser = EvemuTextParser(bytes: bytes, events: buffer, readsCanonicalEvents: readsCanonicalEvents)
            (parser.lineNumber, parser.description, parser.sawDescription) = (start.lineNumber, start.description, start.sawDescription)
            (parser.sawEvent, parser.descriptionFirst) = (start.sawEvent, start.descriptionFirst)
            do throws(EvemuParseError) {
                try parser.parseLines()
            } catch {
                failure = error
            }
            end = Progress(lineNumber: parser.lineNumber, description: parser.description, sawDescription: parser.sawDescription,
                           sawEvent: parser.sawEvent || parser.eventCount > 0, descriptionFirst: parser.descriptionFirst)
            count = parser.eventCount
        }
        if let failure { throw failure }
        progress = end
        return events
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, events: UnsafeMutableBufferPointer<RawEvent>,
                 readsCanonicalEvents: Bool) {
        self.bytes = bytes; self.events = events; self.readsCanonicalEvents = readsCanonicalEvents
    }

    private mutating func parseLines() throws(EvemuParseError) {
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            if readsCanonicalEvents, let next = appendCanonicalEvent(at: start) {
                start = next
                continue
            }
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            position = start
            lineEnd = end
            if lineEnd > position && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            try parseLine()
            start = end + 1
        }
    }

    @inline(__always) private mutating func append(_ event: RawEvent) {
        precondition(eventCount < events.count, "an E: line shorter than \(Self.shortestEventLine) bytes")
        events.initializeElement(at: eventCount, to: event)
        eventCount += 1
    }

    // MARK: The common line

    /// Reads the line at `start` if it is an `E:` line as evemu-record writes it, appends its
    /// event and returns where the next line starts; returns nil, having changed nothing, for
    /// any other line.
    ///
    /// The form is evemu's `"E: %lu.%06u %04x %04x %d"` (or `%04d`): `E: ` at the start of the
    /// line, seconds of 1-12 digits, `.`, exactly 6 digits, exactly 4 hex digits twice, a value
    /// of an optional `-` and 1-10 digits within `Int32`, single spaces between; then blanks and
    /// a `#` comment may follow (evemu 2 writes the event's name there), and `\n`, `\r\n`, a
    /// final `\r` or the end of the text ends the line. The fixed-width fields are read at
    /// fixed offsets after one bounds check. Each byte is looked at once; `parseLine` would scan
    /// the line for its end first, skip blanks before and after each field and check each
    /// field's end separately.
    @inline(__always) private mutating func appendCanonicalEvent(at start: Int) -> Int? {
        var i = start
        guard isByte(UInt8(ascii: "E"), at: i), isByte(UInt8(ascii: ":"), at: i + 1),
              isByte(UInt8(ascii: " "), at: i + 2) else { return nil }
        i += 3
        guard let seconds = decimalDigits(at: &i, atMost: 12) else { return nil }
        // `.dddddd hhhh hhhh ` and at least one digit of the value, read as three words.
        guard bytes.count - i >= 19, let base = bytes.baseAddress else { return nil }
        let fixed = UnsafeRawPointer(base + i)
        guard let micros = Self.fraction(fixed.loadUnaligned(as: UInt64.self)),
              let type = Self.hexField(fixed.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
              let code = Self.hexField(fixed.loadUnaligned(fromByteOffset: 13, as: UInt32.self)),
              bytes[i + 12] == UInt8(ascii: " "), bytes[i + 17] == UInt8(ascii: " ") else { return nil }
        i += 18
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard let magnitude = decimalDigits(at: &i, atMost: 10),
              let value = Int32(exactly: negative ? -magnitude : magnitude),
              let next = nextLine(afterFieldsAt: i) else { return nil }
        append(RawEvent(time: Instant(seconds: seconds, microseconds: micros), type: type, code: code, value: value))
        return next
    }

    /// Where the next line starts, when only blanks and a `#` comment follow `index` on its line;
    /// nil when anything else does.
    @inline(__always) private func nextLine(afterFieldsAt index: Int) -> Int? {
        var i = index
        if i < bytes.count && bytes[i] == UInt8(ascii: "\n") { return i + 1 }   // as evemu-record writes it
        while i < bytes.count && (bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t")) { i += 1 }
        if i < bytes.count && bytes[i] == UInt8(ascii: "#") {
            while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: "\r") { i += 1 }
        guard i < bytes.count else { return i }
        return bytes[i] == UInt8(ascii: "\n") ? i + 1 : nil
    }

    @inline(__always) private func isByte(_ byte: UInt8, at index: Int) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    /// The run of decimal digits at `index`, moving `index` past it; nil when there is none or
    /// it is longer than `limit` (a longer run may still be valid, with leading zeros: the
    /// general path decides).
    @inline(__always) private func decimalDigits(at index: inout Int, atMost limit: Int) -> Int64? {
        let first = index
        var value: Int64 = 0
        while index < bytes.count, let digit = Self.decimalDigit(bytes[index]) {
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        let count = index - first
        return count > 0 && count <= limit ? value : nil
    }

    // MARK: Any line

    private mutating func parseLine() throws(EvemuParseError) {
        skipSpaces()
        guard position < lineEnd, bytes[position] != UInt8(ascii: "#") else { return }
        let tag = bytes[position]
        // A tag outside ASCII is the first byte of a longer character (or, read from raw bytes,
        // of an invalid sequence that a String would have replaced with U+FFFD): either way no
        // ':' follows it in the text as a String, so `parse(bytes:)` says what `parse(_:)` says.
        guard tag < 0x80, position + 1 < lineEnd, bytes[position + 1] == UInt8(ascii: ":") else {
            throw failure("expected a line of the form 'X: ...'")
        }
        position += 2
        if descriptionFirst && (sawEvent || eventCount > 0) && "NIPBA".utf8.contains(tag) {
            throw failure("a device description line after the first event: streaming a recording needs its "
                          + "description first, as evemu-record writes it (or name a description with --description DESC)")
        }
        switch tag {
        case UInt8(ascii: "E"): try parseEvent()
        case UInt8(ascii: "N"): parseName()
        case UInt8(ascii: "I"): try parseIdentity()
        case UInt8(ascii: "P"): try parseProperties()
        case UInt8(ascii: "B"): try parseBits()
        case UInt8(ascii: "A"): try parseAxis()
        default:
            throw failure("unknown line kind '\(Character(Unicode.Scalar(tag)))'")
        }
    }

    // MARK: Line kinds

    /// `E: sec.usec type code value`, type and code in hex, value in decimal.
    private mutating func parseEvent() throws(EvemuParseError) {
        let time = try timestamp()
        let type = try hex16(field: "event type")
        let code = try hex16(field: "event code")
        let value = try decimal32(field: "event value")
        try endOfLine()
        append(RawEvent(time: time, type: type, code: code, value: value))
    }

    /// `N: name`: the rest of the line, without surrounding spaces.
    private mutating func parseName() {
        sawDescription = true
        skipSpaces()
        var end = lineEnd
        while end > position && (bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t")) {
            end -= 1
        }
        description.name = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
        position = lineEnd
    }

    /// `I: bustype vendor product version`, each in hex.
    private mutating func parseIdentity() throws(EvemuParseError) {
        sawDescription = true
        description.bustype = try hex16(field: "bus type")
        description.vendor = try hex16(field: "vendor")
        description.product = try hex16(field: "product")
        description.version = try hex16(field: "version")
        try endOfLine()
    }

    /// `P: bytes...` in hex.
    private mutating func parseProperties() throws(EvemuParseError) {
        sawDescription = true
        description.properties += try byteFields()
    }

    /// `B: type bytes...` in hex.
    private mutating func parseBits() throws(EvemuParseError) {
        sawDescription = true
        let type = try hex16(field: "bit type")
        let mask = try byteFields()
        description.bits[type, default: []] += mask
    }

    /// `A: code min max fuzz flat [resolution]`, code in hex, the rest in decimal.
    private mutating func parseAxis() throws(EvemuParseError) {
        sawDescription = true
        let code = try hex16(field: "axis code")
        let minimum = try decimal32(field: "axis minimum")
        let maximum = try decimal32(field: "axis maximum")
        let fuzz = try decimal32(field: "axis fuzz")
        let flat = try decimal32(field: "axis flat")
        var resolution: Int32 = 0
        if hasField() { resolution = try decimal32(field: "axis resolution") }
        try endOfLine()
        description.axes[code] = AxisInfo(minimum: minimum, maximum: maximum, fuzz: fuzz, flat: flat,
                                          resolution: resolution)
    }

    /// The rest of the line as hex bytes.
    private mutating func byteFields() throws(EvemuParseError) -> [UInt8] {
        var array: [UInt8] = []
        while hasField() {
            let value = try hex16(field: "byte")
            guard value <= 0xff else { throw failure("byte value 0x\(String(value, radix: 16)) is larger than 0xff") }
            array.append(UInt8(value))
        }
        return array
    }
}
