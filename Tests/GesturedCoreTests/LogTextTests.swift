import Testing
@testable import GesturedCore

/// What a client or a device chooses (a request line, a device's name) reaches the journal as one
/// record: journald starts a record at every newline and reads its `<N>` as the priority.
struct LogTextTests {
    @Test(arguments: [
        ("event7 (ILITEK Multi-Touch): using it", "event7 (ILITEK Multi-Touch): using it"),
        ("evil\n<0>forged emergency", "evil\\n<0>forged emergency"),
        ("nul\0cut", "nul\\0cut"),
        ("\u{1b}[2Jclear\r", "\\x1b[2Jclear\\r"),
        ("tab\there", "tab\\there"),
        ("del\u{7f} c1\u{85}", "del\\x7f c1\\u{85}"),
        ("back\\slash", "back\\\\slash"),
        ("ünïcödé → kept", "ünïcödé → kept"),
    ])
    func escapes(message: String, line: String) {
        #expect(LogText.escaped(message) == line)
    }

    /// Whatever the message, the escaped line has no control character left: one record, no
    /// terminal escape.
    @Test func noControlCharacterSurvives() {
        let every = String(String.UnicodeScalarView((0...0x9F).compactMap(Unicode.Scalar.init)))
        let escaped = LogText.escaped(every)
        #expect(!escaped.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }
}
