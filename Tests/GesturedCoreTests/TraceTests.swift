import Testing
@testable import GesturedCore

/// `--trace`: every arbiter transition with its reason, as transcripts (trace lines interleaved
/// with the gesture lines of the same instant, failed lines included).
struct TraceTests {
    private func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.traceTransitions()
        return s
    }

    private func traces(_ s: EngineScript) -> [String] { s.lines.filter { $0.hasPrefix("trace ") } }

    // MARK: requireToFail

    @Test func singleWaitsForTheDoubleAndIsReleasedWhenItFails() throws {
        var s = try script([tap("single", requireToFail: ["double"]), tap("double", taps: 2)])
        s.tap(1, 100, 100, at: 0)
        s.advance(to: 1000)
        #expect(s.brief == [
            "trace 0.050000 single: possible → waiting (requires double to fail)",
            "trace 0.350000 double: possible → failed (no tap 2 within maximumTapInterval 0.3 s)",
            "trace 0.350000 single: waiting → possible (double failed)",
            "trace 0.350000 single: possible → ended (1 tap of 1 touch)",
            "gesture tap ended single view=root time=0.350000 touches=1 x=100.00 y=100.00 taps=1",
        ])
    }

    @Test func singleFailsWhenTheDoubleSucceeds() throws {
        var s = try script([tap("single", requireToFail: ["double"]), tap("double", taps: 2)])
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 100, 100, at: 150)
        #expect(traces(s) == [
            "trace 0.050000 single: possible → waiting (requires double to fail)",
            "trace 0.200000 double: possible → ended (2 taps of 1 touch)",
            "trace 0.200000 single: waiting → failed (double won with a shared touch)",
        ])
    }
}

/// Each recognizer's reasons for failing (and for succeeding), one transcript each.
struct RecognizerTraceTests {
    private func traces(_ gestures: [GestureSpec], _ script: (inout EngineScript) -> Void) throws -> [String] {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.traceTransitions()
        script(&s)
        return s.lines.filter { $0.hasPrefix("trace ") }
    }

    @Test func tap() throws {
        #expect(try traces([GesturedCoreTests.tap("t")]) { s in s.down(1, 100, 100, at: 0); s.move(1, 112, 100, at: 20) }
                == ["trace 0.020000 t: possible → failed (moved 12 pt > movementSlop 10 pt)"])
        #expect(try traces([GesturedCoreTests.tap("t")]) { s in s.down(1, 100, 100, at: 0); s.down(2, 200, 100, at: 10) }
                == ["trace 0.010000 t: possible → failed (2 touches down > 1 allowed)"])
        #expect(try traces([GesturedCoreTests.tap("t", touches: 2)]) { s in s.tap(1, 100, 100, at: 0) }
                == ["trace 0.050000 t: possible → failed (1 touch < 2 required)"])
        #expect(try traces([GesturedCoreTests.tap("t", taps: 2)]) { s in s.tap(1, 100, 100, at: 0); s.tap(2, 300, 100, at: 100) }
                == ["trace 0.100000 t: possible → failed (next tap 200 pt away > maximumTapDistance 100 pt)"])
        #expect(try traces([GesturedCoreTests.tap("t", taps: 2)]) { s in s.tap(1, 100, 100, at: 0); s.advance(to: 1000) }
                == ["trace 0.350000 t: possible → failed (no tap 2 within maximumTapInterval 0.3 s)"])
        #expect(try traces([GesturedCoreTests.tap("t")]) { s in s.down(1, 100, 100, at: 0); s.cancel(1, at: 10) }
                == ["trace 0.010000 t: possible → failed (a touch was cancelled)"])
    }

    @Test func swipe() throws {
        #expect(try traces([GesturedCoreTests.swipe("s", [.right])]) { s in s.down(1, 100, 100, at: 0); s.advance(to: 600) }
                == ["trace 0.500000 s: possible → failed (not swiped within maximumDuration 0.5 s)"])
        #expect(try traces([GesturedCoreTests.swipe("s", [.right])]) { s in s.down(1, 100, 100, at: 0); s.move(1, 104, 100, at: 10); s.up(1, at: 20) }
                == ["trace 0.020000 s: possible → failed (touch lifted before 10 pt at 300 pt/s)"])
        #expect(try traces([GesturedCoreTests.swipe("s", [.left])]) { s in s.down(1, 100, 100, at: 0); s.move(1, 200, 100, at: 50) }
                == ["trace 0.050000 s: possible → failed (swiped right, not one of its directions)"])
        #expect(try traces([GesturedCoreTests.swipe("s", [.right])]) { s in s.down(1, 100, 100, at: 0); s.move(1, 200, 160, at: 50) }
                == ["trace 0.050000 s: possible → failed (0.54 rad off the right axis > angleTolerance 0.39 rad)"])
        #expect(try traces([GesturedCoreTests.swipe("s", [.right])]) { s in s.down(1, 100, 100, at: 0); s.move(1, 200, 100, at: 50) }
                == ["trace 0.050000 s: possible → ended (swiped right ≥ 10 pt at ≥ 300 pt/s with 1 touch)"])
    }

    @Test func pan() throws {
        #expect(try traces([GesturedCoreTests.pan("p")]) { s in s.tap(1, 100, 100, at: 0) }
                == ["trace 0.050000 p: possible → failed (touch lifted before 10 pt of movement)"])
        #expect(try traces([GesturedCoreTests.pan("p", maximum: 1)]) { s in s.down(1, 100, 100, at: 0); s.down(2, 200, 100, at: 10) }
                == ["trace 0.010000 p: possible → failed (2 touches down > 1 allowed)"])
        #expect(try traces([GesturedCoreTests.pan("p")]) { s in s.down(1, 100, 100, at: 0); s.move(1, 120, 100, at: 10); s.up(1, at: 20) }
                == ["trace 0.010000 p: possible → began (moved 10 pt with 1 touch)", "trace 0.020000 p: running → ended (touches lifted)"])
    }

    @Test func longPress() throws {
        #expect(try traces([GesturedCoreTests.longPress("h")]) { s in s.down(1, 100, 100, at: 0); s.advance(to: 600); s.up(1, at: 700) }
                == ["trace 0.500000 h: possible → began (0.5 s without moving 10 pt)", "trace 0.700000 h: running → ended (touches lifted)"])
        #expect(try traces([GesturedCoreTests.longPress("h")]) { s in s.tap(1, 100, 100, at: 0) }
                == ["trace 0.050000 h: possible → failed (lifted after 0.05 s < minimumPressDuration 0.5 s)"])
        #expect(try traces([GesturedCoreTests.longPress("h")]) { s in s.down(1, 100, 100, at: 0); s.move(1, 100, 115, at: 10) }
                == ["trace 0.010000 h: possible → failed (moved 15 pt > allowableMovement 10 pt)"])
        #expect(try traces([GesturedCoreTests.longPress("h", taps: 1)]) { s in s.down(1, 100, 100, at: 0); s.advance(to: 600) }
                == ["trace 0.500000 h: possible → failed (a tap held for minimumPressDuration 0.5 s before the taps were done)"])
        #expect(try traces([GesturedCoreTests.longPress("h", taps: 1)]) { s in s.tap(1, 100, 100, at: 0); s.advance(to: 600) }
                == ["trace 0.350000 h: possible → failed (no tap 2 within maximumTapInterval 0.3 s)"])
    }

    @Test func twoTouchGestures() throws {
        let liftedStill: (inout EngineScript) -> Void = { s in
            s.frame(at: 0, [(1, .began, Point(x: 100, y: 100)), (2, .began, Point(x: 200, y: 100))])
            s.frame(at: 50, [(1, .ended, nil), (2, .ended, nil)])
        }
        #expect(try traces([pinch("z")], liftedStill)
                == ["trace 0.050000 z: possible → failed (touch lifted before 10 pt of change in span)"])
        #expect(try traces([rotation("r")], liftedStill)
                == ["trace 0.050000 r: possible → failed (touch lifted before 0.1 rad of turn)"])
        #expect(try traces([pinch("z")]) { s in
            s.frame(at: 0, [(1, .began, Point(x: 100, y: 100)), (2, .began, Point(x: 200, y: 100))])
            s.frame(at: 50, [(2, .moved, Point(x: 250, y: 100))])
        } == ["trace 0.050000 z: possible → began (span changed 10 pt)"])
    }

    @Test func screenEdgePan() throws {
        #expect(try traces([edgePan("e", [.left])]) { s in s.down(1, 500, 500, at: 0) }
                == ["trace 0.000000 e: possible → failed (touch began more than edgeZoneWidth 20 pt from its edges)"])
        #expect(try traces([edgePan("e", [.left])]) { s in s.down(1, 5, 500, at: 0); s.move(1, 5, 530, at: 10) }
                == ["trace 0.010000 e: possible → failed (moved 10 pt, but not away from its edge)"])
        #expect(try traces([edgePan("e", [.left])]) { s in s.down(1, 5, 500, at: 0); s.down(2, 5, 700, at: 10) }
                == ["trace 0.010000 e: possible → failed (a second touch went down)"])
        #expect(try traces([edgePan("e", [.left])]) { s in s.down(1, 5, 500, at: 0); s.up(1, at: 10) }
                == ["trace 0.010000 e: possible → failed (touch lifted before 10 pt of movement)"])
        #expect(try traces([edgePan("e", [.left])]) { s in s.down(1, 5, 500, at: 0); s.move(1, 40, 500, at: 10); s.up(1, at: 20) }
                == ["trace 0.010000 e: possible → began (moved 10 pt away from the left edge)", "trace 0.020000 e: running → ended (touches lifted)"])
    }

    /// A stroke's reasons name its templates: the one drawn, or the best of those that scored too
    /// little (the events carry a template's index; the trace reads its name).
    @Test func theTemplateDrawnAndTheBestThatScoredTooLittle() throws {
        let check = StrokeRecognizerTests.placed("check")
        let lift = LineEncoder.fixed(8 * Double(check.count) / 1000, decimals: 6)
        #expect(try traces([StrokeRecognizerTests.stroke("s", ["v", "check"])]) { StrokeRecognizerTests.draw(check, into: &$0) }
                == ["trace \(lift) s: possible → ended (drew check, score 1 ≥ minimumScore 0.8)"])
        #expect(try traces([StrokeRecognizerTests.stroke("s", ["v", "check"])]) {
            StrokeRecognizerTests.draw(StrokeRecognizerTests.placed("caret", degrees: 90), into: &$0)
        } == ["trace 1.080000 s: possible → failed (best template check scored 0.523 < minimumScore 0.8)"])
    }

    @Test func aWinnerForcesOthersOut() throws {
        #expect(try traces([GesturedCoreTests.pan("p"), GesturedCoreTests.longPress("h")]) { s in s.down(1, 100, 100, at: 0); s.move(1, 130, 100, at: 10) }
                == ["trace 0.010000 p: possible → began (moved 10 pt with 1 touch)",
                    "trace 0.010000 h: possible → failed (p won with a shared touch)"])
    }

    @Test func hidingAViewTracesWhy() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [GesturedCoreTests.longPress("h")])])
        s.traceTransitions()
        s.down(1, 100, 100, at: 0)
        s.change("root", ViewTree.Change.hidden(true), at: 100)
        #expect(s.lines == ["trace 0.100000 h: possible → failed (view root hidden or disabled)"])
    }
}
