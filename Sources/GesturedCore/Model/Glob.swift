/// A shell-style glob: `*`, `?`, `[abc]`, `[a-z]`, `[!x]` (or `[^x]`); no special meaning for
/// `/`. An unterminated `[` is a literal `[`.
///
/// Compiled once (a client's filter is matched against every line it may receive) and matched
/// without backtracking beyond the last `*`: a mismatch resumes one character after where the
/// last `*` started matching, which is enough because a later `*` can absorb whatever an earlier
/// one would have. So a match costs at most (pattern tokens + 1) × (text characters + 1) steps,
/// whatever the pattern: a client's `filter device=` with a thousand `*` and an `X` cannot stall
/// the daemon (a recursive matcher tries every way to split the text between the stars).
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case literal(Unicode.Scalar)
        /// `?`: any one character.
        case any
        /// `*`: any run of characters, the empty one included.
        case star
        /// A bracket expression: the character is in one of the ranges (or in none, negated).
        case set(ranges: [ClosedRange<UInt32>], negated: Bool)
    }

    /// The pattern as written.
    public let pattern: String
    let tokens: [Token]

    public init(_ pattern: String) {
        var steps = 0
        self.init(pattern, compileSteps: &steps)
    }

    /// `init(_:)`, counting the compilation's steps (one per pattern character looked at), so a
    /// test can check that compiling is linear in the pattern without timing anything.
    init(_ pattern: String, compileSteps steps: inout Int) {
        self.pattern = pattern
        tokens = Self.compile(Array(pattern.unicodeScalars), steps: &steps)
    }

    public var description: String { pattern }

    /// Whether `pattern` matches the whole of `text` (compiles the pattern: for a pattern used
    /// once; keep a `Glob` for one matched again and again).
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        Glob(pattern).matches(text)
    }

    /// Whether the pattern matches the whole of `text`.
    public func matches(_ text: String) -> Bool {
        var steps = 0
        return matches(text, steps: &steps)
    }

    /// `matches(_:)`, counting its steps (one per comparison of a token with a character or per
    /// resumption after a `*`), so a test can check the bound without timing anything.
    func matches(_ text: String, steps: inout Int) -> Bool {
        let scalars = text.unicodeScalars
        var t = scalars.startIndex
        var p = 0
        // The last `*` seen, and where in the text its run ends for now.
        var star: (token: Int, resume: String.UnicodeScalarView.Index)?
        while t < scalars.endIndex {
            steps += 1
            if p < tokens.count {
                switch tokens[p] {
                case .star:
                    star = (p, t)
                    p += 1
                    continue
                case .any:
                    p += 1; t = scalars.index(after: t)
                    continue
                case .literal(let c) where c == scalars[t]:
                    p += 1; t = scalars.index(after: t)
                    continue
                case .set(let ranges, let negated) where Self.contains(ranges, scalars[t]) != negated:
                    p += 1; t = scalars.index(after: t)
                    continue
                case .literal, .set:
                    break
                }
            }
            // A mismatch, or pattern left over: the last `*` takes one more character.
            guard let last = star else { return false }
            let resume = scalars.index(after: last.resume)
            star = (last.token, resume)
            p = last.token + 1
            t = resume
        }
        while p < tokens.count, case .star = tokens[p] { p += 1 }
        return p == tokens.count
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ c: Unicode.Scalar) -> Bool {
        for range in ranges where range.contains(c.value) { return true }
        return false
    }

    /// Linear in the pattern: a bracket expression is scanned only when a `]` that can close it
    /// follows (`lastClose`), so an unterminated `[` costs one step however much pattern follows
    /// it; scanning each `[` to the end would make compiling quadratic in a pattern a client
    /// sends.
    private static func compile(_ p: [Unicode.Scalar], steps: inout Int) -> [Token] {
        var tokens: [Token] = []
        let lastClose = p.lastIndex(of: "]")
        var i = 0
        while i < p.count {
            steps += 1
            switch p[i] {
            case "*":
                // Consecutive stars mean one star.
                if tokens.last != .star { tokens.append(.star) }
                i += 1
            case "?":
                tokens.append(.any); i += 1
            case "[":
                if let (set, end) = bracket(p, from: i + 1, lastClose: lastClose, steps: &steps) {
                    tokens.append(set); i = end
                } else {
                    tokens.append(.literal("[")); i += 1
                }
            case let c:
                tokens.append(.literal(c)); i += 1
            }
        }
        return tokens
    }

    /// The bracket expression starting after a `[` at `start`, and the index past its `]`; nil
    /// when it is unterminated. A `]` right after the `[` (or its `!`/`^`) is a member; `a-z` is a
    /// range unless the `-` is followed by the closing `]`. Any later `]` closes it (a range's
    /// upper end is never `]`), so it is unterminated exactly when the pattern's last `]`
    /// (`lastClose`) comes no later than its first member: then nothing is scanned.
    private static func bracket(_ p: [Unicode.Scalar], from start: Int, lastClose: Int?,
                                steps: inout Int) -> (Token, Int)? {
        var i = start
        let negated = i < p.count && (p[i] == "!" || p[i] == "^")
        if negated { i += 1 }
        guard let lastClose, lastClose > i else { return nil }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while i < p.count {
            steps += 1
            let c = p[i]
            if c == "]" && !first { return (.set(ranges: ranges, negated: negated), i + 1) }
            first = false
            if i + 2 < p.count, p[i + 1] == "-", p[i + 2] != "]" {
                let hi = p[i + 2]
                // A reversed range (`z-a`) matches nothing, as before.
                if c.value <= hi.value { ranges.append(c.value...hi.value) }
                i += 3
            } else {
                ranges.append(c.value...c.value)
                i += 1
            }
        }
        return nil
    }
}
