import Testing
import GesturedConfig
import GesturedCore

/// "Did you mean" beyond keys and ids: an enumerated value with a typo, and a value of the wrong
/// type that was plainly meant as the right one (issue 37).
@Suite struct SuggestionDiagnosticsTests {
    @Test func aMisspelledEnumeratedValueGetsTheClosestName() {
        #expect(diagnostics("""
            { devices: [{ match: { type: "touchscren" }, passThrough: true, cancelStyle: "plam" }],
              views: [{ id: "root", gestures: [{ id: "t", type: "tap",
                action: { on: "endd", run: ["/bin/true"] } }] }] }
            """) == [
                #"test.json5:1:30: devices[0].match.type: must be one of touchscreen, touchpad, tablet, other, found "touchscren"; did you mean "touchscreen"?"#,
                #"test.json5:1:78: devices[0].cancelStyle: must be one of palm, lift, found "plam"; did you mean "palm"?"#,
                #"test.json5:3:19: views[0].gestures[0].action.on: must be one of began, changed, ended, cancelled, failed, found "endd"; did you mean "ended"?"#,
            ])
        // Nothing close: the list alone.
        #expect(diagnostics(#"{ devices: [{ match: {}, passThrough: true, cancelStyle: "vanish" }] }"#) == [
            #"test.json5:1:58: devices[0].cancelStyle: must be one of palm, lift, found "vanish""#,
        ])
    }

    @Test func runGivenAsAStringSuggestsItsWords() {
        #expect(diagnostics("""
            { views: [{ id: "root", gestures: [{ id: "t", type: "tap",
                action: { run: "/usr/bin/touch /run/gestured/actions/kiosk-admin" } }] }] }
            """) == [
                #"test.json5:2:20: views[0].gestures[0].action.run: expected an array, found a string: the program and its arguments, each a string (no shell splits it); did you mean ["/usr/bin/touch", "/run/gestured/actions/kiosk-admin"]?"#,
            ])
    }

    @Test func otherWrongTypesThatWereMeantSuggestTheirValue() {
        #expect(diagnostics("""
            { views: [{ id: "root", isHidden: "true", alpha: " 0.5", frame: [0, 0, 10, 10],
                gestures: [{ id: 7, type: "tap", requireToFail: "other" }] }] }
            """) == [
                #"test.json5:1:35: views[0].isHidden: expected a boolean, found a string; did you mean true (no quotes)?"#,
                #"test.json5:1:50: views[0].alpha: expected a number, found a string; did you mean 0.5 (no quotes)?"#,
                #"test.json5:2:22: views[0].gestures[0].id: expected a string, found a number; did you mean "7"?"#,
                #"test.json5:2:53: views[0].gestures[0].requireToFail: expected an array, found a string; did you mean ["other"]?"#,
            ])
        // A mismatch with no likely meaning gets no guess.
        #expect(diagnostics(#"{ views: [{ id: "root", isHidden: "maybe" }] }"#) == [
            #"test.json5:1:35: views[0].isHidden: expected a boolean, found a string"#,
        ])
    }
}
