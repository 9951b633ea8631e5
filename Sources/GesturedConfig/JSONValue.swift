/// A JSON5 value as `JSON5Parser` reads it, before any meaning is given to it.
///
/// A generic tree rather than model types lets validation go on after the first problem and
/// report every problem it finds, each at its key path; every value in it is a `LocatedValue`,
/// so a problem is reported where the value stands in the text.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LocatedValue])
    /// The members by key; of a key given twice, the first (the repeat is an error of its own).
    case object([String: LocatedValue])

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

/// A value of the document and where it stands in the text.
struct LocatedValue: Equatable {
    var value: JSONValue
    /// The value's bytes: from its first character to just past its last.
    var range: Range<Int>
    /// Where the member's key starts, for a member of an object; nil for an element or the root.
    var keyOffset: Int?
}

/// The values of a document by key path, for what is reported by path rather than at a value in
/// hand (a configuration's warnings, cross-references): `JSON5Parser` records it as it reads.
struct SourceMap {
    /// Key path (`views[0].frame`) → byte offset of the value's first character.
    var valueOffsets: [String: Int] = [:]
    /// Key path → byte offset of the member's key, so an unknown key can be pointed at itself.
    var keyOffsets: [String: Int] = [:]
    /// Keys that occur again in the same object. The parser keeps the first occurrence, which
    /// would hide the second from the user, so each repeat is an error.
    var duplicateKeys: [DuplicateKey] = []

    struct DuplicateKey {
        var path: String
        var offset: Int
        var firstOffset: Int
    }
}

/// A parsed document: its root value and the index of its values by key path.
struct JSON5Document {
    var root: LocatedValue
    var map: SourceMap
}
