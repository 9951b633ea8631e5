import Testing
import GesturedConfig

/// Checks across the whole file: unique ids, references that resolve, no requireToFail cycles.
@Suite struct ReferenceDiagnosticsTests {
    @Test func duplicateViewId() {
        #expect(diagnostics("""
            { views: [
                { id: "panel", subviews: [{ id: "button" }] },
                { id: "button" },
            ] }
            """) == [#"test.json5:3:11: views[1].id: duplicate view id "button" (first used at 2:37)"#])
    }

    @Test func duplicateGestureIdAcrossViews() {
        #expect(diagnostics("""
            { views: [
                { id: "a", gestures: [{ id: "tap", type: "tap" }] },
                { id: "b", gestures: [{ id: "tap", type: "tap" }] },
            ] }
            """) == [#"test.json5:3:33: views[1].gestures[0].id: duplicate gesture id "tap" (first used at 2:33)"#])
    }

    @Test func danglingRequireToFailSuggestsANearId() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [
                { id: "tap", type: "tap", requireToFail: ["dubleTap"] },
                { id: "doubleTap", type: "tap", numberOfTapsRequired: 2 },
            ] }] }
            """) == [#"test.json5:2:47: views[0].gestures[0].requireToFail[0]: no gesture has the id "dubleTap"; did you mean "doubleTap"?"#])
    }

    @Test func referencesReachOtherViews() throws {
        let configuration = parsed("""
            { views: [
                { id: "a", gestures: [{ id: "zoom", type: "pinch", recognizeSimultaneouslyWith: ["spin"] }] },
                { id: "b", gestures: [{ id: "spin", type: "rotation" }] },
            ] }
            """)
        #expect(configuration?.views[0].gestures[0].recognizeSimultaneouslyWith == ["spin"])
    }

    @Test func selfReference() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tap", requireToFail: ["a"], recognizeSimultaneouslyWith: ["a"] },
            ] }] }
            """) == [
                "test.json5:2:45: views[0].gestures[0].requireToFail[0]: a gesture cannot require itself to fail",
                "test.json5:2:81: views[0].gestures[0].recognizeSimultaneouslyWith[0]: a gesture cannot recognize simultaneously with itself",
            ])
    }

    @Test func requireToFailCycleOfThree() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tap", requireToFail: ["b"] },
                { id: "b", type: "tap", requireToFail: ["c"] },
                { id: "c", type: "tap", requireToFail: ["a"] },
            ] }] }
            """) == ["test.json5:4:45: views[0].gestures[2].requireToFail[0]: requireToFail cycle: a → b → c → a"])
    }

    @Test func chainWithoutCycleIsAccepted() {
        let specs = gestures("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tap", requireToFail: ["b", "c"] },
                { id: "b", type: "tap", requireToFail: ["c"] },
                { id: "c", type: "tap" },
            ] }] }
            """)
        #expect(specs.map(\.requireToFail) == [["b", "c"], ["c"], []])
    }
}
