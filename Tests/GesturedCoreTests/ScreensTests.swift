import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Several screens in one pipeline: each with its own view tree and engine, lines with
/// `screen=`, deadlines of all screens in time order, replay of several recordings.
struct ScreensTests {
    static let a = touchscreen("event0", "Front")
    static let b = touchscreen("event1", "Back")
    static let config = Configuration(screens: [
        ScreenSpec(id: "customer", size: Size(width: 999, height: 999), devices: .matching([DeviceMatch(name: "Front")]),
                   views: [ViewSpec(id: "front", gestures: [tap("frontTap"), longPress("frontHold")])]),
        ScreenSpec(id: "operator", size: Size(width: 999, height: 999), devices: .rest,
                   views: [ViewSpec(id: "back", gestures: [pan("backPan"), longPress("backHold")])]),
    ])

    static func contact(slot: Int32 = 0, id: Int32, x: Int32 = 0, y: Int32 = 0, ms: Int64) -> [RawEvent] {
        contactEvents(slot: slot, id: id, x: x, y: y, ms: ms)
    }

    static func move(x: Int32, y: Int32, ms: Int64) -> [RawEvent] {
        PanelScript.frame(at: Instant(microseconds: ms * 1000), [.move(slot: nil, x: x, y: y)])
    }

    /// A tap on panel A while a finger pans on panel B.
    static let tapOnA: [RawEvent] = contact(id: 1, x: 100, y: 100, ms: 20) + contact(id: -1, ms: 60)
    static let panOnB: [RawEvent] = contact(id: 1, x: 500, y: 500, ms: 0)
        + (1...6).flatMap { move(x: 500 + Int32($0) * 10, y: 500, ms: Int64($0) * 10) } + contact(id: -1, ms: 80)

    static func replay(_ recordings: [(DeviceDescription, [RawEvent])], configuration: Configuration = config,
                       options: Replay.Options = .init()) throws -> [String] {
        var text = ""
        try Replay.run(recordings: recordings.map { (device: $0.0, events: $0.1) }, configuration: configuration,
                       options: options) { text += String(decoding: $0, as: UTF8.self); $0.removeAll() }
        return text.split(separator: "\n").map(String.init)
    }

    @Test func aTapOnOnePanelAndAPanOnTheOtherAreIndependentGesturesOfTheirScreens() throws {
        let lines = try Self.replay([(Self.a, Self.tapOnA), (Self.b, Self.panOnB)])
        #expect(lines == [
            "gesture pan began backPan view=back device=event1 screen=operator time=0.020000 seq=1 touches=1 x=520.00 y=500.00 viewX=520.00 viewY=500.00 translationX=20.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan changed backPan view=back device=event1 screen=operator time=0.030000 seq=2 touches=1 x=530.00 y=500.00 viewX=530.00 viewY=500.00 translationX=30.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan changed backPan view=back device=event1 screen=operator time=0.040000 seq=3 touches=1 x=540.00 y=500.00 viewX=540.00 viewY=500.00 translationX=40.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan changed backPan view=back device=event1 screen=operator time=0.050000 seq=4 touches=1 x=550.00 y=500.00 viewX=550.00 viewY=500.00 translationX=50.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture tap ended frontTap view=front device=event0 screen=customer time=0.060000 seq=5 touches=1 x=100.00 y=100.00 viewX=100.00 viewY=100.00 taps=1",
            "gesture pan changed backPan view=back device=event1 screen=operator time=0.060000 seq=6 touches=1 x=560.00 y=500.00 viewX=560.00 viewY=500.00 translationX=60.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan ended backPan view=back device=event1 screen=operator time=0.080000 seq=7 touches=1 x=560.00 y=500.00 viewX=560.00 viewY=500.00 translationX=60.00 translationY=0.00 velocityX=824.56 velocityY=0.00",
        ], "\(lines.joined(separator: "\n"))")
        // Deterministic: the same recordings give the same lines, whichever order they are named in
        // (apart from the sysnames, which follow the order).
        #expect(try Self.replay([(Self.a, Self.tapOnA), (Self.b, Self.panOnB)]) == lines)
    }

    @Test func touchLinesCarryTheScreenAndFiltersSelectIt() throws {
        var options = Replay.Options()
        options.touches = true
        let lines = try Self.replay([(Self.a, Self.contact(id: 1, x: 5, y: 5, ms: 0) + Self.contact(id: -1, ms: 50)),
                                     (Self.b, Self.contact(id: 1, x: 7, y: 7, ms: 10) + Self.contact(id: -1, ms: 60))],
                                    options: options)
        #expect(lines.prefix(2) == [
            "touch began 1 view=front device=event0 screen=customer slot=0 x=5.00 y=5.00 time=0.000000 seq=1",
            "touch began 2 view=back device=event1 screen=operator slot=0 x=7.00 y=7.00 time=0.010000 seq=2",
        ], "\(lines)")
        let filter = try LineFilter(parsing: "screen=oper*")
        var pipeline = try GesturePipeline(configuration: Self.config, sizes: [Size(width: 999, height: 999), Size(width: 999, height: 999)])
        let b = try pipeline.addDevice(Self.b, screen: 1)
        var output = Decisions()
        for e in Self.contact(id: 1, x: 7, y: 7, ms: 10) { pipeline.handle(e, from: b, into: &output) }
        guard case .touch(let touch) = output.outputs.first else { Issue.record("no touch: \(output)"); return }
        #expect(filter.matches(touch))
        #expect(!(try LineFilter(parsing: "screen=customer")).matches(touch))
    }

    @Test func deadlinesOfAllScreensFireInTimeOrder() throws {
        // Two long presses, the later one on the first screen: each fires at its own time.
        let lines = try Self.replay([(Self.a, Self.contact(id: 1, x: 5, y: 5, ms: 100) + Self.contact(id: -1, ms: 900)),
                                     (Self.b, Self.contact(id: 1, x: 7, y: 7, ms: 0) + Self.contact(id: -1, ms: 800))])
        #expect(lines.filter { $0.contains(" began ") } == [
            "gesture longPress began backHold view=back device=event1 screen=operator time=0.500000 seq=1 touches=1 x=7.00 y=7.00 viewX=7.00 viewY=7.00 duration=0.500",
            "gesture longPress began frontHold view=front device=event0 screen=customer time=0.600000 seq=2 touches=1 x=5.00 y=5.00 viewX=5.00 viewY=5.00 duration=0.500",
        ], "\(lines.joined(separator: "\n"))")
        var pipeline = try GesturePipeline(configuration: Self.config, sizes: [Size(width: 999, height: 999), Size(width: 999, height: 999)])
        let a = try pipeline.addDevice(Self.a, screen: 0), b = try pipeline.addDevice(Self.b, screen: 1)
        var output = Decisions()
        for e in Self.contact(id: 1, x: 5, y: 5, ms: 100) { pipeline.handle(e, from: a, into: &output) }
        for e in Self.contact(id: 1, x: 7, y: 7, ms: 100) { pipeline.handle(e, from: b, into: &output) }
        #expect(pipeline.nextDeadline == Instant(microseconds: 600_000))
        // One advance past both deadlines fires them in order, each at its own time.
        pipeline.advance(to: Instant(microseconds: 2_000_000), into: &output)
        let began = output.outputs.compactMap { if case .gesture(let g) = $0, g.state == .began { g } else { nil } }
        #expect(began.map(\.time) == [Instant(microseconds: 600_000), Instant(microseconds: 600_000)])
        #expect(began.map(\.screen) == ["customer", "operator"])   // a tie: the earlier screen first
    }

    @Test func viewsAndLayoutsAreFoundOnTheirScreen() throws {
        var pipeline = try GesturePipeline(configuration: Self.config, sizes: [Size(width: 999, height: 999), Size(width: 999, height: 999)])
        var output = Decisions()
        #expect(pipeline.change(.hidden(true), ofView: "back", now: Instant(microseconds: 0), into: &output))
        #expect(pipeline.screens[1].engine.tree.nodes[0].isHidden)
        #expect(!pipeline.screens[0].engine.tree.nodes[0].isHidden)
        let layouts = [ControlDesk.ScreenLayouts(screen: "customer", layouts: ["dim": Layout(entries: [.init(view: "front", changes: [.hidden(true)])])]),
                       ControlDesk.ScreenLayouts(screen: "operator", layouts: ["dim": Layout(entries: [.init(view: "back", changes: [.hidden(false)])])])]
        func apply(_ r: ControlRequest) -> String? {
            var batch = Batch()
            return ControlDesk.apply(r, to: &pipeline, layouts: layouts, devices: [], now: Instant(microseconds: 0), into: &batch)
        }
        #expect(apply(.layout("dim", screen: "customer")) == nil)
        #expect(pipeline.screens[0].engine.tree.nodes[0].isHidden)
        #expect(pipeline.screens[1].engine.tree.nodes[0].isHidden)   // only the customer's layout applied
        #expect(apply(.layout("dim")) == nil)                         // every screen's "dim"
        #expect(!pipeline.screens[1].engine.tree.nodes[0].isHidden)
        #expect(apply(.layout("dim", screen: "kitchen")) == "no screen 'kitchen' (customer, operator)")
        #expect(apply(.layout("bright", screen: "operator")) == "no layout 'bright' (dim)")
    }

    @Test func aDeviceNoScreenTakesIsAReplayError() {
        var config = Self.config
        config.screens[1].devices = .matching([DeviceMatch(name: "Nothing")])
        #expect(throws: ReplayError.noScreen("event1")) { try Self.replay([(Self.a, Self.tapOnA), (Self.b, Self.panOnB)], configuration: config) }
    }
}
