/// UIKit's `UITapGestureRecognizer`: `numberOfTapsRequired` taps of `numberOfTouchesRequired`
/// touches each. Discrete: one `ended` line, or failure.
///
/// A tap fails when a touch moves farther than `movementSlop` from where it went down, when more
/// touches than required go down, when a tap ends with fewer touches than required, when the next
/// tap does not start within `maximumTapInterval` of the previous lift, or when it starts farther
/// than `maximumTapDistance` from the first tap. See docs/RECOGNIZERS.md for the diagram.
public struct TapRecognizer: Sendable {
    public let parameters: TapParameters

    struct Finger: Sendable {
        var id: TouchID
        var start: Point
        var last: Point
        var isDown: Bool
    }

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// A tap is in progress: `completed` taps before it, the most fingers seen at once (the
        /// fingers themselves are in `fingers`).
        case tapping(completed: Int, mostDown: Int, first: Point?)
        /// Between taps: waiting for the next touch-down until `deadline`.
        case waiting(completed: Int, first: Point, deadline: Instant)
        /// Recognized or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    /// The fingers of the tap in progress (`tapping`). Kept outside the state so that a move
    /// updates them in place: bound out of an enum payload, they would be copied on every frame.
    private var fingers: [Finger] = []

    init(_ parameters: TapParameters) { self.parameters = parameters }

    var deadline: Instant? {
        if case .waiting(_, _, let deadline) = state { return deadline }
        return nil
    }

    mutating func reset() { state = .idle; fingers.removeAll(keepingCapacity: true) }

    mutating func fire(now: Instant) -> Proposal {
        guard case .waiting(let completed, _, let deadline) = state, now >= deadline else { return .none }
        state = .finished
        return .fail(.noNextTap(completed: completed, interval: parameters.maximumTapInterval))
    }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        for update in updates {
            let proposal = handle(update, now: now)
            if case .none = proposal { continue }
            state = .finished
            return proposal
        }
        return .none
    }

    private mutating func handle(_ update: TouchUpdate, now: Instant) -> Proposal {
        switch (state, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            startTap(with: update)
            state = .tapping(completed: 0, mostDown: 1, first: nil)
        case (.waiting(let completed, let first, _), .began):
            let distance = (update.location - first).distance
            guard distance <= parameters.maximumTapDistance else {
                return .fail(.nextTapTooFar(distance: distance, limit: parameters.maximumTapDistance))
            }
            startTap(with: update)
            state = .tapping(completed: completed, mostDown: 1, first: first)
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled),
             (.waiting, .moved), (.waiting, .ended), (.waiting, .cancelled):
            // A touch that went down before this recognizer was listening: not part of the tap.
            return .none
        case (.tapping(let completed, let mostDown, let first), .began):
            fingers.append(finger(update))
            let down = fingers.count { $0.isDown }
            guard down <= parameters.numberOfTouchesRequired else {
                return .fail(.tooManyTouches(count: down, limit: parameters.numberOfTouchesRequired))
            }
            state = .tapping(completed: completed, mostDown: max(mostDown, down), first: first)
        case (.tapping, .moved):
            guard let i = fingers.firstIndex(where: { $0.id == update.id }) else { return .none }
            if let failure = movedTooFar(fingers[i], to: update.location) { return failure }
            fingers[i].last = update.location
        case (.tapping, .cancelled):
            return .fail(.touchCancelled)
        case (.tapping(let completed, let mostDown, let first), .ended):
            guard let i = fingers.firstIndex(where: { $0.id == update.id }) else { return .none }
            if let failure = movedTooFar(fingers[i], to: update.location) { return failure }
            fingers[i].last = update.location
            fingers[i].isDown = false
            guard !fingers.contains(where: \.isDown) else { return .none }
            guard mostDown == parameters.numberOfTouchesRequired else {
                return .fail(.tooFewTouches(count: mostDown, required: parameters.numberOfTouchesRequired))
            }
            let location = Self.centroid(fingers)
            let taps = completed + 1
            if taps == parameters.numberOfTapsRequired {
                return .recognize(GestureSample(touches: mostDown, location: location,
                                                values: .tap(taps: taps)))
            }
            state = .waiting(completed: taps, first: first ?? location,
                             deadline: now + parameters.maximumTapInterval)
        }
        return .none
    }

    private func movedTooFar(_ finger: Finger, to location: Point) -> Proposal? {
        let distance = (location - finger.start).distance
        guard distance > parameters.movementSlop else { return nil }
        return .fail(.moved(distance: distance, limit: parameters.movementSlop, parameter: .movementSlop))
    }

    private mutating func startTap(with update: TouchUpdate) {
        fingers.removeAll(keepingCapacity: true)
        fingers.append(finger(update))
    }

    private func finger(_ update: TouchUpdate) -> Finger {
        Finger(id: update.id, start: update.location, last: update.location, isDown: true)
    }

    private static func centroid(_ fingers: [Finger]) -> Point {
        var x = 0.0, y = 0.0
        for f in fingers { x += f.last.x; y += f.last.y }
        let n = Double(max(fingers.count, 1))
        return Point(x: x / n, y: y / n)
    }
}
