/// The candidate closest to `word` by edit distance, when it is close enough to be a likely typo.
///
/// Letter case is ignored ("longpress" suggests "longPress"). The allowed distance grows with the
/// candidate's length: 1 for up to 4 characters, 2 up to 8, 3 beyond, and never more than half
/// the word; a wider net suggests unrelated keys more often than it helps.
func closestMatch(to word: String, among candidates: some Sequence<String>) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let c = Array(candidate.lowercased().unicodeScalars)
        let allowed = c.count <= 4 ? 1 : c.count <= 8 ? 2 : 3
        let d = editDistance(target, c)
        // Half the word changed is no longer a typo ("x" must not suggest "g").
        if d <= allowed, d * 2 <= max(target.count, c.count), d < best?.distance ?? .max { best = (candidate, d) }
    }
    return best?.candidate
}

/// Edit distance with adjacent transpositions (the optimal string alignment distance):
/// insertions, deletions, substitutions and swapping two neighbours each cost one, so the most
/// common typo, two letters swapped ("plam"), is as near as one letter wrong.
func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], beforePrevious[j - 2] + 1) }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}

/// The message for a string that is not one of an enumeration's `names`: `must be one of lift,
/// palm, found "plam"; did you mean "palm"?` (the hint only when one is close).
func notOneOf(_ names: [String], found text: String) -> String {
    "must be one of \(names.joined(separator: ", ")), found \"\(text)\""
        + (closestMatch(to: text, among: names).map { "; did you mean \"\($0)\"?" } ?? "")
}

/// What a value of the wrong type was likely meant to be, as `; did you mean …?`, or "": a
/// string where an array belongs becomes a one-element array, `"true"` a boolean, `"5"` a
/// number, a number where a string belongs a string. Nothing for other mismatches.
func wrongTypeHint(_ value: JSONValue, expected: JSONKind) -> String {
    switch (value, expected) {
    case (.string(let s), .array): return "; did you mean [\(quoted(s))]?"
    case (.string(let s), .bool) where s == "true" || s == "false": return "; did you mean \(s) (no quotes)?"
    case (.string(let s), .number) where Double(s.trimmingWhitespace)?.isFinite == true:
        return "; did you mean \(s.trimmingWhitespace) (no quotes)?"
    case (.number(let n), .string): return "; did you mean \"\(format(n))\"?"
    default: return ""
    }
}

/// The JSON types a reader expects, for `wrongTypeHint`.
enum JSONKind { case array, bool, number, string }

/// `s` as a JSON5 string literal, with `"` and `\` escaped.
func quoted(_ s: String) -> String {
    var out = "\""
    for c in s {
        if c == "\"" || c == "\\" { out.append("\\") }
        out.append(c)
    }
    return out + "\""
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
