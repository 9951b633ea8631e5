import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The core numbers and encodes each step's lines for the registered clients (`Subscribers`,
/// `Batch.delivery`): one part per distinct subscription, each line encoded once per format,
/// numbered once if anyone gets it; actions carry their line's seq and the wake action its
/// variables, so the shell encodes nothing.
struct SubscribersTests {
    static func lines(of part: Delivery.Part, _ lines: ArraySlice<Delivery.Line>) -> [String] {
        lines.map { String(decoding: part.bytes[$0.range], as: UTF8.self) }
    }

    @Test func eachDistinctSubscriptionIsOnePartWithItsClients() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        var json = ClientSubscription(), touches = ClientSubscription()
        json.format = .json
        touches.touches = true
        for key in [5, 1, 3] as [UInt64] { s.pipeline.subscribers.connect(ClientKey(key)) }
        s.pipeline.subscribers.set(json, of: ClientKey(7))
        s.pipeline.subscribers.set(touches, of: ClientKey(9))
        s.pipeline.subscribers.set(touches, of: ClientKey(3))
        var batch = Batch()
        var frames = PanelScript(firstTrackingID: 100)
        s.pipeline.handle(frames.frame(at: KioskScript.at(10), [.down(slot: 0, x: 500, y: 500)]), from: s.devices[0], into: &batch)
        s.pipeline.handle(frames.frame(at: KioskScript.at(20), [.up(slot: 0)]), from: s.devices[0], into: &batch)
        let parts = batch.delivery.parts
        #expect(parts.map(\.members) == [[ClientKey(1), ClientKey(5)], [ClientKey(7)], [ClientKey(3), ClientKey(9)]])
        // The touch lines (began: seq 1 in the first step, ended: 2) go to the touch subscribers
        // only; every client gets the tap, seq 3.
        guard case .touch = batch.outputs[0], case .gesture = batch.outputs[1] else {
            Issue.record("expected a touch line, then the tap: \(batch.outputs)"); return
        }
        #expect(Self.lines(of: parts[parts.startIndex], parts[parts.startIndex].published)
            == [LineEncoder.output(batch.outputs[1], seq: 3, format: .text)])
        #expect(Self.lines(of: parts[parts.startIndex + 1], parts[parts.startIndex + 1].published)
            == [LineEncoder.output(batch.outputs[1], seq: 3, format: .json)])
        #expect(Self.lines(of: parts[parts.startIndex + 2], parts[parts.startIndex + 2].published)
            == [LineEncoder.output(batch.outputs[0], seq: 2, format: .text), LineEncoder.output(batch.outputs[1], seq: 3, format: .text)])
        #expect(parts[parts.startIndex].lines.map(\.merge) == [LineMerge(batch.outputs[1])])
        #expect(s.pipeline.subscribers.seq == 3)
    }

    @Test func aLineNobodyWantsIsNotNumberedAndGroupsGoWithTheirLastClient() throws {
        var s = try KioskScript(KioskScript.tapping(), passThrough: false)
        var touches = ClientSubscription()
        touches.touches = true
        s.pipeline.subscribers.set(touches, of: ClientKey(1))
        s.pipeline.subscribers.connect(ClientKey(2))
        s.pipeline.subscribers.drop(ClientKey(1))
        #expect(s.pipeline.subscribers.count == 1)
        var batch = Batch()
        var frames = PanelScript(firstTrackingID: 100)
        s.pipeline.handle(frames.frame(at: KioskScript.at(10), [.down(slot: 0, x: 500, y: 500)]), from: s.devices[0], into: &batch)
        #expect(batch.delivery.parts.map(\.members) == [[ClientKey(2)]])
        #expect(batch.delivery.isEmpty, "the touch line is nobody's")
        #expect(s.pipeline.subscribers.seq == 0)
    }

    @Test func actionsCarryTheirLinesSeqAndTheWakeItsVariables() throws {
        let action = GestureAction(run: ["/usr/bin/touch", "/run/gestured/actions/screen-on"])
        var s = try KioskScript(KioskScript.tapping(power: PowerPolicy(wakeAction: action)))
        s.pipeline.subscribers.connect(ClientKey(1))
        s.request("screen off", at: 0)
        var batch = Batch()
        var frames = PanelScript(firstTrackingID: 100)
        s.pipeline.handle(frames.frame(at: KioskScript.at(1000), [.down(slot: 0, x: 500, y: 500)]), from: s.devices[0], into: &batch)
        #expect(batch.actions.count == 1)
        #expect(batch.actions.first?.seq == 1)
        let wake = LineEncoder.output(batch.outputs[0], seq: 1, format: .text)
        let expected = (KioskEnvironment.variables(ofTextLine: wake) ?? []).map { ActionVariable(name: $0.name, value: $0.value) }
        #expect(!expected.isEmpty && batch.actions.first?.variables == expected)
        let part = batch.delivery.parts[batch.delivery.parts.startIndex]
        #expect(Self.lines(of: part, part.published) == [wake])
    }

    @Test func deviceLinesGoToEveryClientInItsFormatAndTraceLinesFirst() throws {
        var pipeline = try GesturePipeline(configuration: KioskScript.tapping(), screen: Size(width: 1000, height: 1000))
        var json = ClientSubscription(), trace = ClientSubscription()
        json.format = .json
        trace.trace = true
        pipeline.subscribers.set(json, of: ClientKey(1))
        pipeline.subscribers.set(trace, of: ClientKey(2))
        var batch = Batch()
        let panel = DeviceDescription(sysname: "event4", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        try pipeline.addDevice(panel, line: DeviceLine(added: true, sysname: "event4", name: "panel"), into: &batch)
        let parts = Array(batch.delivery.parts)
        #expect(Self.lines(of: parts[0], parts[0].published)
            == [LineEncoder.device(added: true, sysname: "event4", name: "panel", seq: 1, format: .json)])
        #expect(Self.lines(of: parts[1], parts[1].published)
            == [LineEncoder.device(added: true, sysname: "event4", name: "panel", seq: 1, format: .text)])
        pipeline.screens[0].engine.recognizerBug(0, proposal: .cancel)
        pipeline.advance(to: KioskScript.at(1), into: &batch)
        var expected: [UInt8] = []
        LineEncoder.trace("recognizer bug: tap: proposal cancel in phase possible", format: .text, into: &expected)
        let traced = Array(batch.delivery.parts)
        #expect(traced[0].lines.isEmpty && Self.lines(of: traced[1], traced[1].traced) == [String(decoding: expected, as: UTF8.self)])
    }
}
