import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The pipeline's one step (`GesturePipeline.step`): every input ends with the kiosk policy's
/// grabs settled and the engines' trace and recognizer bugs collected, typed, into the batch;
/// device lines are an input like the others.
struct PipelineStepTests {
    /// A control request fires the deadlines due first; the lock that ends among them lets its
    /// panel go in the same step (before, only a frame, the timer or a kiosk request settled the
    /// grabs, so a view request left the panel grabbed after its lock's end).
    @Test func aControlRequestLetsGoOfAPanelWhoseLockEndedInItsStep() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        s.request("lock 10", at: 0)
        #expect(s.take() == ["ok command=lock", "lock seconds=10 time=0.000000 seq=1", "grab event0"])
        var batch = Batch()
        let refusal = ControlDesk.apply(.view("nowhere", .hidden(true)), to: &s.pipeline, layouts: [], devices: s.pipeline.deviceList,
                                        now: KioskScript.at(11_000), into: &batch)
        #expect(refusal == "no view 'nowhere'")
        s.record(batch)
        #expect(s.take() == ["unlock time=10.000000 seq=2", "let go event0"])
    }

    /// A recognizer's bug leaves the step as a typed value, not as a trace string; untraced, the
    /// trace stays empty.
    @Test func recognizerBugsLeaveTheStepTyped() throws {
        var pipeline = try GesturePipeline(configuration: KioskScript.tapping(), screen: Size(width: 1000, height: 1000))
        pipeline.screens[0].engine.recognizerBug(0, proposal: .cancel)
        var batch = Batch()
        pipeline.advance(to: KioskScript.at(5), into: &batch)
        #expect(batch.bugs == [RecognizerBug(recognizer: "tap", proposal: "cancel", phase: "possible")])
        #expect(batch.trace.isEmpty)
        #expect(!batch.isEmpty)
        pipeline.advance(to: KioskScript.at(6), into: &batch)
        #expect(batch.isEmpty, "collected once")
    }

    /// A device's coming and going are each one step with its line: the line leaves through
    /// the same batch, after what the going decided (its touches' cancellation first).
    @Test func aDeviceAndItsLineAreOneStep() throws {
        var pipeline = try GesturePipeline(configuration: KioskScript.tapping(), screen: Size(width: 1000, height: 1000))
        pipeline.reportsTouches = true
        var batch = Batch()
        let panel = DeviceDescription(sysname: "event7", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        let added = DeviceLine(added: true, sysname: "event7", name: "panel")
        let id = try pipeline.addDevice(panel, line: added, into: &batch)
        #expect(batch.deviceLines == [added])
        #expect(batch.outputs.isEmpty && !batch.isEmpty)
        pipeline.handle(PanelScript.contact(id: 1, x: 10, y: 10, at: KioskScript.at(1)), from: id, into: &batch)
        #expect(batch.deviceLines.isEmpty && batch.outputs.count == 1)
        let removed = DeviceLine(added: false, sysname: "event7", name: "panel")
        pipeline.removeDevice(id, now: KioskScript.at(2), line: removed, into: &batch)
        #expect(batch.deviceLines == [removed])
        guard case .touch(let cancelled)? = batch.outputs.first else { Issue.record("no touch line: \(batch.outputs)"); return }
        #expect(cancelled.update.phase == .cancelled)
        #expect(pipeline.sysname(of: id) == nil)
    }

    /// The pipeline holds its devices in a table that answers "not held" for one that went
    /// (`DeviceTable`): its events, queries and a second removal find nothing, and the devices
    /// added after it, now held a position earlier, go on as before.
    @Test func aDeviceThatWentIsNotHeldAndTheOthersGoOn() throws {
        var pipeline = try GesturePipeline(configuration: KioskScript.tapping(), screen: Size(width: 1000, height: 1000))
        func panel(_ n: Int) -> DeviceDescription {
            DeviceDescription(sysname: "event\(n)", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                              mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        }
        let a = try pipeline.addDevice(panel(0)), b = try pipeline.addDevice(panel(1)), c = try pipeline.addDevice(panel(2))
        var batch = Batch()
        pipeline.removeDevice(b, now: KioskScript.at(0), into: &batch)
        #expect(pipeline.geometry(of: b) == nil && pipeline.sysname(of: b) == nil && pipeline.screen(of: b) == nil)
        #expect(pipeline.deviceList.map(\.sysname) == ["event0", "event2"])
        #expect(pipeline.sysname(of: c) == "event2" && pipeline.screen(of: c) == 0 && pipeline.sysname(of: a) == "event0")
        var frames = PanelScript(firstTrackingID: 100)
        pipeline.handle(frames.frame(at: KioskScript.at(10), [.down(slot: 0, x: 500, y: 500)]), from: b, into: &batch)
        #expect(batch.isEmpty)
        pipeline.removeDevice(b, now: KioskScript.at(11), into: &batch)
        #expect(batch.isEmpty)
        pipeline.handle(frames.frame(at: KioskScript.at(20), [.down(slot: 0, x: 500, y: 500)]), from: c, into: &batch)
        let devices = batch.outputs.compactMap { output -> String? in
            guard case .touch(let t) = output else { return nil }
            return t.update.device.description
        }
        #expect(devices == ["event2"])
    }
}
