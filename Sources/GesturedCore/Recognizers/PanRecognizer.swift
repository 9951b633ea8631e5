/// UIKit's `UIPanGestureRecognizer`: between `minimumNumberOfTouches` and
/// `maximumNumberOfTouches` touches dragging together. Continuous.
///
/// - Begins when the centroid has moved more than `slop` from where the touches went down, with a
///   touch count in range; the translation at `began` already holds that distance.
/// - While fewer than the minimum are down, the reference follows the centroid (translation stays
///   0): movement counts only once enough fingers are down.
/// - A finger added or lifted re-bases the reference (`TouchGroup`), so translation continues.
/// - Before it began, more touches than the maximum fail it; after, extra touches are ignored.
/// - Ends when the count of its touches falls below the minimum (for the default minimum of 1:
///   when the last finger lifts), with the release velocity; a cancelled touch cancels it.
/// Its lifecycle is the one of every continuous recognizer (`ContinuousGesture`).
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct PanRecognizer: Sendable, ContinuousGesture {
    public let parameters: PanParameters

    var phase = ContinuousPhase<Void>.idle
    private var touches = TouchGroup()
    private var velocity = VelocityTracker()
    /// Touches lifted during the current frame, while running.
    private var lifted: [TouchID] = []

    init(_ parameters: PanParameters) { self.parameters = parameters }

    var deadline: Instant? { nil }

    mutating func reset() {
        phase = .idle
        touches.removeAll()
        velocity.removeAll()
    }

    mutating func fire(now: Instant) -> Proposal { .none }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        var moved = false
        if !lifted.isEmpty { lifted.removeAll(keepingCapacity: true) }   // the call is not free even when empty
        let steady = TouchGroup.allMoves(updates)
        if steady, case .running = phase {
            // A steady frame: the moves in one pass (what `run` does with them).
            moved = touches.moveAll(updates)
        } else if steady, case .tracking = phase {
            // Re-basing after every move below the minimum leaves the origin where the last
            // one puts it: once is the same.
            touches.moveAll(updates)
            followBelowMinimum()
        } else if let proposal = handleInOrder(updates, now: now, moved: &moved) {
            return proposal
        }
        switch phase {
        case .idle, .finished:
            return .none
        case .running where !lifted.isEmpty:
            // Lifts are applied after the frame, so fingers lifting together end the pan together,
            // reported with all of them.
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            if touches.count - lifted.count < parameters.minimumNumberOfTouches {
                return finish(.end(sample()))
            }
            for id in lifted { touches.remove(id) }
            return .change(sample())
        case .tracking:
            let (centroid, translation) = touches.measured
            velocity.add(now, x: translation.dx, y: translation.dy)
            guard inRange(touches.count), translation.distance > parameters.slop else { return .none }
            return begin((), sample(centroid, translation))
        case .running:
            guard moved else { return .none }
            let (centroid, translation) = touches.measured
            velocity.add(now, x: translation.dx, y: translation.dy)
            return .change(sample(centroid, translation))
        }
    }

    func follows(_ id: TouchID) -> Bool { touches.contains(id) }

    mutating func start(_ update: TouchUpdate) -> Proposal {
        touches.add(update.id, at: update.location)
        followBelowMinimum()
        return .none
    }

    mutating func track(_ update: TouchUpdate) -> Proposal {
        switch update.phase {
        case .began:
            touches.add(update.id, at: update.location)
            if let maximum = parameters.maximumNumberOfTouches, touches.count > maximum {
                return .fail(.tooManyTouches(count: touches.count, limit: maximum))
            }
        case .moved:
            touches.move(update.id, to: update.location)
        case .ended:
            touches.move(update.id, to: update.location)
            touches.remove(update.id)
            if touches.isEmpty { return .fail(.liftedBeforeMovement(slop: parameters.slop)) }
        case .cancelled:
            break   // the lifecycle's
        }
        followBelowMinimum()
        return .none
    }

    mutating func run(_ update: TouchUpdate, _ running: Void, now: Instant, moved: inout Bool) -> Proposal {
        switch update.phase {
        case .began:
            // Beyond the maximum, a finger is ignored; within it, it joins without a jump.
            guard parameters.maximumNumberOfTouches.map({ touches.count < $0 }) ?? true else { return .none }
            touches.add(update.id, at: update.location)
            moved = true
        case .moved:
            if touches.move(update.id, to: update.location) != nil { moved = true }
        case .ended:
            if touches.move(update.id, to: update.location) != nil { lifted.append(update.id) }
        case .cancelled:
            break   // the lifecycle's
        }
        return .none
    }

    /// While fewer than the minimum are down, the reference follows the centroid: movement
    /// counts only once enough fingers are down.
    private mutating func followBelowMinimum() {
        if touches.count < parameters.minimumNumberOfTouches { touches.restartTranslation() }
    }

    private func inRange(_ count: Int) -> Bool {
        count >= parameters.minimumNumberOfTouches && parameters.maximumNumberOfTouches.map { count <= $0 } ?? true
    }

    /// `mutating` (as the next): `VelocityTracker.velocity` reads its ring in place.
    private mutating func sample() -> GestureSample {
        let (centroid, translation) = touches.measured
        return sample(centroid, translation)
    }

    /// With the group's centroid and translation as they are (`TouchGroup.measured`, read once).
    private mutating func sample(_ centroid: Point, _ translation: Vector) -> GestureSample {
        let v = velocity.velocity
        return GestureSample(touches: touches.count, location: centroid,
                             values: .pan(translation: translation, velocity: Vector(dx: v.x, dy: v.y)))
    }
}
