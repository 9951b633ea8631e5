import Testing
import GesturedConfig
@testable import GesturedCore

/// The embedded default configuration builds an engine (every type it names is implemented) and
/// behaves as its comments say.
struct DefaultConfigurationEngineTests {
    func engine() throws -> GestureEngine {
        try GestureEngine(views: ConfigLoader.defaultConfiguration().views, screen: Size(width: 1000, height: 1000))
    }

    func run(_ engine: inout GestureEngine, _ frames: [(ms: Int64, id: UInt64, phase: TouchPhase, x: Double, y: Double)]) -> [String] {
        var events: [GestureEvent] = []
        for f in frames {
            let now = Instant(microseconds: f.ms * 1000)
            engine.advance(to: now, into: &events)
            engine.handle([TouchUpdate(id: TouchID(f.id), phase: f.phase, location: Point(x: f.x, y: f.y), device: "e", slot: 0)],
                          now: now, into: &events)
        }
        engine.advance(to: Instant(microseconds: 10_000_000), into: &events)
        return events.filter { $0.state != .failed }.map { "\($0.name) \($0.state)" }
    }

    @Test func quickFlickIsASwipeAndAPanAndSlowDragOnlyAPan() throws {
        var flick = try engine()
        #expect(run(&flick, [(0, 1, .began, 500, 500), (10, 1, .moved, 515, 500), (20, 1, .moved, 530, 500),
                             (30, 1, .ended, 530, 500)])
                == ["swipe ended", "pan began", "pan changed", "pan ended"])
        var drag = try engine()
        #expect(run(&drag, [(0, 1, .began, 500, 500), (60, 1, .moved, 506, 500), (120, 1, .moved, 512, 500),
                            (180, 1, .moved, 518, 500), (240, 1, .ended, 518, 500)])
                == ["pan began", "pan changed", "pan ended"])
    }

    @Test func twoFingerStrokeIsATwoFingerSwipe() throws {
        var e = try engine()
        var events: [GestureEvent] = []
        func frame(_ ms: Int64, _ phase: TouchPhase, _ dx: Double) {
            let now = Instant(microseconds: ms * 1000)
            e.advance(to: now, into: &events)
            e.handle([TouchUpdate(id: TouchID(1), phase: phase, location: Point(x: 400 + dx, y: 500), device: "e", slot: 0),
                      TouchUpdate(id: TouchID(2), phase: phase, location: Point(x: 400 + dx, y: 600), device: "e", slot: 1)],
                     now: now, into: &events)
        }
        frame(0, .began, 0); frame(10, .moved, -20); frame(20, .moved, -40); frame(30, .ended, -40)
        e.advance(to: Instant(microseconds: 10_000_000), into: &events)
        let named = events.filter { $0.state != .failed }.map { "\($0.name) \($0.state)" }
        #expect(named.contains("twoFingerSwipe ended"))
        #expect(!named.contains("swipe ended"))
        #expect(events.first { $0.name == "twoFingerSwipe" }?.sample.values == .swipe(direction: .left))
    }
}
