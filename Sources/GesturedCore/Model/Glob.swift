/// Shell-style globs: `*`, `?`, `[abc]`, `[a-z]`, `[!x]`; no special meaning for `/`.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern.unicodeScalars)[...], Array(text.unicodeScalars)[...])
    }

    private static func matches(_ p: ArraySlice<Unicode.Scalar>, _ t: ArraySlice<Unicode.Scalar>) -> Bool {
        var p = p, t = t
        while let c = p.first {
            switch c {
            case "*":
                let rest = p.dropFirst()
                var tail = t
                while true {
                    if matches(rest, tail) { return true }
                    guard !tail.isEmpty else { return false }
                    tail = tail.dropFirst()
                }
            case "?":
                guard !t.isEmpty else { return false }
                p = p.dropFirst(); t = t.dropFirst()
            case "[":
                guard let ch = t.first, let (matched, rest) = bracket(p.dropFirst(), ch) else {
                    if t.first == "[" { p = p.dropFirst(); t = t.dropFirst(); continue }
                    return false
                }
                guard matched else { return false }
                p = rest; t = t.dropFirst()
            default:
                guard t.first == c else { return false }
                p = p.dropFirst(); t = t.dropFirst()
            }
        }
        return t.isEmpty
    }

    /// Matches `ch` against a bracket expression starting after `[`; nil when unterminated.
    private static func bracket(_ p: ArraySlice<Unicode.Scalar>, _ ch: Unicode.Scalar)
        -> (Bool, ArraySlice<Unicode.Scalar>)? {
        var p = p
        let negate = p.first == "!" || p.first == "^"
        if negate { p = p.dropFirst() }
        var matched = false, first = true
        while let c = p.first {
            if c == "]" && !first { return (matched != negate, p.dropFirst()) }
            first = false
            p = p.dropFirst()
            if p.first == "-", let hi = p.dropFirst().first, hi != "]" {
                if c.value <= ch.value && ch.value <= hi.value { matched = true }
                p = p.dropFirst(2)
            } else if c == ch {
                matched = true
            }
        }
        return nil
    }
}
