import FoundationEssentials
import GesturedFuzzKit
import Testing

/// What the fuzz targets found, each input as libFuzzer saved it (Tests/Fuzz/Regressions/
/// <target>/<what it found>), replayed through its target's harness: every one failed there
/// before its fix (docs/RELIABILITY.md, "Fuzzing", lists them with the fix and its own test).
struct FindingsTests {
    static func replay(_ target: FuzzTarget, _ name: String) throws {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        let path = components.joined(separator: "/") + "/Tests/Fuzz/Regressions/\(target.rawValue)/\(name)"
        try target.run([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// `nu\u{A0}mberOfTouchesRequired` in the default configuration: one key to the locator, a
    /// key and garbage to JSONDecoder, an unlocated error.
    @Test func configUnquotedKeyWithANoBreakSpace() throws {
        try Self.replay(.config, "unquoted-key-with-a-no-break-space")
    }

    /// `po\u{40000}ints` (an unassigned character) in a template file: the same disagreement.
    @Test func strokesUnquotedKeyWithAnUnassignedCharacter() throws {
        try Self.replay(.strokes, "unquoted-key-with-an-unassigned-character")
    }
}

extension FindingsTests {
    /// A device whose axes span every Int32, with a resolution and no configured screen size:
    /// the implied screen's `maximum - minimum` trapped.
    @Test func pipelineWidestAxisImpliedScreenOverflow() throws {
        try Self.replay(.pipeline, "widest-axis-implied-screen-overflow")
    }
}

extension FindingsTests {
    /// `0e8`: the locator read a number that JSONDecoder cannot, and the error had no place.
    @Test func configZeroWithAOneDigitExponent() throws {
        try Self.replay(.config, "zero-with-a-one-digit-exponent")
    }
}

extension FindingsTests {
    /// A description whose slot axis goes to 2147483646, with one event: the decoder allocated a
    /// slot per value (written by hand after reading the decoder, not found by a fuzzing run).
    @Test func evemuTwoBillionSlots() throws {
        try Self.replay(.evemu, "two-billion-slots")
    }
}

extension FindingsTests {
    /// A protocol A device as wide as Int32: the contact matcher's distance overflowed.
    @Test func pipelineProtocolAJumpAcrossTheWidestAxis() throws {
        try Self.replay(.pipeline, "protocol-a-jump-across-the-widest-axis")
    }
}

extension FindingsTests {
    /// `[1e-3000]`: the locator read 0 where JSONDecoder refuses the number, with no place.
    @Test func strokesANumberThatRoundsToZero() throws {
        try Self.replay(.strokes, "a-number-that-rounds-to-zero")
    }
}

extension FindingsTests {
    /// `"hoo\u0000k"`: an escaped NUL the locator read and JSONDecoder refuses, with no place.
    @Test func strokesAnEscapedNul() throws {
        try Self.replay(.strokes, "an-escaped-nul")
    }
}

extension FindingsTests {
    /// A file of one long number: JSONDecoder read past its buffer and trapped when digits lay
    /// there (the heap's chance: this replay alone passed before the fix too; DecoderInputTests
    /// checks the fix itself).
    @Test func strokesALongNumberAtTheEndOfTheText() throws {
        try Self.replay(.strokes, "a-long-number-at-the-end-of-the-text")
    }
}

extension FindingsTests {
    /// A template point at 1e308: loaded, then dropped by the matcher without a word.
    @Test func strokesAPointAt1e308() throws {
        try Self.replay(.strokes, "a-point-at-1e308")
    }
}

extension FindingsTests {
    /// A client's `filter` with a run of stars (`otaunsubsc***…]***…ri` among others, 4 KiB of
    /// requests): the backtracking glob took more than the requests target's 5 s (issue 25,
    /// item 6). The matcher is linear now (GlobTests); this replays the input the fuzzer saved.
    @Test
    func requestsGlobBacktrackingTimeout() throws {
        try Self.replay(.requests, "glob-backtracking-timeout")
    }
}

extension FindingsTests {
    /// A comment, then a line `0`: the number ends the text, and the harness's own reference
    /// decoder (not the loader, which already adds a line break) was handed the bare text and
    /// trapped in JSONDecoder, as `a-long-number-at-the-end-of-the-text` did in the loader. What
    /// lies past the buffer is the heap's chance: this replay alone passed before the fix too.
    @Test func strokesAReferenceDecoderGivenANumberAtTheEnd() throws {
        try Self.replay(.strokes, "a-number-at-the-end-for-the-reference-decoder")
    }
}

extension FindingsTests {
    /// A long press whose deadline was pending when a `SYN_DROPPED` came: one step fired the
    /// deadline (the press began and claimed the touch, its cancel stamped then) and the resync
    /// cancelled the press later, so the batch held lines of both instants before the clone's
    /// touches of both. The ledger took that for time going backwards; each stream is in order.
    @Test func pipelineADeadlineAndASynDroppedInOneStep() throws {
        try Self.replay(.pipeline, "a-deadline-and-a-syn-dropped-in-one-step")
    }
}
