/// UIKit's `UIRotationGestureRecognizer`: two touches turning around each other. Continuous.
///
/// The rotation is the turn, in radians, of the line from the first touch of the pair
/// (`TouchPair`) to the second since the pair formed; clockwise on screen is positive (y grows
/// downwards, so `atan2(dy, dx)` grows clockwise). It is unwrapped: each update adds the change
/// of angle normalized to (−π, π], so crossing ±π never jumps and several turns accumulate. It
/// begins when |rotation| exceeds `slop` radians (`GestureDefaults.rotationSlop`); the rest —
/// touches carried along, re-basing when one of the pair lifts, the end — is `TwoTouchGesture`'s.
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct RotationRecognizer: Sendable {
    public let parameters: RotationParameters
    private var gesture: TwoTouchGesture<Turn>

    init(_ parameters: RotationParameters) {
        self.parameters = parameters
        gesture = TwoTouchGesture(slop: parameters.slop.radians)
    }

    var deadline: Instant? { nil }
    mutating func reset() { gesture.reset() }
    mutating func fire(now: Instant) -> Proposal { .none }
    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        gesture.handle(updates, now: now)
    }

    /// The unwrapped turn of the pair's line since the pair formed.
    struct Turn: PairMeasure {
        static let slopUnit = FailReason.SlopUnit.radians
        private var rotation = 0.0
        /// The pair's angle when `rotation` was last updated.
        private var lastAngle = 0.0

        mutating func formed(_ pair: TouchPair) { rotation = 0; lastAngle = pair.angle }

        mutating func moved(_ pair: TouchPair) {
            let angle = pair.angle
            rotation += AngleMath.normalized(angle - lastAngle)
            lastAngle = angle
        }

        /// The new pair's angle becomes the reference for further turns.
        mutating func replaced(_ before: TouchPair, with after: TouchPair) { lastAngle = after.angle }

        func value(_ pair: TouchPair) -> Double { rotation }
        func departure(_ pair: TouchPair) -> Double { rotation.magnitude }
        func values(_ pair: TouchPair, velocity: Double) -> GestureValues { .rotation(rotation: rotation, velocity: velocity) }
    }
}
