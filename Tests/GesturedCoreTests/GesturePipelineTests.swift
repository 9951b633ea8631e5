import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The whole pure pipeline: raw evdev events of several devices in, lines out.
struct GesturePipelineTests {
    static let panel = touchscreen("event3", "panel")
    static let other = touchscreen("event4", "other")
    static let config = Configuration(screen: Size(width: 999, height: 999), views: [
        ViewSpec(id: "root", gestures: [tap("tap")], subviews: [ViewSpec(id: "corner", frame: frame(0, 0, 100, 100))]),
    ])

    struct Run {
        var pipeline: GesturePipeline
        var lines: [String] = []
        var seq: UInt64 = 0
        init(_ config: Configuration = GesturePipelineTests.config) throws {
            pipeline = try GesturePipeline(configuration: config, screen: config.screen!)
        }
        mutating func record(_ output: Decisions) {
            for o in output.outputs { seq += 1; lines.append(String(LineEncoder.output(o, seq: seq, format: .text).dropLast())) }
        }
        /// A contact in `slot` going down at (x, y) or, with `id` -1, lifting, at `ms`.
        mutating func contact(_ device: GesturePipeline.DeviceID, slot: Int32, id: Int32, x: Int32 = 0, y: Int32 = 0, ms: Int64) {
            var output = Decisions()
            for e in contactEvents(slot: slot, id: id, x: x, y: y, ms: ms) { pipeline.handle(e, from: device, into: &output) }
            record(output)
        }
    }

    @Test func touchesFromTwoDevicesGetDistinctIdsAndKeepTheirViews() throws {
        var run = try Run()
        let a = try run.pipeline.addDevice(Self.panel), b = try run.pipeline.addDevice(Self.other)
        run.contact(a, slot: 0, id: 5, x: 50, y: 50, ms: 0)
        run.contact(b, slot: 0, id: 5, x: 500, y: 500, ms: 10)
        run.contact(a, slot: 0, id: -1, ms: 40)
        run.contact(b, slot: 0, id: -1, ms: 45)
        #expect(run.lines == [
            "touch began 1 view=corner device=event3 slot=0 x=50.00 y=50.00 time=0.000000 seq=1",
            "touch began 2 view=root device=event4 slot=0 x=500.00 y=500.00 time=0.010000 seq=2",
            "gesture tap failed tap view=root device=event4 time=0.010000 seq=3 touches=2 x=500.00 y=500.00 viewX=500.00 viewY=500.00",
            "touch ended 1 view=corner device=event3 slot=0 x=50.00 y=50.00 time=0.040000 seq=4",
            "touch ended 2 view=root device=event4 slot=0 x=500.00 y=500.00 time=0.045000 seq=5",
        ])
    }

    @Test func removingADeviceCancelsItsTouches() throws {
        var run = try Run()
        let a = try run.pipeline.addDevice(Self.panel)
        run.contact(a, slot: 1, id: 9, x: 500, y: 500, ms: 0)
        var output = Decisions()
        run.pipeline.removeDevice(a, now: Instant(microseconds: 20_000), into: &output)
        run.record(output)
        #expect(run.lines == [
            "touch began 1 view=root device=event3 slot=1 x=500.00 y=500.00 time=0.000000 seq=1",
            "touch cancelled 1 view=root device=event3 slot=1 x=500.00 y=500.00 time=0.020000 seq=2",
            "gesture tap failed tap view=root device=event3 time=0.020000 seq=3 touches=1 x=500.00 y=500.00 viewX=500.00 viewY=500.00",
        ])
        // Events of a removed device are ignored.
        run.contact(a, slot: 0, id: 1, x: 5, y: 5, ms: 30)
        #expect(run.lines.count == 3)
    }

    @Test func reloadWhileATouchIsDownLeavesItUnrouted() throws {
        var run = try Run()
        let a = try run.pipeline.addDevice(Self.panel)
        run.contact(a, slot: 0, id: 1, x: 500, y: 500, ms: 0)
        var output = Decisions()
        try run.pipeline.reload(configuration: Self.config, now: Instant(microseconds: 10_000), into: &output)
        run.record(output)
        run.contact(a, slot: 0, id: -1, ms: 30)          // the old touch: no tap from the new engine
        run.contact(a, slot: 0, id: 2, x: 500, y: 500, ms: 100)
        run.contact(a, slot: 0, id: -1, ms: 130)          // a new touch: a tap
        #expect(run.lines.filter { $0.hasPrefix("gesture") } == [
            "gesture tap failed tap view=root device=event3 time=0.010000 seq=2 touches=1 x=500.00 y=500.00 viewX=500.00 viewY=500.00",
            "gesture tap ended tap view=root device=event3 time=0.130000 seq=6 touches=1 x=500.00 y=500.00 viewX=500.00 viewY=500.00 taps=1",
        ])
    }

    /// A touch's lines name the view it was hit-tested to for its whole life, even when a
    /// reload took that view away (and put others where it was).
    @Test func aTouchKeepsItsViewAcrossAReloadThatRemovesIt() throws {
        var run = try Run()
        let a = try run.pipeline.addDevice(Self.panel)
        run.contact(a, slot: 0, id: 1, x: 50, y: 50, ms: 0)
        var output = Decisions()
        let other = Configuration(screen: Size(width: 999, height: 999), views: [
            ViewSpec(id: "top", subviews: [ViewSpec(id: "left", frame: frame(0, 0, 100, 999))]),
        ])
        try run.pipeline.reload(configuration: other, now: Instant(microseconds: 10_000), into: &output)
        run.record(output)
        run.contact(a, slot: 1, id: 2, x: 60, y: 60, ms: 20)
        run.contact(a, slot: 0, id: -1, ms: 30)
        run.contact(a, slot: 1, id: -1, ms: 40)
        #expect(run.lines.filter { $0.hasPrefix("touch") } == [
            "touch began 1 view=corner device=event3 slot=0 x=50.00 y=50.00 time=0.000000 seq=1",
            "touch began 2 view=left device=event3 slot=1 x=60.00 y=60.00 time=0.020000 seq=3",
            "touch ended 1 view=corner device=event3 slot=0 x=50.00 y=50.00 time=0.030000 seq=4",
            "touch ended 2 view=left device=event3 slot=1 x=60.00 y=60.00 time=0.040000 seq=5",
        ])
    }

    /// A SYN_DROPPED on one panel cancels the gestures its touches drive, and only those: a pan
    /// on another panel goes on.
    @Test func droppedEventsOnOneDeviceLeaveAnotherDevicesGesturesAlone() throws {
        var pan = PanParameters(); pan.slop = 10
        let config = Configuration(screen: Size(width: 999, height: 999), views: [
            ViewSpec(id: "left", frame: frame(0, 0, 500, 999), gestures: [GestureSpec(id: "leftDrag", kind: .pan(pan))]),
            ViewSpec(id: "right", frame: frame(500, 0, 499, 999), gestures: [GestureSpec(id: "rightDrag", kind: .pan(pan))]),
        ])
        var run = try Run(config)
        let a = try run.pipeline.addDevice(Self.panel), b = try run.pipeline.addDevice(Self.other)
        run.contact(a, slot: 0, id: 1, x: 100, y: 100, ms: 0)
        run.contact(a, slot: 0, id: 1, x: 150, y: 100, ms: 10)       // leftDrag begins
        run.contact(b, slot: 0, id: 1, x: 700, y: 100, ms: 20)
        run.contact(b, slot: 0, id: 1, x: 750, y: 100, ms: 30)       // rightDrag begins
        var output = Decisions()
        let t = Instant(microseconds: 40_000)
        for e in [RawEvent(time: t, type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0),
                  RawEvent(time: t, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)] {
            run.pipeline.handle(e, from: a, into: &output)
        }
        run.record(output)
        run.contact(b, slot: 0, id: 1, x: 800, y: 100, ms: 50)       // rightDrag goes on
        let gestures = run.lines.filter { $0.hasPrefix("gesture") }.map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
        #expect(gestures == ["gesture pan began leftDrag", "gesture pan began rightDrag",
                             "gesture pan cancelled leftDrag", "gesture pan changed rightDrag"])
    }

    /// A gesture line names the device whose touches made it, for a line made by a frame and for
    /// one made by a deadline (the engine stamps it; recognizers do not follow devices).
    @Test func gestureLinesNameTheirTouchesDevice() throws {
        var long = LongPressParameters(); long.minimumPressDuration = Interval(microseconds: 100_000)
        let config = Configuration(screen: Size(width: 999, height: 999), views: [
            ViewSpec(id: "root", gestures: [tap("tap"), GestureSpec(id: "hold", kind: .longPress(long))]),
        ])
        var run = try Run(config)
        let a = try run.pipeline.addDevice(Self.panel), b = try run.pipeline.addDevice(Self.other)
        run.contact(b, slot: 0, id: 1, x: 500, y: 500, ms: 0)
        run.contact(b, slot: 0, id: -1, ms: 40)                     // a tap on event4, by a frame
        run.contact(a, slot: 0, id: 1, x: 500, y: 500, ms: 1000)
        var output = Decisions()
        run.pipeline.advance(to: Instant(microseconds: 1_200_000), into: &output)   // a hold on event3, by its deadline
        run.record(output)
        let gestures = run.lines.filter { $0.hasPrefix("gesture") && !$0.contains(" failed ") }
            .map { $0.split(separator: " ").filter { $0.hasPrefix("device=") || !$0.contains("=") }.joined(separator: " ") }
        #expect(gestures == ["gesture tap ended tap device=event4", "gesture longPress began hold device=event3"])
    }

    /// With nobody to receive touch lines, none are made; the gestures are the same, and touch
    /// lines resume (with the view each touch was hit-tested to) once they are wanted again.
    @Test func touchOutputsOnlyWhenReported() throws {
        func play(_ run: inout Run, _ a: GesturePipeline.DeviceID) {
            run.contact(a, slot: 0, id: 1, x: 50, y: 50, ms: 0)
            run.contact(a, slot: 0, id: -1, ms: 40)
            run.contact(a, slot: 0, id: 2, x: 500, y: 500, ms: 400)
        }
        var reported = try Run(), silent = try Run()
        silent.pipeline.reportsTouches = false
        let a = try reported.pipeline.addDevice(Self.panel), b = try silent.pipeline.addDevice(Self.panel)
        play(&reported, a)
        play(&silent, b)
        let gestures = { (run: Run) in run.lines.filter { $0.hasPrefix("gesture") }.map { $0.replacingSeq() } }
        #expect(silent.lines.allSatisfy { $0.hasPrefix("gesture") })
        #expect(gestures(silent) == gestures(reported) && !gestures(silent).isEmpty)
        silent.pipeline.reportsTouches = true
        silent.contact(b, slot: 0, id: -1, ms: 440)
        #expect(silent.lines.filter { $0.hasPrefix("touch") }.map { $0.replacingSeq() } ==
                ["touch ended 2 view=root device=event3 slot=0 x=500.00 y=500.00 time=0.440000"])
    }
}

private extension String {
    /// The line without its `seq=` field (two runs number their lines differently).
    func replacingSeq() -> String { split(separator: " ").filter { !$0.hasPrefix("seq=") }.joined(separator: " ") }
}
