/// The tokens of JSON5: strings, numbers, identifiers, white space and comments, read at the
/// cursor of a `JSON5Parser` (whose doc comment says which JSON5 it accepts).
extension JSON5Parser {
    /// A quoted string; returns its decoded contents (keys need them for their key paths).
    mutating func string(path: String) throws(JSON5SyntaxError) -> String {
        let start = i
        let quote = bytes[i]
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string", path: path, at: start) }
            let c = bytes[i]
            if c == quote { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == 0x0A || c == 0x0D { throw error("unterminated string", path: path, at: start) }
            if c < 0x20 {
                throw error("control character U+\(hex(UInt32(c), width: 4)) in string; write it as an escape such as \\t",
                            path: path)
            }
            guard c == UInt8(ascii: "\\") else { out.append(c); i += 1; continue }
            let escape = i
            i += 1
            guard let e = peek() else { throw error("unterminated string", path: path, at: start) }
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            // An escaped line break stays in the string, as JSONDecoder reads it (the JSON5 spec
            // would drop it).
            case 0x0A: out.append(0x0A)
            case 0x0D:
                out.append(0x0D)
                if peek() == 0x0A { out.append(0x0A); i += 1 }
            case UInt8(ascii: "x"):
                guard let v = hexDigits(2) else { throw error("invalid \\x escape: expected 2 hex digits", path: path, at: escape) }
                // JSONDecoder refuses an escaped NUL (\x00, \u0000), as it refuses \0.
                guard v != 0 else { throw error("invalid escape sequence: a NUL character (\\x00) is not allowed", path: path, at: escape) }
                out.append(contentsOf: Array(String(Unicode.Scalar(UInt8(v))).utf8))
            case UInt8(ascii: "u"):
                guard let unit = hexDigits(4) else { throw error("invalid \\u escape: expected 4 hex digits", path: path, at: escape) }
                guard unit != 0 else { throw error("invalid escape sequence: a NUL character (\\u0000) is not allowed", path: path, at: escape) }
                var scalarValue = unit
                if (0xD800...0xDBFF).contains(unit) {
                    guard peek() == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("invalid \\u escape: unpaired surrogate", path: path, at: escape)
                    }
                    i += 2
                    guard let low = hexDigits(4), (0xDC00...0xDFFF).contains(low) else {
                        throw error("invalid \\u escape: unpaired surrogate", path: path, at: escape)
                    }
                    scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(scalarValue) else {
                    throw error("invalid \\u escape: unpaired surrogate", path: path, at: escape)
                }
                out.append(contentsOf: Array(String(scalar).utf8))
            default:
                i -= 1
                throw error("invalid escape sequence '\\\(scalarText())'", path: path, at: escape)
            }
        }
    }

    /// A number's value, as `Double` reads its digits (correctly rounded); hex numbers exactly.
    mutating func number(path: String) throws(JSON5SyntaxError) -> Double {
        let start = i
        let negative = peek() == UInt8(ascii: "-")
        if peek() == UInt8(ascii: "+") || negative { i += 1 }
        let sign: Double = negative ? -1 : 1
        if matches("Infinity") || matches("NaN") {
            let infinite = matches("Infinity")
            i += infinite ? 8 : 3
            try endOfNumber(start, path: path)
            return infinite ? sign * .infinity : .nan
        }
        if peek() == UInt8(ascii: "0"), i + 1 < bytes.count, bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
            i += 2
            var value: UInt64 = 0, digits = 0, tooLarge = false
            while let c = peek(), let d = hexValue(c) {
                value = value &* 16 &+ UInt64(d)
                if value > 1 << 53 { tooLarge = true }
                digits += 1; i += 1
            }
            guard digits > 0 else { throw error("invalid number: expected hex digits after '0x'", path: path, at: start) }
            try endOfNumber(start, path: path)
            if tooLarge { throw error("number is too large (hex numbers may be at most 0x20000000000000)", path: path, at: start) }
            return sign * Double(value)
        }
        let integer = digits()
        if integer.count > 1 && integer.first == UInt8(ascii: "0") {
            throw error("invalid number: leading zeros are not allowed", path: path, at: start)
        }
        var fraction: [UInt8] = []
        if peek() == UInt8(ascii: ".") { i += 1; fraction = digits() }
        guard !integer.isEmpty || !fraction.isEmpty else { throw error("invalid number", path: path, at: start) }
        var exponent: [UInt8] = []
        if let c = peek(), c | 0x20 == UInt8(ascii: "e") {
            i += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { exponent.append(s); i += 1 }
            let e = digits()
            guard !e.isEmpty else { throw error("invalid number: expected digits in the exponent", path: path, at: start) }
            exponent = [UInt8(ascii: "e")] + exponent + e
        }
        try endOfNumber(start, path: path)
        // JSONDecoder (swift-foundation, Swift 6.3) cannot read an unsigned zero with a one-digit
        // exponent, `0e5` or `0E9` (it reads `0e0`, `0e10`, `-0e5`, `0.0e5`): refused here too, so
        // that a file means the same to both.
        if i - start == 3, bytes[start] == UInt8(ascii: "0"), bytes[start + 1] | 0x20 == UInt8(ascii: "e"),
           (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[start + 2]) {
            throw error("invalid number: JSONDecoder cannot read a zero with a one-digit exponent; write 0", path: path, at: start)
        }
        let text = String(decoding: (integer.isEmpty ? [UInt8(ascii: "0")] : integer) + [UInt8(ascii: ".")]
                                    + (fraction.isEmpty ? [UInt8(ascii: "0")] : fraction) + exponent, as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw error("number is out of range", path: path, at: start)
        }
        // Too small as well, as JSONDecoder has it: a number whose digits are not all zero but
        // that rounds to zero (below 4.9e-324, `1e-400`), where `Double` gives 0.
        if v == 0, (integer + fraction).contains(where: { $0 != UInt8(ascii: "0") }) {
            throw error("number is out of range (too close to zero)", path: path, at: start)
        }
        return sign * v
    }

    /// A number must not run into letters or digits ("12px", "0x1g", "1.2.3").
    func endOfNumber(_ start: Int, path: String) throws(JSON5SyntaxError) {
        if let c = peek(), isIdentifierPart(c) || c >= 0x80 || c == UInt8(ascii: ".") {
            throw error("invalid number", path: path, at: start)
        }
    }

    mutating func digits() -> [UInt8] {
        let start = i
        while let c = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { i += 1 }
        return Array(bytes[start..<i])
    }

    mutating func identifier() -> String {
        let start = i
        while let length = keyCharacter(first: i == start) { i += length }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// The length in bytes of the unquoted key's character at the cursor, as `JSONDecoder`'s
    /// JSON5 scanner reads keys; nil when it cannot be one (there: `first`, the key's start).
    /// Beyond ASCII, a key begins with a letter (`Lu`, `Ll`, `Lt`, `Lm`, `Lo`, `Nl`) and goes on
    /// with letters, marks (`Mn`, `Mc`), decimal digits (`Nd`), connector punctuation (`Pc`),
    /// ZWNJ and ZWJ: anything else (a no-break space, a symbol) ends it, as in the decoder.
    func keyCharacter(first: Bool) -> Int? {
        guard let c = peek() else { return nil }
        if c < 0x80 { return (first ? isIdentifierStart(c) : isIdentifierPart(c)) ? 1 : nil }
        var iterator = bytes[i...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        let length = UTF8.width(scalar)
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            return length
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
            return first ? nil : length
        default:
            return !first && (scalar.value == 0x200C || scalar.value == 0x200D) ? length : nil
        }
    }

    /// Skips white space and comments.
    mutating func skipTrivia(path: String) throws(JSON5SyntaxError) {
        while let c = peek() {
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                while let c = peek(), c != 0x0A, c != 0x0D { i += 1 }
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                let start = i
                i += 2
                while true {
                    guard i + 1 < bytes.count else { throw error("unterminated comment", path: path, at: start) }
                    if bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/") { break }
                    i += 1
                }
                i += 2
            default:
                return
            }
        }
    }

    // MARK: Helpers

    func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return word.withUTF8Buffer { w in
            for k in 0..<count where bytes[i + k] != w[k] { return false }
            return true
        }
    }

    mutating func hexDigits(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let c = peek(), let d = hexValue(c) else { return nil }
            value = value * 16 + d
            i += 1
        }
        return value
    }

    func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// An ASCII character that may begin an unquoted key (`keyCharacter` reads the others).
    func isIdentifierStart(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
            || c == UInt8(ascii: "$") || c == UInt8(ascii: "_")
    }

    func isIdentifierPart(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }

    /// The character at the cursor, for messages.
    func scalarText() -> String {
        var end = i + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[i..<min(end, bytes.count)], as: UTF8.self)
    }

    /// What stands at the cursor, for "expected …, found …" messages.
    func found() -> String {
        guard i < bytes.count else { return "end of file" }
        let text = scalarText()
        if let s = text.unicodeScalars.first, s.value < 0x20 || s.value >= 0x7F {
            return "U+\(hex(s.value, width: 4))"
        }
        return "'\(text)'"
    }

    func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
