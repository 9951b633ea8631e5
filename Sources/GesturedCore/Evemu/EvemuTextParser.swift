/// Walks the UTF-8 bytes line by line; each line's fields are read with a cursor, no copies.
struct EvemuTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var lineNumber = 0
    /// The current line's bytes are `bytes[position..<lineEnd]`.
    var position = 0
    var lineEnd = 0

    var description = EvemuDescription()
    var sawDescription = false
    var events: [RawEvent] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parse() throws(EvemuParseError) -> EvemuRecording {
        events.reserveCapacity(estimatedEventCount())
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            lineNumber += 1
            position = start
            lineEnd = end
            if lineEnd > position && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            try parseLine()
            start = end + 1
        }
        return EvemuRecording(description: sawDescription ? description : nil, events: events)
    }

    /// Lines starting with `E` bound the number of events; reserving once avoids regrowth.
    private func estimatedEventCount() -> Int {
        var count = 0
        var atLineStart = true
        for byte in bytes {
            if atLineStart && byte == UInt8(ascii: "E") { count += 1 }
            atLineStart = byte == UInt8(ascii: "\n")
        }
        return count
    }

    private mutating func parseLine() throws(EvemuParseError) {
        skipSpaces()
        guard position < lineEnd, bytes[position] != UInt8(ascii: "#") else { return }
        let tag = bytes[position]
        guard position + 1 < lineEnd, bytes[position + 1] == UInt8(ascii: ":") else {
            throw failure("expected a line of the form 'X: ...'")
        }
        position += 2
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
        events.append(RawEvent(time: time, type: type, code: code, value: value))
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

    // MARK: Fields

    private mutating func skipSpaces() {
        while position < lineEnd && (bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t")) {
            position += 1
        }
    }

    /// Whether another field follows (not the end of the line, not a trailing comment).
    private mutating func hasField() -> Bool {
        skipSpaces()
        return position < lineEnd && bytes[position] != UInt8(ascii: "#")
    }

    /// Only spaces or a `#` comment may follow the last field.
    private mutating func endOfLine() throws(EvemuParseError) {
        if hasField() { throw failure("unexpected text after the last field") }
    }

    /// Throws when the field just read is followed by something other than a separator.
    private func fieldEnds(_ field: String) throws(EvemuParseError) {
        guard position == lineEnd || bytes[position] == UInt8(ascii: " ")
                || bytes[position] == UInt8(ascii: "\t") || bytes[position] == UInt8(ascii: "#") else {
            throw failure("invalid character in \(field)")
        }
    }

    private mutating func hex16(field: String) throws(EvemuParseError) -> UInt16 {
        guard hasField() else { throw failure("missing \(field)") }
        if position + 1 < lineEnd && bytes[position] == UInt8(ascii: "0")
            && (bytes[position + 1] | 0x20) == UInt8(ascii: "x") {
            position += 2
        }
        var value: UInt32 = 0
        var digits = 0
        while position < lineEnd, let digit = Self.hexDigit(bytes[position]) {
            value = value &* 16 &+ UInt32(digit)
            digits += 1
            guard value <= 0xffff else { throw failure("\(field) does not fit in 16 bits") }
            position += 1
        }
        guard digits > 0 else { throw failure("\(field) is not a hexadecimal number") }
        try fieldEnds(field)
        return UInt16(value)
    }

    private mutating func decimal32(field: String) throws(EvemuParseError) -> Int32 {
        guard hasField() else { throw failure("missing \(field)") }
        var negative = false
        if bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        else if bytes[position] == UInt8(ascii: "+") { position += 1 }
        var magnitude: Int64 = 0
        var digits = 0
        while position < lineEnd, let digit = Self.decimalDigit(bytes[position]) {
            magnitude = magnitude * 10 + Int64(digit)
            digits += 1
            guard magnitude <= Int64(Int32.max) + 1 else { throw failure("\(field) does not fit in 32 bits") }
            position += 1
        }
        guard digits > 0 else { throw failure("\(field) is not a decimal number") }
        try fieldEnds(field)
        let value = negative ? -magnitude : magnitude
        guard value <= Int64(Int32.max) else { throw failure("\(field) does not fit in 32 bits") }
        return Int32(value)
    }

    /// `seconds.microseconds`; the fraction has at most 6 digits (evemu writes exactly 6) and
    /// is read as a decimal fraction, so `1.5` is 1 s 500000 µs.
    private mutating func timestamp() throws(EvemuParseError) -> Instant {
        guard hasField() else { throw failure("missing timestamp") }
        var seconds: Int64 = 0
        var digits = 0
        while position < lineEnd, let digit = Self.decimalDigit(bytes[position]) {
            guard seconds < 1_000_000_000_000 else { throw failure("timestamp seconds out of range") }
            seconds = seconds * 10 + Int64(digit)
            digits += 1
            position += 1
        }
        guard digits > 0, position < lineEnd, bytes[position] == UInt8(ascii: ".") else {
            throw failure("timestamp is not of the form seconds.microseconds")
        }
        position += 1
        var micros: Int64 = 0
        var fractionDigits = 0
        while position < lineEnd, let digit = Self.decimalDigit(bytes[position]) {
            guard fractionDigits < 6 else { throw failure("timestamp has more than 6 fractional digits") }
            micros = micros * 10 + Int64(digit)
            fractionDigits += 1
            position += 1
        }
        guard fractionDigits > 0 else { throw failure("timestamp is not of the form seconds.microseconds") }
        try fieldEnds("timestamp")
        for _ in fractionDigits..<6 { micros *= 10 }
        return Instant(seconds: seconds, microseconds: micros)
    }

    @inline(__always) private static func decimalDigit(_ byte: UInt8) -> UInt8? {
        byte &- UInt8(ascii: "0") < 10 ? byte &- UInt8(ascii: "0") : nil
    }

    @inline(__always) private static func hexDigit(_ byte: UInt8) -> UInt8? {
        if byte &- UInt8(ascii: "0") < 10 { return byte &- UInt8(ascii: "0") }
        let lower = byte | 0x20
        if lower &- UInt8(ascii: "a") < 6 { return lower &- UInt8(ascii: "a") + 10 }
        return nil
    }

    private func failure(_ message: String) -> EvemuParseError {
        EvemuParseError(line: lineNumber, message: message)
    }
}
