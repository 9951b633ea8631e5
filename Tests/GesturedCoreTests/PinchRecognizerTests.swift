import Testing
@testable import GesturedCore

/// Pinch transcripts on the virtual clock (ms): the span slop just under and over, the pair and
/// carried touches, re-basing when a finger of the pair lifts, ending and cancelling.
struct PinchRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.includeFailed = true
        return s
    }

    /// Two fingers 200 pt apart spreading by 6 pt per frame.
    @Test func spreadTranscript() throws {
        var s = try script([pinch("z")])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        for i in 1...3 {
            let d: Double = 3 * Double(i)
            s.frame(at: 10 * Double(i), [(1, .moved, Point(x: 400 - d, y: 500)), (2, .moved, Point(x: 600 + d, y: 500))])
        }
        s.frame(at: 40, [(1, .ended, nil), (2, .ended, nil)])
        #expect(s.brief == [
            // 212 / 200: began already off 1.0 by the slop; 0.03 per 10 ms = 3 scale/s.
            "gesture pinch began z view=root time=0.020000 touches=2 x=500.00 y=500.00 scale=1.060 velocity=3.00",
            "gesture pinch changed z view=root time=0.030000 touches=2 x=500.00 y=500.00 scale=1.090 velocity=3.00",
            // Still for the last 10 ms: the least-squares slope over 0...40 ms is 2.4 per second.
            "gesture pinch ended z view=root time=0.040000 touches=2 x=500.00 y=500.00 scale=1.090 velocity=2.40",
        ])
    }

    @Test(arguments: [(10.0, false), (10.01, true)])
    func slop(change: Double, begins: Bool) throws {
        var s = try script([pinch("z")])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        s.move(2, 600 - change, 500, at: 10)                  // pinching in
        #expect(s.states == (begins ? ["began"] : []))
    }

    @Test func configuredSlop() throws {
        var s = try script([pinch("z") { $0.slop = 50 }])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        s.move(2, 649, 500, at: 10)
        #expect(s.lines.isEmpty)
        s.move(2, 651, 500, at: 20)
        #expect(s.values("scale") == [1.255])
    }

    @Test func oneFingerNeverPinches() throws {
        var s = try script([pinch("z")])
        s.down(1, 400, 500, at: 0)
        s.move(1, 100, 100, at: 10)
        s.up(1, at: 20)
        #expect(s.brief == ["gesture pinch failed z view=root time=0.020000 touches=1 x=100.00 y=100.00"])
    }

    /// The span is measured from when the second finger lands, not from the first's position.
    @Test func referenceIsWhereThePairFormed() throws {
        var s = try script([pinch("z")])
        s.down(1, 400, 500, at: 0)
        s.move(1, 300, 500, at: 10)
        s.down(2, 500, 500, at: 20)                            // span 200 now
        s.move(2, 505, 500, at: 30)
        #expect(s.lines.isEmpty)
        s.move(2, 511, 500, at: 40)
        #expect(s.values("scale") == [1.055])
    }

    @Test func thirdFingerIsCarriedAndTakesOverWithoutAJump() throws {
        var s = try script([pinch("z")])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        s.frame(at: 10, [(1, .moved, Point(x: 380, y: 500)), (2, .moved, Point(x: 620, y: 500))])   // 240/200
        s.down(3, 500, 800, at: 20)                            // carried: same scale, three touches
        s.move(3, 500, 850, at: 30)                            // not of the pair: same scale
        s.up(1, at: 40)                                        // pair is now 2 and 3: re-based, same scale
        s.move(3, 500, 950, at: 50)                            // span 323.11 → 466.48 (from the re-base)
        s.frame(at: 60, [(2, .ended, nil), (3, .ended, nil)])
        #expect(s.states == ["began", "changed", "changed", "changed", "changed", "ended"])
        // A changed line after a lift counts the touches that remain.
        #expect(s.values("touches") == [2, 3, 3, 2, 2, 2])
        // 1.2 × |(620,500)−(500,950)| / |(620,500)−(500,850)| = 1.2 × 465.72 / 370.00
        #expect(s.values("scale") == [1.2, 1.2, 1.2, 1.2, 1.510, 1.510])
    }

    @Test func endsWhenOneOfTwoLifts() throws {
        var s = try script([pinch("z")])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        s.move(2, 700, 500, at: 10)
        s.up(1, at: 20)
        s.move(2, 800, 500, at: 30)                            // deaf
        s.up(2, at: 40)
        #expect(s.brief == [
            "gesture pinch began z view=root time=0.010000 touches=2 x=550.00 y=500.00 scale=1.500 velocity=0.00",
            "gesture pinch ended z view=root time=0.020000 touches=2 x=550.00 y=500.00 scale=1.500 velocity=25.00",
        ])
    }

    @Test func cancelledTouchCancels() throws {
        var s = try script([pinch("z")])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        s.move(2, 550, 500, at: 10)
        s.cancel(2, at: 20)
        #expect(s.brief == [
            "gesture pinch began z view=root time=0.010000 touches=2 x=475.00 y=500.00 scale=0.750 velocity=0.00",
            // Cancelled lines carry no values; the arbiter writes where that frame's touches were.
            "gesture pinch cancelled z view=root time=0.020000 touches=2 x=550.00 y=500.00",
        ])
    }
}
