import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The touch lock (docs/KIOSK.md, "Touch lock"): `lock SECONDS [SCREEN]` claims every touch of
/// its screens until `unlock` or its own deadline; the sequence in progress when it begins ends
/// for the application (cancelled and lifted on the clone) and its gestures are cancelled; bad
/// input is refused and changes nothing.
struct KioskLockTests {
    @Test func whileLockedATapReachesNothingAndTheLockEndsByItself() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("lock 30", at: 1000)
        #expect(s.pipeline.nextDeadline == KioskScript.at(31_000), "the lock's end is a deadline")
        s.tap(500, 500, at: 5000)
        s.advance(to: 40_000)
        s.tap(500, 500, at: 41_000)
        #expect(s.take() == [
            "ok command=lock",
            "lock seconds=30 time=1.000000 seq=1",
            "unlock time=31.000000 seq=2",
            "41000 app0 down slot=0 500,500", "41050 tap ended", "41050 app0 cancel slot=0", "41050 app0 up slot=0",
        ])
        #expect(s.pipeline.nextDeadline == nil)
    }

    @Test func unlockEndsItEarlyAndSaysSoOnce() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("lock 60", at: 0)
        s.request("unlock", at: 10_000)
        s.request("unlock", at: 11_000)
        s.tap(500, 500, at: 12_000)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=60 time=0.000000 seq=1",
            "ok command=unlock", "unlock time=10.000000 seq=2",
            "ok command=unlock",
            "12000 app0 down slot=0 500,500", "12050 tap ended", "12050 app0 cancel slot=0", "12050 app0 up slot=0",
        ])
        #expect(s.pipeline.nextDeadline == nil, "the lock's deadline went with it")
    }

    /// A pan in progress is cancelled, and the application gets a cancel and a lift for the
    /// finger it had; the finger's later moves and lift reach nobody, nor do new fingers.
    @Test func theSequenceInProgressEndsCleanlyForTheApplication() throws {
        var config = KioskScript.tapping()
        config.views = [ViewSpec(id: "app", gestures: [delivering(pan("pan"), cancels: false)])]   // the application keeps the finger
        var s = try KioskScript(config)
        s.down(0, 100, 100, at: 0)
        s.move(0, 200, 100, at: 20)
        s.move(0, 300, 100, at: 40)
        #expect(s.take().contains("40 app0 move slot=0 300,100"))
        s.request("lock 30", at: 50)
        s.move(0, 400, 100, at: 60)
        s.down(1, 600, 600, at: 70)
        s.up(0, at: 80); s.up(1, at: 90)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=30 time=0.050000 seq=1",
            "50 pan cancelled",
            "50 app0 cancel slot=0", "50 app0 up slot=0",
        ])
    }

    /// A sequence is claimed whole: a finger that lands after `unlock` while a claimed one is
    /// still down is claimed too; the next sequence is ordinary.
    @Test func aClaimedSequenceStaysClaimedUntilItsLastFingerLifts() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("lock 30", at: 0)
        s.down(0, 100, 100, at: 1000)
        s.request("unlock", at: 2000)
        s.down(1, 500, 500, at: 3000)
        s.up(0, at: 4000); s.up(1, at: 4010)
        s.tap(500, 500, at: 5000)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=30 time=0.000000 seq=1",
            "ok command=unlock", "unlock time=2.000000 seq=2",
            "5000 app0 down slot=0 500,500", "5050 tap ended", "5050 app0 cancel slot=0", "5050 app0 up slot=0",
        ])
    }

    @Test func aScreensLockLeavesTheOtherScreenAlone() throws {
        let configuration = Configuration(screens: [
            ScreenSpec(id: "door", devices: .matching([DeviceMatch(sysname: "event0")]), views: [ViewSpec(id: "a")]),
            ScreenSpec(id: "desk", devices: .rest, views: [ViewSpec(id: "b")]),
        ])
        var s = try KioskScript(configuration)
        s.request("lock 10 desk", at: 0)
        s.tap(500, 500, at: 1000, panel: 1)
        s.tap(500, 500, at: 2000, panel: 0)
        s.request("lock 10", at: 3000)
        s.request("unlock door", at: 4000)
        s.advance(to: 20_000)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=10 screen=desk time=0.000000 seq=1",
            "2000 app0 down slot=0 500,500", "2050 app0 up slot=0",
            "ok command=lock", "lock seconds=10 screen=door time=3.000000 seq=2", "lock seconds=10 screen=desk time=3.000000 seq=3",
            "ok command=unlock", "unlock screen=door time=4.000000 seq=4",
            "unlock screen=desk time=13.000000 seq=5",
        ])
    }

    /// Every bad request is answered with what is wrong, and nothing changes: no line, no lock,
    /// no deadline.
    @Test(arguments: [
        ("lock -1", "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '-1'\""),
        ("lock 1e9", "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '1e9'\""),
        ("lock 0", "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '0'\""),
        ("lock 3601", "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '3601'\""),
        ("lock 99999999999999999999", "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '99999999999999999999'\""),
        ("lock 1.5", "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '1.5'\""),
        ("lock", "error command=lock message=\"lock takes a number of seconds (1 to 3600), and optionally a screen id\""),
        ("lock 5 a b", "error command=lock message=\"lock takes a number of seconds (1 to 3600), and optionally a screen id\""),
        ("lock 5 lobby", "error command=lock message=\"no screen 'lobby' (the configuration has no screens)\""),
        ("unlock lobby", "error command=unlock message=\"no screen 'lobby' (the configuration has no screens)\""),
        ("unlock a b", "error command=unlock message=\"unlock takes at most a screen id\""),
    ])
    func badInputIsAnsweredAndChangesNothing(request: String, answer: String) throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request(request, at: 1000)
        #expect(s.take() == [answer])
        #expect(s.pipeline.locks == [nil])
        #expect(s.pipeline.nextDeadline == nil)
    }

    @Test func anUnknownScreenIsNamedWithTheKnownOnes() throws {
        let configuration = Configuration(screens: [ScreenSpec(id: "door", views: [ViewSpec(id: "a")])])
        var s = try KioskScript(configuration)
        s.request("lock 5 lobby", at: 0)
        #expect(s.take() == ["error command=lock message=\"no screen 'lobby' (door)\""])
        #expect(s.pipeline.locks == [nil])
    }

    @Test func aLockOnALockedScreenReplacesItsEnd() throws {
        var s = try KioskScript(KioskScript.tapping())
        s.request("lock 60", at: 0)
        s.request("lock 5", at: 1000)
        s.advance(to: 100_000)
        #expect(s.take() == ["ok command=lock", "lock seconds=60 time=0.000000 seq=1",
                             "ok command=lock", "lock seconds=5 time=1.000000 seq=2", "unlock time=6.000000 seq=3"])
    }
}
