import Testing
@testable import GesturedConfig

/// The parser must read what JSONDecoder reads, and read it as the decoder does: each text the
/// parser accepts, the decoder accepts as the same values. (Before the one parser, a second
/// scanner found positions and the decoder the values; where they disagreed the error fell back
/// to "JSONDecoder rejected the document", unlocated: the cases below were found that way.)
@Suite struct LocatorAgreementTests {
    /// A small document that uses every construct the parser knows.
    static let sample = """
        // c
        { screen: { width: 0x500, 'height': +800., }, /* b */
          views: [{ id: "v\\u00e9\\x41", alpha: .5, frame: [-1, 1e1, 2, 3],
            gestures: [{ id: 'g', type: "tap", numberOfTapsRequired: 2 }] }] }
        """

    @Test func theSampleReadsAsTheDecoderReadsIt() throws {
        #expect(parserDisagreement(Self.sample) == nil)
    }

    /// Every single-character deletion, and several insertions at every position, of `sample`:
    /// each result the parser accepts, the decoder reads as the same values.
    @Test func mutationsReadAsTheDecoderReadsThem() {
        let text = Array(Self.sample.unicodeScalars)
        var fallbacks: [String] = []
        let insertions: [String] = ["", ",", "\"", "'", "}", "]", "\\", "0", "/*", "\t", "x", "."]
        for index in 0..<text.count {
            for insertion in insertions {
                var mutated = String.UnicodeScalarView(text[..<index])
                mutated.append(contentsOf: insertion.unicodeScalars)
                // An empty insertion deletes the character instead.
                mutated.append(contentsOf: text[(insertion.isEmpty ? index + 1 : index)...])
                if let disagreement = parserDisagreement(String(mutated)) {
                    fallbacks.append("at \(index) insert \(insertion.debugDescription): \(disagreement)")
                }
            }
        }
        #expect(fallbacks.prefix(5) == [])
    }

    @Test(arguments: [
        "{a: Infinity}", "{a: -NaN}", "{a: +1}", "{a: 1.}", "{a: .5e-3}", "{a: 0x1F}", "{a: -0X1f}",
        "{$_k9: 'x'}", "{'k': \"\\x41\\u00e9\\ud83d\\ude00\\/\"}", "{a: 'line\\\ncontinued'}", "{a: 'line\\\r\ncontinued'}", "{a: 'line\\\rcontinued'}", "{a: [,]}",
        "{a: 1,,}", "{a: 01}", "{a: \"\\0\"}", "{a: \"\\v\"}", "{a\\u0041: 1}", "{a: 0x}", "{a: 1e}", "[1 2]",
        "{a: 'x\u{2028}y'}", "{a:\u{A0}1}", "{a: 1} /* tail */", "{a: 1} // tail", "{a: tru}",
    ])
    func edgeCasesAgree(text: String) {
        #expect(parserDisagreement(text) == nil, "\(diagnostics(text))")
    }
}

/// Found by the config fuzz target (docs/RELIABILITY.md): the locator took every non-ASCII byte
/// for part of an unquoted key, where JSONDecoder ends a key at a character that is not a letter,
/// mark, digit, connector or joiner. A key with a no-break space inside (`nu\u{A0}mber`) was
/// then one key to the locator and a key followed by garbage to the decoder, and the error fell
/// back to "JSONDecoder rejected the document" at the root, unlocated.
@Suite struct UnquotedKeyCharacterTests {
    @Test func aNoBreakSpaceInAnUnquotedKeyIsAnErrorAtTheSpace() {
        #expect(diagnostics("{\n  views: [{ id: \"r\", nu\u{A0}mber: 1 }] }") == [
            "test.json5:2:24: views[0]: expected ':' after key \"nu\""
        ])
    }

    @Test(arguments: [
        "{nu\u{A0}mber: 1}", "{po\u{40000}ints: 1}", "{\u{20AC}: 1}", "{a\u{2028}b: 1}", "{\u{0301}a: 1}", "{a\u{FEFF}: 1}",
        "{é: 1}", "{a\u{0301}b: 1}", "{a\u{200D}b: 1}", "{ǅ\u{2160}: 1}", "{a٣: 1}", "{a\u{203F}b: 1}",
    ])
    func keysEndWhereTheDecoderEndsThem(text: String) {
        #expect(parserDisagreement(text) == nil, "\(diagnostics(text))")
    }
}

/// Found by the config fuzz target: the text `0e8` (any unsigned zero with a one-digit exponent)
/// passed the locator, which JSONDecoder then refused ("Expected to decode String but found number
/// instead", at no place). The parser refuses it at the number; its neighbours still read.
@Suite struct ZeroExponentTests {
    @Test func aZeroWithAOneDigitExponentIsAnErrorAtTheNumber() {
        #expect(diagnostics("{ screen: { width: 0e8, height: 1 } }") == [
            "test.json5:1:20: screen.width: invalid number: JSONDecoder cannot read a zero with a one-digit exponent; write 0"
        ])
        #expect(diagnostics("0E5") == ["test.json5:1:1: invalid number: JSONDecoder cannot read a zero with a one-digit exponent; write 0"])
    }

    @Test(arguments: ["{a: 0e8}", "{a: 0E1}", "{a: 0e0}", "{a: 0e10}", "{a: -0e5}", "{a: +0e5}", "{a: 0.0e5}", "{a: 0.e5}", "{a: .0e5}"])
    func neighboursAgreeWithTheDecoder(text: String) {
        #expect(parserDisagreement(text) == nil, "\(diagnostics(text))")
    }
}

/// Found by the strokes fuzz target: `[1e-3000]` passed the locator, where `Double` rounds it to
/// 0, and JSONDecoder refused it (it refuses any number that is not zero but rounds to zero)
/// without a place. The parser refuses it at the number.
@Suite struct TinyNumberTests {
    @Test func aNumberThatRoundsToZeroIsAnErrorAtTheNumber() {
        #expect(diagnostics("{ screen: { width: 1e-400, height: 1 } }") == [
            "test.json5:1:20: screen.width: number is out of range (too close to zero)"
        ])
    }

    @Test(arguments: ["{a: 1e-3000}", "{a: -2e-324}", "{a: 0.00001e-320}", "{a: 5e-324}", "{a: 1e-320}", "{a: 0e-3000}",
                      "{a: 0.0e-999}", "{a: 1.8e308}", "{a: 1.7976931348623157e308}"])
    func numbersNearTheEdgesAgreeWithTheDecoder(text: String) {
        #expect(parserDisagreement(text) == nil, "\(diagnostics(text))")
    }
}

/// Found by the strokes fuzz target: `"hoo\u0000k"` passed the locator and JSONDecoder refused it
/// (it refuses an escaped NUL, `\u0000` or `\x00`, as it refuses `\0`) without a place.
@Suite struct EscapedNulTests {
    @Test func anEscapedNulIsAnErrorAtTheEscape() {
        #expect(diagnostics("{ views: [{ id: \"a\\u0000b\" }] }") == [
            "test.json5:1:19: views[0].id: invalid escape sequence: a NUL character (\\u0000) is not allowed"
        ])
        #expect(diagnostics("{ views: [{ id: 'a\\x00b' }] }") == [
            "test.json5:1:19: views[0].id: invalid escape sequence: a NUL character (\\x00) is not allowed"
        ])
    }

    @Test(arguments: ["{a: \"\\u0000\"}", "{a: '\\x00'}", "{a: \"\\u0001\"}", "{a: \"\\x01\"}", "{a: \"\\ud800\\udc00\"}"])
    func escapesAgreeWithTheDecoder(text: String) {
        #expect(parserDisagreement(text) == nil, "\(diagnostics(text))")
    }
}
