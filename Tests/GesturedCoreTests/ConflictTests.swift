import Testing
@testable import GesturedCore

/// The arbiter's rules, as transcripts.
struct ConflictTests {
    @Test func doubleTapWithRequireToFailReportsOnlyTheDouble() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("single", requireToFail: ["double"]), tap("double", taps: 2)])])
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 102, 101, at: 150)
        s.advance(to: 2000)
        #expect(s.brief == ["gesture tap ended double view=root time=0.200000 touches=1 x=102.00 y=101.00 taps=2"])
    }

    @Test func loneTapWithRequireToFailWaitsForTheDoubleToFail() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("single", requireToFail: ["double"]), tap("double", taps: 2)])])
        s.tap(1, 100, 100, at: 0)
        s.advance(to: 349)
        #expect(s.lines.isEmpty)
        s.advance(to: 350)   // the double-tap window closes 300 ms after the lift at 50 ms
        #expect(s.brief == ["gesture tap ended single view=root time=0.350000 touches=1 x=100.00 y=100.00 taps=1"])
    }

    @Test func withoutRequireToFailSingleThenDouble() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("single"), tap("double", taps: 2)])])
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 100, 100, at: 150)
        s.advance(to: 2000)
        #expect(s.brief == ["gesture tap ended single view=root time=0.050000 touches=1 x=100.00 y=100.00 taps=1",
                            "gesture tap ended double view=root time=0.200000 touches=1 x=100.00 y=100.00 taps=2"])
    }

    @Test func failedStatesAreReportedToWhoeverAsks() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("single", requireToFail: ["double"]), tap("double", taps: 2)])])
        s.includeFailed = true
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 100, 100, at: 150)
        #expect(s.brief == ["gesture tap ended double view=root time=0.200000 touches=1 x=100.00 y=100.00 taps=2",
                            "gesture tap failed single view=root time=0.200000 touches=1 x=100.00 y=100.00"])
    }

    @Test func childViewsTapBeatsItsParentsTap() throws {
        var s = try EngineScript([ViewSpec(id: "panel", gestures: [tap("panelTap")], subviews: [
            ViewSpec(id: "button", frame: frame(100, 100, 50, 50), gestures: [tap("buttonTap")]),
        ])])
        s.includeFailed = true
        s.tap(1, 120, 120, at: 0)
        s.tap(2, 500, 500, at: 1000)
        #expect(s.brief == [
            "gesture tap ended buttonTap view=button time=0.050000 touches=1 x=120.00 y=120.00 taps=1",
            "gesture tap failed panelTap view=panel time=0.050000 touches=1 x=120.00 y=120.00",
            "gesture tap ended panelTap view=panel time=1.050000 touches=1 x=500.00 y=500.00 taps=1",
        ])
    }

    @Test func configOrderDecidesWithinAView() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("first"), tap("second")])])
        s.tap(1, 100, 100, at: 0)
        #expect(s.brief == ["gesture tap ended first view=root time=0.050000 touches=1 x=100.00 y=100.00 taps=1"])
    }

    @Test func simultaneousPairBothRecognize() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("first", simultaneous: ["second"]), tap("second")])])
        s.tap(1, 100, 100, at: 0)
        #expect(s.brief == ["gesture tap ended first view=root time=0.050000 touches=1 x=100.00 y=100.00 taps=1",
                            "gesture tap ended second view=root time=0.050000 touches=1 x=100.00 y=100.00 taps=1"])
    }

    @Test func chainARequiresBRequiresC() throws {
        // a (1 tap) waits for b (2 taps), which waits for c (3 taps).
        let views = [ViewSpec(id: "root", gestures: [tap("a", requireToFail: ["b"]), tap("b", taps: 2, requireToFail: ["c"]),
                                                     tap("c", taps: 3)])]
        var one = try EngineScript(views)
        one.tap(1, 100, 100, at: 0)
        one.advance(to: 5000)
        #expect(one.brief == ["gesture tap ended a view=root time=0.350000 touches=1 x=100.00 y=100.00 taps=1"])

        var two = try EngineScript(views)
        two.tap(1, 100, 100, at: 0)
        two.tap(2, 100, 100, at: 200)
        two.advance(to: 5000)
        #expect(two.brief == ["gesture tap ended b view=root time=0.550000 touches=1 x=100.00 y=100.00 taps=2"])

        var three = try EngineScript(views)
        for i in 0..<3 { three.tap(UInt64(i + 1), 100, 100, at: Double(i) * 200) }
        three.advance(to: 5000)
        #expect(three.brief == ["gesture tap ended c view=root time=0.450000 touches=1 x=100.00 y=100.00 taps=3"])
    }

    @Test func deadlinesFireAtTheirOwnInstantsBeforeALaterFrame() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("single", requireToFail: ["double"]), tap("double", taps: 2)])])
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 600, 600, at: 1000)   // no advance in between: the frame at 1000 fires the deadline at 350 first
        s.advance(to: 5000)
        #expect(s.brief == ["gesture tap ended single view=root time=0.350000 touches=1 x=100.00 y=100.00 taps=1",
                            "gesture tap ended single view=root time=1.350000 touches=1 x=600.00 y=600.00 taps=1"])
    }

    @Test func nextDeadlineIsExposedAndClearedWhenIdle() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("single", requireToFail: ["double"]), tap("double", taps: 2)])])
        #expect(s.engine.nextDeadline == nil)
        s.tap(1, 100, 100, at: 0)
        #expect(s.engine.nextDeadline == EngineScript.at(350))
        s.advance(to: 350)
        #expect(s.engine.nextDeadline == nil)
    }
}
