import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Idle lines (docs/KIOSK.md, "Idle"): `idle seconds=N` once per configured threshold after that
/// long without a touch, one `active` at the next touch, from the core's deadlines on the
/// virtual clock; and no deadline at all without thresholds.
struct KioskIdleTests {
    @Test func withoutThresholdsThereIsNoDeadlineSoAnIdleDaemonNeverWakes() throws {
        var s = try KioskScript(Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "app")]))
        #expect(s.pipeline.nextDeadline == nil)
        s.tap(500, 500, at: 1000)
        #expect(s.pipeline.nextDeadline == nil)
        #expect(s.take() == ["1000 app0 down slot=0 500,500", "1050 app0 up slot=0"])
    }

    @Test func eachThresholdSendsOneLineAndTheNextTouchSendsActive() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60, 300]))
        #expect(s.pipeline.nextDeadline == KioskScript.at(60_000))
        s.advance(to: 400_000)
        #expect(s.pipeline.nextDeadline == nil, "every threshold reached: nothing left to wake for")
        s.tap(500, 500, at: 500_000)
        #expect(s.take() == [
            "idle seconds=60 time=60.000000 seq=1",
            "idle seconds=300 time=300.000000 seq=2",
            "active time=500.000000 seq=3",
            "500000 app0 down slot=0 500,500",
            "500050 tap ended", "500050 app0 cancel slot=0", "500050 app0 up slot=0",
        ])
        // Counting again from the lift.
        #expect(s.pipeline.nextDeadline == KioskScript.at(560_050))
        s.tap(500, 500, at: 600_000)
        #expect(s.take().first == "idle seconds=60 time=560.050000 seq=4")
    }

    @Test func aTouchBeforeTheFirstThresholdRestartsTheCountWithoutAnActiveLine() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60]))
        s.tap(500, 500, at: 30_000)
        s.advance(to: 200_000)
        #expect(s.take() == ["30000 app0 down slot=0 500,500", "30050 tap ended", "30050 app0 cancel slot=0", "30050 app0 up slot=0",
                             "idle seconds=60 time=90.050000 seq=1"])
    }

    @Test func aFingerHeldDownIsNotIdleTheCountStartsAtItsLift() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60]))
        s.down(0, 500, 500, at: 10_000)
        #expect(s.pipeline.nextDeadline.map { $0 >= KioskScript.at(70_000) } != true, "no idle deadline while a finger is down")
        s.up(0, at: 100_000)
        s.advance(to: 170_000)
        #expect(s.take().suffix(1) == ["idle seconds=60 time=160.000000 seq=1"])
    }

    @Test func theCountEndsOnlyWhenTheLastFingerLifts() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60]))
        s.down(0, 100, 100, at: 1000)
        s.down(1, 900, 900, at: 2000)
        s.up(0, at: 3000)
        s.up(1, at: 5000)
        s.advance(to: 100_000)
        #expect(s.take().filter { $0.hasPrefix("idle") } == ["idle seconds=60 time=65.000000 seq=1"])
    }

    /// Top-level thresholds count every screen's touches (no `screen=`); a screen's own count
    /// its touches only (with `screen=`).
    @Test func aScreensThresholdsCountItsTouchesOnly() throws {
        let configuration = Configuration(screens: [
            ScreenSpec(id: "door", devices: .matching([DeviceMatch(sysname: "event0")]), views: [ViewSpec(id: "a")], idle: [KioskScript.seconds(10)]),
            ScreenSpec(id: "desk", devices: .rest, views: [ViewSpec(id: "b")]),
        ], idle: [KioskScript.seconds(30)])
        var s = try KioskScript(configuration, passThrough: false)
        s.tap(500, 500, at: 5000, panel: 1)      // the desk: resets the top-level count, not the door's
        s.advance(to: 60_000)
        s.tap(500, 500, at: 61_000, panel: 0)    // the door: active for both
        #expect(s.take() == [
            "idle seconds=10 screen=door time=10.000000 seq=1",
            "idle seconds=30 time=35.050000 seq=2",
            "active time=61.000000 seq=3",
            "active screen=door time=61.000000 seq=4",
        ])
    }

    /// Replay fires idle thresholds as the daemon's timer would: counted from the recording's
    /// first event, and after its last lift.
    @Test func replayShowsIdleLinesOnTheRecordingsClock() throws {
        let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        let events = ScreensTests.contact(id: 1, x: 500, y: 500, ms: 1000) + ScreensTests.contact(id: -1, ms: 1050)
            + ScreensTests.contact(id: 2, x: 500, y: 500, ms: 100_000) + ScreensTests.contact(id: -1, ms: 100_050)
        let options = Replay.Options(touches: false, failed: false)
        var session = try Replay.Session(devices: [panel], configuration: KioskScript.tapping(idle: [60]), touches: false,
                                         reader: options.reader)
        var lines = Replay.Lines(options: options, devices: [panel])
        var text: [UInt8] = []
        var given = false
        session.play(next: { _ in defer { given = true }; return given ? nil : events }) {
            lines.take(&$0, traced: { _ in }) { text += $0; $0.removeAll() }
        }
        let played = String(decoding: text, as: UTF8.self).split(separator: "\n").map { line in
            line.hasPrefix("gesture ") ? line.split(separator: " ").prefix(3).joined(separator: " ") : String(line)
        }
        #expect(played == ["gesture tap ended", "idle seconds=60 time=61.050000 seq=2", "active time=100.000000 seq=3",
                          "gesture tap ended", "idle seconds=60 time=160.050000 seq=5"])
    }

    /// A reload counts again from its time; a panel that had gone idle still says `active` at
    /// its next touch.
    @Test func aReloadCountsAgainAndKeepsWhetherThePanelWasIdle() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60]))
        s.advance(to: 70_000)
        var batch = Batch()
        try s.pipeline.reload(configuration: KioskScript.tapping(idle: [20, 40]), now: KioskScript.at(80_000), into: &batch)
        s.advance(to: 110_000)
        s.tap(500, 500, at: 115_000)
        #expect(s.take().prefix(4) == ["idle seconds=60 time=60.000000 seq=1", "idle seconds=20 time=100.000000 seq=2",
                                       "active time=115.000000 seq=3", "115000 app0 down slot=0 500,500"])
    }
}

extension KioskIdleTests {
    /// A pipeline whose idle clocks were never started (no daemon start, no replay) starts
    /// them at the first lift.
    @Test func unstartedClocksStartAtTheFirstLift() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60]), start: nil)
        #expect(s.pipeline.nextDeadline == nil)
        s.tap(500, 500, at: 10_000)
        s.advance(to: 100_000)
        #expect(s.take().last == "idle seconds=60 time=70.050000 seq=1")
    }
}
