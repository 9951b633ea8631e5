/// The state machine that pinch and rotation share: two touches (the first two down, a
/// `TouchPair`) read through a `PairMeasure` — their span's ratio, or their line's turn.
///
/// - Begins when the measure departs from its rest value by more than `slop`, in the measure's
///   unit (`PairMeasure.Slop`: a `Distance` of span, an `Angle` of turn), so a pinch cannot be
///   given an angle nor a rotation a distance.
/// - More touches are carried along without counting. When one of the pair lifts while two or
///   more remain, the next touch takes its place and the measure re-bases, so the reported value
///   goes on without a jump (SEMANTICS.md, "Reference points").
/// - Ends when fewer than two touches remain (fingers lifting in one frame count together), with
///   the release velocity in the measure's unit per second; a cancelled touch cancels it (fails
///   before began).
/// Its lifecycle is the one of every continuous recognizer (`ContinuousGesture`).
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
struct TwoTouchGesture<Measure: PairMeasure>: Sendable, ContinuousGesture {
    /// How far the measure must depart from its rest to begin.
    let slop: Measure.Slop
    /// Tracking: touches down; with a pair, measuring.
    var phase = ContinuousPhase<Void>.idle
    private var touches = TouchGroup()
    private var velocity = VelocityTracker()
    private var measure = Measure()
    /// Touches lifted during the current frame, while running.
    private var lifted: [TouchID] = []

    init(slop: Measure.Slop) { self.slop = slop }

    mutating func reset() {
        phase = .idle
        touches.removeAll()
        velocity.removeAll()
        measure = Measure()
    }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        var moved = false
        if !lifted.isEmpty { lifted.removeAll(keepingCapacity: true) }   // the call is not free even when empty
        if case .running = phase, TouchGroup.allMoves(updates) {
            // A steady frame: the moves in one pass, the measure following each move of the
            // pair in order (what `run` does with them).
            var measure = self.measure
            moved = touches.moveAll(updates) { measure.moved($0) }
            self.measure = measure
        } else if case .tracking = phase, TouchGroup.allMoves(updates) {
            var measure = self.measure
            touches.moveAll(updates) { measure.moved($0) }
            self.measure = measure
        } else if let proposal = handleInOrder(updates, now: now, moved: &moved) {
            return proposal
        }
        switch phase {
        case .idle, .finished:
            return .none
        case .tracking:
            guard let pair = touches.pair else { return .none }
            velocity.add(now, x: measure.value(pair))
            guard measure.departure(pair) > slop else { return .none }
            return begin((), sample(pair))
        case .running:
            guard moved || !lifted.isEmpty, let pair = touches.pair else { return .none }
            velocity.add(now, x: measure.value(pair))
            if touches.count - lifted.count < 2 { return finish(.end(sample(pair))) }
            for id in lifted { removeRebasing(id) }
            // Two or more remain, so a pair does; without one the gesture would end here.
            guard let rest = touches.pair else { return finish(.end(sample(pair))) }
            return .change(sample(rest))
        }
    }

    func follows(_ id: TouchID) -> Bool { touches.contains(id) }

    mutating func start(_ update: TouchUpdate) -> Proposal {
        touches.add(update.id, at: update.location)
        return .none
    }

    mutating func track(_ update: TouchUpdate) -> Proposal {
        switch update.phase {
        case .began:
            let forms = touches.count == 1
            touches.add(update.id, at: update.location)
            if forms, let pair = touches.pair {
                measure.formed(pair)
                velocity.removeAll()
            }
        case .moved:
            move(update)
        case .ended:
            move(update)
            removeRebasing(update.id)
            if touches.isEmpty { return .fail(Measure.liftedBeforeMovement(slop: slop)) }
        case .cancelled:
            break   // the lifecycle's
        }
        return .none
    }

    mutating func run(_ update: TouchUpdate, _ running: Void, now: Instant, moved: inout Bool) -> Proposal {
        switch update.phase {
        case .began:
            // Carried along: the pair is unchanged, only `touches` changes.
            touches.add(update.id, at: update.location)
            moved = true
        case .moved:
            if move(update) { moved = true }
        case .ended:
            if move(update) { lifted.append(update.id) }
        case .cancelled:
            break   // the lifecycle's
        }
        return .none
    }

    /// Moves a touch and, if the pair exists, lets the measure follow it. False when the touch
    /// is not followed.
    @discardableResult
    private mutating func move(_ update: TouchUpdate) -> Bool {
        guard let index = touches.move(update.id, to: update.location) else { return false }
        // Only a touch of the pair changes what the measure reads; the others are carried along.
        if index < 2, let pair = touches.pair { measure.moved(pair) }
        return true
    }

    /// Removes a touch; if the pair is now made of other touches, the measure re-bases on it.
    private mutating func removeRebasing(_ id: TouchID) {
        let before = touches.pair
        touches.remove(id)
        guard let before, let after = touches.pair, !TouchPair.samePair(before, after) else { return }
        measure.replaced(before, with: after)
    }

    /// `mutating` though it changes nothing: called from `handle`, a non-mutating method would
    /// be given a copy of the whole gesture (a retain and a release of each of its arrays) on
    /// every `changed`.
    private mutating func sample(_ pair: TouchPair) -> GestureSample {
        GestureSample(touches: touches.count, location: touches.centroid,
                      values: measure.values(pair, velocity: velocity.velocity.x))
    }
}

/// What a two-touch gesture reads from its pair.
protocol PairMeasure: Sendable {
    /// The unit of the slop and of `departure`: points of span for a pinch, an angle of turn for
    /// a rotation.
    associatedtype Slop: Comparable, Sendable
    /// The failure when the touches lift before the measure departed by `slop` (for `--trace`,
    /// which names the unit).
    static func liftedBeforeMovement(slop: Slop) -> FailReason
    /// At rest: before any pair has formed.
    init()
    /// A pair has formed: it is the reference (the value's rest).
    mutating func formed(_ pair: TouchPair)
    /// A touch of the pair has moved (for a measure that must follow every step, such as an
    /// unwrapped angle; one that only reads the pair's present state does nothing here).
    mutating func moved(_ pair: TouchPair)
    /// The pair is now `after` instead of `before`: re-base so that the value does not jump.
    mutating func replaced(_ before: TouchPair, with after: TouchPair)
    /// The reported value (scale, radians) with the pair as it is, also what the velocity is
    /// taken of.
    func value(_ pair: TouchPair) -> Double
    /// How far the value is from its rest, compared with the slop to begin.
    func departure(_ pair: TouchPair) -> Slop
    /// The line's values, with the velocity of `value` per second.
    func values(_ pair: TouchPair, velocity: Double) -> GestureValues
}
