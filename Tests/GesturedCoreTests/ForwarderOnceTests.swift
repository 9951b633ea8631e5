import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The forwarder decides once in a step that ends the application's touches on several clones
/// or screens (a removal, shutdown, a lock): the claims and the cancellations' frames first,
/// then one decision that writes every clone's cancel and lift, before a clone goes. Before,
/// a removal decided twice (once for the claim, again in its cancellation's frame), shutdown
/// once and then twice per panel, a lock once per screen. Two screens, a pass-through panel
/// each (`event0`, `event1`), on the virtual clock.
@Suite struct ForwarderOnceTests {
    static let twoScreens = Configuration(screens: [
        ScreenSpec(id: "door", devices: .matching([DeviceMatch(sysname: "event0")]), views: [ViewSpec(id: "a")]),
        ScreenSpec(id: "desk", devices: .rest, views: [ViewSpec(id: "b")]),
    ])

    /// Two touches on panel 0, one on panel 1, all forwarded to the application.
    static func touching() throws -> KioskScript {
        var s = try KioskScript(twoScreens)
        s.down(0, 100, 100, at: 0, panel: 0)
        s.down(1, 300, 100, at: 10, panel: 0)
        s.down(0, 500, 500, at: 20, panel: 1)
        #expect(s.take() == ["0 app0 down slot=0 100,100", "10 app0 down slot=1 300,100", "20 app1 down slot=0 500,500"])
        return s
    }

    @Test func aRemovalDecidesOnce() throws {
        var s = try Self.touching()
        let before = s.pipeline.forwarder.decisions
        var batch = Batch()
        s.pipeline.removeDevice(s.devices[0], now: KioskScript.at(30), into: &batch)
        s.record(batch)
        #expect(s.pipeline.forwarder.decisions - before == 1)
        #expect(s.take() == ["30 app0 cancel slot=0", "30 app0 up slot=0", "30 app0 cancel slot=1", "30 app0 up slot=1"])
    }

    @Test func shutdownDecidesOnceForEveryPanel() throws {
        var s = try Self.touching()
        let before = s.pipeline.forwarder.decisions
        var batch = Batch()
        s.pipeline.shutdown(now: KioskScript.at(30), into: &batch)
        s.record(batch)
        #expect(s.pipeline.forwarder.decisions - before == 1)
        #expect(s.take() == ["30 app0 cancel slot=0", "30 app0 up slot=0", "30 app0 cancel slot=1", "30 app0 up slot=1",
                             "30 app1 cancel slot=0", "30 app1 up slot=0"])
        #expect(s.pipeline.deviceList.isEmpty)
    }

    @Test func aLockOfTwoScreensDecidesOnce() throws {
        var s = try Self.touching()
        let before = s.pipeline.forwarder.decisions
        s.request("lock 30", at: 30)
        #expect(s.pipeline.forwarder.decisions - before == 1)
        let lines = s.take()
        #expect(lines.filter { $0.contains(" app") } == ["30 app0 cancel slot=0", "30 app0 up slot=0", "30 app0 cancel slot=1",
                                                          "30 app0 up slot=1", "30 app1 cancel slot=0", "30 app1 up slot=0"])
        #expect(lines.first == "ok command=lock")
    }
}
