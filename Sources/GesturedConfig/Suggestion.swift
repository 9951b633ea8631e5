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

/// Levenshtein distance: insertions, deletions and substitutions each cost one.
func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
