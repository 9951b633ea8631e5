import Glibc
import Testing
@testable import GesturedCore

/// Swipe transcripts on the virtual clock (ms): distance, speed, duration and angle just under and
/// over their thresholds, every direction against every allowed set, 1 to 5 touches.
struct SwipeRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.includeFailed = true
        return s
    }

    @Test func recognizesDuringTheMovementBeforeTheLift() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 108, 500, at: 10)            // 8 pt: not yet
        s.move(1, 116, 500, at: 20)            // 16 pt in 20 ms = 800 pt/s
        s.move(1, 124, 500, at: 30)            // deaf now
        s.up(1, at: 40)
        #expect(s.brief == ["gesture swipe ended s view=root time=0.020000 touches=1 x=116.00 y=500.00 direction=right"])
    }

    /// The direction is judged when the stroke is fast enough, not at its first 10 pt: a slow,
    /// jittery start (here 23° off the axis at 11 pt, as in a real recording) does not fail a
    /// stroke that is straight once it is quick.
    @Test func jitterAtTheStartDoesNotFailAStraightStroke() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 110, 504.3, at: 100)         // 10.9 pt at 23.3° — 109 pt/s: too slow to judge
        s.move(1, 180, 504.3, at: 200)         // 80.1 pt at 3.1°, 401 pt/s: a swipe
        #expect(s.brief == ["gesture swipe ended s view=root time=0.200000 touches=1 x=180.00 y=504.30 direction=right"])
    }

    @Test func offAxisOnceFastEnoughFails() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 110, 504.3, at: 100)         // too slow to judge
        s.move(1, 170, 540, at: 200)           // 80.6 pt at 29.7°, 403 pt/s: judged, off-axis
        #expect(s.brief == ["gesture swipe failed s view=root time=0.200000 touches=1 x=170.00 y=540.00"])
    }

    @Test(arguments: [(9.99, false), (10.0, true)])
    func minimumDistance(distance: Double, recognizes: Bool) throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 100 + distance, 500, at: 10)
        #expect(s.brief == (recognizes ? ["gesture swipe ended s view=root time=0.010000 touches=1 x=110.00 y=500.00 direction=right"] : []))
    }

    /// 30 pt at 300 pt/s takes exactly 100 ms.
    @Test(arguments: [(100.0, true), (100.1, false)])
    func minimumVelocity(at ms: Double, recognizes: Bool) throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 130, 500, at: ms)
        #expect(s.brief == (recognizes ? ["gesture swipe ended s view=root time=0.100000 touches=1 x=130.00 y=500.00 direction=right"] : []))
    }

    /// A finger that rests, then flicks, can still make the average speed.
    @Test func restThenFlick() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 112, 500, at: 100)           // 120 pt/s: straight, but too slow for now
        s.move(1, 160, 500, at: 150)           // 60 pt in 150 ms = 400 pt/s
        #expect(s.brief == ["gesture swipe ended s view=root time=0.150000 touches=1 x=160.00 y=500.00 direction=right"])
    }

    @Test(arguments: [(499.0, true), (500.0, false)])
    func maximumDuration(at ms: Double, recognizes: Bool) throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 300, 500, at: ms)            // 200 pt: fast enough until 666 ms, but too late at 500
        #expect(s.brief == (recognizes
            ? ["gesture swipe ended s view=root time=0.499000 touches=1 x=300.00 y=500.00 direction=right"]
            : ["gesture swipe failed s view=root time=0.500000 touches=1 x=100.00 y=500.00"]))
    }

    /// A slow drag fails on the deadline itself, without waiting for another event.
    @Test func slowDragFailsOnItsDeadline() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 120, 500, at: 200)           // 100 pt/s
        s.advance(to: 500)
        #expect(s.brief == ["gesture swipe failed s view=root time=0.500000 touches=1 x=120.00 y=500.00"])
    }

    static let moves: [(SwipeDirection, Double, Double)] = [(.right, 30, 0), (.left, -30, 0), (.up, 0, -30), (.down, 0, 30)]

    @Test(arguments: SwipeDirection.allCases, SwipeDirection.allCases)
    func directionAgainstAllowedSet(allowed: SwipeDirection, moved: SwipeDirection) throws {
        var s = try script([swipe("s", [allowed])])
        let (_, dx, dy) = Self.moves.first { $0.0 == moved }!
        s.down(1, 500, 500, at: 0)
        s.move(1, 500 + dx, 500 + dy, at: 20)
        let x = String(format2: 500 + dx), y = String(format2: 500 + dy)
        #expect(s.brief == [allowed == moved
            ? "gesture swipe ended s view=root time=0.020000 touches=1 x=\(x) y=\(y) direction=\(moved)"
            : "gesture swipe failed s view=root time=0.020000 touches=1 x=\(x) y=\(y)"])
    }

    @Test func severalAllowedDirections() throws {
        var s = try script([swipe("s", [.left, .right])])
        s.down(1, 500, 500, at: 0)
        s.move(1, 470, 500, at: 20)
        s.up(1, at: 30)                        // all up: reset
        s.down(2, 500, 500, at: 100)
        s.move(2, 500, 530, at: 120)
        #expect(s.brief == ["gesture swipe ended s view=root time=0.020000 touches=1 x=470.00 y=500.00 direction=left",
                            "gesture swipe failed s view=root time=0.120000 touches=1 x=500.00 y=530.00"])
    }

    /// π/8 = 22.5°: 22.4° off the axis is a swipe, 22.6° is not.
    @Test(arguments: [(22.4, true), (22.6, false)])
    func angleTolerance(degrees: Double, recognizes: Bool) throws {
        var s = try script([swipe("s")])
        let a = degrees * Double.pi / 180
        s.down(1, 500, 500, at: 0)
        s.move(1, 500 + 30 * cos(a), 500 - 30 * sin(a), at: 20)
        #expect(s.brief.first?.contains(recognizes ? "swipe ended s" : "swipe failed s") == true)
    }

    @Test func liftBeforeTheCriteriaFails() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 105, 500, at: 10)
        s.up(1, at: 20)
        #expect(s.brief == ["gesture swipe failed s view=root time=0.020000 touches=1 x=105.00 y=500.00"])
    }

    @Test(arguments: 1...5)
    func requiredTouches(touches: Int) throws {
        for fingers in [touches - 1, touches, touches + 1] where fingers > 0 {
            var s = try script([swipe("s", [.up], touches: touches)])
            let ids = (1...fingers).map { UInt64($0) }
            s.frame(at: 0, ids.map { ($0, .began, Point(x: 100 * Double($0), y: 500)) })
            s.frame(at: 20, ids.map { ($0, .moved, Point(x: 100 * Double($0), y: 450)) })
            s.frame(at: 30, ids.map { ($0, .ended, nil) })
            let x = String(format2: 50 * Double(fingers + 1))
            let expected = switch fingers - touches {
            case 0: "gesture swipe ended s view=root time=0.020000 touches=\(fingers) x=\(x) y=450.00 direction=up"
            case 1: "gesture swipe failed s view=root time=0.000000 touches=\(fingers) x=\(x) y=500.00"
            default: "gesture swipe failed s view=root time=0.030000 touches=\(fingers) x=\(x) y=450.00"
            }
            #expect(s.brief == [expected], "\(fingers) fingers for \(touches)")
        }
    }

    /// The first finger's movement before the second lands does not count.
    @Test func staggeredFingersCountFromTheLastTouchDown() throws {
        var s = try script([swipe("s", touches: 2)])
        s.down(1, 100, 500, at: 0)
        s.move(1, 150, 500, at: 10)
        s.down(2, 150, 600, at: 20)
        s.frame(at: 30, [(1, .moved, Point(x: 155, y: 500)), (2, .moved, Point(x: 155, y: 600))])
        #expect(s.lines.isEmpty)
        s.frame(at: 40, [(1, .moved, Point(x: 162, y: 500)), (2, .moved, Point(x: 162, y: 600))])
        #expect(s.brief == ["gesture swipe ended s view=root time=0.040000 touches=2 x=162.00 y=550.00 direction=right"])
    }

    @Test func cancelledTouchFails() throws {
        var s = try script([swipe("s")])
        s.down(1, 100, 500, at: 0)
        s.cancel(1, at: 10)
        #expect(s.brief == ["gesture swipe failed s view=root time=0.010000 touches=1 x=100.00 y=500.00"])
    }
}
