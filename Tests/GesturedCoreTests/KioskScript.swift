import GesturedSynthetic
import GesturedTestSupport
@testable import GesturedCore

/// A transcript harness for the kiosk policy: raw protocol B frames of 4-slot panels (axes
/// 0...999 on 1000-point screens) in, on the virtual clock; out, in order, the kiosk lines as
/// clients read them (`seq` counted over every line), the gestures (`MS name state`), what the
/// application receives on a pass-through clone (`MS app …`), the panels grabbed or let go for
/// the claims (`grab event0` / `let go event0`) and each control request's answer.
struct KioskScript {
    var pipeline: GesturePipeline
    let devices: [GesturePipeline.DeviceID]
    var lines: [String] = []
    private var seq: UInt64 = 0
    private var script = PanelScript(firstTrackingID: 100)

    /// One panel per screen of `configuration` (`event0`, `event1`, …), each on its screen; the
    /// idle clocks start at `start` ms unless it is nil.
    init(_ configuration: Configuration, passThrough: Bool = true, start: Int64? = 0) throws {
        let specs = configuration.screenSpecs
        pipeline = try GesturePipeline(configuration: configuration, sizes: specs.map { _ in Size(width: 1000, height: 1000) })
        var devices: [GesturePipeline.DeviceID] = []
        for screen in specs.indices {
            let panel = DeviceDescription(sysname: "event\(screen)", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                          mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
            devices.append(try pipeline.addDevice(panel, rule: DeviceRule(passThrough: passThrough), screen: screen))
        }
        self.devices = devices
        if let start {
            var started = Batch()
            pipeline.start(at: Self.at(start), into: &started)
            precondition(started.isEmpty, "starting the idle clock decides nothing")
        }
    }

    /// A configuration of one screen with a tap recognizer on its one view.
    static func tapping(idle: [Int] = [], power: PowerPolicy = PowerPolicy()) -> Configuration {
        Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "app", gestures: [GesturedCoreTests.tap("tap")])],
                      idle: idle.map(seconds), power: power)
    }

    static func seconds(_ n: Int) -> Interval { Interval(microseconds: Int64(n) * 1_000_000) }
    static func at(_ ms: Int64) -> Instant { Instant(microseconds: ms * 1000) }

    /// One frame of panel `panel`: contact `slot` down (new), moved, or lifted (nil x).
    mutating func frame(_ slot: Int32, _ x: Int32?, _ y: Int32?, at ms: Int64, isNew: Bool = false, panel: Int = 0) {
        let events = script.frame(at: Self.at(ms), [.of(slot: slot, x: x, y: y, isNew: isNew)])
        // The daemon's timer fires what is due before the read that passes it.
        advance(to: ms)
        var batch = Batch()
        pipeline.handle(events, from: devices[panel], into: &batch)
        record(batch)
    }

    mutating func down(_ slot: Int32, _ x: Int32, _ y: Int32, at ms: Int64, panel: Int = 0) {
        frame(slot, x, y, at: ms, isNew: true, panel: panel)
    }
    mutating func move(_ slot: Int32, _ x: Int32, _ y: Int32, at ms: Int64, panel: Int = 0) { frame(slot, x, y, at: ms, panel: panel) }
    mutating func up(_ slot: Int32, at ms: Int64, panel: Int = 0) { frame(slot, nil, nil, at: ms, panel: panel) }
    mutating func tap(_ x: Int32, _ y: Int32, at ms: Int64, panel: Int = 0) {
        down(0, x, y, at: ms, panel: panel); up(0, at: ms + 50, panel: panel)
    }

    /// Fires the deadlines up to `ms`, each at its own instant, as the daemon's timer does.
    mutating func advance(to ms: Int64) {
        var batch = Batch()
        while let d = pipeline.nextDeadline, d <= Self.at(ms) {
            pipeline.advance(to: d, into: &batch)
            record(batch)
        }
    }

    /// A request line from an authorized peer at `ms`: its answer (`ok …` or `error …`), then
    /// what it caused.
    mutating func request(_ line: String, at ms: Int64) {
        advance(to: ms)
        let request: ControlRequest
        do {
            guard case .control(let c) = try ClientRequest.parse(line[...]) else { lines.append("not a control request"); return }
            request = c
        } catch {
            lines.append(LineEncoder.error(command: error.command, message: error.message, format: .text).dropLast().description)
            return
        }
        var batch = Batch()
        _ = ControlDesk.apply(request, to: &pipeline, layouts: ControlDesk.layouts(of: Configuration()), devices: pipeline.deviceList,
                              now: Self.at(ms), into: &batch)
        if let reply = batch.reply { lines.append(String(reply.dropLast())) }
        record(batch)
    }

    mutating func record(_ batch: Batch) {
        for output in batch.outputs {
            switch output {
            case .kiosk:
                seq += 1
                lines.append(String(LineEncoder.output(output, seq: seq, format: .text).dropLast()))
            case .gesture(let g):
                lines.append("\(g.time.microseconds / 1000) \(g.name) \(g.state.rawValue)")
            case .touch:
                break
            }
        }
        for f in batch.forwarded {
            let ms = f.time.microseconds / 1000
            switch f.kind {
            case .down(_, let p): lines.append("\(ms) app\(f.device.value) down slot=\(f.slot) \(p.x),\(p.y)")
            case .move(let p): lines.append("\(ms) app\(f.device.value) move slot=\(f.slot) \(p.x),\(p.y)")
            case .cancel: lines.append("\(ms) app\(f.device.value) cancel slot=\(f.slot)")
            case .up: lines.append("\(ms) app\(f.device.value) up slot=\(f.slot)")
            }
        }
        for a in batch.actions { lines.append("run \(a.name(in: batch)) \(a.action.run.joined(separator: " "))") }
        for g in batch.grabs { lines.append("\(g.exclusive ? "grab" : "let go") event\(g.device.value)") }
    }

    /// Takes the lines so far.
    mutating func take() -> [String] { defer { lines = [] }; return lines }
}
