import FoundationEssentials

/// A JSON5 document as `JSONDecoder` decodes it, before any meaning is given to it.
///
/// Decoding into this generic tree rather than straight into model types lets validation go on
/// after the first problem and report every problem it finds, each at its key path.
indirect enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let b = try? container.decode(Bool.self) {
                self = .bool(b)
            } else if let n = try? container.decode(Double.self) {
                self = .number(n)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// Decodes `text` with `JSONDecoder`'s JSON5 mode.
    /// - Throws: `DecodingError` (only when the locator and the decoder disagree on the syntax).
    static func decode(_ bytes: [UInt8]) throws -> JSONValue {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        return try decoder.decode(JSONValue.self, from: Data(decoderInput(bytes)))
    }

    /// What the decoder is given: the text and a line break. JSONDecoder (swift-foundation, Swift
    /// 6.3) reads a number that ends the text on past the end of its buffer when it converts it,
    /// and traps (`JSON5Scanner.validateNumber`) when digits happen to lie there: a file holding a
    /// long number only could stop the daemon, depending on the heap. Trailing white space ends
    /// the number inside the buffer and changes nothing else (the locator has checked the text).
    static func decoderInput(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8(ascii: "\n")] }

    /// "a string", "an object": for "expected …, found …" messages.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension DecodingError {
    /// The key path of the value the decoder failed on, in the configuration's notation.
    var keyPath: String {
        let context: Context? = switch self {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c): c
        @unknown default: nil
        }
        var path = ""
        for key in context?.codingPath ?? [] {
            if let index = key.intValue { path += "[\(index)]" } else { path += path.isEmpty ? key.stringValue : "." + key.stringValue }
        }
        return path
    }

    var debugText: String {
        switch self {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c): c.debugDescription
        @unknown default: "\(self)"
        }
    }
}
