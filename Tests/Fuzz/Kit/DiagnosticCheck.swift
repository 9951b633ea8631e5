import FoundationEssentials
import GesturedConfig

/// Checks that configuration diagnostics are located (docs/CONFIG.md: "errors name the file, the
/// key path and line:column"): each names one of the files read, a line and column inside that
/// file's text, and a key path that names a value of the document (or, for the document's own
/// problems, the root: an empty path). When `JSONDecoder` accepts the text, the syntax is valid
/// and no diagnostic may say otherwise (the loader's parser must accept what the decoder does).
struct DiagnosticCheck {
    /// The files the loader was given or read, by name: their bytes.
    var files: [String: [UInt8]]

    func check(_ diagnostics: [ConfigDiagnostic]) throws(Violation) {
        try require(!diagnostics.isEmpty, "a configuration error without a diagnostic")
        for d in diagnostics { try check(d) }
    }

    func check(_ d: ConfigDiagnostic) throws(Violation) {
        guard let bytes = files[d.file] else { throw Violation("diagnostic names a file that was not read: \(d)") }
        try require(d.line >= 1 && d.column >= 1, "diagnostic without line:column: \(d)")
        let lines = Self.lines(bytes)
        try require(d.line <= lines.count, "diagnostic at line \(d.line) of a text of \(lines.count) lines: \(d)")
        let scalars = String(decoding: lines[d.line - 1], as: UTF8.self).unicodeScalars.count
        try require(d.column <= scalars + 1, "diagnostic at column \(d.column) of a line of \(scalars) characters: \(d)")
        try require(!d.message.isEmpty, "diagnostic without a message: \(d)")
        // The decoder must not see a text the parser calls wrong: it traps on some (`1e-`).
        guard !Self.syntaxMessages.contains(where: { d.message.hasPrefix($0) }) else { return }
        guard let tree = JSONTree.decode(bytes) else {
            // A syntax error: where the text went wrong, inside whichever value was being read.
            try require(!d.message.contains("JSONDecoder rejected"), "the parser and the decoder disagree: \(d)")
            return
        }
        try require(!d.message.contains("JSONDecoder rejected"), "the parser and the decoder disagree: \(d)")
        try require(Self.resolves(d.keyPath[...], in: tree, atRoot: true),
                    "diagnostic's key path names no value of the document: \(d)")
    }

    /// How the loader's syntax errors (`JSON5Parser`, and the UTF-8 check) begin; no error about
    /// a document's meaning begins this way.
    static let syntaxMessages = ["control character", "escape sequences are not allowed", "expected ',' or", "expected ':'", "expected a key",
                                 "expected a value", "invalid ", "nesting is deeper", "number is out of range",
                                 "number is too large", "unexpected", "unterminated"]

    /// The text's lines as the loader counts them: `\n`, `\r\n` and a lone `\r` end one.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < bytes.count {
            if bytes[i] == 0x0a || bytes[i] == 0x0d {
                lines.append(bytes[start..<i])
                if bytes[i] == 0x0d, i + 1 < bytes.count, bytes[i + 1] == 0x0a { i += 1 }
                start = i + 1
            }
            i += 1
        }
        lines.append(bytes[start..<bytes.count])
        return lines
    }

    /// Whether `path` (`views[0].gestures[1].id`) names a value of `node`. Keys may themselves
    /// hold `.` or `[`, so each key that fits is tried.
    static func resolves(_ path: Substring, in node: JSONTree, atRoot: Bool) -> Bool {
        if path.isEmpty { return true }
        switch node {
        case .array(let elements):
            guard path.first == "[", let close = path.firstIndex(of: "]"),
                  let index = Int(path[path.index(after: path.startIndex)..<close]), elements.indices.contains(index) else {
                return false
            }
            return resolves(path[path.index(after: close)...], in: elements[index], atRoot: false)
        case .object(let members):
            var rest = path
            if !atRoot {
                guard rest.first == "." else { return false }
                rest = rest.dropFirst()
            }
            for (key, value) in members where rest.hasPrefix(key) {
                let after = rest.dropFirst(key.count)
                if after.isEmpty || after.first == "." || after.first == "[" {
                    if resolves(after, in: value, atRoot: false) { return true }
                }
            }
            return false
        default:
            return false
        }
    }
}

/// A JSON5 document as `JSONDecoder` (`allowsJSON5`) reads it: the reference the parser's
/// syntax errors and the diagnostics' key paths are checked against.
indirect enum JSONTree: Decodable {
    case null, bool(Bool), number(Double), string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONTree] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(JSONTree.self, forKey: key) }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONTree] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONTree.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let b = try? container.decode(Bool.self) { self = .bool(b) }
            else if let n = try? container.decode(Double.self) { self = .number(n) }
            else { self = .string(try container.decode(String.self)) }
        }
    }

    /// The text and a line break, as the loader gave it before it had its own parser: JSONDecoder
    /// reads a number that ends its input on past the buffer and traps when digits lie there, so
    /// the reference must not be handed the bare text either (the strokes target's run of
    /// 1,113,169 inputs stopped in this decoder, on `// comment` and a line `0`).
    static func decode(_ bytes: [UInt8]) -> JSONTree? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        return try? decoder.decode(JSONTree.self, from: Data(bytes + [UInt8(ascii: "\n")]))
    }
}
