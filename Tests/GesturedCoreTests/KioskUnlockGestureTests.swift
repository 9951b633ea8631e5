import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The unlock gesture (`lock.unlockGesture`, docs/KIOSK.md "The touch lock"): while locked it
/// is the only gesture that runs, every touch stays claimed (nothing reaches the application),
/// and its end ends the lock (`unlock` to every client). A long press held 2 s in the top-left
/// 100×100 corner, on the virtual clock.
struct KioskUnlockGestureTests {
    static func config(frame: Rect? = Rect(x: 0, y: 0, width: 100, height: 100)) -> Configuration {
        var configuration = KioskScript.tapping()
        configuration.lock = LockPolicy(unlockGesture: longPress("unlock") { $0.minimumPressDuration = Interval(seconds: 2) },
                                        unlockFrame: frame)
        return configuration
    }

    @Test func theUnlockGestureEndsTheLockAndNothingReachesTheApplication() throws {
        var s = try KioskScript(Self.config())
        s.request("lock 60", at: 0)
        s.tap(500, 500, at: 1000)                      // claimed: no gesture, nothing forwarded
        s.down(0, 50, 50, at: 2000)
        #expect(s.pipeline.nextDeadline == KioskScript.at(4000), "the unlock gesture's timer is a deadline")
        s.advance(to: 4500)                            // the press begins: no line
        s.up(0, at: 5000)                              // it ends: the lock ends
        s.tap(500, 500, at: 6000)                      // an ordinary tap again
        #expect(s.take() == [
            "ok command=lock", "lock seconds=60 time=0.000000 seq=1",
            "unlock time=5.000000 seq=2",
            "6000 app0 down slot=0 500,500", "6050 tap ended", "6050 app0 cancel slot=0", "6050 app0 up slot=0",
        ])
        #expect(s.pipeline.locks == [nil])
        #expect(s.pipeline.nextDeadline == nil, "the lock's own end went with it")
    }

    /// Too short, or begun outside its frame: the lock holds, and nothing reaches anybody.
    @Test func aPressTooShortOrOutsideItsFrameUnlocksNothing() throws {
        var s = try KioskScript(Self.config())
        s.request("lock 60", at: 0)
        s.down(0, 50, 50, at: 1000); s.up(0, at: 2500)       // 1.5 s: too short
        s.down(0, 500, 500, at: 3000); s.up(0, at: 6000)     // outside the corner
        s.advance(to: 10_000)
        #expect(s.take() == ["ok command=lock", "lock seconds=60 time=0.000000 seq=1"])
        #expect(s.pipeline.locks == [KioskScript.at(60_000)])
    }

    /// Without a frame the gesture may begin anywhere.
    @Test func withoutAFrameItRunsAnywhere() throws {
        var s = try KioskScript(Self.config(frame: nil))
        s.request("lock 60", at: 0)
        s.down(0, 900, 900, at: 1000); s.up(0, at: 3500)
        #expect(s.take() == ["ok command=lock", "lock seconds=60 time=0.000000 seq=1", "unlock time=3.500000 seq=2"])
    }

    /// Unlocked, the corner is the application's like the rest: the unlock gesture does not run,
    /// and a long hold there is an ordinary touch (the view's tap, which has no time limit).
    @Test func unlockedTheUnlockGestureDoesNotRun() throws {
        var s = try KioskScript(Self.config())
        s.down(0, 50, 50, at: 1000); s.up(0, at: 4000)
        #expect(s.take() == ["1000 app0 down slot=0 50,50", "4000 tap ended", "4000 app0 cancel slot=0", "4000 app0 up slot=0"])
    }

    /// A finger of the gesture still down when the lock ends by itself: it stays claimed to its
    /// lift, and its end unlocks nothing more.
    @Test func theLocksOwnEndComesFirstAndTheGestureEndsNothing() throws {
        var s = try KioskScript(Self.config())
        s.request("lock 5", at: 0)
        s.down(0, 50, 50, at: 4000)
        s.advance(to: 7000)
        s.up(0, at: 8000)
        s.tap(500, 500, at: 9000)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=5 time=0.000000 seq=1", "unlock time=5.000000 seq=2",
            "9000 app0 down slot=0 500,500", "9050 tap ended", "9050 app0 cancel slot=0", "9050 app0 up slot=0",
        ])
    }

    /// With two screens, the gesture ends the lock of its own screen.
    @Test func itUnlocksItsOwnScreen() throws {
        var door = ScreenSpec(id: "door", devices: .matching([DeviceMatch(sysname: "event0")]), views: [ViewSpec(id: "a")])
        door.lock = LockPolicy(unlockGesture: longPress("unlock") { $0.minimumPressDuration = Interval(seconds: 1) })
        let configuration = Configuration(screens: [door, ScreenSpec(id: "desk", devices: .rest, views: [ViewSpec(id: "b")])])
        var s = try KioskScript(configuration)
        s.request("lock 60", at: 0)
        s.down(0, 50, 50, at: 1000, panel: 1); s.up(0, at: 3000, panel: 1)   // the desk has none
        s.down(0, 50, 50, at: 4000, panel: 0); s.up(0, at: 5500, panel: 0)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=60 screen=door time=0.000000 seq=1", "lock seconds=60 screen=desk time=0.000000 seq=2",
            "unlock screen=door time=5.500000 seq=3",
        ])
        #expect(s.pipeline.locks == [nil, KioskScript.at(60_000)])
    }
}
