/// One recognizer's own state machine: a value, dispatched by an exhaustive switch (no
/// existential boxing on the per-frame path).
///
/// Every case follows the same contract:
/// - `handle(_:now:)` gets, in frame order, the updates of the touches routed to this recognizer
///   during one frame (only while the arbiter lets it observe), and returns a `Proposal`;
/// - `deadline` is the instant at which it wants `fire(now:)`, or nil;
/// - `reset()` returns it to its initial state (the arbiter calls it when the recognizer is back
///   to `possible`).
/// The mutating entry points `switch consume self`, so the payload is uniquely referenced while it
/// runs and its buffers are mutated in place rather than copied on every frame.
/// Each recognizer's diagram is in docs/RECOGNIZERS.md; a change to one is a change to both.
public enum Recognizer: Sendable {
    case tap(TapRecognizer)
    case swipe(SwipeRecognizer)
    case pan(PanRecognizer)
    case longPress(LongPressRecognizer)
    case rotation(RotationRecognizer)
    case pinch(PinchRecognizer)
    case screenEdgePan(ScreenEdgePanRecognizer)

    /// - Parameter screen: the screen's size in points, for recognizers that care where the
    ///   screen's edges are.
    init(kind: GestureKind, screen: Size) throws(GestureEngine.BuildError) {
        switch kind {
        case .tap(let parameters): self = .tap(TapRecognizer(parameters))
        case .swipe(let parameters): self = .swipe(SwipeRecognizer(parameters))
        case .pan(let parameters): self = .pan(PanRecognizer(parameters))
        case .longPress(let parameters): self = .longPress(LongPressRecognizer(parameters))
        case .rotation(let parameters): self = .rotation(RotationRecognizer(parameters))
        case .pinch(let parameters): self = .pinch(PinchRecognizer(parameters))
        case .screenEdgePan(let parameters): self = .screenEdgePan(ScreenEdgePanRecognizer(parameters, screen: screen))
        }
    }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        switch consume self {
        case .tap(var r): let p = r.handle(updates, now: now); self = .tap(r); return p
        case .swipe(var r): let p = r.handle(updates, now: now); self = .swipe(r); return p
        case .pan(var r): let p = r.handle(updates, now: now); self = .pan(r); return p
        case .longPress(var r): let p = r.handle(updates, now: now); self = .longPress(r); return p
        case .rotation(var r): let p = r.handle(updates, now: now); self = .rotation(r); return p
        case .pinch(var r): let p = r.handle(updates, now: now); self = .pinch(r); return p
        case .screenEdgePan(var r): let p = r.handle(updates, now: now); self = .screenEdgePan(r); return p
        }
    }

    mutating func fire(now: Instant) -> Proposal {
        switch consume self {
        case .tap(var r): let p = r.fire(now: now); self = .tap(r); return p
        case .swipe(var r): let p = r.fire(now: now); self = .swipe(r); return p
        case .pan(var r): let p = r.fire(now: now); self = .pan(r); return p
        case .longPress(var r): let p = r.fire(now: now); self = .longPress(r); return p
        case .rotation(var r): let p = r.fire(now: now); self = .rotation(r); return p
        case .pinch(var r): let p = r.fire(now: now); self = .pinch(r); return p
        case .screenEdgePan(var r): let p = r.fire(now: now); self = .screenEdgePan(r); return p
        }
    }

    var deadline: Instant? {
        switch self {
        case .tap(let r): r.deadline
        case .swipe(let r): r.deadline
        case .pan(let r): r.deadline
        case .longPress(let r): r.deadline
        case .rotation(let r): r.deadline
        case .pinch(let r): r.deadline
        case .screenEdgePan(let r): r.deadline
        }
    }

    mutating func reset() {
        switch consume self {
        case .tap(var r): r.reset(); self = .tap(r)
        case .swipe(var r): r.reset(); self = .swipe(r)
        case .pan(var r): r.reset(); self = .pan(r)
        case .longPress(var r): r.reset(); self = .longPress(r)
        case .rotation(var r): r.reset(); self = .rotation(r)
        case .pinch(var r): r.reset(); self = .pinch(r)
        case .screenEdgePan(var r): r.reset(); self = .screenEdgePan(r)
        }
    }

    /// UIKit's `canPrevent(_:)`/`canBePrevented(by:)`: whether this recognizer, by recognizing,
    /// may force `other` out. A tap cannot prevent a tap that needs more taps: that is how a
    /// single tap and a double tap without `requireToFail` both fire, single first. Every other
    /// pair: true, UIKit's default.
    func canPrevent(_ other: Recognizer) -> Bool {
        switch (self, other) {
        case (.tap(let a), .tap(let b)):
            a.parameters.numberOfTapsRequired >= b.parameters.numberOfTapsRequired
        case (.tap, .swipe), (.tap, .pan), (.tap, .screenEdgePan), (.tap, .pinch), (.tap, .rotation), (.tap, .longPress), (.swipe, _), (.pan, _), (.screenEdgePan, _), (.pinch, _), (.rotation, _), (.longPress, _):
            true
        }
    }

    /// Among recognizers of one view that would win on the same frame, a tap needing more taps
    /// goes before one needing fewer (the other half of the rule above); 0 for everything else.
    var tapPrecedence: Int {
        switch self {
        case .tap(let r): r.parameters.numberOfTapsRequired
        case .swipe, .pan, .screenEdgePan, .pinch, .rotation, .longPress: 0
        }
    }
}
