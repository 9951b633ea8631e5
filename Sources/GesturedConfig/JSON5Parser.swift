/// The first syntax error of a document: where, inside which value, and what was expected.
struct JSON5SyntaxError: Error {
    var offset: Int
    var path: String
    var message: String
}

/// The one JSON5 parser of the configuration: it reads a document into located values (each
/// with its byte range, and its key's offset in an object) and indexes them by key path, or
/// finds the first syntax error with a precise message and place.
///
/// It accepts the JSON5 that `JSONDecoder(allowsJSON5)` accepts, which is slightly less than the
/// JSON5 spec, so that a file means the same to gestured as to that decoder (a test compares the
/// two): comments, trailing commas, unquoted identifier keys (no escapes in them), single-quoted
/// strings, `\x` escapes and escaped line breaks, hex numbers up to 2^53, leading or trailing
/// decimal points, a leading `+`, `Infinity` and `NaN`. Not accepted: `\0`, `\v` and unknown
/// escapes, escaped NULs, raw control characters in strings, and non-ASCII white space. The
/// tokens are read in `JSON5Parser+Tokens.swift`.
struct JSON5Parser {
    /// Deeper documents are rejected rather than risking the stack; a configuration needs ~20.
    static let maximumDepth = 128

    let bytes: [UInt8]
    let source: SourceText
    /// The cursor: the byte offset of the next byte to read.
    var i = 0
    private var map = SourceMap()

    private init(_ source: SourceText) {
        self.source = source
        bytes = source.bytes
    }

    /// Reads the whole document.
    /// - Returns: its root value and the index of its values by key path.
    /// - Throws: the first syntax error.
    static func parse(_ source: SourceText) throws(JSON5SyntaxError) -> JSON5Document {
        var parser = JSON5Parser(source)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }  // byte order mark
        let root = try parser.value(path: "", depth: 0, record: true)
        try parser.skipTrivia(path: "")
        if parser.i < parser.bytes.count {
            throw parser.error("unexpected \(parser.found()) after the end of the document", path: "")
        }
        return JSON5Document(root: root, map: parser.map)
    }

    // MARK: Values

    /// The value at the cursor, at `path`; `record`: index it and its members by path (not
    /// inside a repeated key's value, which is left out of the document).
    private mutating func value(path: String, depth: Int, record: Bool) throws(JSON5SyntaxError) -> LocatedValue {
        try skipTrivia(path: path)
        guard let c = peek() else { throw error("expected a value, found end of file", path: path) }
        let start = i
        if record { map.valueOffsets[path] = i }
        let value: JSONValue
        switch c {
        case UInt8(ascii: "{"): value = try object(path: path, depth: depth + 1, record: record)
        case UInt8(ascii: "["): value = try array(path: path, depth: depth + 1, record: record)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): value = .string(try string(path: path))
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            value = .number(try number(path: path))
        case _ where matches("Infinity") || matches("NaN"):
            value = .number(try number(path: path))
        default:
            guard keyCharacter(first: true) != nil else { throw error("expected a value, found \(found())", path: path) }
            switch identifier() {
            case "true": value = .bool(true)
            case "false": value = .bool(false)
            case "null": value = .null
            case let word: throw error("expected a value, found '\(word)' (strings need quotes)", path: path, at: start)
            }
        }
        return LocatedValue(value: value, range: start..<i)
    }

    private mutating func object(path: String, depth: Int, record: Bool) throws(JSON5SyntaxError) -> JSONValue {
        let open = i
        guard depth <= Self.maximumDepth else {
            throw error("nesting is deeper than \(Self.maximumDepth) levels", path: path)
        }
        i += 1
        var members: [String: LocatedValue] = [:]
        while true {
            try skipTrivia(path: path)
            guard let c = peek() else { throw unclosed(open, path: path) }
            if c == UInt8(ascii: "}") { i += 1; return .object(members) }
            let keyOffset = i
            let key: String
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                key = try string(path: path)
            } else if keyCharacter(first: true) != nil {
                key = identifier()
                if peek() == UInt8(ascii: "\\") {
                    throw error("escape sequences are not allowed in unquoted keys; put the key in quotes",
                                path: path)
                }
            } else {
                throw error("expected a key (a string or an identifier), found \(found())", path: path)
            }
            let memberPath = path.isEmpty ? key : path + "." + key
            let first = members[key]?.keyOffset
            if let first, record {
                map.duplicateKeys.append(.init(path: memberPath, offset: keyOffset, firstOffset: first))
            } else if record {
                map.keyOffsets[memberPath] = keyOffset
            }
            try skipTrivia(path: path)
            guard peek() == UInt8(ascii: ":") else {
                throw error(peek() == nil ? "unexpected end of file after key \"\(key)\""
                                          : "expected ':' after key \"\(key)\"", path: path)
            }
            i += 1
            var member = try value(path: memberPath, depth: depth, record: record && first == nil)
            if first == nil {
                member.keyOffset = keyOffset
                members[key] = member
            }
            try skipTrivia(path: path)
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return .object(members)
            case nil: throw unclosed(open, path: path)
            default: throw error("expected ',' or '}' after object member", path: path)
            }
        }
    }

    private mutating func array(path: String, depth: Int, record: Bool) throws(JSON5SyntaxError) -> JSONValue {
        let open = i
        guard depth <= Self.maximumDepth else {
            throw error("nesting is deeper than \(Self.maximumDepth) levels", path: path)
        }
        i += 1
        var elements: [LocatedValue] = []
        while true {
            try skipTrivia(path: path)
            guard let c = peek() else { throw unclosed(open, path: path) }
            if c == UInt8(ascii: "]") { i += 1; return .array(elements) }
            elements.append(try value(path: "\(path)[\(elements.count)]", depth: depth, record: record))
            try skipTrivia(path: path)
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return .array(elements)
            case nil: throw unclosed(open, path: path)
            default: throw error("expected ',' or ']' after array element", path: path)
            }
        }
    }

    // MARK: Errors

    private func unclosed(_ open: Int, path: String) -> JSON5SyntaxError {
        let bracket = bytes[open] == UInt8(ascii: "{") ? "{" : "["
        return error("unexpected end of file: '\(bracket)' at \(source.positionText(of: open)) is not closed", path: path)
    }

    func error(_ message: String, path: String, at offset: Int? = nil) -> JSON5SyntaxError {
        JSON5SyntaxError(offset: offset ?? i, path: path, message: message)
    }
}
