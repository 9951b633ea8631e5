/// UIKit's `UIPinchGestureRecognizer`: two touches moving apart or together. Continuous.
///
/// - The scale is the span between the pair (the first two touches down, `TouchPair`) over
///   their span when the pair formed, so at `began` it is already a little off 1.0.
/// - Begins when the span has changed by more than `slop` points (`GestureDefaults.pinchSlop`).
/// - More touches are carried along without counting. When one of the pair lifts while two or more
///   remain, the next touch takes its place and the reference span is re-based so the scale goes
///   on without a jump.
/// - Ends when fewer than two touches remain (fingers lifting in one frame count together), with
///   the release velocity in scale per second; a cancelled touch cancels it (fails before began).
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct PinchRecognizer: Sendable {
    public let parameters: PinchParameters

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches down; with a pair, measuring against `referenceSpan`.
        case tracking
        /// Began; `changed` on every frame that moves its touches.
        case running
        /// Ended, cancelled or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    private var touches = TouchGroup()
    private var velocity = VelocityTracker()
    /// The pair's span at which the scale is 1 (re-based when the pair changes).
    private var referenceSpan = 0.0
    private var device = ""
    /// Touches lifted during the current frame, while running.
    private var lifted: [TouchID] = []

    init(_ parameters: PinchParameters) { self.parameters = parameters }

    var deadline: Instant? { nil }

    mutating func reset() {
        state = .idle
        touches.removeAll()
        velocity.removeAll()
        referenceSpan = 0
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
            guard let pair = TouchPair(touches) else { return .none }
            velocity.add(now, x: scale(pair))
            guard (pair.span - referenceSpan).magnitude > parameters.slop else { return .none }
            state = .running
            return .begin(sample(pair))
        case .running:
            guard moved || !lifted.isEmpty, let pair = TouchPair(touches) else { return .none }
            velocity.add(now, x: scale(pair))
            if touches.count - lifted.count < 2 {
                state = .finished
                return .end(sample(pair))
            }
            for id in lifted { removeKeepingScale(id) }
            return .change(sample(TouchPair(touches)!))
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
                referenceSpan = pair.span
                velocity.removeAll()
            }
        case (.tracking, .moved):
            touches.move(update.id, to: update.location)
        case (.tracking, .ended):
            touches.move(update.id, to: update.location)
            removeKeepingScale(update.id)
            if touches.isEmpty { return .fail }
        case (.tracking, .cancelled):
            if touches.contains(update.id) { return .fail }
        case (.running, .began):
            // Carried along: the pair is unchanged, only `touches` changes.
            touches.add(update.id, at: update.location)
            moved = true
        case (.running, .moved):
            if touches.move(update.id, to: update.location) { moved = true }
        case (.running, .ended):
            if touches.move(update.id, to: update.location) { lifted.append(update.id) }
        case (.running, .cancelled):
            if touches.contains(update.id) { return .cancel }
        }
        return .none
    }

    private func scale(_ pair: TouchPair) -> Double {
        referenceSpan > 0 ? pair.span / referenceSpan : 1
    }

    /// Removes a touch; if it was one of the pair and a new pair forms, re-bases the reference
    /// span so that the scale is the same with the new pair as with the old.
    private mutating func removeKeepingScale(_ id: TouchID) {
        let before = TouchPair(touches)
        touches.remove(id)
        guard let before, let after = TouchPair(touches), !TouchPair.samePair(before, after) else { return }
        let kept = scale(before)
        referenceSpan = kept > 0 ? after.span / kept : after.span
    }

    private func sample(_ pair: TouchPair) -> GestureSample {
        GestureSample(touches: touches.count, location: touches.centroid, device: device,
                      values: .pinch(scale: scale(pair), velocity: velocity.velocity.x))
    }
}
