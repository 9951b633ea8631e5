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
        gesture = TwoTouchGesture(slop: parameters.slop)
    }

    var deadline: Instant? { nil }
    mutating func reset() { gesture.reset() }
    mutating func fire(now: Instant) -> Proposal { .none }
    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        gesture.handle(updates, now: now)
    }

    /// The unwrapped turn of the pair's line since the pair formed.
    struct Turn: PairMeasure {
        static func liftedBeforeMovement(slop: Angle) -> FailReason { .liftedBeforeTurn(slop: slop) }
        private var rotation = Angle.zero
        /// The pair's angle when `rotation` was last updated.
        private var lastAngle = Angle.zero

        mutating func formed(_ pair: TouchPair) { rotation = .zero; lastAngle = pair.angle }

        mutating func moved(_ pair: TouchPair) {
            let angle = pair.angle
            rotation += (angle - lastAngle).normalized
            lastAngle = angle
        }

        /// The new pair's angle becomes the reference for further turns.
        mutating func replaced(_ before: TouchPair, with after: TouchPair) { lastAngle = after.angle }

        func value(_ pair: TouchPair) -> Double { rotation.radians }
        func departure(_ pair: TouchPair) -> Angle { rotation.magnitude }
        func values(_ pair: TouchPair, velocity: Double) -> GestureValues {
            .rotation(rotation: rotation.radians, velocity: velocity)
        }
    }
}
