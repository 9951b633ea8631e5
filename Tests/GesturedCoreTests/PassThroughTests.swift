import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// A transcript harness for a pass-through device: raw protocol B frames of one 4-slot panel
/// (axes 0...999 on a 1000-point screen) in; the gestures and what the application receives on
/// the clone (`app ...`, device units, the clone's slot) out, on the virtual clock.
struct PassThroughScript {
    var pipeline: GesturePipeline
    let device: GesturePipeline.DeviceID
    var lines: [String] = []
    private var script = PanelScript(firstTrackingID: 100)
    private var now: Int64 = 0

    init(_ views: [ViewSpec], slots: Int = 4, passThrough: Bool = true) throws {
        let config = Configuration(screen: Size(width: 1000, height: 1000), views: views)
        pipeline = try GesturePipeline(configuration: config, screen: config.screen!)
        let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: slots, hasTrackingID: true)
        device = try pipeline.addDevice(panel, rule: DeviceRule(passThrough: passThrough))
    }

    /// One frame: each contact `(slot, x, y)` down or moved, or lifted with nil x.
    mutating func frame(at ms: Int64, _ contacts: [(slot: Int32, x: Int32?, y: Int32?)], isNew: Bool = false) {
        feed(script.frame(at: Instant(microseconds: ms * 1000), contacts.map { .of(slot: $0.slot, x: $0.x, y: $0.y, isNew: isNew) }))
    }

    mutating func feed(_ events: [RawEvent]) {
        var batch = Batch()
        for e in events {
            pipeline.handle(e, from: device, into: &batch)
            record(batch)
        }
    }

    mutating func down(_ slot: Int32, _ x: Int32, _ y: Int32, at ms: Int64) { frame(at: ms, [(slot, x, y)], isNew: true) }
    mutating func move(_ slot: Int32, _ x: Int32, _ y: Int32, at ms: Int64) { frame(at: ms, [(slot, x, y)]) }
    mutating func up(_ slot: Int32, at ms: Int64) { frame(at: ms, [(slot, nil, nil)]) }

    /// Fires the deadlines up to `ms`, each at its own instant.
    mutating func advance(to ms: Int64) {
        let end = Instant(microseconds: ms * 1000)
        var batch = Batch()
        while let d = pipeline.nextDeadline, d <= end {
            pipeline.advance(to: d, into: &batch)
            record(batch)
        }
        pipeline.advance(to: end, into: &batch)
        record(batch)
    }

    mutating func record(_ batch: Batch) {
        for o in batch.outputs {
            guard case .gesture(let g) = o else { continue }
            lines.append("\(g.time.microseconds / 1000) \(g.name) \(g.state.rawValue)")
        }
        record(batch.forwarded)
    }

    mutating func record(_ forwarded: [ForwardedTouch]) {
        for f in forwarded {
            let ms = f.time.microseconds / 1000
            switch f.kind {
            case .down(_, let p): lines.append("\(ms) app down slot=\(f.slot) \(p.x),\(p.y)")
            case .move(let p): lines.append("\(ms) app move slot=\(f.slot) \(p.x),\(p.y)")
            case .cancel: lines.append("\(ms) app cancel slot=\(f.slot)")
            case .up: lines.append("\(ms) app up slot=\(f.slot)")
            }
        }
    }
}

/// A tap spec with a touch delivery.
func delivering(_ spec: GestureSpec, cancels: Bool = true, delaysBegan: Bool = false, delaysEnded: Bool = true) -> GestureSpec {
    var spec = spec
    spec.delivery = TouchDelivery(cancelsTouchesInView: cancels, delaysTouchesBegan: delaysBegan, delaysTouchesEnded: delaysEnded)
    return spec
}

struct PassThroughTests {
    @Test func withoutRecognizersEveryTouchGoesThroughAtOnce() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 200, at: 0)
        s.move(0, 110, 200, at: 10)
        s.up(0, at: 20)
        #expect(s.lines == ["0 app down slot=0 100,200", "10 app move slot=0 110,200", "20 app up slot=0"])
    }

    @Test func aDeviceWithoutPassThroughForwardsNothing() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")], passThrough: false)
        s.down(0, 100, 200, at: 0)
        s.up(0, at: 20)
        #expect(s.lines.isEmpty)
        #expect(!s.pipeline.passesThrough(s.device))
    }

    @Test func aViewThatDoesNotForwardKeepsItsTouchesAndItsSubviewsTouchesFromTheApplication() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", subviews: [
            ViewSpec(id: "admin", frame: frame(0, 0, 100, 100), subviews: [ViewSpec(id: "inner", frame: frame(0, 0, 50, 50))],
                     forwardsTouches: false),
        ])])
        s.down(0, 20, 20, at: 0)      // inner, below admin
        s.down(1, 80, 80, at: 5)      // admin
        s.down(2, 500, 500, at: 10)   // app
        s.up(0, at: 20); s.up(1, at: 20); s.up(2, at: 30)
        #expect(s.lines == ["10 app down slot=0 500,500", "30 app up slot=0"])
    }

    // MARK: cancelsTouchesInView

    @Test func aRecognizedTapCancelsItsTouchInTheApplication() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("tap")])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        #expect(s.lines == ["0 app down slot=0 100,100", "50 tap ended", "50 app cancel slot=0", "50 app up slot=0"])
    }

    @Test func aTapThatDoesNotCancelLetsTheApplicationSeeTheWholeTap() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(tap("tap"), cancels: false)])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        #expect(s.lines == ["0 app down slot=0 100,100", "50 tap ended", "50 app up slot=0"])
    }

    @Test func aFailedTapLeavesItsTouchToTheApplication() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("tap")])])
        s.down(0, 100, 100, at: 0)
        s.move(0, 300, 100, at: 20)   // beyond the tap's slop: it fails
        s.up(0, at: 50)
        #expect(s.lines == ["0 app down slot=0 100,100", "20 tap failed", "20 app move slot=0 300,100",
                            "50 app up slot=0"])
    }

    @Test func aThreeFingerSwipeCancelsItsThreeTouchesAndTheirLiftsNeverArrive() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [swipe("swipe", [.right], touches: 3)])])
        s.frame(at: 0, [(0, 100, 100), (1, 100, 300), (2, 100, 500)], isNew: true)
        s.frame(at: 20, [(0, 150, 100), (1, 150, 300), (2, 150, 500)])
        s.frame(at: 40, [(0, 250, 100), (1, 250, 300), (2, 250, 500)])
        s.frame(at: 70, [(0, nil, nil), (1, nil, nil), (2, nil, nil)])
        // Within one step the transcript lists the gestures first, then what the application got:
        // the cancels, not the moves of the frame the swipe recognized in.
        #expect(s.lines == ["0 app down slot=0 100,100", "0 app down slot=1 100,300", "0 app down slot=2 100,500",
                            "20 swipe ended",
                            "20 app cancel slot=0", "20 app up slot=0", "20 app cancel slot=1", "20 app up slot=1",
                            "20 app cancel slot=2", "20 app up slot=2"])
    }

    @Test func aSwipeThatDoesNotCancelLeavesTheFingersInTheApplication() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(swipe("swipe", [.right], touches: 3), cancels: false)])])
        s.frame(at: 0, [(0, 100, 100), (1, 100, 300), (2, 100, 500)], isNew: true)
        s.frame(at: 20, [(0, 150, 100), (1, 150, 300), (2, 150, 500)])
        s.frame(at: 40, [(0, 250, 100), (1, 250, 300), (2, 250, 500)])
        s.frame(at: 60, [(0, 300, 100), (1, 300, 300), (2, 300, 500)])
        s.frame(at: 70, [(0, nil, nil), (1, nil, nil), (2, nil, nil)])
        #expect(s.lines.contains { $0.hasSuffix("swipe ended") })
        #expect(!s.lines.contains { $0.contains("cancel") })
        #expect(Array(s.lines.suffix(3)) == ["70 app up slot=0", "70 app up slot=1", "70 app up slot=2"])
    }

    @Test func aPanCancelsWhenItBeginsNotBefore() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [pan("pan")])])
        s.down(0, 100, 100, at: 0)
        s.move(0, 105, 100, at: 10)     // within the slop
        s.move(0, 150, 100, at: 20)     // begins
        s.move(0, 200, 100, at: 30)
        s.up(0, at: 40)
        #expect(s.lines == ["0 app down slot=0 100,100", "10 app move slot=0 105,100",
                            "20 pan began", "20 app cancel slot=0", "20 app up slot=0",
                            "30 pan changed", "40 pan ended"])
    }

    /// The forwarder decides after the arbiter: a touch a gesture claims in a frame gets its
    /// cancel, never that frame's move (UIKit's view gets `touchesCancelled` for the event, not
    /// `touchesMoved`); a touch the frame does not claim gets its move, before the frame's
    /// other decisions.
    @Test func aTouchClaimedInAFrameGetsItsCancelAndNotThatFramesMove() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", subviews: [
            ViewSpec(id: "pad", frame: frame(0, 0, 500, 1000), gestures: [pan("pan")]),
        ])])
        s.down(0, 100, 100, at: 0)      // pad: the pan's
        s.down(1, 800, 100, at: 5)      // app: no gesture
        s.frame(at: 20, [(0, 150, 100), (1, 810, 100)])   // the pan begins on this frame
        s.up(0, at: 30); s.up(1, at: 30)
        #expect(s.lines == ["0 app down slot=0 100,100", "5 app down slot=1 800,100",
                            "20 pan began", "20 app move slot=1 810,100", "20 app cancel slot=0", "20 app up slot=0",
                            "30 pan ended", "30 app up slot=1"])
    }

    @Test func aTapUnderAThreeFingerSwipeLiftsAtOnce() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [swipe("swipe", [.right], touches: 3)])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        #expect(s.lines == ["0 app down slot=0 100,100", "50 swipe failed", "50 app up slot=0"])
    }

    // MARK: delaysTouchesEnded

    @Test func aDoubleTapsFirstLiftIsHeldAndBothTouchesAreCancelledWhenItRecognizes() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("double", taps: 2)])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        s.down(0, 105, 100, at: 150)
        s.up(0, at: 200)
        #expect(s.lines == ["0 app down slot=0 100,100", "150 app down slot=1 105,100",
                            "200 double ended", "200 app cancel slot=0", "200 app up slot=0",
                            "200 app cancel slot=1", "200 app up slot=1"])
    }

    @Test func aHeldLiftIsReleasedWhenTheDoubleTapFails() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("double", taps: 2)])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        s.advance(to: 1000)
        #expect(s.lines == ["0 app down slot=0 100,100", "350 double failed", "350 app up slot=0"])
    }

    @Test func withoutDelaysTouchesEndedTheFirstLiftGoesAtOnceAndOnlyTheSecondTouchIsCancelled() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(tap("double", taps: 2), delaysEnded: false)])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        s.down(0, 105, 100, at: 150)
        s.up(0, at: 200)
        #expect(s.lines == ["0 app down slot=0 100,100", "50 app up slot=0", "150 app down slot=0 105,100",
                            "200 double ended", "200 app cancel slot=0", "200 app up slot=0"])
    }

    @Test func singleAndDoubleTapTogetherCancelTheFirstTapAtOnceAndHoldNothingForIt() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("single"), tap("double", taps: 2)])])
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)
        s.advance(to: 1000)
        #expect(s.lines == ["0 app down slot=0 100,100", "50 single ended", "50 app cancel slot=0", "50 app up slot=0",
                            "350 double failed"])
    }

    // MARK: delaysTouchesBegan

    @Test func anEdgePanThatFailsFlushesTheHeldTouchInOrder() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(edgePan("edge", [.left]), delaysBegan: true)])])
        s.down(0, 500, 500, at: 0)       // not at the edge: the edge pan fails on the down
        s.up(0, at: 40)
        var t = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(edgePan("edge", [.left]), delaysBegan: true)])])
        t.down(0, 5, 500, at: 0)
        t.move(0, 6, 500, at: 10)
        t.up(0, at: 40)                  // lifted before it moved enough: fails on the lift
        #expect(s.lines == ["0 edge failed", "0 app down slot=0 500,500", "40 app up slot=0"])
        #expect(t.lines == ["40 edge failed", "40 app down slot=0 5,500", "40 app move slot=0 6,500", "40 app up slot=0"])
    }

    @Test func withoutDelaysTouchesBeganAnEdgePanTouchGoesAtOnceAndIsCancelledWhenItBegins() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [edgePan("edge", [.left])])])
        s.down(0, 5, 500, at: 0)
        s.move(0, 30, 500, at: 10)
        s.move(0, 80, 500, at: 20)
        s.up(0, at: 40)
        #expect(s.lines == ["0 app down slot=0 5,500", "10 edge began",
                            "10 app cancel slot=0", "10 app up slot=0", "20 edge changed", "40 edge ended"])
    }

    @Test func anEdgePanThatDelaysTouchesBeganNeverShowsTheApplicationItsTouchWhenItBegins() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(edgePan("edge", [.left]), delaysBegan: true)])])
        s.down(0, 5, 500, at: 0)
        s.move(0, 30, 500, at: 10)
        s.move(0, 80, 500, at: 20)
        s.up(0, at: 40)
        #expect(s.lines == ["10 edge began", "20 edge changed", "40 edge ended"])
    }

    @Test func disablingTheViewFailsTheHoldingEdgePanAndDeliversTheHeldTouchAtOnce() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [delivering(edgePan("edge", [.left]), delaysBegan: true)])])
        s.down(0, 5, 500, at: 0)
        var batch = Batch()
        #expect(s.pipeline.change(.userInteractionEnabled(false), ofView: "app", now: Instant(microseconds: 10_000), into: &batch))
        s.record(batch)
        #expect(s.lines == ["10 edge failed", "10 app down slot=0 5,500"])
    }

    // MARK: Fail-safe

    @Test func lostEventsCancelTheForwardedTouchesAndTheirRestIsNeverSent() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 100, at: 0)
        s.feed([RawEvent(time: Instant(microseconds: 10_000), type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0),
                RawEvent(time: Instant(microseconds: 20_000), type: EventCode.EV_ABS, code: EventCode.ABS_MT_POSITION_X, value: 300),
                RawEvent(time: Instant(microseconds: 20_000), type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)])
        s.up(0, at: 30)
        // Cancelled at the drop, with the gestures the drop cancels (not at the next frame).
        #expect(s.lines == ["0 app down slot=0 100,100", "10 app cancel slot=0", "10 app up slot=0"])
    }

    /// A finger held still through the drop: the resynchronized frame changes nothing, and the
    /// application is told at once, not at the finger's next move.
    @Test func lostEventsCancelTheForwardedTouchesEvenWhenNothingMovesAfter() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 100, at: 0)
        s.feed([RawEvent(time: Instant(microseconds: 10_000), type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0),
                RawEvent(time: Instant(microseconds: 20_000), type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)])
        #expect(s.lines == ["0 app down slot=0 100,100", "10 app cancel slot=0", "10 app up slot=0"])
    }

    /// After lost events the forwarder decides once in the step (the claim and the frame
    /// together), not once for the drop and again for the frame.
    @Test func afterLostEventsTheForwarderDecidesOnceInTheStep() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 100, at: 0)
        s.down(1, 300, 100, at: 5)
        let before = s.pipeline.forwarder.decisions
        s.feed([RawEvent(time: Instant(microseconds: 10_000), type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0),
                RawEvent(time: Instant(microseconds: 20_000), type: EventCode.EV_ABS, code: EventCode.ABS_MT_POSITION_X, value: 300),
                RawEvent(time: Instant(microseconds: 20_000), type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)])
        #expect(s.pipeline.forwarder.decisions - before == 1)
        #expect(Array(s.lines.suffix(4)) == ["10 app cancel slot=0", "10 app up slot=0", "10 app cancel slot=1", "10 app up slot=1"])
    }

    @Test func shutdownCancelsAndLiftsEveryForwardedTouch() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 100, at: 0)
        s.down(1, 300, 100, at: 5)
        var batch = Batch()
        s.pipeline.shutdown(now: Instant(microseconds: 9000), into: &batch)
        s.record(batch)
        s.up(0, at: 20); s.up(1, at: 20)
        #expect(s.lines == ["0 app down slot=0 100,100", "5 app down slot=1 300,100",
                            "9 app cancel slot=0", "9 app up slot=0", "9 app cancel slot=1", "9 app up slot=1"])
    }

    // MARK: Reload

    /// Reloads `views` (single form, same screen) at `ms`.
    private func reload(_ s: inout PassThroughScript, _ views: [ViewSpec], at ms: Int64) throws {
        var batch = Batch()
        try s.pipeline.reload(configuration: Configuration(screen: Size(width: 1000, height: 1000), views: views),
                              now: Instant(microseconds: ms * 1000), into: &batch)
        s.record(batch)
    }

    @Test func aReloadThatKeepsTheTouchsViewLetsTheApplicationKeepTheTouch() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("tap")])])
        s.down(0, 100, 100, at: 0)
        try reload(&s, [ViewSpec(id: "app", gestures: [tap("tap"), pan("pan")])], at: 10)
        s.move(0, 300, 100, at: 20)      // the old tap failed; the new recognizers never saw the down
        s.up(0, at: 30)
        #expect(s.lines == ["0 app down slot=0 100,100", "10 tap failed", "20 app move slot=0 300,100", "30 app up slot=0"])
    }

    @Test func aReloadThatRemovesTheTouchsViewCancelsItInTheApplication() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 100, at: 0)
        try reload(&s, [ViewSpec(id: "new")], at: 10)
        s.move(0, 300, 100, at: 20)
        s.up(0, at: 30)
        #expect(s.lines == ["0 app down slot=0 100,100", "10 app cancel slot=0", "10 app up slot=0"])
    }

    @Test func aReloadThatStopsTheViewForwardingCancelsItsTouchAndLeavesTheOthers() throws {
        let before = [ViewSpec(id: "app", subviews: [ViewSpec(id: "corner", frame: frame(0, 0, 100, 100))])]
        let after = [ViewSpec(id: "app", subviews: [ViewSpec(id: "corner", frame: frame(0, 0, 100, 100), forwardsTouches: false)])]
        var s = try PassThroughScript(before)
        s.down(0, 50, 50, at: 0)         // corner
        s.down(1, 500, 500, at: 5)       // app
        try reload(&s, after, at: 10)
        s.up(0, at: 20); s.up(1, at: 30)
        #expect(s.lines == ["0 app down slot=0 50,50", "5 app down slot=1 500,500",
                            "10 app cancel slot=0", "10 app up slot=0", "30 app up slot=1"])
    }

    @Test func aTouchNeverSentStaysUnsentWhenItsViewStartsForwarding() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", forwardsTouches: false)])
        s.down(0, 100, 100, at: 0)
        try reload(&s, [ViewSpec(id: "app")], at: 10)
        s.up(0, at: 20)
        s.down(0, 100, 100, at: 30)
        s.up(0, at: 40)
        #expect(s.lines == ["30 app down slot=0 100,100", "40 app up slot=0"])
    }

    @Test func aReloadFlushesATouchHeldByARecognizerItCancelled() throws {
        let views = [ViewSpec(id: "app", gestures: [delivering(edgePan("edge", [.left]), delaysBegan: true)])]
        var s = try PassThroughScript(views)
        s.down(0, 5, 500, at: 0)
        s.move(0, 6, 500, at: 5)
        try reload(&s, views, at: 10)
        s.up(0, at: 20)
        #expect(s.lines == ["10 edge failed", "10 app down slot=0 5,500", "10 app move slot=0 6,500", "20 app up slot=0"])
    }

    @Test func aReloadReleasesALiftHeldForADoubleTap() throws {
        let views = [ViewSpec(id: "app", gestures: [tap("double", taps: 2)])]
        var s = try PassThroughScript(views)
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)                  // held: the double tap may still need it
        try reload(&s, views, at: 100)
        #expect(s.lines == ["0 app down slot=0 100,100", "100 double failed", "100 app up slot=0"])
    }

    /// The panel unplugged with a finger down: the application's touch is ended on the clone
    /// before the clone goes (a compositor that drops the cancel of a vanishing device would
    /// otherwise keep it pressed), and nothing is written after.
    @Test func removingTheDeviceEndsTheApplicationsTouchesOnTheCloneFirst() throws {
        var s = try PassThroughScript([ViewSpec(id: "app")])
        s.down(0, 100, 100, at: 0)
        s.down(1, 200, 100, at: 5)
        s.up(1, at: 8)
        var batch = Batch()
        s.pipeline.removeDevice(s.device, now: Instant(microseconds: 10_000), into: &batch)
        s.record(batch)
        s.move(0, 300, 100, at: 20)
        #expect(s.lines == ["0 app down slot=0 100,100", "5 app down slot=1 200,100", "8 app up slot=1",
                            "10 app cancel slot=0", "10 app up slot=0"])
        #expect(!s.pipeline.passesThrough(s.device))
    }

    @Test func aTouchWithoutAFreeCloneSlotIsNotForwarded() throws {
        var s = try PassThroughScript([ViewSpec(id: "app", gestures: [tap("double", taps: 2)])], slots: 1)
        s.down(0, 100, 100, at: 0)
        s.up(0, at: 50)                  // held by the double tap: the clone's one slot stays down
        s.down(0, 105, 100, at: 150)     // no clone slot left: never forwarded
        s.up(0, at: 200)
        #expect(s.lines == ["0 app down slot=0 100,100", "200 double ended", "200 app cancel slot=0", "200 app up slot=0"])
    }
}

/// The evdev events of the clone, as `CloneEncoder` writes them.
struct CloneEncoderTests {
    static func f(_ slot: Int, _ kind: ForwardedTouch.Kind, ms: Int64 = 0) -> ForwardedTouch {
        ForwardedTouch(device: GesturePipeline.DeviceID(value: 0), time: Instant(microseconds: ms * 1000),
                       touch: TouchID(1), slot: slot, kind: kind)
    }

    static func text(_ events: [RawEvent]) -> [String] {
        events.map { e in
            switch (e.type, e.code) {
            case (EventCode.EV_SYN, EventCode.SYN_REPORT): "SYN"
            case (EventCode.EV_KEY, EventCode.BTN_TOUCH): "BTN_TOUCH \(e.value)"
            case (EventCode.EV_ABS, EventCode.ABS_MT_SLOT): "SLOT \(e.value)"
            case (EventCode.EV_ABS, EventCode.ABS_MT_TOOL_TYPE): "TOOL \(e.value)"
            case (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID): "ID \(e.value)"
            case (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X): "X \(e.value)"
            case (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y): "Y \(e.value)"
            default: "? \(e.type) \(e.code) \(e.value)"
            }
        }
    }

    @Test func aDownWritesTheFingerToolBeforeItsTrackingIdAndPressesTheButton() {
        var encoder = CloneEncoder(slotCount: 2, hasTouchButton: true)
        var out: [RawEvent] = []
        encoder.encode([Self.f(0, .down(trackingID: 7, position: DevicePosition(x: 10, y: 20)))][...], into: &out)
        #expect(Self.text(out) == ["SLOT 0", "TOOL 0", "ID 7", "X 10", "Y 20", "BTN_TOUCH 1", "SYN"])
    }

    @Test func aCancelIsAPalmFrameThenALiftFrameAndTheNextTouchInTheSlotArrives() {
        var encoder = CloneEncoder(slotCount: 2, hasTouchButton: false, cancelStyle: .palm)
        var out: [RawEvent] = []
        encoder.encode([Self.f(0, .down(trackingID: 1, position: DevicePosition(x: 1, y: 1)))][...], into: &out)
        out.removeAll()
        encoder.encode([Self.f(0, .cancel), Self.f(0, .up), Self.f(0, .down(trackingID: 2, position: DevicePosition(x: 5, y: 5)))][...],
                       into: &out)
        #expect(Self.text(out) == ["SLOT 0", "TOOL 2", "SYN", "SLOT 0", "ID -1", "SYN", "SLOT 0", "TOOL 0", "ID 2", "X 5", "Y 5", "SYN"])
    }

    /// The same forwarded touches with `cancelStyle: "lift"`: the cancel writes nothing, the
    /// lift is the touch's end; a style changed while a touch is down applies to its cancel.
    @Test func withTheLiftStyleACancelIsOnlyItsLift() {
        var encoder = CloneEncoder(slotCount: 2, hasTouchButton: true, cancelStyle: .lift)
        var out: [RawEvent] = []
        encoder.encode([Self.f(0, .down(trackingID: 1, position: DevicePosition(x: 1, y: 1))),
                        Self.f(1, .down(trackingID: 2, position: DevicePosition(x: 9, y: 9)))][...], into: &out)
        out.removeAll()
        encoder.encode([Self.f(0, .cancel), Self.f(0, .up), Self.f(0, .down(trackingID: 3, position: DevicePosition(x: 5, y: 5)))][...],
                       into: &out)
        #expect(Self.text(out) == ["SLOT 0", "ID -1", "SYN", "SLOT 0", "TOOL 0", "ID 3", "X 5", "Y 5", "SYN"])
        out.removeAll()
        encoder.cancelStyle = .palm
        encoder.encode([Self.f(1, .cancel), Self.f(1, .up), Self.f(0, .cancel), Self.f(0, .up)][...], into: &out)
        #expect(Self.text(out) == ["SLOT 1", "TOOL 2", "SYN", "SLOT 1", "ID -1", "SLOT 0", "TOOL 2", "SYN",
                                   "SLOT 0", "ID -1", "BTN_TOUCH 0", "SYN"])
    }

    /// What a clone's guard writes when the daemon is gone (`CloneGuard`): every slot's end in
    /// the style, whatever is down.
    @Test func theEndOfEverySlotIsTheStylesCancelThenEveryLift() {
        #expect(Self.text(CloneEncoder.endingEverySlot(slotCount: 2, hasTouchButton: true, cancelStyle: .lift))
                == ["SLOT 0", "ID -1", "SLOT 1", "ID -1", "BTN_TOUCH 0", "SYN"])
        #expect(Self.text(CloneEncoder.endingEverySlot(slotCount: 2, hasTouchButton: false, cancelStyle: .palm))
                == ["SLOT 0", "TOOL 2", "SLOT 1", "TOOL 2", "SYN", "SLOT 0", "ID -1", "SLOT 1", "ID -1", "SYN"])
    }

    @Test func aFlushedTouchKeepsItsMovesAsSeparateFramesAndTouchesOfOneFrameShareIt() {
        var encoder = CloneEncoder(slotCount: 2, hasTouchButton: true)
        var out: [RawEvent] = []
        encoder.encode([Self.f(0, .down(trackingID: 1, position: DevicePosition(x: 1, y: 1))),
                        Self.f(1, .down(trackingID: 2, position: DevicePosition(x: 9, y: 9))),
                        Self.f(0, .move(DevicePosition(x: 2, y: 2))),
                        Self.f(1, .up), Self.f(0, .up)][...], into: &out)
        #expect(Self.text(out) == ["SLOT 0", "TOOL 0", "ID 1", "X 1", "Y 1", "BTN_TOUCH 1", "SLOT 1", "TOOL 0", "ID 2", "X 9", "Y 9", "SYN",
                                   "SLOT 0", "X 2", "Y 2", "SLOT 1", "ID -1", "SYN",
                                   "SLOT 0", "ID -1", "BTN_TOUCH 0", "SYN"])
    }
}

struct ForwardLineTests {
    @Test func forwardLinesSayWhatTheApplicationGotInDeviceUnits() {
        func line(_ kind: ForwardedTouch.Kind, _ format: LineFormat = .text) -> String {
            var out: [UInt8] = []
            LineEncoder.forwarded(ForwardedTouch(device: GesturePipeline.DeviceID(value: 0), time: Instant(microseconds: 1_500),
                                                 touch: TouchID(3), slot: 1, kind: kind),
                                  device: "event0", seq: 9, format: format, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(line(.down(trackingID: 4, position: DevicePosition(x: 10, y: 20)))
                == "forward down 3 device=event0 slot=1 trackingID=4 x=10 y=20 time=0.001500 seq=9\n")
        #expect(line(.move(DevicePosition(x: 11, y: 20))) == "forward move 3 device=event0 slot=1 x=11 y=20 time=0.001500 seq=9\n")
        #expect(line(.cancel) == "forward cancel 3 device=event0 slot=1 time=0.001500 seq=9\n")
        #expect(line(.up) == "forward up 3 device=event0 slot=1 time=0.001500 seq=9\n")
        #expect(line(.up, .json) == "{\"event\":\"forward\",\"phase\":\"up\",\"id\":3,\"device\":\"event0\",\"slot\":1,\"time\":0.001500,\"seq\":9}\n")
    }
}
