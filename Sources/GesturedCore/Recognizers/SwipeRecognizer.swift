/// UIKit's `UISwipeGestureRecognizer`: `numberOfTouchesRequired` touches moving quickly and
/// straight in one of the allowed directions. Discrete: one `ended` line, or failure.
///
/// It decides during the movement, as UIKit does, on the first frame where, with exactly the
/// required touches down, the centroid has moved at least `minimumDistance` from where they went
/// down at an average speed (distance / time since the first touch-down) of at least
/// `minimumVelocity`. At that moment it recognizes if the movement lies within `angleTolerance`
/// of an allowed direction's axis, and fails otherwise. Direction is judged then, not at the
/// first `minimumDistance`: a real finger's first few points carry as much jitter across the
/// axis as along it (a recorded 4.6 pt of vertical jitter at 10 pt of a horizontal stroke is
/// 23°), while by the time the speed is reached the stroke is long enough to show its way.
/// It also fails:
/// - when more touches than required go down, or a touch lifts or is cancelled first;
/// - on its deadline, `maximumDuration` after the first touch-down (too slow): a slow drag fails
///   then even without further events, which releases a pan that requires it to fail.
/// While fewer touches than required are down the reference follows their centroid. See
/// docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct SwipeRecognizer: Sendable {
    public let parameters: SwipeParameters

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches down since `start`; recognizes or fails by `start + maximumDuration`.
        case tracking(start: Instant)
        /// Recognized or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    private var touches = TouchGroup()

    init(_ parameters: SwipeParameters) { self.parameters = parameters }

    var deadline: Instant? {
        switch state {
        case .tracking(let start): start + parameters.maximumDuration
        case .idle, .finished: nil
        }
    }

    mutating func reset() {
        state = .idle
        touches.removeAll()
    }

    mutating func fire(now: Instant) -> Proposal {
        guard let deadline, now >= deadline else { return .none }
        state = .finished
        return .fail(.tooSlow(limit: parameters.maximumDuration))
    }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        for update in updates {
            let proposal = handle(update, now: now)
            if case .none = proposal { continue }
            state = .finished
            return proposal
        }
        guard case .tracking(let start) = state else { return .none }
        let proposal = judge(elapsed: now - start)
        if case .none = proposal { return .none }
        state = .finished
        return proposal
    }

    private mutating func handle(_ update: TouchUpdate, now: Instant) -> Proposal {
        switch (state, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            touches.add(update.id, at: update.location)
            state = .tracking(start: now)
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled):
            // A touch that went down before this recognizer was listening: not part of the swipe.
            return .none
        case (.tracking, .began):
            touches.add(update.id, at: update.location)
            guard touches.count <= parameters.numberOfTouchesRequired else {
                return .fail(.tooManyTouches(count: touches.count, limit: parameters.numberOfTouchesRequired))
            }
        case (.tracking, .moved):
            touches.move(update.id, to: update.location)
        case (.tracking, .ended), (.tracking, .cancelled):
            // Lifted before the criteria were met (they are judged on every move).
            if touches.contains(update.id) {
                return .fail(update.phase == .cancelled ? .touchCancelled
                             : .liftedBeforeSwipe(minimumDistance: parameters.minimumDistance,
                                                  minimumVelocity: parameters.minimumVelocity))
            }
        }
        if touches.count < parameters.numberOfTouchesRequired { touches.restartTranslation() }
        return .none
    }

    /// The criteria, once per frame, with the required touches down.
    private func judge(elapsed: Interval) -> Proposal {
        guard touches.count == parameters.numberOfTouchesRequired else { return .none }
        let d = touches.translation
        let distance = d.distance
        guard distance >= parameters.minimumDistance, distance > .zero,
              elapsed > .zero, distance / elapsed >= parameters.minimumVelocity else { return .none }
        let direction: SwipeDirection
        let along: Double, across: Double
        if d.dx.magnitude >= d.dy.magnitude {
            direction = d.dx > 0 ? .right : .left
            along = d.dx.magnitude; across = d.dy.magnitude
        } else {
            direction = d.dy > 0 ? .down : .up
            along = d.dy.magnitude; across = d.dx.magnitude
        }
        let offAxis = Angle.direction(of: Vector(dx: along, dy: across))
        guard offAxis <= parameters.angleTolerance, parameters.direction.contains(direction) else {
            return .fail(.wrongDirection(direction: direction, offAxis: offAxis, tolerance: parameters.angleTolerance))
        }
        return .recognize(GestureSample(touches: touches.count, location: touches.centroid,
                                        values: .swipe(direction: direction)))
    }
}
