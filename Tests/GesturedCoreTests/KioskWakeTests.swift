import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The wake touch (docs/KIOSK.md, "The touch that wakes the screen"): after `screen off`, the
/// sequence that begins next is claimed whole (no gesture, nothing forwarded) and every client
/// gets a `wake` line; the screen is on from then on, so the next sequence is ordinary.
struct KioskWakeTests {
    @Test func theWakeTouchIsClaimedAndTheNextIsOrdinary() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("screen off", at: 0)
        #expect(s.pipeline.screensOff == [true])
        s.tap(250, 750, at: 1000)
        s.tap(500, 500, at: 2000)
        #expect(s.take() == [
            "ok command=screen",
            "wake device=event0 x=250.25 y=750.75 time=1.000000 seq=1",
            "2000 app0 down slot=0 500,500", "2050 tap ended", "2050 app0 cancel slot=0", "2050 app0 up slot=0",
        ])
        #expect(s.pipeline.screensOff == [false])
    }

    @Test func everyFingerOfTheWakingSequenceIsClaimed() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("screen off", at: 0)
        s.down(0, 100, 100, at: 1000)
        s.down(1, 900, 900, at: 1100)
        s.up(0, at: 1200)
        s.down(0, 500, 500, at: 1300)   // still the same sequence: finger 1 is down
        s.up(1, at: 1400); s.up(0, at: 1500)
        #expect(s.take() == ["ok command=screen", "wake device=event0 x=100.10 y=100.10 time=1.000000 seq=1"])
    }

    @Test func screenOnBeforeATouchMeansNoWake() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("screen off", at: 0)
        s.request("screen on", at: 500)
        s.tap(500, 500, at: 1000)
        #expect(s.take().filter { $0.hasPrefix("wake") }.isEmpty)
    }

    /// `power.wakeAction` runs for the claimed wake touch, right after its `wake` line (whose
    /// number its environment carries), and for nothing else: not for the next touch, not for a
    /// wake that `wakeTouch: "forward"` lets through.
    @Test func theWakeActionRunsForTheClaimedWakeOnly() throws {
        let action = GestureAction(run: ["/usr/bin/touch", "/run/gestured/actions/screen-on"])
        var s = try KioskScript(KioskScript.tapping(power: PowerPolicy(wakeAction: action)))
        s.request("screen off", at: 0)
        s.tap(500, 500, at: 1000)
        s.tap(500, 500, at: 2000)
        #expect(s.take() == [
            "ok command=screen",
            "wake device=event0 x=500.50 y=500.50 time=1.000000 seq=1",
            "run power.wakeAction /usr/bin/touch /run/gestured/actions/screen-on",
            "2000 app0 down slot=0 500,500", "2050 tap ended", "2050 app0 cancel slot=0", "2050 app0 up slot=0",
        ])
        var forward = try KioskScript(KioskScript.tapping(power: PowerPolicy(wakeTouch: .forward, wakeAction: action)))
        forward.request("screen off", at: 0)
        forward.tap(500, 500, at: 1000)
        #expect(!forward.take().contains { $0.hasPrefix("run ") })
    }

    @Test func wakeTouchForwardLetsTheTouchThroughWithoutALine() throws {
        var s = try KioskScript(KioskScript.tapping(power: PowerPolicy(wakeTouch: .forward)))
        s.request("screen off", at: 0)
        s.tap(500, 500, at: 1000)
        #expect(s.take() == ["ok command=screen",
                             "1000 app0 down slot=0 500,500", "1050 tap ended", "1050 app0 cancel slot=0", "1050 app0 up slot=0"])
        #expect(s.pipeline.screensOff == [false])
    }

    /// After an idle line, the waking touch says `active` first, then `wake`.
    @Test func idleThenOffThenAWakingTouch() throws {
        var s = try KioskScript(KioskScript.tapping(idle: [60]))
        s.advance(to: 60_000)
        s.request("screen off", at: 600_000)
        s.tap(500, 500, at: 700_000)
        #expect(s.take() == ["idle seconds=60 time=60.000000 seq=1", "ok command=screen",
                             "active time=700.000000 seq=2", "wake device=event0 x=500.50 y=500.50 time=700.000000 seq=3"])
    }

    @Test func oneScreenOffWakesOnlyByItsOwnTouch() throws {
        let configuration = Configuration(screens: [
            ScreenSpec(id: "door", devices: .matching([DeviceMatch(sysname: "event0")]), views: [ViewSpec(id: "a")]),
            ScreenSpec(id: "desk", devices: .rest, views: [ViewSpec(id: "b")], power: PowerPolicy(wakeTouch: .claim)),
        ])
        var s = try KioskScript(configuration)
        s.request("screen off desk", at: 0)
        s.tap(500, 500, at: 1000, panel: 0)
        s.tap(500, 500, at: 2000, panel: 1)
        s.request("screen off nowhere", at: 3000)
        #expect(s.take() == [
            "ok command=screen",
            "1000 app0 down slot=0 500,500", "1050 app0 up slot=0",
            "wake device=event1 screen=desk x=500.50 y=500.50 time=2.000000 seq=1",
            "error command=screen message=\"no screen 'nowhere' (door, desk)\"",
        ])
    }

    @Test(arguments: [
        ("screen", "error command=screen message=\"screen takes on or off, and optionally a screen id\""),
        ("screen dim", "error command=screen message=\"screen takes on or off, and optionally a screen id\""),
        ("screen off a b", "error command=screen message=\"screen takes on or off, and optionally a screen id\""),
        ("screen off lobby", "error command=screen message=\"no screen 'lobby' (the configuration has no screens)\""),
    ])
    func badInputIsAnsweredAndChangesNothing(request: String, answer: String) throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request(request, at: 0)
        #expect(s.take() == [answer])
        #expect(s.pipeline.screensOff == [false])
    }
}
