/// A protocol line of either encoding, checked against the line kinds of docs/PROTOCOL.md: the
/// fields each kind carries, in order, and each field's format (fixed decimals per the
/// "Numbers" table, integers, the tokens an enum may take). Both encodings read to the same
/// value, so a text line and its JSON twin can be compared field by field.
public struct ProtocolLine: Hashable, Sendable {
    public enum Scalar: Hashable, Sendable {
        case string(String)
        /// A number's literal.
        case number(String)

        public var text: String { switch self { case .string(let s), .number(let s): s } }
    }

    public var kind: String
    /// Positional fields first (named as in JSON), then the `key=value` fields, in line order.
    public var fields: [(key: String, value: Scalar)]

    public static func == (a: ProtocolLine, b: ProtocolLine) -> Bool {
        a.kind == b.kind && a.fields.map(\.key) == b.fields.map(\.key) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public subscript(key: String) -> String? { fields.first { $0.key == key }?.value.text }

    /// The line's `seq`, when it has one.
    public var seq: UInt64? { self["seq"].flatMap { UInt64($0) } }

    // MARK: Reading

    /// Reads and checks a line in `format` (`"text"` or `"json"`).
    public static func parse(_ bytes: [UInt8], json: Bool) throws(Violation) -> ProtocolLine {
        let line: ProtocolLine
        if json {
            let object = try JSONLine.parse(bytes)
            guard let first = object.members.first, first.key == "event", case .string(let kind) = first.value else {
                throw Violation("JSON line whose first key is not \"event\": \(show(bytes))")
            }
            var fields: [(key: String, value: Scalar)] = []
            for (key, value) in object.members.dropFirst() {
                switch value {
                case .string(let s): fields.append((key, .string(s)))
                case .number(let n): fields.append((key, .number(n)))
                case .bool, .null: throw Violation("JSON line with a \(value) value for \(key): \(show(bytes))")
                }
            }
            line = ProtocolLine(kind: kind, fields: fields)
        } else {
            let text = try TextLine.parse(bytes)
            guard let schema = Schema.of(text.kind) else { throw Violation("unknown line kind \(text.kind): \(show(bytes))") }
            guard text.positionals.count == schema.positionals.count else {
                throw Violation("\(text.kind) line with \(text.positionals.count) positional fields, expected \(schema.positionals.count): \(show(bytes))")
            }
            var fields: [(key: String, value: Scalar)] = []
            for (spec, value) in zip(schema.positionals, text.positionals) {
                fields.append((spec.key, try scalar(value, spec.format, key: spec.key, line: bytes)))
            }
            let expected = schema.fields(fields)
            for (key, value) in text.fields {
                let format = expected.first { $0.key == key }?.format ?? .string
                fields.append((key, try scalar(value, format, key: key, line: bytes)))
            }
            line = ProtocolLine(kind: text.kind, fields: fields)
        }
        try line.checkSchema(bytes)
        return line
    }

    /// A text value as the scalar its field's format says: numbers must be bare numbers.
    private static func scalar(_ value: TextLine.Value, _ format: Format, key: String, line: [UInt8]) throws(Violation) -> Scalar {
        switch format {
        case .string, .token: return .string(value.text)
        case .unsigned, .integer, .fixed:
            guard let n = value.number else { throw Violation("\(key) is not a number: \(show(line))") }
            return .number(n)
        }
    }

    /// Reads a text line and its JSON twin, checks both, and checks they say the same.
    public static func parse(text: [UInt8], json: [UInt8]) throws(Violation) -> ProtocolLine {
        let a = try parse(text, json: false), b = try parse(json, json: true)
        guard a == b else {
            throw Violation("the text and JSON encodings differ:\n  \(show(text))\n  \(show(json))")
        }
        return a
    }

    // MARK: Schema

    enum Format: Equatable {
        case string
        case token([String])
        /// Digits, no sign, no leading zero.
        case unsigned
        /// An optional minus and digits.
        case integer
        /// Exactly this many decimals; never negative zero.
        case fixed(Int)
    }

    struct Field {
        let key: String
        let format: Format
        var optional = false
    }

    struct Schema {
        let positionals: [Field]
        /// The `key=value` fields in order, for a line whose positional fields are given.
        let fields: ([(key: String, value: Scalar)]) -> [Field]

        static let gestureTypes = ["tap", "swipe", "pan", "screenEdgePan", "pinch", "rotation", "longPress", "stroke"]

        static func of(_ kind: String) -> Schema? {
            let time = Field(key: "time", format: .fixed(6)), seq = Field(key: "seq", format: .unsigned)
            switch kind {
            case "hello":
                return Schema(positionals: []) { _ in
                    [Field(key: "version", format: .unsigned), Field(key: "daemon", format: .string)]
                }
            case "gesture":
                return Schema(positionals: [Field(key: "type", format: .token(gestureTypes)),
                                            Field(key: "state", format: .token(["began", "changed", "ended", "cancelled", "failed"])),
                                            Field(key: "name", format: .string)]) { p in
                    var fields = [Field(key: "view", format: .string), Field(key: "device", format: .string),
                                  Field(key: "screen", format: .string, optional: true), time, seq,
                                  Field(key: "touches", format: .unsigned)]
                    fields += ["x", "y", "viewX", "viewY"].map { Field(key: $0, format: .fixed(2)) }
                    let state = p.first { $0.key == "state" }?.value.text
                    guard state != "cancelled" && state != "failed" else { return fields }
                    let pan = ["translationX", "translationY", "velocityX", "velocityY"].map { Field(key: $0, format: .fixed(2)) }
                    switch p.first(where: { $0.key == "type" })?.value.text {
                    case "tap": fields.append(Field(key: "taps", format: .unsigned))
                    case "swipe": fields.append(Field(key: "direction", format: .token(["left", "right", "up", "down"])))
                    case "pan": fields += pan
                    case "screenEdgePan": fields += pan + [Field(key: "edge", format: .token(["top", "left", "bottom", "right"]))]
                    case "pinch": fields += [Field(key: "scale", format: .fixed(3)), Field(key: "velocity", format: .fixed(2))]
                    case "rotation": fields += [Field(key: "rotation", format: .fixed(4)), Field(key: "velocity", format: .fixed(2))]
                    case "longPress": fields.append(Field(key: "duration", format: .fixed(3)))
                    case "stroke": fields += [Field(key: "stroke", format: .string), Field(key: "score", format: .fixed(3))]
                    default: break
                    }
                    return fields
                }
            case "touch":
                return Schema(positionals: [Field(key: "phase", format: .token(["began", "moved", "ended", "cancelled"])),
                                            Field(key: "id", format: .unsigned)]) { _ in
                    [Field(key: "view", format: .string), Field(key: "device", format: .string),
                     Field(key: "screen", format: .string, optional: true), Field(key: "slot", format: .unsigned),
                     Field(key: "x", format: .fixed(2)), Field(key: "y", format: .fixed(2)), time, seq]
                }
            case "forward":
                return Schema(positionals: [Field(key: "phase", format: .token(["down", "move", "cancel", "up"])),
                                            Field(key: "id", format: .unsigned)]) { p in
                    var fields = [Field(key: "device", format: .string), Field(key: "slot", format: .unsigned)]
                    let phase = p.first { $0.key == "phase" }?.value.text
                    if phase == "down" { fields.append(Field(key: "trackingID", format: .integer)) }
                    if phase == "down" || phase == "move" {
                        fields += [Field(key: "x", format: .integer), Field(key: "y", format: .integer)]
                    }
                    return fields + [time, seq]
                }
            case "device":
                return Schema(positionals: [Field(key: "action", format: .token(["added", "removed"])),
                                            Field(key: "sysname", format: .string)]) { _ in
                    [Field(key: "name", format: .string), seq]
                }
            case "trace":
                return Schema(positionals: []) { _ in [Field(key: "text", format: .string)] }
            case "ok":
                return Schema(positionals: []) { _ in [Field(key: "command", format: .string)] }
            case "error":
                return Schema(positionals: []) { _ in [Field(key: "command", format: .string), Field(key: "message", format: .string)] }
            case "stats":
                return Schema(positionals: []) { _ in
                    ["reads", "p50Us", "p90Us", "p99Us", "p999Us", "maxUs"].map { Field(key: $0, format: .unsigned) }
                }
            default:
                return nil
            }
        }
    }

    /// Checks the fields against the kind's schema: names, order, presence and formats.
    func checkSchema(_ bytes: [UInt8]) throws(Violation) {
        guard let schema = Schema.of(kind) else { throw Violation("unknown line kind \(kind): \(show(bytes))") }
        let positionals = Array(fields.prefix(schema.positionals.count))
        let expected = schema.positionals + schema.fields(positionals)
        var k = 0
        for spec in expected {
            guard k < fields.count, fields[k].key == spec.key else {
                if spec.optional { continue }
                throw Violation("\(kind) line: expected \(spec.key) at field \(k + 1): \(show(bytes))")
            }
            try Self.check(fields[k].value, spec.format, key: spec.key, line: bytes)
            k += 1
        }
        guard k == fields.count else {
            throw Violation("\(kind) line: unexpected field \(fields[k].key): \(show(bytes))")
        }
    }

    static func check(_ value: Scalar, _ format: Format, key: String, line: [UInt8]) throws(Violation) {
        switch (format, value) {
        case (.string, .string):
            return
        case (.token(let allowed), .string(let s)):
            guard allowed.contains(s) else { throw Violation("\(key)=\(s) is not one of \(allowed): \(show(line))") }
        case (.unsigned, .number(let n)):
            guard n.utf8.allSatisfy(TextLine.isDigit), n == "0" || !n.hasPrefix("0") else {
                throw Violation("\(key)=\(n) is not an unsigned integer: \(show(line))")
            }
        case (.integer, .number(let n)):
            let digits = n.hasPrefix("-") ? String(n.dropFirst()) : n
            guard !digits.isEmpty, digits.utf8.allSatisfy(TextLine.isDigit), digits == "0" || !digits.hasPrefix("0"),
                  n != "-0" else {
                throw Violation("\(key)=\(n) is not an integer: \(show(line))")
            }
        case (.fixed(let decimals), .number(let n)):
            let parts = n.split(separator: ".", omittingEmptySubsequences: false)
            guard TextLine.isNumber(n), parts.count == 2, parts[1].count == decimals else {
                throw Violation("\(key)=\(n) does not have exactly \(decimals) decimals: \(show(line))")
            }
            let whole = parts[0].hasPrefix("-") ? parts[0].dropFirst() : parts[0]
            guard whole == "0" || !whole.hasPrefix("0") else { throw Violation("\(key)=\(n) has a leading zero: \(show(line))") }
            guard !(n.hasPrefix("-") && n.dropFirst().allSatisfy({ $0 == "0" || $0 == "." })) else {
                throw Violation("\(key)=\(n) is a negative zero: \(show(line))")
            }
        default:
            throw Violation("\(key)=\(value.text) has the wrong type (\(format)): \(show(line))")
        }
    }
}
