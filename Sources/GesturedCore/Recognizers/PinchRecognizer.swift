/// UIKit's `UIPinchGestureRecognizer`: two touches moving apart or together. Continuous.
///
/// The scale is the span between the pair (the first two touches down, `TouchPair`) over their
/// span when the pair formed, so at `began` it is already a little off 1.0. It begins when the
/// span has changed by more than `slop` points (`GestureDefaults.pinchSlop`); the rest — touches
/// carried along, re-basing when one of the pair lifts, the end — is `TwoTouchGesture`'s.
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct PinchRecognizer: Sendable {
    public let parameters: PinchParameters
    private var gesture: TwoTouchGesture<Scale>

    init(_ parameters: PinchParameters) {
        self.parameters = parameters
        gesture = TwoTouchGesture(slop: parameters.slop)
    }

    var deadline: Instant? { nil }
    mutating func reset() { gesture.reset() }
    mutating func fire(now: Instant) -> Proposal { .none }
    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        gesture.handle(updates, now: now)
    }

    /// The pair's span over its reference span, read from the pair when asked (a square root
    /// per frame, not per touch move).
    struct Scale: PairMeasure {
        static func liftedBeforeMovement(slop: Distance) -> FailReason { .liftedBeforeSpanChange(slop: slop) }
        /// The span at which the scale is 1 (re-based when the pair changes).
        private var reference = Distance.zero

        mutating func formed(_ pair: TouchPair) { reference = pair.span }
        mutating func moved(_ pair: TouchPair) {}

        /// Keeps the scale: the new pair's span over the new reference is the old pair's scale.
        mutating func replaced(_ before: TouchPair, with after: TouchPair) {
            let kept = value(before)
            reference = kept > 0 ? Distance(points: after.span.points / kept) : after.span
        }

        func value(_ pair: TouchPair) -> Double { reference > .zero ? pair.span.ratio(to: reference) : 1 }
        func departure(_ pair: TouchPair) -> Distance { pair.span.distance(to: reference) }
        func values(_ pair: TouchPair, velocity: Double) -> GestureValues { .pinch(scale: value(pair), velocity: velocity) }
    }
}
