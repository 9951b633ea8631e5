/// The recognizers of one engine: each a value-type state machine, stored in an array of its own
/// type and named by a `Ref` (its type and index), dispatched by exhaustive switches (no
/// existential boxing on the per-frame path).
///
/// Why arrays by type rather than an array of enums: a recognizer's state is up to ~600 bytes
/// (a velocity ring inline), and an enum payload has to be moved out, mutated and moved back for
/// every call: two copies of it per recognizer per frame. An element of `[PanRecognizer]` is
/// mutated in place.
///
/// Every recognizer follows the same contract:
/// - `handle(_:now:)` gets, in frame order, the updates of the touches routed to this recognizer
///   during one frame (only while the arbiter lets it observe), and returns a `Proposal`;
/// - `deadline` is the instant at which it wants `fire(now:)`, or nil;
/// - `reset()` returns it to its initial state (the arbiter calls it when the recognizer is back
///   to `possible`).
/// A new type is one more array, one more `Ref` case, and one more line in each switch; the
/// arbiter does not change. Each recognizer's diagram is in docs/RECOGNIZERS.md; a change to one
/// is a change to both.
struct RecognizerSet: Sendable {
    /// A recognizer of the set: its type, and its index among those of its type.
    enum Ref: Sendable {
        case tap(Int)
        case swipe(Int)
        case pan(Int)
        case longPress(Int)
        case rotation(Int)
        case pinch(Int)
        case screenEdgePan(Int)
        case stroke(Int)
    }

    private(set) var taps: [TapRecognizer] = []
    private(set) var swipes: [SwipeRecognizer] = []
    private(set) var pans: [PanRecognizer] = []
    private(set) var longPresses: [LongPressRecognizer] = []
    private(set) var rotations: [RotationRecognizer] = []
    private(set) var pinches: [PinchRecognizer] = []
    private(set) var screenEdgePans: [ScreenEdgePanRecognizer] = []
    private(set) var strokes: [StrokeRecognizer] = []

    /// Adds a recognizer of `kind`.
    ///
    /// - Parameter screen: the screen's size in points, for recognizers that care where the
    ///   screen's edges are.
    mutating func add(_ kind: GestureKind, screen: Size) -> Ref {
        switch kind {
        case .tap(let parameters): taps.append(TapRecognizer(parameters)); return .tap(taps.count - 1)
        case .swipe(let parameters): swipes.append(SwipeRecognizer(parameters)); return .swipe(swipes.count - 1)
        case .pan(let parameters): pans.append(PanRecognizer(parameters)); return .pan(pans.count - 1)
        case .longPress(let parameters):
            longPresses.append(LongPressRecognizer(parameters)); return .longPress(longPresses.count - 1)
        case .rotation(let parameters): rotations.append(RotationRecognizer(parameters)); return .rotation(rotations.count - 1)
        case .pinch(let parameters): pinches.append(PinchRecognizer(parameters)); return .pinch(pinches.count - 1)
        case .screenEdgePan(let parameters):
            screenEdgePans.append(ScreenEdgePanRecognizer(parameters, screen: screen))
            return .screenEdgePan(screenEdgePans.count - 1)
        case .stroke(let parameters): strokes.append(StrokeRecognizer(parameters)); return .stroke(strokes.count - 1)
        }
    }

    mutating func handle(_ ref: Ref, _ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        switch ref {
        case .tap(let i): taps[i].handle(updates, now: now)
        case .swipe(let i): swipes[i].handle(updates, now: now)
        case .pan(let i): pans[i].handle(updates, now: now)
        case .longPress(let i): longPresses[i].handle(updates, now: now)
        case .rotation(let i): rotations[i].handle(updates, now: now)
        case .pinch(let i): pinches[i].handle(updates, now: now)
        case .screenEdgePan(let i): screenEdgePans[i].handle(updates, now: now)
        case .stroke(let i): strokes[i].handle(updates, now: now)
        }
    }

    mutating func fire(_ ref: Ref, now: Instant) -> Proposal {
        switch ref {
        case .tap(let i): taps[i].fire(now: now)
        case .swipe(let i): swipes[i].fire(now: now)
        case .pan(let i): pans[i].fire(now: now)
        case .longPress(let i): longPresses[i].fire(now: now)
        case .rotation(let i): rotations[i].fire(now: now)
        case .pinch(let i): pinches[i].fire(now: now)
        case .screenEdgePan(let i): screenEdgePans[i].fire(now: now)
        case .stroke(let i): strokes[i].fire(now: now)
        }
    }

    func deadline(_ ref: Ref) -> Instant? {
        switch ref {
        case .tap(let i): taps[i].deadline
        case .swipe(let i): swipes[i].deadline
        case .pan(let i): pans[i].deadline
        case .longPress(let i): longPresses[i].deadline
        case .rotation(let i): rotations[i].deadline
        case .pinch(let i): pinches[i].deadline
        case .screenEdgePan(let i): screenEdgePans[i].deadline
        case .stroke(let i): strokes[i].deadline
        }
    }

    mutating func reset(_ ref: Ref) {
        switch ref {
        case .tap(let i): taps[i].reset()
        case .swipe(let i): swipes[i].reset()
        case .pan(let i): pans[i].reset()
        case .longPress(let i): longPresses[i].reset()
        case .rotation(let i): rotations[i].reset()
        case .pinch(let i): pinches[i].reset()
        case .screenEdgePan(let i): screenEdgePans[i].reset()
        case .stroke(let i): strokes[i].reset()
        }
    }

    /// UIKit's `canPrevent(_:)`/`canBePrevented(by:)`: whether `a`, by recognizing, may force
    /// `b` out. A tap cannot prevent a tap that needs more taps: that is how a single tap and a
    /// double tap without `requireToFail` both fire, single first. Every other pair: true,
    /// UIKit's default.
    func canPrevent(_ a: Ref, _ b: Ref) -> Bool {
        switch (a, b) {
        case (.tap(let a), .tap(let b)):
            taps[a].parameters.numberOfTapsRequired >= taps[b].parameters.numberOfTapsRequired
        case (.tap, .swipe), (.tap, .pan), (.tap, .screenEdgePan), (.tap, .pinch), (.tap, .rotation), (.tap, .longPress), (.tap, .stroke), (.swipe, _), (.pan, _), (.screenEdgePan, _), (.pinch, _), (.rotation, _), (.longPress, _), (.stroke, _):
            true
        }
    }

    /// The names a recognizer's values refer to by index (a stroke's templates; none for the
    /// other types), for its `GestureLabel`.
    func templateNames(_ ref: Ref) -> [String] {
        if case .stroke(let i) = ref { strokes[i].templateNames } else { [] }
    }

    /// Among recognizers of one view that would win on the same frame, a tap needing more taps
    /// goes before one needing fewer (the other half of the rule above); 0 for everything else.
    func tapPrecedence(_ ref: Ref) -> Int {
        switch ref {
        case .tap(let i): taps[i].parameters.numberOfTapsRequired
        case .swipe, .pan, .screenEdgePan, .pinch, .rotation, .longPress, .stroke: 0
        }
    }
}
