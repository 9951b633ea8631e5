/// The fields of a gesture line as environment variables, for the commands that `gestured listen
/// --exec` and the config's gesture actions run (docs/PROTOCOL.md, "Environment of commands").
///
/// Both derive them from the text line, so a command sees the same variables either way: each
/// key becomes `GESTURE_` and the key in upper snake case (`type` → `GESTURE_TYPE`, `viewX` →
/// `GESTURE_VIEW_X`, `translationX` → `GESTURE_TRANSLATION_X`), with its value as the line prints
/// it, unquoted; `GESTURE_LINE` holds the whole line without its newline.
public enum GestureEnvironment {
    /// The variables of a text gesture line (`gesture TYPE STATE NAME key=value…`), or nil when
    /// the line is not one.
    public static func variables(ofTextLine line: some StringProtocol) -> [(name: String, value: String)]? {
        var text = Substring(line)
        if text.hasSuffix("\n") { text = text.dropLast() }
        guard let tokens = tokenize(text), tokens.count >= 4, tokens[0].key == nil, tokens[0].value == "gesture",
              tokens[1...3].allSatisfy({ $0.key == nil }) else { return nil }
        var result = [("GESTURE_TYPE", tokens[1].value), ("GESTURE_STATE", tokens[2].value), ("GESTURE_NAME", tokens[3].value)]
        for token in tokens.dropFirst(4) {
            guard let key = token.key else { return nil }
            result.append((name(of: key), token.value))
        }
        result.append(("GESTURE_LINE", String(text)))
        return result
    }

    /// The variables of a gesture event, exactly as `variables(ofTextLine:)` gives them for its line.
    public static func variables(of event: GestureEvent, seq: UInt64) -> [(name: String, value: String)] {
        variables(ofTextLine: LineEncoder.gesture(event, seq: seq, format: .text)) ?? []
    }

    /// `viewX` → `GESTURE_VIEW_X`.
    public static func name(of key: String) -> String {
        var out = "GESTURE_"
        for c in key.unicodeScalars {
            if c.properties.isUppercase { out += "_" }
            out += String(c).uppercased()
        }
        return out
    }

    /// Splits a text line into bare words and `key=value` pairs, undoing `LineEncoder.textString`'s
    /// quoting. Nil when the quoting is broken.
    static func tokenize(_ text: Substring) -> [(key: String?, value: String)]? {
        var tokens: [(key: String?, value: String)] = []
        var scalars = text.unicodeScalars[...]
        while !scalars.isEmpty {
            while scalars.first == " " { scalars.removeFirst() }
            guard !scalars.isEmpty else { break }
            var key: String?
            var word = ""
            // A key is the bare word up to `=` (bare values never contain `=`).
            if let eq = scalars.firstIndex(of: "="), !scalars[..<eq].contains(" "), !scalars[..<eq].contains("\"") {
                key = String(String.UnicodeScalarView(scalars[..<eq]))
                scalars = scalars[scalars.index(after: eq)...]
            }
            if scalars.first == "\"" {
                scalars.removeFirst()
                var closed = false
                while let c = scalars.popFirst() {
                    if c == "\"" { closed = true; break }
                    guard c == "\\" else { word.unicodeScalars.append(c); continue }
                    guard let e = scalars.popFirst() else { return nil }
                    switch e {
                    case "n": word += "\n"
                    case "t": word += "\t"
                    case "r": word += "\r"
                    case "u":
                        guard scalars.popFirst() == "{", let close = scalars.firstIndex(of: "}"),
                              let v = UInt32(String(String.UnicodeScalarView(scalars[..<close])), radix: 16),
                              let scalar = Unicode.Scalar(v) else { return nil }
                        word.unicodeScalars.append(scalar)
                        scalars = scalars[scalars.index(after: close)...]
                    default: word.unicodeScalars.append(e)
                    }
                }
                guard closed else { return nil }
            } else {
                while let c = scalars.first, c != " " { word.unicodeScalars.append(c); scalars.removeFirst() }
            }
            tokens.append((key, word))
        }
        return tokens
    }
}
