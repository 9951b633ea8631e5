import FoundationEssentials
@testable import GesturedConfig

/// A JSON5 document as `JSONDecoder` (`allowsJSON5`) reads it: the reference `JSON5Parser` is
/// checked against, so that a file means the same to gestured as to Foundation's decoder.
indirect enum DecodedTree: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String)
    case array([DecodedTree])
    case object([String: DecodedTree])

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            var members: [String: DecodedTree] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(DecodedTree.self, forKey: key) }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [DecodedTree] = []
            while !container.isAtEnd { elements.append(try container.decode(DecodedTree.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let b = try? container.decode(Bool.self) { self = .bool(b) }
            else if let n = try? container.decode(Double.self) { self = .number(n.isNaN ? .nan : n) }
            else { self = .string(try container.decode(String.self)) }
        }
    }

    /// The tree of a parsed value, its locations left out (NaN as one value, to compare).
    init(_ located: LocatedValue) {
        switch located.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n.isNaN ? .nan : n)
        case .string(let s): self = .string(s)
        case .array(let elements): self = .array(elements.map(DecodedTree.init))
        case .object(let members): self = .object(members.mapValues(DecodedTree.init))
        }
    }

    static func == (a: DecodedTree, b: DecodedTree) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x == y
        default: false
        }
    }
}

/// How `JSON5Parser` and `JSONDecoder` disagree on `text`, or nil. Only texts the parser accepts
/// are given to the decoder: it traps on some that it rejects (`1e-`, see Tests/Fuzz's
/// DiagnosticCheck); the other direction (the decoder accepts, the parser does not) is the config
/// fuzz target's check. The decoder is given a line break after the text: it reads a number that
/// ends its input on past the buffer.
func parserDisagreement(_ text: String) -> String? {
    guard let document = try? JSON5Parser.parse(SourceText(text)) else { return nil }
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    guard let decoded = try? decoder.decode(DecodedTree.self, from: Data(Array(text.utf8) + [0x0A])) else {
        return "\(text.debugDescription): the parser accepts it, JSONDecoder does not"
    }
    let parsed = DecodedTree(document.root)
    return parsed == decoded ? nil : "\(text.debugDescription): parsed \(parsed), decoded \(decoded)"
}
