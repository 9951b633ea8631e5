@testable import GesturedCore
import GesturedSynthetic
import GesturedTestSupport

/// A transcript harness over the engine: scripted touches and time in, protocol lines out.
///
/// Times are milliseconds on a virtual clock; locations are screen points. Every call fires the
/// deadlines due before it first, exactly as the pipeline does, so the transcript is the one a
/// client would read.
struct EngineScript {
    var engine: GestureEngine
    var lines: [String] = []
    var includeFailed = false
    private var seq: UInt64 = 0
    private var locations: [UInt64: Point] = [:]

    init(_ views: [ViewSpec], screen: Size = Size(width: 1000, height: 1000)) throws {
        engine = try GestureEngine(views: views, screen: screen)
    }

    static func at(_ ms: Double) -> Instant { Instant(microseconds: Int64((ms * 1000).rounded())) }

    mutating func frame(at ms: Double, _ updates: [(UInt64, TouchPhase, Point?)]) {
        let now = Self.at(ms)
        var events: [GestureEvent] = []
        engine.advance(to: now, into: &events)
        record(events)
        events.removeAll()
        let frame = updates.map { (id, phase, point) -> TouchUpdate in
            let location = point ?? locations[id] ?? .zero
            locations[id] = location
            return TouchUpdate(id: TouchID(id), phase: phase, location: location, device: "event0", slot: Int(id))
        }
        engine.handle(frame, now: now, into: &events)
        record(events)
    }

    mutating func down(_ id: UInt64, _ x: Double, _ y: Double, at ms: Double) { frame(at: ms, [(id, .began, Point(x: x, y: y))]) }
    mutating func move(_ id: UInt64, _ x: Double, _ y: Double, at ms: Double) { frame(at: ms, [(id, .moved, Point(x: x, y: y))]) }
    mutating func up(_ id: UInt64, at ms: Double) { frame(at: ms, [(id, .ended, nil)]) }
    mutating func cancel(_ id: UInt64, at ms: Double) { frame(at: ms, [(id, .cancelled, nil)]) }
    /// A one-finger tap: down at `ms`, up 50 ms later.
    mutating func tap(_ id: UInt64, _ x: Double, _ y: Double, at ms: Double) {
        down(id, x, y, at: ms); up(id, at: ms + 50)
    }

    mutating func advance(to ms: Double) {
        var events: [GestureEvent] = []
        engine.advance(to: Self.at(ms), into: &events)
        record(events)
    }

    /// Trace lines (`trace TIME name: old → new (why)`) go into `lines` too, before the events
    /// of the same call.
    mutating func traceTransitions() { engine.tracesTransitions = true }

    private mutating func record(_ events: [GestureEvent]) {
        if engine.tracesTransitions {
            var trace: [String] = [], bugs: [RecognizerBug] = []
            engine.drainTrace(into: &trace, bugs: &bugs)
            lines += trace.map { "trace " + $0 } + bugs.map { "trace " + $0.traceLine }
        }
        for e in events where includeFailed || e.state != .failed {
            seq += 1
            lines.append(String(LineEncoder.gesture(e, seq: seq, format: .text).dropLast()))
        }
    }

    /// The lines without their `seq`, `device` and view-coordinate fields, which most
    /// transcripts do not care about.
    var brief: [String] {
        lines.map { line in
            line.split(separator: " ").filter {
                !$0.hasPrefix("seq=") && !$0.hasPrefix("device=") && !$0.hasPrefix("viewX=") && !$0.hasPrefix("viewY=")
            }.joined(separator: " ")
        }
    }
}

func tap(_ id: String, taps: Int = 1, touches: Int = 1, requireToFail: [String] = [],
         simultaneous: [String] = [], configure: (inout TapParameters) -> Void = { _ in }) -> GestureSpec {
    var p = TapParameters()
    p.numberOfTapsRequired = taps
    p.numberOfTouchesRequired = touches
    configure(&p)
    return GestureSpec(id: id, kind: .tap(p), requireToFail: requireToFail, recognizeSimultaneouslyWith: simultaneous)
}

func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

extension EngineScript {
    /// Moves touch `id` in a straight line from (x, y) by (dx, dy) in `steps` equal moves, one
    /// every `every` ms starting at `ms + every`; returns the time of the last move.
    @discardableResult
    mutating func drag(_ id: UInt64, from x: Double, _ y: Double, by dx: Double, _ dy: Double,
                       steps: Int, at ms: Double, every: Double = 10) -> Double {
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            move(id, x + dx * f, y + dy * f, at: ms + every * Double(i))
        }
        return ms + every * Double(steps)
    }

    /// Lines whose gesture name is `name`.
    func brief(of name: String) -> [String] { brief.filter { $0.split(separator: " ").dropFirst(3).first == Substring(name) } }
}

/// A gesture spec of any kind, with the arbiter's relations.
func gesture(_ id: String, _ kind: GestureKind, requireToFail: [String] = [], simultaneous: [String] = []) -> GestureSpec {
    GestureSpec(id: id, kind: kind, requireToFail: requireToFail, recognizeSimultaneouslyWith: simultaneous)
}

func pan(_ id: String, minimum: Int = 1, maximum: Int? = nil, requireToFail: [String] = [], simultaneous: [String] = [],
         configure: (inout PanParameters) -> Void = { _ in }) -> GestureSpec {
    var p = PanParameters()
    p.minimumNumberOfTouches = minimum
    p.maximumNumberOfTouches = maximum
    configure(&p)
    return gesture(id, .pan(p), requireToFail: requireToFail, simultaneous: simultaneous)
}

func swipe(_ id: String, _ directions: Set<SwipeDirection> = [.right], touches: Int = 1, requireToFail: [String] = [],
           simultaneous: [String] = [], configure: (inout SwipeParameters) -> Void = { _ in }) -> GestureSpec {
    var p = SwipeParameters()
    p.direction = directions
    p.numberOfTouchesRequired = touches
    configure(&p)
    return gesture(id, .swipe(p), requireToFail: requireToFail, simultaneous: simultaneous)
}

func edgePan(_ id: String, _ edges: Set<ScreenEdge>, requireToFail: [String] = [], simultaneous: [String] = [],
             configure: (inout ScreenEdgePanParameters) -> Void = { _ in }) -> GestureSpec {
    var p = ScreenEdgePanParameters()
    p.edges = edges
    configure(&p)
    return gesture(id, .screenEdgePan(p), requireToFail: requireToFail, simultaneous: simultaneous)
}

func pinch(_ id: String, requireToFail: [String] = [], simultaneous: [String] = [],
           configure: (inout PinchParameters) -> Void = { _ in }) -> GestureSpec {
    var p = PinchParameters()
    configure(&p)
    return gesture(id, .pinch(p), requireToFail: requireToFail, simultaneous: simultaneous)
}

func rotation(_ id: String, requireToFail: [String] = [], simultaneous: [String] = [],
              configure: (inout RotationParameters) -> Void = { _ in }) -> GestureSpec {
    var p = RotationParameters()
    configure(&p)
    return gesture(id, .rotation(p), requireToFail: requireToFail, simultaneous: simultaneous)
}

extension EngineScript {
    /// The value of `key=` in each line (nil where absent).
    func values(_ key: String) -> [Double?] {
        lines.map { line in
            line.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Double($0.dropFirst(key.count + 1)) }
        }
    }

    /// The state (began, changed, ...) of each line.
    var states: [String] { lines.map { String($0.split(separator: " ")[2]) } }
}

func longPress(_ id: String, touches: Int = 1, taps: Int = 0, requireToFail: [String] = [], simultaneous: [String] = [],
               configure: (inout LongPressParameters) -> Void = { _ in }) -> GestureSpec {
    var p = LongPressParameters()
    p.numberOfTouchesRequired = touches
    p.numberOfTapsRequired = taps
    configure(&p)
    return gesture(id, .longPress(p), requireToFail: requireToFail, simultaneous: simultaneous)
}

extension EngineScript {
    /// A runtime view change (socket control) at `ms`, after the deadlines due before it.
    mutating func change(_ view: String, _ change: ViewTree.Change, at ms: Double) {
        advance(to: ms)
        var events: [GestureEvent] = []
        let index = engine.tree.index(of: view)!
        engine.change(change, of: index, now: Self.at(ms), into: &events)
        record(events)
    }
}

/// A protocol B touchscreen of 2 slots whose axes run 0...999 (one unit a point on a 999-point
/// screen), for pipeline tests.
func touchscreen(_ sysname: String, _ name: String) -> DeviceDescription {
    DeviceDescription(sysname: sysname, name: name, mtX: AxisInfo(minimum: 0, maximum: 999),
                      mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 2, hasTrackingID: true)
}

/// The raw events of one protocol B frame: a contact in `slot` going down at (x, y) or, with `id`
/// -1, lifting, at `ms`.
func contactEvents(slot: Int32 = 0, id: Int32, x: Int32 = 0, y: Int32 = 0, ms: Int64) -> [RawEvent] {
    PanelScript.contact(slot: slot, id: id, x: x, y: y, at: Instant(microseconds: ms * 1000))
}
