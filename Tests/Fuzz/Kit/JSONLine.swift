/// A JSON protocol line: one object whose members are scalars, in the order written, parsed
/// strictly by RFC 8259 (no leading zeros, no raw control characters in strings, valid escapes
/// and surrogate pairs, no duplicate keys) and ended by its only `\n`.
public struct JSONLine: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case string(String)
        /// The number's literal, as written.
        case number(String)
        case bool(Bool)
        case null
    }

    public var members: [(key: String, value: Value)]

    public static func == (a: JSONLine, b: JSONLine) -> Bool {
        a.members.map(\.key) == b.members.map(\.key) && a.members.map(\.value) == b.members.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(members.map(\.key)) }

    public subscript(key: String) -> Value? { members.first { $0.key == key }?.value }

    public static func parse(_ line: [UInt8]) throws(Violation) -> JSONLine {
        guard line.last == UInt8(ascii: "\n") else { throw Violation("JSON line without its newline: \(show(line))") }
        var parser = Parser(bytes: Array(line.dropLast()), line: line)
        let members = try parser.object()
        guard parser.i == parser.bytes.count else { throw Violation("text after the JSON object: \(show(line))") }
        return JSONLine(members: members)
    }

    struct Parser {
        let bytes: [UInt8]
        let line: [UInt8]
        var i = 0

        func fail(_ what: String) -> Violation { Violation("JSON line: \(what) at byte \(i) of \(show(line))") }

        mutating func expect(_ c: UInt8) throws(Violation) {
            guard i < bytes.count, bytes[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
            i += 1
        }

        mutating func object() throws(Violation) -> [(key: String, value: Value)] {
            try expect(UInt8(ascii: "{"))
            var members: [(key: String, value: Value)] = []
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return members }
            while true {
                let key = try string()
                guard !members.contains(where: { $0.key == key }) else { throw fail("duplicate key \(key)") }
                try expect(UInt8(ascii: ":"))
                members.append((key, try value()))
                guard i < bytes.count else { throw fail("unterminated object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "}"))
                return members
            }
        }

        mutating func value() throws(Violation) -> Value {
            guard i < bytes.count else { throw fail("missing value") }
            switch bytes[i] {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: String) throws(Violation) {
            for c in word.utf8 { try expect(c) }
        }

        mutating func number() throws(Violation) -> String {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, TextLine.isDigit(bytes[i]) else { throw fail("malformed number") }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if i < bytes.count, TextLine.isDigit(bytes[i]) { throw fail("number with a leading zero") }
            } else {
                while i < bytes.count, TextLine.isDigit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard i < bytes.count, TextLine.isDigit(bytes[i]) else { throw fail("number without fraction digits") }
                while i < bytes.count, TextLine.isDigit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard i < bytes.count, TextLine.isDigit(bytes[i]) else { throw fail("number without exponent digits") }
                while i < bytes.count, TextLine.isDigit(bytes[i]) { i += 1 }
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        mutating func hex4() throws(Violation) -> UInt32 {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
                  bytes[i..<(i + 4)].allSatisfy({ TextLine.isDigit($0) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }) else {
                throw fail("malformed \\u escape")
            }
            i += 4
            return v
        }

        mutating func string() throws(Violation) -> String {
            try expect(UInt8(ascii: "\""))
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                guard b >= 0x20 else { throw fail("raw control character in a string") }
                guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
                guard i + 1 < bytes.count else { throw fail("dangling backslash") }
                i += 2
                switch bytes[i - 1] {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try expect(UInt8(ascii: "\\")); try expect(UInt8(ascii: "u"))
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("unpaired surrogate") }
                    out += Array(String(Character(u)).utf8)
                default:
                    throw fail("unknown escape")
                }
            }
            guard let s = String(validating: out, as: UTF8.self) else { throw fail("string is not UTF-8") }
            return s
        }
    }
}
