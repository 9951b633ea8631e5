import Testing
@testable import GesturedCore

/// Long-press transcripts on the virtual clock (ms): began on the deadline with no event, the
/// duration and movement thresholds just under and over, touches and taps required.
struct LongPressRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.includeFailed = true
        return s
    }

    @Test func beginsOnItsDeadlineWithNoFurtherEvent() throws {
        var s = try script([longPress("h")])
        s.down(1, 300, 300, at: 0)
        #expect(s.engine.nextDeadline == EngineScript.at(500))
        s.advance(to: 499.999)
        #expect(s.lines.isEmpty)
        s.advance(to: 500)
        s.move(1, 400, 350, at: 700)           // no movement limit after began
        s.up(1, at: 900)
        #expect(s.brief == [
            "gesture longPress began h view=root time=0.500000 touches=1 x=300.00 y=300.00 duration=0.500",
            "gesture longPress changed h view=root time=0.700000 touches=1 x=400.00 y=350.00 duration=0.700",
            "gesture longPress ended h view=root time=0.900000 touches=1 x=400.00 y=350.00 duration=0.900",
        ])
    }

    @Test(arguments: [(499.0, false), (500.0, true)])
    func liftAroundTheDuration(at ms: Double, begins: Bool) throws {
        var s = try script([longPress("h")])
        s.down(1, 300, 300, at: 0)
        s.up(1, at: ms)                        // at 500 the deadline fires first: began, then ended
        #expect(s.states == (begins ? ["began", "ended"] : ["failed"]))
    }

    @Test(arguments: [(10.0, true), (10.01, false)])
    func allowableMovement(distance: Double, begins: Bool) throws {
        var s = try script([longPress("h")])
        s.down(1, 300, 300, at: 0)
        s.move(1, 300, 300 + distance, at: 100)
        s.move(1, 300, 300, at: 200)           // coming back does not undo a failure
        s.advance(to: 1000)
        #expect(s.states == (begins ? ["began"] : ["failed"]))
    }

    @Test func configuredDurationAndMovement() throws {
        var s = try script([longPress("h") { $0.minimumPressDuration = .milliseconds(800); $0.allowableMovement = 30 }])
        s.down(1, 300, 300, at: 0)
        s.move(1, 329, 300, at: 100)
        s.advance(to: 799)
        #expect(s.lines.isEmpty)
        s.advance(to: 800)
        #expect(s.brief == ["gesture longPress began h view=root time=0.800000 touches=1 x=329.00 y=300.00 duration=0.800"])
    }

    @Test(arguments: 1...5)
    func touchesRequired(touches: Int) throws {
        for fingers in [touches - 1, touches, touches + 1] where fingers > 0 {
            var s = try script([longPress("h", touches: touches)])
            let ids = (1...fingers).map { UInt64($0) }
            s.frame(at: 0, ids.map { ($0, .began, Point(x: 100 * Double($0), y: 300)) })
            s.advance(to: 2000)
            s.frame(at: 2000, ids.map { ($0, .ended, nil) })
            let expected: [String] = switch fingers - touches {
            case 0: ["began", "ended"]
            case 1: ["failed"]                 // too many: fails at once
            default: ["failed"]                // too few: no clock, fails at the lift
            }
            #expect(s.states == expected, "\(fingers) fingers for \(touches)")
            if fingers == touches { #expect(s.values("touches").first == Double(touches)) }
        }
    }

    /// The press's clock starts when the last required finger lands.
    @Test func clockStartsWhenAllRequiredTouchesAreDown() throws {
        var s = try script([longPress("h", touches: 2)])
        s.down(1, 300, 300, at: 0)
        s.down(2, 400, 300, at: 150)
        s.advance(to: 649)
        #expect(s.lines.isEmpty)
        s.advance(to: 650)
        s.up(2, at: 700)                       // the first lift ends it
        #expect(s.brief == [
            "gesture longPress began h view=root time=0.650000 touches=2 x=350.00 y=300.00 duration=0.500",
            "gesture longPress ended h view=root time=0.700000 touches=2 x=350.00 y=300.00 duration=0.550",
        ])
    }

    @Test func tapThenPress() throws {
        var s = try script([longPress("h", taps: 1)])
        s.tap(1, 300, 300, at: 0)              // lifts at 50
        s.down(2, 302, 300, at: 200)
        s.advance(to: 699)
        #expect(s.lines.isEmpty)
        s.advance(to: 700)
        #expect(s.brief == ["gesture longPress began h view=root time=0.700000 touches=1 x=302.00 y=300.00 duration=0.500"])
    }

    @Test(arguments: [(299.0, true), (300.0, false)])
    func intervalAfterTheTap(gap: Double, begins: Bool) throws {
        var s = try script([longPress("h", taps: 1)])
        s.tap(1, 300, 300, at: 0)
        s.down(2, 300, 300, at: 50 + gap)
        s.advance(to: 2000)
        // Too late: fails at the interval's end; the late touch then starts a sequence of its own,
        // which fails when its "tap" is held for the press duration.
        #expect(s.states == (begins ? ["began"] : ["failed", "failed"]))
    }

    @Test func pressWithoutTheTapFails() throws {
        var s = try script([longPress("h", taps: 1)])
        s.down(1, 300, 300, at: 0)
        s.advance(to: 2000)
        #expect(s.brief == ["gesture longPress failed h view=root time=0.500000 touches=1 x=300.00 y=300.00"])
    }

    @Test func cancelledAfterBegan() throws {
        var s = try script([longPress("h")])
        s.down(1, 300, 300, at: 0)
        s.cancel(1, at: 600)
        #expect(s.states == ["began", "cancelled"])
    }

    @Test func extraTouchAfterBeganIsIgnored() throws {
        var s = try script([longPress("h")])
        s.down(1, 300, 300, at: 0)
        s.advance(to: 500)
        s.down(2, 600, 600, at: 550)
        s.move(2, 700, 700, at: 560)
        s.up(2, at: 570)
        s.up(1, at: 600)
        #expect(s.states == ["began", "ended"])
    }
}
