import Testing
import GesturedConfig

/// The locator must accept exactly what JSONDecoder accepts: when it accepts text the decoder
/// rejects, the error can only be placed roughly (the "JSONDecoder rejected" fallback).
@Suite struct LocatorAgreementTests {
    /// A small document that uses every construct the locator knows.
    static let sample = """
        // c
        { screen: { width: 0x500, 'height': +800., }, /* b */
          views: [{ id: "v\\u00e9\\x41", alpha: .5, frame: [-1, 1e1, 2, 3],
            gestures: [{ id: 'g', type: "tap", numberOfTapsRequired: 2 }] }] }
        """

    /// Every single-character deletion, and several insertions at every position, of `sample`:
    /// each result is either valid or rejected with a located diagnostic of our own, never the
    /// fallback.
    @Test func mutationsNeverReachTheDecoderFallback() {
        let text = Array(Self.sample.unicodeScalars)
        var fallbacks: [String] = []
        let insertions: [String] = ["", ",", "\"", "'", "}", "]", "\\", "0", "/*", "\t", "x", "."]
        for index in 0..<text.count {
            for insertion in insertions {
                var mutated = String.UnicodeScalarView(text[..<index])
                mutated.append(contentsOf: insertion.unicodeScalars)
                // An empty insertion deletes the character instead.
                mutated.append(contentsOf: text[(insertion.isEmpty ? index + 1 : index)...])
                let lines = diagnostics(String(mutated))
                if let line = lines.first(where: { $0.contains("JSONDecoder rejected") }) {
                    fallbacks.append("at \(index) insert \(insertion.debugDescription): \(line)")
                }
            }
        }
        #expect(fallbacks.prefix(5) == [])
    }

    @Test(arguments: [
        "{a: Infinity}", "{a: -NaN}", "{a: +1}", "{a: 1.}", "{a: .5e-3}", "{a: 0x1F}", "{a: -0X1f}",
        "{$_k9: 'x'}", "{'k': \"\\x41\\u00e9\\ud83d\\ude00\\/\"}", "{a: 'line\\\ncontinued'}", "{a: [,]}",
        "{a: 1,,}", "{a: 01}", "{a: \"\\0\"}", "{a: \"\\v\"}", "{a\\u0041: 1}", "{a: 0x}", "{a: 1e}", "[1 2]",
        "{a: 'x\u{2028}y'}", "{a:\u{A0}1}", "{a: 1} /* tail */", "{a: 1} // tail", "{a: tru}",
    ])
    func edgeCasesAgree(text: String) {
        #expect(!diagnostics(text).contains { $0.contains("JSONDecoder rejected") })
    }
}
