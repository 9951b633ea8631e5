import Testing
@testable import GesturedCore

/// Tap transcripts on the virtual clock (ms), including each threshold just under and just over.
struct TapRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        try EngineScript([ViewSpec(id: "root", gestures: gestures)])
    }

    @Test func singleTap() throws {
        var s = try script([tap("t")])
        s.down(1, 100, 200, at: 0)
        s.move(1, 104, 203, at: 20)
        s.up(1, at: 60)
        #expect(s.brief == ["gesture tap ended t view=root time=0.060000 touches=1 x=104.00 y=203.00 taps=1"])
    }

    @Test(arguments: [1, 2, 3])
    func multiTapRecognizesOnTheLastLift(taps: Int) throws {
        var s = try script([tap("t", taps: taps)])
        for i in 0..<taps { s.tap(UInt64(i + 1), 100, 100, at: Double(i) * 200) }
        let last = Double(taps - 1) * 200 + 50
        #expect(s.brief == ["gesture tap ended t view=root time=\(Instant(microseconds: Int64(last) * 1000)) touches=1 x=100.00 y=100.00 taps=\(taps)"])
    }

    @Test func tripleTapFailsAfterTwoTaps() throws {
        var s = try script([tap("t", taps: 3)])
        s.includeFailed = true
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 100, 100, at: 200)
        s.advance(to: 2000)
        #expect(s.brief == ["gesture tap failed t view=root time=0.550000 touches=0 x=100.00 y=100.00"])
    }

    @Test func twoTouchTap() throws {
        var s = try script([tap("two", touches: 2)])
        s.frame(at: 0, [(1, .began, Point(x: 100, y: 100)), (2, .began, Point(x: 200, y: 100))])
        s.frame(at: 40, [(1, .ended, nil), (2, .ended, nil)])
        #expect(s.brief == ["gesture tap ended two view=root time=0.040000 touches=2 x=150.00 y=100.00 taps=1"])
    }

    @Test func twoTouchTapWithStaggeredFingers() throws {
        var s = try script([tap("two", touches: 2)])
        s.down(1, 100, 100, at: 0)
        s.down(2, 200, 100, at: 15)
        s.up(1, at: 60)
        s.up(2, at: 70)
        #expect(s.brief == ["gesture tap ended two view=root time=0.070000 touches=2 x=150.00 y=100.00 taps=1"])
    }

    @Test func twoTouchDoubleTap() throws {
        var s = try script([tap("two", taps: 2, touches: 2)])
        for (i, start) in [0.0, 200].enumerated() {
            let a = UInt64(2 * i + 1), b = a + 1
            s.frame(at: start, [(a, .began, Point(x: 100, y: 100)), (b, .began, Point(x: 200, y: 100))])
            s.frame(at: start + 40, [(a, .ended, nil), (b, .ended, nil)])
        }
        #expect(s.brief == ["gesture tap ended two view=root time=0.240000 touches=2 x=150.00 y=100.00 taps=2"])
    }

    @Test func oneTouchTapFailsWithTwoTouches() throws {
        var s = try script([tap("t")])
        s.includeFailed = true
        s.down(1, 100, 100, at: 0)
        s.down(2, 300, 100, at: 10)
        s.up(1, at: 40); s.up(2, at: 45)
        #expect(s.brief == ["gesture tap failed t view=root time=0.010000 touches=2 x=300.00 y=100.00"])
    }

    @Test func twoTouchTapFailsWithOneTouch() throws {
        var s = try script([tap("two", touches: 2)])
        s.includeFailed = true
        s.tap(1, 100, 100, at: 0)
        #expect(s.brief == ["gesture tap failed two view=root time=0.050000 touches=1 x=100.00 y=100.00"])
    }

    @Test(arguments: [(9.99, true), (10.0, true), (10.01, false)])
    func movementSlop(distance: Double, recognizes: Bool) throws {
        var s = try script([tap("t")])
        s.down(1, 100, 100, at: 0)
        s.move(1, 100 + distance, 100, at: 20)
        s.move(1, 100, 100, at: 30)
        s.up(1, at: 40)
        #expect(s.lines.count == (recognizes ? 1 : 0))
    }

    /// The window is half-open: a deadline fires before a frame at the same instant, so the next
    /// tap must start less than `maximumTapInterval` after the lift.
    @Test(arguments: [(299.0, true), (299.999, true), (300.0, false)])
    func intervalBetweenTaps(gap: Double, recognizes: Bool) throws {
        var s = try script([tap("t", taps: 2)])
        s.includeFailed = true
        s.tap(1, 100, 100, at: 0)           // lifts at 50
        s.tap(2, 100, 100, at: 50 + gap)
        s.advance(to: 5000)
        let ended = s.brief.filter { $0.contains("tap ended t") }
        #expect(ended.count == (recognizes ? 1 : 0))
        // Too late: the first sequence fails at its deadline, the second tap starts another.
        #expect(s.brief.first?.hasPrefix("gesture tap failed t view=root time=0.350000") == !recognizes)
    }

    @Test(arguments: [(100.0, true), (100.5, false)])
    func distanceBetweenTaps(distance: Double, recognizes: Bool) throws {
        var s = try script([tap("t", taps: 2)])
        s.tap(1, 100, 100, at: 0)
        s.tap(2, 100 + distance, 100, at: 200)
        #expect(s.lines.count == (recognizes ? 1 : 0))
    }

    @Test func cancelledTouchFailsTheTap() throws {
        var s = try script([tap("t")])
        s.includeFailed = true
        s.down(1, 100, 100, at: 0)
        s.cancel(1, at: 20)
        s.tap(2, 100, 100, at: 100)
        #expect(s.brief == ["gesture tap failed t view=root time=0.020000 touches=1 x=100.00 y=100.00",
                            "gesture tap ended t view=root time=0.150000 touches=1 x=100.00 y=100.00 taps=1"])
    }

    @Test func touchOutsideEveryViewReachesNoRecognizer() throws {
        var s = try EngineScript([ViewSpec(id: "box", frame: frame(0, 0, 100, 100), gestures: [tap("t")])])
        s.tap(1, 500, 500, at: 0)
        #expect(s.lines.isEmpty)
    }

    @Test func touchKeepsItsViewWhenItLeavesIt() throws {
        var s = try EngineScript([ViewSpec(id: "root", subviews: [
            ViewSpec(id: "button", frame: frame(0, 0, 20, 20), gestures: [tap("t") { $0.movementSlop = 50 }]),
        ])])
        s.down(1, 15, 15, at: 0)
        s.move(1, 40, 15, at: 10)   // now outside the button, within the slop
        s.up(1, at: 30)
        #expect(s.brief == ["gesture tap ended t view=button time=0.030000 touches=1 x=40.00 y=15.00 taps=1"])
    }
}
