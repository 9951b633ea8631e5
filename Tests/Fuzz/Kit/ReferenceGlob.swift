/// Glob matching written a second way, as the reference the daemon's matcher (`Glob`) is
/// compared with: the pattern is read once into tokens, then matched by dynamic programming over
/// pattern × subject, so its time is linear in their product whatever the pattern.
///
/// The syntax is the one docs/PROTOCOL.md gives (`*`, `?`, `[a-z]`, `[!x]`), with `Glob`'s
/// choices where the document says nothing: `^` negates like `!`, a `]` right after the opening
/// (or after its negation) is a member, `-` makes a range only between two members (`a-]` is
/// `a`, `-`), and a `[` that is never closed is a plain `[`.
public enum ReferenceGlob {
    enum Token: Equatable {
        case star, any
        case literal(Unicode.Scalar)
        case set(negated: Bool, members: [ClosedRange<UInt32>])
    }

    static func tokens(_ pattern: String) -> [Token] {
        let p = Array(pattern.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case "*": tokens.append(.star); i += 1
            case "?": tokens.append(.any); i += 1
            case "[":
                if let (set, next) = bracket(p, from: i + 1) { tokens.append(set); i = next } else { tokens.append(.literal("[")); i += 1 }
            default: tokens.append(.literal(p[i])); i += 1
            }
        }
        return tokens
    }

    /// The bracket expression starting after `[`, and where the pattern goes on after its `]`;
    /// nil when it is never closed.
    static func bracket(_ p: [Unicode.Scalar], from start: Int) -> (Token, Int)? {
        var i = start
        var negated = false
        if i < p.count, p[i] == "!" || p[i] == "^" { negated = true; i += 1 }
        var members: [ClosedRange<UInt32>] = []
        var first = true
        while i < p.count {
            let c = p[i]
            if c == "]" && !first { return (.set(negated: negated, members: members), i + 1) }
            first = false
            i += 1
            if i + 1 < p.count, p[i] == "-", p[i + 1] != "]" {
                if c.value <= p[i + 1].value { members.append(c.value...p[i + 1].value) }
                i += 2
            } else {
                members.append(c.value...c.value)
            }
        }
        return nil
    }

    public static func matches(_ pattern: String, _ subject: String) -> Bool {
        let tokens = tokens(pattern)
        let t = Array(subject.unicodeScalars)
        // reachable[j]: the tokens so far can match exactly t[..<j].
        var reachable = [Bool](repeating: false, count: t.count + 1)
        reachable[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: t.count + 1)
            switch token {
            case .star:
                var any = false
                for j in 0...t.count { any = any || reachable[j]; next[j] = any }
            case .any:
                for j in 0..<t.count where reachable[j] { next[j + 1] = true }
            case .literal(let c):
                for j in 0..<t.count where reachable[j] && t[j] == c { next[j + 1] = true }
            case .set(let negated, let members):
                for j in 0..<t.count where reachable[j] {
                    if members.contains(where: { $0.contains(t[j].value) }) != negated { next[j + 1] = true }
                }
            }
            reachable = next
        }
        return reachable[t.count]
    }
}
