import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Input actions through the pipeline, on the virtual clock: a pass-through panel (axes 0...999
/// on a 1000-point screen) in; the gestures, what the application gets on the clone (`app …`)
/// and what `gestured input` gets (`input …`, one line per frame) out, in order.
struct InputScript {
    var pipeline: GesturePipeline
    let device: GesturePipeline.DeviceID
    var lines: [String] = []
    /// What `gestured replay` says instead of sending (`ActionRequest.replayNotice`).
    var notices: [String] = []
    private var encoder = InputEncoder(screen: Size(width: 1000, height: 1000))
    private var script = PanelScript(firstTrackingID: 100)

    init(_ gestures: [GestureSpec]) throws {
        let config = Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "app", gestures: gestures)])
        pipeline = try GesturePipeline(configuration: config, screen: config.screen!)
        let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
        device = try pipeline.addDevice(panel, rule: DeviceRule(passThrough: true))
    }

    mutating func frame(at ms: Int64, _ contacts: [(slot: Int32, x: Int32?, y: Int32?)], isNew: Bool = false) {
        var batch = Batch()
        for e in script.frame(at: Instant(microseconds: ms * 1000), contacts.map { .of(slot: $0.slot, x: $0.x, y: $0.y, isNew: isNew) }) {
            pipeline.handle(e, from: device, into: &batch)
            record(batch)
        }
    }

    mutating func advance(to ms: Int64) {
        var batch = Batch()
        while let d = pipeline.nextDeadline, d <= Instant(microseconds: ms * 1000) {
            pipeline.advance(to: d, into: &batch)
            record(batch)
        }
    }

    /// In the shell's order: lines, then the actions (input), then the clones' touches.
    mutating func record(_ batch: Batch) {
        for case .gesture(let g) in batch.outputs { lines.append("\(g.time.microseconds / 1000) \(g.name) \(g.state.rawValue)") }
        for request in batch.actions {
            notices.append(request.replayNotice(in: batch))
            guard let input = request.action.input, let event = request.event(in: batch) else { continue }
            var out: [RawEvent] = []
            encoder.encode(input, for: event, into: &out)
            lines += inputTranscript(out).map { "input \($0)" }
        }
        for f in batch.forwarded {
            switch f.kind {
            case .down(_, let p): lines.append("app down \(p.x),\(p.y)")
            case .move(let p): lines.append("app move \(p.x),\(p.y)")
            case .cancel: lines.append("app cancel")
            case .up: lines.append("app up")
            }
        }
    }
}

@Suite struct InputPipelineTests {
    static func withAction(_ spec: GestureSpec, _ action: GestureAction, delaysBegan: Bool = false) -> GestureSpec {
        var spec = spec
        spec.action = action
        spec.delivery.delaysTouchesBegan = delaysBegan
        return spec
    }

    /// With delaysTouchesBegan the application sees nothing of a long press that became a right
    /// click: not its down, not its lift; the click is at the finger, while it is still down.
    @Test func aLongPressIsARightClickTheApplicationNeverSees() throws {
        var s = try InputScript([Self.withAction(longPress("menu"), GestureAction(state: .began, input: InputAction(.click(.right, at: nil))),
                                                 delaysBegan: true)])
        s.frame(at: 0, [(0, 300, 400)], isNew: true)
        s.frame(at: 100, [(0, 302, 401)])
        s.advance(to: 600)
        s.frame(at: 700, [(0, nil, nil)])
        #expect(s.lines == [
            "500 menu began", "input ABS_X 302 ABS_Y 401", "input BTN_RIGHT 1", "input BTN_RIGHT 0",
            "700 menu ended",
        ])
        #expect(s.notices == ["replay: would send click right (menu began at 0.500000)"])
    }

    /// Without delaysTouchesBegan the application saw the down; the long press's begin cancels it
    /// there (cancelsTouchesInView), before the click reaches it.
    @Test func withoutDelayTheApplicationsTouchIsCancelled() throws {
        var s = try InputScript([Self.withAction(longPress("menu"), GestureAction(state: .began, input: InputAction(.click(.right, at: nil))))])
        s.frame(at: 0, [(0, 300, 400)], isNew: true)
        s.advance(to: 600)
        s.frame(at: 700, [(0, nil, nil)])
        #expect(s.lines == [
            "app down 300,400",
            "500 menu began", "input ABS_X 300 ABS_Y 400", "input BTN_RIGHT 1", "input BTN_RIGHT 0", "app cancel",
            "app up", "700 menu ended",
        ])
    }

    /// A two-finger pan turns the wheel from where it began, every state of it, and a key chord
    /// on a swipe's end: the whole transcript.
    @Test func aPanScrollsAndASwipeSendsKeys() throws {
        var s = try InputScript([
            Self.withAction(pan("scroll", minimum: 2), GestureAction(input: InputAction(.scroll(.vertical, .natural))), delaysBegan: true),
        ])
        s.frame(at: 0, [(0, 100, 100), (1, 200, 100)], isNew: true)
        s.frame(at: 20, [(0, 100, 120), (1, 200, 120)])
        s.frame(at: 40, [(0, 100, 170), (1, 200, 170)])
        s.frame(at: 60, [(0, nil, nil), (1, nil, nil)])
        #expect(s.lines == [
            "20 scroll began", "input ABS_X 150 ABS_Y 100", "input REL_WHEEL_HI_RES 48",
            "40 scroll changed", "input REL_WHEEL_HI_RES 120 REL_WHEEL 1",
            "60 scroll ended",
        ])

        var k = try InputScript([Self.withAction(swipe("back", [.left]), GestureAction(input: InputAction(.key([56, 105]))))])
        k.frame(at: 0, [(0, 600, 500)], isNew: true)
        k.frame(at: 30, [(0, 500, 500)])
        k.frame(at: 60, [(0, 400, 500)])
        k.frame(at: 70, [(0, nil, nil)])
        #expect(k.lines.filter { !$0.hasPrefix("app") } == [
            "30 back ended", "input KEY_LEFTALT 1", "input KEY_LEFT 1", "input KEY_LEFT 0", "input KEY_LEFTALT 0",
        ])
    }
}
