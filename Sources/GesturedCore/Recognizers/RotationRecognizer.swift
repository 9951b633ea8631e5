/// UIKit's `UIRotationGestureRecognizer`: two touches turning around each other. Continuous.
///
/// - The rotation is the turn, in radians, of the line from the first touch of the pair
///   (`TouchPair`) to the second since the pair formed; clockwise on screen is positive (y grows
///   downwards, so `atan2(dy, dx)` grows clockwise).
/// - It is unwrapped: each update adds the change of angle normalized to (−π, π], so crossing ±π
///   never jumps and several turns accumulate.
/// - Begins when |rotation| exceeds `slop` radians (`GestureDefaults.rotationSlop`).
/// - More touches are carried along; when one of the pair lifts while two or more remain, the
///   next touch takes its place and the angle is re-based, so the rotation goes on without a jump.
/// - Ends when fewer than two touches remain, with the release velocity in radians per second;
///   a cancelled touch cancels it (fails before began).
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct RotationRecognizer: Sendable {
    public let parameters: RotationParameters

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches down; with a pair, accumulating `rotation`.
        case tracking
        /// Began; `changed` on every frame that moves its touches.
        case running
        /// Ended, cancelled or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    private var touches = TouchGroup()
    private var velocity = VelocityTracker()
    /// The unwrapped rotation since the pair formed.
    private var rotation = 0.0
    /// The pair's angle when `rotation` was last updated.
    private var lastAngle = 0.0
    private var device = ""
    /// Touches lifted during the current frame, while running.
    private var lifted: [TouchID] = []

    init(_ parameters: RotationParameters) { self.parameters = parameters }

    var deadline: Instant? { nil }

    mutating func reset() {
        state = .idle
        touches.removeAll()
        velocity.removeAll()
        rotation = 0
        lastAngle = 0
    }

    mutating func fire(now: Instant) -> Proposal { .none }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        var moved = false
        lifted.removeAll(keepingCapacity: true)
        for update in updates {
            device = update.device
            let proposal = handle(update, moved: &moved)
            if case .none = proposal { continue }
            state = .finished
            return proposal
        }
        switch state {
        case .idle, .finished:
            return .none
        case .tracking:
            guard TouchPair(touches) != nil else { return .none }
            velocity.add(now, x: rotation)
            guard rotation.magnitude > parameters.slop else { return .none }
            state = .running
            return .begin(sample())
        case .running:
            guard moved || !lifted.isEmpty else { return .none }
            velocity.add(now, x: rotation)
            if touches.count - lifted.count < 2 {
                state = .finished
                return .end(sample())
            }
            for id in lifted { removeKeepingRotation(id) }
            return .change(sample())
        }
    }

    private mutating func handle(_ update: TouchUpdate, moved: inout Bool) -> Proposal {
        switch (state, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            touches.add(update.id, at: update.location)
            state = .tracking
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled):
            // A touch that went down before this recognizer was listening.
            return .none
        case (.tracking, .began):
            let formed = touches.count == 1
            touches.add(update.id, at: update.location)
            if formed, let pair = TouchPair(touches) {
                rotation = 0
                lastAngle = pair.angle
                velocity.removeAll()
            }
        case (.tracking, .moved):
            moveAndAccumulate(update)
        case (.tracking, .ended):
            moveAndAccumulate(update)
            removeKeepingRotation(update.id)
            if touches.isEmpty { return .fail }
        case (.tracking, .cancelled):
            if touches.contains(update.id) { return .fail }
        case (.running, .began):
            // Carried along: the pair is unchanged, only `touches` changes.
            touches.add(update.id, at: update.location)
            moved = true
        case (.running, .moved):
            if moveAndAccumulate(update) { moved = true }
        case (.running, .ended):
            if moveAndAccumulate(update) { lifted.append(update.id) }
        case (.running, .cancelled):
            if touches.contains(update.id) { return .cancel }
        }
        return .none
    }

    /// Moves a touch and, if the pair exists, adds the pair's change of angle, normalized to
    /// (−π, π], to the rotation. False when the touch is not followed.
    @discardableResult
    private mutating func moveAndAccumulate(_ update: TouchUpdate) -> Bool {
        guard touches.move(update.id, to: update.location) else { return false }
        if let pair = TouchPair(touches) {
            let angle = pair.angle
            rotation += Angle.normalized(angle - lastAngle)
            lastAngle = angle
        }
        return true
    }

    /// Removes a touch; if a new pair forms, its angle becomes the reference for further turns.
    private mutating func removeKeepingRotation(_ id: TouchID) {
        let before = TouchPair(touches)
        touches.remove(id)
        guard let after = TouchPair(touches), !TouchPair.samePair(before, after) else { return }
        lastAngle = after.angle
    }

    private func sample() -> GestureSample {
        GestureSample(touches: touches.count, location: touches.centroid, device: device,
                      values: .rotation(rotation: rotation, velocity: velocity.velocity.x))
    }
}
