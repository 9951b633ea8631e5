/// A text protocol line taken apart by the grammar of docs/PROTOCOL.md, written again here from
/// the document rather than from the encoder, so that the encoder is checked against it:
///
/// ```
/// line        = kind *(" " positional) *(" " key "=" value) "\n"
/// value       = token / quoted / number
/// token       = 1*(%x21-7E except DQUOTE, "\", "=")      ; and any non-ASCII UTF-8
/// quoted      = DQUOTE *(char / escape) DQUOTE
/// number      = ["-"] 1*DIGIT ["." 1*DIGIT]
/// ```
///
/// Escapes in a quoted value are `\"`, `\\`, `\n`, `\t`, `\r` and `\u{X}` / `\u{XX}` (a control
/// character); every other control character must be escaped.
public struct TextLine: Hashable, Sendable {
    /// A value as written: bare (a token or a number) or quoted, with the text it stands for.
    public enum Value: Hashable, Sendable {
        case bare(String)
        case quoted(String)

        /// The string the value stands for.
        public var text: String {
            switch self { case .bare(let s), .quoted(let s): s }
        }

        /// The bare value, when it is a number of the grammar.
        public var number: String? {
            guard case .bare(let s) = self, TextLine.isNumber(s) else { return nil }
            return s
        }
    }

    public var kind: String
    public var positionals: [Value]
    public var fields: [(key: String, value: Value)]

    public static func == (a: TextLine, b: TextLine) -> Bool {
        a.kind == b.kind && a.positionals == b.positionals && a.fields.map(\.key) == b.fields.map(\.key)
            && a.fields.map(\.value) == b.fields.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(kind); hasher.combine(positionals) }

    /// The value of `key`, if the line has it.
    public subscript(key: String) -> Value? { fields.first { $0.key == key }?.value }

    /// `["-"] 1*DIGIT ["." 1*DIGIT]`.
    public static func isNumber(_ s: String) -> Bool {
        var bytes = Array(s.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let whole = bytes.prefix { isDigit($0) }
        guard !whole.isEmpty else { return false }
        bytes = bytes.dropFirst(whole.count)
        guard let point = bytes.first else { return true }
        guard point == UInt8(ascii: ".") else { return false }
        let fraction = bytes.dropFirst()
        return !fraction.isEmpty && fraction.allSatisfy(isDigit)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Parses one line, which must end with its only `\n`.
    public static func parse(_ line: [UInt8]) throws(Violation) -> TextLine {
        guard line.last == UInt8(ascii: "\n") else { throw Violation("text line without its newline: \(show(line))") }
        let body = line.dropLast()
        guard !body.contains(UInt8(ascii: "\n")) else { throw Violation("text line with a newline inside: \(show(line))") }
        guard String(validating: body, as: UTF8.self) != nil else { throw Violation("text line is not UTF-8: \(show(line))") }
        var items: [ArraySlice<UInt8>] = []
        var i = body.startIndex
        while i < body.endIndex {
            let start = i
            var quoted = false
            while i < body.endIndex {
                let b = body[i]
                if quoted {
                    if b == UInt8(ascii: "\\") { i += 2; continue }
                    if b == UInt8(ascii: "\"") { quoted = false }
                } else if b == UInt8(ascii: "\"") {
                    quoted = true
                } else if b == UInt8(ascii: " ") {
                    break
                }
                i += 1
            }
            guard !quoted, i <= body.endIndex else { throw Violation("unterminated quoted value in \(show(line))") }
            items.append(body[start..<min(i, body.endIndex)])
            if i < body.endIndex {
                i += 1   // the single space
                guard i < body.endIndex else { throw Violation("text line ends with a space: \(show(line))") }
            }
        }
        guard let kindBytes = items.first, !kindBytes.isEmpty,
              kindBytes.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) }) else {
            throw Violation("text line without a lowercase kind: \(show(line))")
        }
        var result = TextLine(kind: String(decoding: kindBytes, as: UTF8.self), positionals: [], fields: [])
        for item in items.dropFirst() {
            guard !item.isEmpty else { throw Violation("two spaces in a row in \(show(line))") }
            if item.first == UInt8(ascii: "\"") || !item.contains(UInt8(ascii: "=")) {
                guard result.fields.isEmpty else { throw Violation("positional value after key=value fields in \(show(line))") }
                result.positionals.append(try value(item, in: line))
            } else {
                let eq = item.firstIndex(of: UInt8(ascii: "="))!
                let key = item[..<eq]
                guard let first = key.first, isLetter(first), key.allSatisfy({ isLetter($0) || isDigit($0) }) else {
                    throw Violation("malformed key '\(String(decoding: key, as: UTF8.self))' in \(show(line))")
                }
                let keyText = String(decoding: key, as: UTF8.self)
                guard !result.fields.contains(where: { $0.key == keyText }) else {
                    throw Violation("key \(keyText) twice in \(show(line))")
                }
                result.fields.append((keyText, try value(item[(eq + 1)...], in: line)))
            }
        }
        return result
    }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a }

    /// A bare token (or number), or a quoted string with its escapes decoded.
    static func value(_ item: ArraySlice<UInt8>, in line: [UInt8]) throws(Violation) -> Value {
        guard let first = item.first else { throw Violation("empty value in \(show(line))") }
        if first != UInt8(ascii: "\"") {
            for b in item where b < 0x80 {
                guard b >= 0x21, b <= 0x7e, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b != UInt8(ascii: "=") else {
                    throw Violation("byte 0x\(String(b, radix: 16)) in a bare value in \(show(line))")
                }
            }
            return .bare(String(decoding: item, as: UTF8.self))
        }
        guard item.count >= 2, item.last == UInt8(ascii: "\"") else { throw Violation("unterminated quoted value in \(show(line))") }
        var decoded: [UInt8] = []
        var i = item.startIndex + 1
        let end = item.endIndex - 1
        while i < end {
            let b = item[i]
            guard b >= 0x20, b != 0x7f else { throw Violation("raw control byte 0x\(String(b, radix: 16)) in a quoted value in \(show(line))") }
            guard b != UInt8(ascii: "\"") else { throw Violation("unescaped quote inside a quoted value in \(show(line))") }
            guard b == UInt8(ascii: "\\") else { decoded.append(b); i += 1; continue }
            guard i + 1 < end else { throw Violation("dangling backslash in \(show(line))") }
            switch item[i + 1] {
            case UInt8(ascii: "\""): decoded.append(UInt8(ascii: "\"")); i += 2
            case UInt8(ascii: "\\"): decoded.append(UInt8(ascii: "\\")); i += 2
            case UInt8(ascii: "n"): decoded.append(0x0a); i += 2
            case UInt8(ascii: "t"): decoded.append(0x09); i += 2
            case UInt8(ascii: "r"): decoded.append(0x0d); i += 2
            case UInt8(ascii: "u"):
                guard i + 2 < end, item[i + 2] == UInt8(ascii: "{"),
                      let close = item[(i + 3)..<end].firstIndex(of: UInt8(ascii: "}")) else {
                    throw Violation("malformed \\u{..} escape in \(show(line))")
                }
                let hex = item[(i + 3)..<close]
                guard (1...2).contains(hex.count), let code = UInt8(String(decoding: hex, as: UTF8.self), radix: 16),
                      code < 0x20 || code == 0x7f else {
                    throw Violation("\\u{..} escape of something other than a control character in \(show(line))")
                }
                decoded.append(code)
                i = close + 1
            default:
                throw Violation("unknown escape \\\(Character(Unicode.Scalar(item[i + 1]))) in \(show(line))")
            }
        }
        return .quoted(String(decoding: decoded, as: UTF8.self))
    }
}

/// A line as printable evidence: escapes what a terminal would not show.
public func show(_ line: [UInt8]) -> String {
    var s = ""
    for b in line {
        switch b {
        case 0x0a: s += "\\n"
        case 0x20...0x7e: s.append(Character(Unicode.Scalar(b)))
        default: s += "\\x" + (b < 0x10 ? "0" : "") + String(b, radix: 16)
        }
    }
    return "'" + s + "'"
}
