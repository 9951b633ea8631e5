import GesturedCore
/// The daemon's JSON lines are flat objects (docs/PROTOCOL.md: strings, numbers, booleans, no
/// nesting), so the bridge reads them with this small scanner rather than a general parser: it
/// needs a few fields by name and passes the line itself on unchanged.
enum FlatJSON {
    /// A field's value: a string decoded, anything else as its text.
    typealias Object = [String: String]

    /// The members of a flat object, or nil when `line` is not one.
    static func object(_ line: Substring) -> Object? {
        var scalars = Array(line.unicodeScalars)[...]
        func skipSpace() { while let c = scalars.first, c == " " || c == "\t" || c == "\r" { scalars.removeFirst() } }
        func take(_ c: Unicode.Scalar) -> Bool {
            skipSpace()
            guard scalars.first == c else { return false }
            scalars.removeFirst()
            return true
        }
        func string() -> String? {
            guard take("\"") else { return nil }
            var text = String.UnicodeScalarView()
            while let c = scalars.popFirst() {
                switch c {
                case "\"": return String(text)
                case "\\":
                    guard let e = scalars.popFirst() else { return nil }
                    switch e {
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    case "r": text.append("\r")
                    case "b": text.append("\u{8}")
                    case "f": text.append("\u{C}")
                    case "u":
                        guard scalars.count >= 4, let v = UInt32(String(String.UnicodeScalarView(scalars.prefix(4))), radix: 16)
                        else { return nil }
                        scalars.removeFirst(4)
                        text.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    default: text.append(e)
                    }
                default: text.append(c)
                }
            }
            return nil
        }
        guard take("{") else { return nil }
        var members: Object = [:]
        if take("}") { return members }
        repeat {
            guard let key = string(), take(":") else { return nil }
            skipSpace()
            if scalars.first == "\"" {
                guard let value = string() else { return nil }
                members[key] = value
            } else {
                var text = String.UnicodeScalarView()
                while let c = scalars.first, c != ",", c != "}", c != " " { text.append(c); scalars.removeFirst() }
                guard !text.isEmpty else { return nil }
                members[key] = String(text)
            }
        } while take(",")
        guard take("}") else { return nil }
        skipSpace()
        return scalars.isEmpty ? members : nil
    }

    /// `text` as a JSON string literal, quotes included: the daemon's own JSON escaping
    /// (`LineEncoder.jsonString`), so the bridge's payloads quote as the socket's lines do.
    static func quoted(_ text: String) -> String { LineEncoder.jsonString(text) }

    /// An object of string members, in the order given.
    static func encode(_ members: [(String, String)]) -> String {
        "{" + members.map { quoted($0.0) + ":" + quoted($0.1) }.joined(separator: ",") + "}"
    }
}
