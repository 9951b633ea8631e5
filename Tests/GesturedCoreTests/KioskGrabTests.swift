import GesturedTestSupport
import Testing
@testable import GesturedCore

/// A panel the application reads directly (no `grab`, no `passThrough`) is grabbed while the
/// next sequence on its screen would be claimed, and let go once that sequence has lifted
/// (docs/KIOSK.md, "Without pass-through"): the decisions as data (`Batch.grabs`), on the
/// virtual clock. A grab begins as soon as the screen claims, fingers down or not.
struct KioskGrabTests {
    @Test func screenOffGrabsThePanelUntilTheWakeSequenceLifts() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.request("screen off", at: 0)
        s.down(0, 250, 750, at: 1000)
        s.down(1, 500, 500, at: 1100)
        s.up(0, at: 1200)
        s.up(1, at: 1300)
        s.tap(500, 500, at: 2000)
        #expect(s.take() == [
            "ok command=screen", "grab event0",
            "wake device=event0 x=250.25 y=750.75 time=1.000000 seq=1",
            "let go event0",
            "2050 tap ended",
        ])
    }

    @Test func screenOnBeforeATouchLetsGoAtOnce() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.request("screen off", at: 0)
        s.request("screen on", at: 500)
        #expect(s.take() == ["ok command=screen", "grab event0", "ok command=screen", "let go event0"])
    }

    @Test func wakeTouchForwardNeverGrabs() throws {
        var s = try KioskScript(KioskScript.tapping(power: PowerPolicy(wakeTouch: .forward)), passThrough: false)
        s.request("screen off", at: 0)
        s.tap(500, 500, at: 1000)
        #expect(s.take() == ["ok command=screen", "1050 tap ended"])
    }

    /// The lock grabs as well, and lets go at its end; a sequence claimed across the end keeps
    /// the grab until its last finger lifts.
    @Test func aLockGrabsAndItsEndLetsGoOnceTheClaimedFingersLift() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.request("lock 10", at: 0)
        s.down(0, 500, 500, at: 9000)
        s.advance(to: 10_500)
        s.up(0, at: 11_000)
        s.tap(500, 500, at: 12_000)
        #expect(s.take() == [
            "ok command=lock", "lock seconds=10 time=0.000000 seq=1", "grab event0",
            "unlock time=10.000000 seq=2",
            "let go event0",
            "12050 tap ended",
        ])
    }

    /// A finger down when the lock comes does not keep the panel ungrabbed (issue 44, finding
    /// 8): the grab comes with the lock, so the finger that lands at 150 while the first is
    /// still down never reaches the application. The grab ends at the unlock, claimed fingers
    /// lifted.
    @Test func aLockGrabsAtOnceWhileAFingerIsDown() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.down(0, 500, 500, at: 0)
        s.request("lock 60", at: 100)
        #expect(s.take() == ["ok command=lock", "lock seconds=60 time=0.100000 seq=1", "100 tap failed", "grab event0"])
        s.down(1, 600, 600, at: 150)
        s.up(1, at: 200)
        s.down(1, 650, 650, at: 300)
        s.up(1, at: 350)
        s.up(0, at: 400)
        s.request("unlock", at: 1000)
        #expect(s.take() == ["ok command=unlock", "unlock time=1.000000 seq=2", "let go event0"])
    }

    /// The same for `screen off` (`wakeTouch: "claim"`): grabbed at once; the wake touch that
    /// lands beside the finger already down is claimed and never reaches the application; once
    /// it lifts the panel is let go although the first finger is still down (it is not
    /// claimed: the application gets its moves and its lift again).
    @Test func screenOffGrabsAtOnceAndAnUnclaimedFingerDoesNotHoldTheGrab() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.down(0, 500, 500, at: 0)
        s.request("screen off", at: 100)
        #expect(s.take() == ["ok command=screen", "grab event0"])
        s.down(1, 250, 750, at: 150)
        s.up(1, at: 200)
        s.up(0, at: 400)
        s.tap(500, 500, at: 1000)
        #expect(s.take() == [
            "wake device=event0 x=250.25 y=750.75 time=0.150000 seq=1",
            "let go event0",
            "400 tap ended",
            "1050 tap ended",
        ])
    }

    /// Only the panel of the screen that claims is grabbed.
    @Test func oneScreenOffGrabsOnlyItsPanel() throws {
        let configuration = Configuration(screens: [
            ScreenSpec(id: "door", devices: .matching([DeviceMatch(sysname: "event0")]), views: [ViewSpec(id: "a")]),
            ScreenSpec(id: "desk", devices: .rest, views: [ViewSpec(id: "b")]),
        ])
        var s = try KioskScript(configuration, passThrough: false)
        s.request("screen off desk", at: 0)
        s.tap(500, 500, at: 1000, panel: 0)
        s.tap(500, 500, at: 2000, panel: 1)
        #expect(s.take() == [
            "ok command=screen", "grab event1",
            "wake device=event1 screen=desk x=500.50 y=500.50 time=2.000000 seq=1", "let go event1",
        ])
    }

    /// A panel with `grab` or `passThrough` is the daemon's already: never grabbed for claims.
    @Test(arguments: [true, false])
    func aPanelTheDaemonOwnsIsNeverGrabbedForClaims(passThrough: Bool) throws {
        var pipeline = try GesturePipeline(configuration: KioskScript.tapping(), sizes: [Size(width: 1000, height: 1000)])
        let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        _ = try pipeline.addDevice(panel, rule: DeviceRule(grab: true, passThrough: passThrough))
        var batch = Batch()
        _ = ControlDesk.apply(.screenPower(on: false, screen: nil), to: &pipeline, layouts: ControlDesk.layouts(of: Configuration()),
                              devices: pipeline.deviceList, now: KioskScript.at(0), into: &batch)
        #expect(batch.grabs.isEmpty)
    }

    /// A device removed while grabbed for claims is let go first (a reload may re-add it open).
    @Test func aRemovedPanelIsLetGoFirst() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.request("screen off", at: 0)
        var batch = Batch()
        s.pipeline.removeDevice(s.devices[0], now: KioskScript.at(100), into: &batch)
        s.record(batch)
        #expect(s.take() == ["ok command=screen", "grab event0", "let go event0"])
    }

    /// A panel that comes while its screen claims (said off) is grabbed in its addition's own
    /// step: no touch of the next sequence reaches the application before a later step would
    /// have settled it.
    @Test func aPanelAddedWhileItsScreenClaimsIsGrabbedInItsOwnStep() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.request("screen off", at: 0)
        let panel = DeviceDescription(sysname: "event9", name: "late", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        var batch = Batch()
        let line = DeviceLine(added: true, sysname: "event9", name: "late")
        let late = try s.pipeline.addDevice(panel, line: line, into: &batch)
        #expect(batch.deviceLines == [line])
        #expect(batch.grabs == [PanelGrab(device: late, exclusive: true)])
    }

    /// A reload that treats a pass-through panel anew (its rotation changed) does it in the
    /// reload's one step, under the same id: the application's touch on its clone is cancelled
    /// and lifted in that batch, and the panel's next touch is decoded with the new rotation.
    @Test func aReloadTreatsAPanelAnewInItsOwnStepUnderItsId() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: true)
        s.down(0, 100, 100, at: 0)
        #expect(s.take() == ["0 app0 down slot=0 100,100"])
        let id = s.devices[0]
        let turned = DeviceRule(rotation: .quarter, passThrough: true)
        let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        let prepared = try GesturePipeline.prepareReplacement(of: id, panel, rule: turned, fallbackCalibration: nil, screen: 0,
                                                              size: Size(width: 1000, height: 1000))
        var batch = Batch()
        try s.pipeline.reload(configuration: KioskScript.tapping(), sizes: [Size(width: 1000, height: 1000)],
                              devices: [.replace(prepared)], now: KioskScript.at(10), into: &batch)
        s.record(batch)
        #expect(s.take() == ["10 tap failed", "10 app0 cancel slot=0", "10 app0 up slot=0"])
        #expect(s.pipeline.deviceList.map(\.id) == [id])
        #expect(s.pipeline.geometry(of: id)?.rotation == .quarter)
    }
}
