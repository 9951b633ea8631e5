import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The glob of device rules, `rotate` and client filters. A client chooses the pattern, so its
/// cost must not depend on how the pattern is written: the security review stalled the daemon's
/// loop with `filter device=` followed by 60 `*` and an `X` under the recursive matcher.
struct GlobTests {
    @Test(arguments: [("button-*", "button-12", true), ("button-?", "button-12", false), ("[a-c]x", "bx", true),
                      ("[!a-c]x", "bx", false), ("[^a-c]x", "dx", true), ("*", "", true), ("a*b*c", "aXbYc", true),
                      ("a*b*c", "aXbY", false), ("[]]", "]", true), ("[a-]", "-", true), ("[z-a]", "m", false),
                      ("[abc", "[abc", true), ("[abc", "a", false), ("***", "x", true), ("*a", "bbba", true),
                      ("?", "", false), ("ILITEK*", "ILITEK Multi-Touch", true), ("é?", "éa", true)])
    func globs(pattern: String, text: String, matches: Bool) {
        #expect(Glob.matches(pattern, text) == matches)
    }

    /// The hostile filter of the security review, and longer ones: the step count stays within
    /// (tokens + 1) × (characters + 1), however many stars.
    @Test(arguments: [60, 1000, 10_000])
    func manyStarsCostStepsLinearInPatternTimesText(stars: Int) {
        let glob = Glob(String(repeating: "*", count: stars) + "X")
        for text in ["event5", String(repeating: "a", count: 200), String(repeating: "ab", count: 500)] {
            var steps = 0
            #expect(!glob.matches(text, steps: &steps))
            #expect(steps <= (glob.tokens.count + 1) * (text.unicodeScalars.count + 1))
        }
    }

    /// Compiling is linear in the pattern, for every shape of it: the review's 1,011 unterminated
    /// `[` (each scanned to the end before: quadratic), brackets that do close, letters. Twice the
    /// pattern costs at most about twice the steps, counted, not timed.
    @Test(arguments: ["[", "[!", "[a]", "[[]", "a", "[a-z", "*[x", "[]"], ["", "]"])
    func compilingCostsStepsLinearInThePattern(unit: String, end: String) {
        func steps(_ count: Int) -> Int {
            var steps = 0
            _ = Glob(String(repeating: unit, count: count) + end, compileSteps: &steps)
            return steps
        }
        let single = steps(1011), double = steps(2022)
        #expect(double <= single * 2 + 16, "\(unit): \(single) steps for 1,011, \(double) for 2,022")
        #expect(single <= 4 * (1011 * unit.unicodeScalars.count + 6), "\(unit): \(single) steps")
    }

    /// Stars separated by literals are not collapsed: the bound still holds.
    @Test func alternatingStarsAndLiteralsStayWithinTheBound() {
        let glob = Glob(String(repeating: "*a", count: 100) + "X")
        let text = String(repeating: "a", count: 300)
        var steps = 0
        #expect(!glob.matches(text, steps: &steps))
        #expect(steps <= (glob.tokens.count + 1) * (text.unicodeScalars.count + 1))
    }

    /// The same answers as the recursive matcher this replaces, on patterns and texts drawn from
    /// an alphabet that makes every construct likely (stars, `?`, brackets, negation, ranges).
    @Test func agreesWithTheBacktrackingMatcherItReplaces() {
        var rng = SplitMix64(seed: 0x6C6F_62)
        let patternAlphabet: [Character] = ["a", "b", "-", "*", "?", "[", "]", "!"]
        let textAlphabet: [Character] = ["a", "b", "-", "[", "]", "!"]
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let pattern = String((0..<Int.random(in: 0...7, using: &rng)).map { _ in patternAlphabet.randomElement(using: &rng)! })
            let text = String((0..<Int.random(in: 0...7, using: &rng)).map { _ in textAlphabet.randomElement(using: &rng)! })
            if Glob.matches(pattern, text) != BacktrackingGlob.matches(pattern, text) {
                disagreements.append("\(pattern) ~ \(text)")
            }
        }
        #expect(disagreements == [])
    }

    @Test func aFilterWithThousandsOfStarsIsParsedAndMatchedLikeAnyOther() throws {
        let filter = try LineFilter(parsing: "device=" + String(repeating: "*", count: 1000) + "X")
        #expect(filter.description == "device=" + String(repeating: "*", count: 1000) + "X")
        let sample = GestureSample(touches: 1, location: .zero, device: DeviceName("event5"), values: .none)
        let event = GestureEvent(type: "tap", state: .ended, name: "t", view: "root", time: .zero, sample: sample,
                                 viewLocation: .zero)
        #expect(!filter.matches(event))
        #expect(try LineFilter(parsing: "device=*" + String(repeating: "*", count: 1000) + "5").matches(event))
    }
}

/// The recursive matcher gestured used before (exponential in the number of stars on a
/// mismatch), kept only as the reference of `agreesWithTheBacktrackingMatcherItReplaces`.
private enum BacktrackingGlob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
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

    private static func bracket(_ p: ArraySlice<Unicode.Scalar>, _ ch: Unicode.Scalar) -> (Bool, ArraySlice<Unicode.Scalar>)? {
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
