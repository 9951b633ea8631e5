import Glibc
import Testing
@testable import GesturedCore

/// The arbiter's rules with continuous recognizers, as transcripts.
struct ContinuousConflictTests {
    /// Two fingers 200 pt apart that spread by 4 pt and turn by 0.04 rad per frame: pinch passes
    /// its 10 pt slop at frame 3 (212 pt), rotation its 0.1 rad at frame 3 too (0.12 rad); the
    /// pinch is listed first.
    static func spreadAndTurn(_ s: inout EngineScript, frames: Int) {
        func points(_ i: Int) -> (Point, Point) {
            let r = 100 + 2 * Double(i), a = 0.04 * Double(i)
            return (Point(x: 500 - r * cos(a), y: 500 - r * sin(a)), Point(x: 500 + r * cos(a), y: 500 + r * sin(a)))
        }
        let (a0, b0) = points(0)
        s.frame(at: 0, [(1, .began, a0), (2, .began, b0)])
        for i in 1...frames {
            let (a, b) = points(i)
            s.frame(at: 10 * Double(i), [(1, .moved, a), (2, .moved, b)])
        }
        s.frame(at: 10 * Double(frames + 1), [(1, .ended, nil), (2, .ended, nil)])
    }

    @Test func pinchAndRotationSimultaneous() throws {
        var s = try EngineScript([ViewSpec(id: "map", gestures: [pinch("zoom", simultaneous: ["spin"]), rotation("spin")])])
        Self.spreadAndTurn(&s, frames: 4)
        #expect(s.brief.map { $0.split(separator: " ").prefix(5).joined(separator: " ") } == [
            "gesture pinch began zoom view=map",
            "gesture rotation began spin view=map",
            "gesture pinch changed zoom view=map",
            "gesture rotation changed spin view=map",
            "gesture pinch ended zoom view=map",
            "gesture rotation ended spin view=map",
        ])
        #expect(s.values("rotation").compactMap { $0 }.last == 0.16)
    }

    @Test func pinchAndRotationExclusive() throws {
        var s = try EngineScript([ViewSpec(id: "map", gestures: [pinch("zoom"), rotation("spin")])])
        s.includeFailed = true
        Self.spreadAndTurn(&s, frames: 4)
        // Same frame: the first listed wins, the other fails and stays out until all lift.
        #expect(s.states == ["began", "failed", "changed", "ended"])
        #expect(s.brief[1].hasPrefix("gesture rotation failed spin view=map time=0.030000"))
    }

    /// Swipe listed before pan: the decision is made at the first frame past ~10 pt.
    static let swipeFirst = [ViewSpec(id: "root", gestures: [swipe("flick", [.left, .right]), pan("drag")])]

    @Test func quickFlickIsASwipeOnly() throws {
        var s = try EngineScript(Self.swipeFirst)
        s.includeFailed = true
        s.down(1, 500, 500, at: 0)
        s.drag(1, from: 500, 500, by: 60, 0, steps: 4, at: 0)     // 15 pt per 10 ms = 1500 pt/s
        s.up(1, at: 50)
        #expect(s.brief == [
            "gesture swipe ended flick view=root time=0.010000 touches=1 x=515.00 y=500.00 direction=right",
            "gesture pan failed drag view=root time=0.010000 touches=1 x=515.00 y=500.00",
        ])
    }

    @Test func slowDragIsAPanOnly() throws {
        var s = try EngineScript(Self.swipeFirst)
        s.includeFailed = true
        s.down(1, 500, 500, at: 0)
        s.drag(1, from: 500, 500, by: 30, 0, steps: 6, at: 0, every: 50)   // 5 pt per 50 ms = 100 pt/s
        s.up(1, at: 350)
        #expect(s.brief.map { $0.split(separator: " ").prefix(5).joined(separator: " ") } == [
            "gesture pan began drag view=root",            // at 15 pt: the swipe is too slow and still waiting...
            "gesture swipe failed flick view=root",        // ...so the pan's began forces it out
            "gesture pan changed drag view=root",
            "gesture pan changed drag view=root",
            "gesture pan changed drag view=root",
            "gesture pan ended drag view=root",
        ])
    }

    /// Decided: a fast long drag is a swipe. The swipe recognizes during the movement, as soon as
    /// its criteria hold (≥ 10 pt at ≥ 300 pt/s), when nothing yet tells it from a flick; the pan
    /// never begins. An app that wants fast drags to pan lists the pan first.
    @Test func fastLongDragIsASwipe() throws {
        var s = try EngineScript(Self.swipeFirst)
        s.down(1, 100, 500, at: 0)
        s.drag(1, from: 100, 500, by: 600, 0, steps: 40, at: 0)   // 1500 pt/s for 400 ms
        s.up(1, at: 410)
        #expect(s.states == ["ended"])
        #expect(s.brief[0].hasPrefix("gesture swipe ended flick"))
    }

    @Test func panListedFirstTakesEveryDrag() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [pan("drag"), swipe("flick")])])
        s.down(1, 500, 500, at: 0)
        s.drag(1, from: 500, 500, by: 60, 0, steps: 4, at: 0)
        s.up(1, at: 50)
        #expect(s.states == ["began", "changed", "changed", "changed", "ended"])
    }

    /// UIKit's other idiom: the pan requires the swipe to fail. A flick is a swipe; a slow drag
    /// waits for the swipe's deadline (0.5 s) and then reports its held-back began and changes.
    @Test func panRequiringSwipeToFail() throws {
        let views = [ViewSpec(id: "root", gestures: [pan("drag", requireToFail: ["flick"]), swipe("flick")])]
        var flick = try EngineScript(views)
        flick.down(1, 500, 500, at: 0)
        flick.drag(1, from: 500, 500, by: 60, 0, steps: 4, at: 0)
        flick.up(1, at: 50)
        #expect(flick.states == ["ended"])

        var slow = try EngineScript(views)
        slow.down(1, 500, 500, at: 0)
        slow.drag(1, from: 500, 500, by: 60, 0, steps: 12, at: 0, every: 50)   // 100 pt/s for 600 ms
        slow.up(1, at: 650)
        // The held-back began is replayed as proposed at 150 ms (15 pt), at the instant the swipe
        // failed; samples 50 ms apart read as a stopped touch (gap > 40 ms): velocity 0.
        #expect(slow.brief.first == "gesture pan began drag view=root time=0.500000 touches=1 x=515.00 y=500.00 translationX=15.00 translationY=0.00 velocityX=0.00 velocityY=0.00")
        #expect(slow.states.first == "began" && slow.states.last == "ended")
        #expect(slow.states.dropFirst().dropLast().allSatisfy { $0 == "changed" })
    }

    @Test func longPressBeatsAPanOnceBegun() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [longPress("hold"), pan("drag")])])
        s.includeFailed = true
        s.down(1, 300, 300, at: 0)
        s.advance(to: 500)
        s.move(1, 400, 300, at: 600)
        s.up(1, at: 700)
        #expect(s.brief == [
            "gesture longPress began hold view=root time=0.500000 touches=1 x=300.00 y=300.00 duration=0.500",
            "gesture pan failed drag view=root time=0.500000 touches=1 x=300.00 y=300.00",
            "gesture longPress changed hold view=root time=0.600000 touches=1 x=400.00 y=300.00 duration=0.600",
            "gesture longPress ended hold view=root time=0.700000 touches=1 x=400.00 y=300.00 duration=0.700",
        ])
    }

    @Test func earlyMovementIsAPanAndNotALongPress() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [longPress("hold"), pan("drag")])])
        s.includeFailed = true
        s.down(1, 300, 300, at: 0)
        s.move(1, 311, 300, at: 100)           // > 10 pt: the long press fails, the pan begins
        s.advance(to: 1000)
        #expect(s.brief == [
            "gesture longPress failed hold view=root time=0.100000 touches=1 x=311.00 y=300.00",
            "gesture pan began drag view=root time=0.100000 touches=1 x=311.00 y=300.00 translationX=11.00 translationY=0.00 velocityX=0.00 velocityY=0.00",
        ])
    }

    @Test func begunPanWhoseTouchIsCancelled() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [tap("t"), pan("drag")])])
        s.includeFailed = true
        s.down(1, 300, 300, at: 0)
        s.move(1, 300, 340, at: 10)
        s.cancel(1, at: 20)
        #expect(s.brief == [
            "gesture tap failed t view=root time=0.010000 touches=1 x=300.00 y=340.00",
            "gesture pan began drag view=root time=0.010000 touches=1 x=300.00 y=340.00 translationX=0.00 translationY=40.00 velocityX=0.00 velocityY=0.00",
            "gesture pan cancelled drag view=root time=0.020000 touches=1 x=300.00 y=340.00",
        ])
    }

    /// A child's pan beats its parent's, and the parent's screen-edge pan: deepest view first.
    @Test func childPanBeatsParentEdgePan() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [edgePan("edge", [.left])], subviews: [
            ViewSpec(id: "list", frame: frame(0, 0, 500, 1000), gestures: [pan("scroll")]),
        ])])
        s.down(1, 5, 500, at: 0)
        s.move(1, 30, 500, at: 10)
        #expect(s.brief.map { $0.split(separator: " ").prefix(5).joined(separator: " ") } == ["gesture pan began scroll view=list"])
    }
}
