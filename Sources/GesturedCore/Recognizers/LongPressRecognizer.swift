/// UIKit's `UILongPressGestureRecognizer`: `numberOfTapsRequired` taps, then
/// `numberOfTouchesRequired` touches held still for `minimumPressDuration`. Continuous.
///
/// - The press's clock starts when the required touches are all down; `began` comes from the
///   deadline `start + minimumPressDuration`, with no further event needed. A touch-down or move at
///   that very instant comes after it (the engine fires due deadlines before a frame).
/// - Before `began`, a touch moving more than `allowableMovement` from where it went down, more
///   touches than required, a cancelled touch, or a lift fail it.
/// - The taps before the press: each must lift all its touches (as many as required, having moved
///   no more than `allowableMovement`) before the press duration, and the next must go down
///   within `maximumTapInterval` of the lift (a deadline fails it otherwise). A "tap" held for
///   the press duration fails it: too few taps.
/// - After `began`, movement gives `changed` (no movement limit), the first lift of one of its
///   touches gives `ended`, a cancelled one `cancelled`; extra touches are ignored.
/// - Reports `duration`: from the start of the press to the event's time.
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct LongPressRecognizer: Sendable {
    public let parameters: LongPressParameters

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches of the tap or press after `taps` completed taps; `start` is when the required
        /// touches were all down (nil before); `mostDown` the most down at once.
        case pressing(taps: Int, start: Instant?, mostDown: Int)
        /// Between taps: the next must go down before `deadline`.
        case betweenTaps(taps: Int, deadline: Instant)
        /// Began at `start + minimumPressDuration`.
        case running(start: Instant)
        /// Ended, cancelled or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    private var touches = TouchGroup()

    init(_ parameters: LongPressParameters) { self.parameters = parameters }

    var deadline: Instant? {
        switch state {
        case .pressing(_, let start?, _): start + parameters.minimumPressDuration
        case .betweenTaps(_, let deadline): deadline
        case .idle, .pressing(_, nil, _), .running, .finished: nil
        }
    }

    mutating func reset() {
        state = .idle
        touches.removeAll()
    }

    mutating func fire(now: Instant) -> Proposal {
        guard let deadline, now >= deadline else { return .none }
        switch state {
        case .pressing(let taps, let start?, _) where taps == parameters.numberOfTapsRequired:
            state = .running(start: start)
            return .begin(sample(start: start, now: now))
        case .pressing(let taps, _, _):
            // A tap held for the press duration (too few taps).
            state = .finished
            return .fail(taps < parameters.numberOfTapsRequired ? .tapHeldTooLong(duration: parameters.minimumPressDuration)
                                                                 : .noNextTap(completed: taps, interval: parameters.maximumTapInterval))
        case .betweenTaps(let taps, _):
            state = .finished
            return .fail(.noNextTap(completed: taps, interval: parameters.maximumTapInterval))
        case .idle, .running, .finished:
            return .none
        }
    }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        var moved = false
        for update in updates {
            let proposal = handle(update, now: now, moved: &moved)
            if case .none = proposal { continue }
            switch proposal {
            case .end, .cancel, .fail: state = .finished
            case .none, .recognize, .begin, .change: break
            }
            return proposal
        }
        guard moved, case .running(let start) = state else { return .none }
        return .change(sample(start: start, now: now))
    }

    private mutating func handle(_ update: TouchUpdate, now: Instant, moved: inout Bool) -> Proposal {
        switch (state, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            begin(taps: 0, update, now: now)
        case (.betweenTaps(let taps, _), .began):
            touches.removeAll()
            begin(taps: taps, update, now: now)
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled),
             (.betweenTaps, .moved), (.betweenTaps, .ended), (.betweenTaps, .cancelled):
            // A touch that went down before this recognizer was listening.
            return .none
        case (.pressing(let taps, let start, let mostDown), .began):
            touches.add(update.id, at: update.location)
            guard touches.count <= parameters.numberOfTouchesRequired else {
                return .fail(.tooManyTouches(count: touches.count, limit: parameters.numberOfTouchesRequired))
            }
            let full = touches.count == parameters.numberOfTouchesRequired
            state = .pressing(taps: taps, start: start ?? (full ? now : nil), mostDown: max(mostDown, touches.count))
        case (.pressing, .moved):
            guard touches.move(update.id, to: update.location) != nil else { return .none }
            if let failure = movedTooFar(update.id) { return failure }
        case (.pressing(let taps, let start, let mostDown), .ended):
            guard touches.move(update.id, to: update.location) != nil else { return .none }
            if let failure = movedTooFar(update.id) { return failure }
            // The press itself lifted before its duration.
            guard taps < parameters.numberOfTapsRequired else {
                return .fail(.liftedEarly(held: start.map { now - $0 } ?? .zero, required: parameters.minimumPressDuration))
            }
            touches.remove(update.id)
            guard touches.isEmpty else { return .none }
            guard mostDown == parameters.numberOfTouchesRequired else {
                return .fail(.tooFewTouches(count: mostDown, required: parameters.numberOfTouchesRequired))
            }
            state = .betweenTaps(taps: taps + 1, deadline: now + parameters.maximumTapInterval)
        case (.pressing, .cancelled):
            if touches.contains(update.id) { return .fail(.touchCancelled) }
        case (.running, .began):
            // Extra touches after began are ignored.
            return .none
        case (.running, .moved):
            if touches.move(update.id, to: update.location) != nil { moved = true }
        case (.running(let start), .ended):
            guard touches.move(update.id, to: update.location) != nil else { return .none }
            return .end(sample(start: start, now: now))
        case (.running, .cancelled):
            if touches.contains(update.id) { return .cancel }
        }
        return .none
    }

    /// The first touch of a tap or of the press.
    private mutating func begin(taps: Int, _ update: TouchUpdate, now: Instant) {
        touches.add(update.id, at: update.location)
        let full = touches.count == parameters.numberOfTouchesRequired
        state = .pressing(taps: taps, start: full ? now : nil, mostDown: 1)
    }

    private func movedTooFar(_ id: TouchID) -> Proposal? {
        guard let m = touches.member(id) else { return nil }
        let distance = (m.location - m.down).distance
        guard distance > parameters.allowableMovement else { return nil }
        return .fail(.moved(distance: distance, limit: parameters.allowableMovement, parameter: .allowableMovement))
    }

    private func sample(start: Instant, now: Instant) -> GestureSample {
        GestureSample(touches: touches.count, location: touches.centroid,
                      values: .longPress(duration: now - start))
    }
}
