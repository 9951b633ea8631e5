/// One recognizer's own state machine: a value, dispatched by an exhaustive switch (no
/// existential boxing on the per-frame path).
///
/// Every case follows the same contract:
/// - `handle(_:now:)` gets, in frame order, the updates of the touches routed to this recognizer
///   during one frame (only while the arbiter lets it observe), and returns a `Proposal`;
/// - `deadline` is the instant at which it wants `fire(now:)`, or nil;
/// - `reset()` returns it to its initial state (the arbiter calls it when the recognizer is back
///   to `possible`).
/// Each recognizer's diagram is in docs/RECOGNIZERS.md; a change to one is a change to both.
public enum Recognizer: Sendable {
    case tap(TapRecognizer)

    init(kind: GestureKind) throws(GestureEngine.BuildError) {
        switch kind {
        case .tap(let parameters): self = .tap(TapRecognizer(parameters))
        case .swipe, .pan, .pinch, .rotation, .longPress, .screenEdgePan:
            throw .unsupportedType(kind.typeName)
        }
    }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        switch self {
        case .tap(var r): let p = r.handle(updates, now: now); self = .tap(r); return p
        }
    }

    mutating func fire(now: Instant) -> Proposal {
        switch self {
        case .tap(var r): let p = r.fire(now: now); self = .tap(r); return p
        }
    }

    var deadline: Instant? {
        switch self {
        case .tap(let r): r.deadline
        }
    }

    mutating func reset() {
        switch self {
        case .tap(var r): r.reset(); self = .tap(r)
        }
    }

    /// UIKit's `canPrevent(_:)`/`canBePrevented(by:)`: whether this recognizer, by recognizing,
    /// may force `other` out. A tap cannot prevent a tap that needs more taps: that is how a
    /// single tap and a double tap without `requireToFail` both fire, single first.
    func canPrevent(_ other: Recognizer) -> Bool {
        switch (self, other) {
        case (.tap(let a), .tap(let b)):
            a.parameters.numberOfTapsRequired >= b.parameters.numberOfTapsRequired
        }
    }

    /// Among recognizers of one view that would win on the same frame, a tap needing more taps
    /// goes before one needing fewer (the other half of the rule above); 0 for everything else.
    var tapPrecedence: Int {
        switch self {
        case .tap(let r): r.parameters.numberOfTapsRequired
        }
    }
}
