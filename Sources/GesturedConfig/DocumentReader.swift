import GesturedCore

/// A value of the document together with its key path.
struct Node {
    let located: LocatedValue
    let path: String

    var value: JSONValue { located.value }

    func member(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
    func element(_ index: Int) -> String { path + "[\(index)]" }
}

/// Reads the parsed document into model values, collecting a located diagnostic for every
/// problem instead of stopping at the first.
///
/// Each accessor returns `nil` after reporting when a value is absent or wrong, so callers keep
/// the model's default and carry on: one run reports all it can.
struct DocumentReader {
    let file: String
    let source: SourceText
    let map: SourceMap
    private(set) var diagnostics: [(offset: Int, diagnostic: ConfigDiagnostic)] = []
    /// Reads the files the document names (stroke template files); nil: it names none that can
    /// be read.
    var readFile: ConfigLoader.ReadFile?
    /// Each template file's templates by path (nil: it failed, and said why where it was first
    /// named): a file named by many gestures is read and parsed once (`templateFile`).
    var templateFiles: [String: [StrokeTemplate]?] = [:]

    init(file: String, source: SourceText, map: SourceMap) {
        self.file = file; self.source = source; self.map = map
    }

    // MARK: Reporting

    /// Reports `message` at the value at `path`.
    mutating func report(_ message: String, at path: String) {
        report(message, path: path, offset: valueOffset(of: path))
    }

    /// Adds a diagnostic of another file (a template file this one names), ordered as if it
    /// were at `path`.
    mutating func include(_ diagnostic: ConfigDiagnostic, at path: String) {
        diagnostics.append((valueOffset(of: path), diagnostic))
    }

    /// Reports `message` at the value of `node`, where the parser found it.
    mutating func report(_ message: String, at node: Node) {
        report(message, path: node.path, offset: node.located.range.lowerBound)
    }

    /// Reports `message` at the key of the member at `path` (for unknown and duplicate keys).
    mutating func reportAtKey(_ message: String, at path: String) {
        report(message, path: path, offset: map.keyOffsets[path] ?? valueOffset(of: path))
    }

    mutating func report(_ message: String, path: String, offset: Int) {
        let p = source.position(of: offset)
        diagnostics.append((offset, ConfigDiagnostic(file: file, line: p.line, column: p.column,
                                                     keyPath: path, message: message)))
    }

    /// The offset of the value at `path`, or of its nearest located ancestor.
    func valueOffset(of path: String) -> Int {
        var path = Substring(path)
        while true {
            if let offset = map.valueOffsets[String(path)] { return offset }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else {
                return map.valueOffsets[""] ?? 0
            }
            path = path[..<cut]
        }
    }

    /// "L:C" of the value at `path`.
    func positionText(of path: String) -> String { source.positionText(of: valueOffset(of: path)) }

    // MARK: Containers

    /// The members of an object, or `nil` after reporting that `node` is not one.
    mutating func object(_ node: Node) -> [String: Node]? {
        guard case .object(let members) = node.value else {
            report("expected an object, found \(node.value.kindDescription)", at: node)
            return nil
        }
        var nodes: [String: Node] = [:]
        for (key, value) in members { nodes[key] = Node(located: value, path: node.member(key)) }
        return nodes
    }

    /// Reports members not in `known` (with the closest known key when near) and absent
    /// `required` members (at the object).
    /// - Parameter explain: a better message for an unknown key, when the caller has one.
    mutating func checkKeys(_ members: [String: Node], of node: Node, known: [String], required: [String] = [],
                            explain: (String) -> String? = { _ in nil }) {
        for key in members.keys.sorted() where !known.contains(key) {
            var message = "unknown key \"\(key)\""
            if let better = explain(key) {
                message += better
            } else if let suggestion = closestMatch(to: key, among: known) {
                message += "; did you mean \"\(suggestion)\"?"
            }
            let member = node.member(key)
            report(message, path: member, offset: members[key]?.located.keyOffset ?? valueOffset(of: member))
        }
        for key in required where members[key] == nil {
            report("missing required key \"\(key)\"", at: node)
        }
    }

    /// The elements of an array, or `nil` after reporting that `node` is not one.
    mutating func array(_ node: Node) -> [Node]? {
        guard case .array(let elements) = node.value else {
            report("expected an array, found \(node.value.kindDescription)" + wrongTypeHint(node.value, expected: .array), at: node)
            return nil
        }
        return elements.enumerated().map { Node(located: $1, path: node.element($0)) }
    }

    // MARK: Scalars

    mutating func string(_ node: Node?) -> String? {
        guard let node else { return nil }
        guard case .string(let s) = node.value else {
            report("expected a string, found \(node.value.kindDescription)" + wrongTypeHint(node.value, expected: .string), at: node)
            return nil
        }
        return s
    }

    /// A string that names something (an id): not empty.
    mutating func identifier(_ node: Node?) -> String? {
        guard let node, let s = string(node) else { return nil }
        guard !s.isEmpty else { report("must not be empty", at: node); return nil }
        return s
    }

    mutating func bool(_ node: Node?) -> Bool? {
        guard let node else { return nil }
        guard case .bool(let b) = node.value else {
            report("expected a boolean, found \(node.value.kindDescription)" + wrongTypeHint(node.value, expected: .bool), at: node)
            return nil
        }
        return b
    }

    /// A finite number, within `minimum…maximum` when given.
    /// - Parameter maximumText: how messages write `maximum`, when its digits alone would not say
    ///   what it is ("π/4 (0.785398)").
    mutating func number(_ node: Node?, minimum: Double? = nil, maximum: Double? = nil,
                         maximumText: String? = nil) -> Double? {
        guard let node else { return nil }
        guard case .number(let n) = node.value else {
            report("expected a number, found \(node.value.kindDescription)" + wrongTypeHint(node.value, expected: .number), at: node)
            return nil
        }
        guard n.isFinite else { report("expected a finite number, found \(format(n))", at: node); return nil }
        switch (minimum, maximum) {
        case let (low?, high?) where n < low || n > high:
            report("must be between \(format(low)) and \(maximumText ?? format(high)), found \(format(n))", at: node)
        case let (low?, nil) where n < low:
            report("must be at least \(format(low)), found \(format(n))", at: node)
        case let (nil, high?) where n > high:
            report("must be at most \(maximumText ?? format(high)), found \(format(n))", at: node)
        default:
            return n
        }
        return nil
    }

    /// An integer count, at least `minimum`.
    mutating func integer(_ node: Node?, minimum: Int) -> Int? {
        guard let node, let n = number(node) else { return nil }
        guard n == n.rounded(), abs(n) < 1e15 else {
            report("expected an integer, found \(format(n))", at: node)
            return nil
        }
        guard Int(n) >= minimum else { report("must be at least \(minimum), found \(format(n))", at: node); return nil }
        return Int(n)
    }

    /// The longest duration a configuration may give, one day: longer makes no sense for a
    /// gesture, and the bound keeps the conversion to microseconds far from overflow.
    static let maximumDuration = 86_400.0

    /// A duration in seconds.
    mutating func duration(_ node: Node?) -> Interval? {
        number(node, minimum: 0, maximum: Self.maximumDuration).map { Interval(seconds: $0) }
    }

    /// A distance in points.
    mutating func distance(_ node: Node?) -> Distance? { number(node, minimum: 0).map { Distance(points: $0) } }

    /// A speed in points per second.
    mutating func speed(_ node: Node?) -> Speed? { number(node, minimum: 0).map { Speed(pointsPerSecond: $0) } }

    /// An angle in radians, at most `maximum` (its text for the message).
    mutating func angle(_ node: Node?, maximum: Double, maximumText: String? = nil) -> Angle? {
        number(node, minimum: 0, maximum: maximum, maximumText: maximumText).map { Angle(radians: $0) }
    }

    /// Sorted, unbounded diagnostics: in order of position, then of discovery.
    var sortedDiagnostics: [ConfigDiagnostic] {
        diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element.diagnostic)
    }
}

/// A number as the user would write it: `2`, `1.5`, `Infinity`.
func format(_ n: Double) -> String {
    if n.isNaN { return "NaN" }
    if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
}
