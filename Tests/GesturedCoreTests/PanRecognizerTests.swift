import Testing
@testable import GesturedCore

/// Pan transcripts on the virtual clock (ms): the slop just under and over, touch counts, fingers
/// added and lifted mid-gesture, release velocity, cancellation.
struct PanRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        try EngineScript([ViewSpec(id: "root", gestures: gestures)])
    }

    @Test func dragReportsTranslationFromTouchDownAndVelocity() throws {
        var s = try script([pan("p")])
        s.down(1, 100, 100, at: 0)
        s.drag(1, from: 100, 100, by: 25, 0, steps: 5, at: 0)    // 5 pt every 10 ms: 500 pt/s
        s.up(1, at: 50)
        #expect(s.brief == [
            // 15 pt > 10 pt slop: began already holds the whole distance from touch-down.
            "gesture pan began p view=root time=0.030000 touches=1 x=115.00 y=100.00 translationX=15.00 translationY=0.00 velocityX=500.00 velocityY=0.00",
            "gesture pan changed p view=root time=0.040000 touches=1 x=120.00 y=100.00 translationX=20.00 translationY=0.00 velocityX=500.00 velocityY=0.00",
            "gesture pan changed p view=root time=0.050000 touches=1 x=125.00 y=100.00 translationX=25.00 translationY=0.00 velocityX=500.00 velocityY=0.00",
            // The lift comes in the frame after the last move, at the same instant and place.
            "gesture pan ended p view=root time=0.050000 touches=1 x=125.00 y=100.00 translationX=25.00 translationY=0.00 velocityX=500.00 velocityY=0.00",
        ])
    }

    @Test(arguments: [(10.0, false), (10.001, true)])
    func slop(distance: Double, begins: Bool) throws {
        var s = try script([pan("p")])
        s.down(1, 100, 100, at: 0)
        s.move(1, 100, 100 - distance, at: 100)
        #expect(s.brief == (begins ? ["gesture pan began p view=root time=0.100000 touches=1 x=100.00 y=90.00 translationX=0.00 translationY=-10.00 velocityX=0.00 velocityY=0.00"] : []))
    }

    @Test func slopIsMeasuredOnTheCentroidNotOnEachAxis() throws {
        var s = try script([pan("p")])
        s.down(1, 100, 100, at: 0)
        s.move(1, 107.1, 107.1, at: 100)      // 10.04 pt diagonally, 7.1 pt on each axis
        #expect(s.brief.count == 1)
    }

    @Test func configuredSlop() throws {
        var s = try script([pan("p") { $0.slop = 30 }])
        s.down(1, 100, 100, at: 0)
        s.move(1, 129, 100, at: 100)
        #expect(s.lines.isEmpty)
        s.move(1, 131, 100, at: 200)
        #expect(s.brief.count == 1)
    }

    @Test func liftBeforeSlopFails() throws {
        var s = try script([pan("p")])
        s.includeFailed = true
        s.down(1, 100, 100, at: 0)
        s.move(1, 105, 100, at: 10)
        s.up(1, at: 20)
        #expect(s.brief == ["gesture pan failed p view=root time=0.020000 touches=1 x=105.00 y=100.00"])
    }

    /// 1 to 5 fingers moving together: the centroid's translation, the count in `touches`.
    @Test(arguments: 1...5)
    func fingersMovingTogether(fingers: Int) throws {
        var s = try script([pan("p")])
        let ids = (1...fingers).map { UInt64($0) }
        s.frame(at: 0, ids.map { ($0, .began, Point(x: 100 * Double($0), y: 500)) })
        for step in 1...4 {
            s.frame(at: 10 * Double(step), ids.map { ($0, .moved, Point(x: 100 * Double($0), y: 500 - 4 * Double(step))) })
        }
        s.frame(at: 50, ids.map { ($0, .ended, nil) })
        let x = String(format2: 50 * Double(fingers + 1))
        #expect(s.brief == [
            "gesture pan began p view=root time=0.030000 touches=\(fingers) x=\(x) y=488.00 translationX=0.00 translationY=-12.00 velocityX=0.00 velocityY=-400.00",
            "gesture pan changed p view=root time=0.040000 touches=\(fingers) x=\(x) y=484.00 translationX=0.00 translationY=-16.00 velocityX=0.00 velocityY=-400.00",
            // Fingers lifting together end it together. The touch stood still for the last 10 ms,
            // which the least-squares fit over 0...50 ms sees: -600 pt·ms / 1750 ms² = -342.86 pt/s.
            "gesture pan ended p view=root time=0.050000 touches=\(fingers) x=\(x) y=484.00 translationX=0.00 translationY=-16.00 velocityX=0.00 velocityY=-342.86",
        ])
    }

    @Test func minimumTwoIgnoresOneFingerMovement() throws {
        var s = try script([pan("p", minimum: 2)])
        s.down(1, 100, 100, at: 0)
        s.move(1, 200, 100, at: 10)            // one finger: not counted
        s.down(2, 300, 100, at: 20)            // now two, centroid 250
        s.move(2, 300, 111, at: 30)            // centroid moves 5.5 pt: not yet
        #expect(s.lines.isEmpty)
        s.move(1, 200, 111, at: 40)            // centroid 11 pt from where both were down
        #expect(s.brief == ["gesture pan began p view=root time=0.040000 touches=2 x=250.00 y=111.00 translationX=0.00 translationY=11.00 velocityX=0.00 velocityY=275.00"])
    }

    @Test func tooManyFingersBeforeBeganFails() throws {
        var s = try script([pan("p", maximum: 2)])
        s.includeFailed = true
        s.down(1, 100, 100, at: 0)
        s.down(2, 200, 100, at: 5)
        s.down(3, 300, 100, at: 10)
        s.drag(1, from: 100, 100, by: 0, 50, steps: 5, at: 10)
        #expect(s.brief == ["gesture pan failed p view=root time=0.010000 touches=3 x=300.00 y=100.00"])
    }

    @Test func fingerBeyondMaximumAfterBeganIsIgnored() throws {
        var s = try script([pan("p", maximum: 1)])
        s.down(1, 100, 100, at: 0)
        s.move(1, 120, 100, at: 10)
        s.down(2, 500, 500, at: 20)
        s.move(2, 600, 600, at: 30)            // ignored: no line
        s.move(1, 130, 100, at: 40)
        s.up(2, at: 50)                        // ignored
        s.up(1, at: 60)
        #expect(s.brief.map { $0.split(separator: " ").prefix(8).joined(separator: " ") } == [
            "gesture pan began p view=root time=0.010000 touches=1 x=120.00",
            "gesture pan changed p view=root time=0.040000 touches=1 x=130.00",
            "gesture pan ended p view=root time=0.060000 touches=1 x=130.00",
        ])
    }

    /// A second finger lands mid-pan and the first lifts: the centroid jumps each time, the
    /// translation does not.
    @Test func fingersAddedAndLiftedMidGestureDoNotJump() throws {
        var s = try script([pan("p")])
        s.down(1, 100, 100, at: 0)
        s.move(1, 120, 100, at: 10)            // began: +20
        s.down(2, 400, 300, at: 20)            // centroid jumps to (260, 200); translation stays +20
        s.frame(at: 30, [(1, .moved, Point(x: 130, y: 100)), (2, .moved, Point(x: 410, y: 300))])   // +10 more
        s.up(1, at: 40)                        // centroid jumps to (410, 300); translation stays +30
        s.move(2, 420, 300, at: 50)            // +10 more
        s.up(2, at: 60)
        let translations = s.brief.map { $0.split(separator: " ").filter { $0.hasPrefix("translation") || $0.hasPrefix("touches") }.joined(separator: " ") }
        #expect(translations == [
            "touches=1 translationX=20.00 translationY=0.00",
            "touches=2 translationX=20.00 translationY=0.00",
            "touches=2 translationX=30.00 translationY=0.00",
            "touches=1 translationX=30.00 translationY=0.00",
            "touches=1 translationX=40.00 translationY=0.00",
            "touches=1 translationX=40.00 translationY=0.00",
        ])
        #expect(s.brief.last?.contains("gesture pan ended p") == true)
    }

    @Test func endsWhenTheCountFallsBelowTheMinimum() throws {
        var s = try script([pan("p", minimum: 2)])
        s.frame(at: 0, [(1, .began, Point(x: 100, y: 100)), (2, .began, Point(x: 200, y: 100))])
        s.frame(at: 10, [(1, .moved, Point(x: 100, y: 120)), (2, .moved, Point(x: 200, y: 120))])
        s.up(1, at: 20)                        // one left: below the minimum of two
        s.move(2, 200, 200, at: 30)            // deaf now
        s.up(2, at: 40)
        #expect(s.brief == [
            "gesture pan began p view=root time=0.010000 touches=2 x=150.00 y=120.00 translationX=0.00 translationY=20.00 velocityX=0.00 velocityY=0.00",
            "gesture pan ended p view=root time=0.020000 touches=2 x=150.00 y=120.00 translationX=0.00 translationY=20.00 velocityX=0.00 velocityY=1000.00",
        ])
    }

    @Test func releaseVelocityAfterAPauseIsZero() throws {
        var s = try script([pan("p")])
        s.down(1, 100, 100, at: 0)
        let last = s.drag(1, from: 100, 100, by: 100, 0, steps: 10, at: 0)
        s.up(1, at: last + 60)                 // held still 60 ms, then lifted
        #expect(s.brief.last == "gesture pan ended p view=root time=0.160000 touches=1 x=200.00 y=100.00 translationX=100.00 translationY=0.00 velocityX=0.00 velocityY=0.00")
    }

    @Test func cancelledTouchCancelsTheRunningPan() throws {
        var s = try script([pan("p")])
        s.down(1, 100, 100, at: 0)
        s.move(1, 100, 150, at: 10)
        s.cancel(1, at: 20)
        s.down(2, 100, 100, at: 100)           // reset: a new pan can start
        s.move(2, 100, 150, at: 110)
        #expect(s.brief == [
            "gesture pan began p view=root time=0.010000 touches=1 x=100.00 y=150.00 translationX=0.00 translationY=50.00 velocityX=0.00 velocityY=0.00",
            "gesture pan cancelled p view=root time=0.020000 touches=1 x=100.00 y=150.00",
            "gesture pan began p view=root time=0.110000 touches=1 x=100.00 y=150.00 translationX=0.00 translationY=50.00 velocityX=0.00 velocityY=0.00",
        ])
    }

    @Test func cancelledTouchBeforeBeganFails() throws {
        var s = try script([pan("p")])
        s.includeFailed = true
        s.down(1, 100, 100, at: 0)
        s.cancel(1, at: 20)
        #expect(s.brief == ["gesture pan failed p view=root time=0.020000 touches=1 x=100.00 y=100.00"])
    }
}

extension String {
    /// Two decimals, as the line encoder writes coordinates.
    init(format2 value: Double) {
        let cents = Int((value * 100).rounded())
        let frac = cents % 100
        self = "\(cents / 100)." + (frac < 10 ? "0" : "") + "\(frac)"
    }
}
