import GesturedCore

/// The fields of an evemu line, read at the parser's cursor: separators, hex and decimal
/// numbers, timestamps, and the error that names the line.
extension EvemuTextParser {
    // MARK: Fields

    mutating func skipSpaces() {
        while position < lineEnd && (bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t")) {
            position += 1
        }
    }

    /// Whether another field follows (not the end of the line, not a trailing comment).
    mutating func hasField() -> Bool {
        skipSpaces()
        return position < lineEnd && bytes[position] != UInt8(ascii: "#")
    }

    /// Only spaces or a `#` comment may follow the last field.
    mutating func endOfLine() throws(EvemuParseError) {
        if hasField() { throw failure("unexpected text after the last field") }
    }

    /// Throws when the field just read is followed by something other than a separator.
    func fieldEnds(_ field: String) throws(EvemuParseError) {
        guard position == lineEnd || bytes[position] == UInt8(ascii: " ")
                || bytes[position] == UInt8(ascii: "\t") || bytes[position] == UInt8(ascii: "#") else {
            throw failure("invalid character in \(field)")
        }
    }

    mutating func hex16(field: String) throws(EvemuParseError) -> UInt16 {
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

    mutating func decimal32(field: String) throws(EvemuParseError) -> Int32 {
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
    mutating func timestamp() throws(EvemuParseError) -> Instant {
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

    @inline(__always) static func decimalDigit(_ byte: UInt8) -> UInt8? {
        byte &- UInt8(ascii: "0") < 10 ? byte &- UInt8(ascii: "0") : nil
    }

    @inline(__always) static func hexDigit(_ byte: UInt8) -> UInt8? {
        if byte &- UInt8(ascii: "0") < 10 { return byte &- UInt8(ascii: "0") }
        let lower = byte | 0x20
        if lower &- UInt8(ascii: "a") < 6 { return lower &- UInt8(ascii: "a") + 10 }
        return nil
    }

    func failure(_ message: String) -> EvemuParseError {
        EvemuParseError(line: lineNumber, message: message)
    }
}
