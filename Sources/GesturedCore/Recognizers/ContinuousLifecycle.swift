/// Where a continuous recognizer is in its life: the states pan, screen-edge pan, pinch and
/// rotation share (docs/RECOGNIZERS.md, "Continuous recognizers"). `Running` is what a running
/// recognizer carries (the edge of a screen-edge pan; nothing for the others).
enum ContinuousPhase<Running: Sendable>: Sendable {
    /// No touch yet.
    case idle
    /// Its touches are down, the threshold to begin not yet passed.
    case tracking
    /// Began; `changed` on every frame that moves its touches.
    case running(Running)
    /// Ended, cancelled or failed: deaf until reset.
    case finished
}

/// A continuous recognizer, as the one lifecycle drives it. The lifecycle owns what every
/// continuous recognizer does alike:
/// - a touch that went down before it was listening (not `began` while idle) is not its own;
/// - a cancelled touch of its own fails it while tracking and cancels it while running;
/// - the frame's updates are handled in order, and the first proposal other than `.none`
///   finishes it (`handleInOrder`);
/// - it begins once, from tracking, when its threshold is passed (`begin`), and every begin is
///   followed by exactly one end or cancel; whatever finishes it goes through `finish`.
/// The recognizer says what differs: which first touch it takes (`start`), what a touch does
/// while tracking (`track`) and while running (`run`), and its threshold, after the frame.
protocol ContinuousGesture {
    associatedtype Running: Sendable
    var phase: ContinuousPhase<Running> { get set }
    /// Whether `id` is one of its touches.
    func follows(_ id: TouchID) -> Bool
    /// A touch went down while idle: `.none` takes it (the lifecycle goes on to tracking), a
    /// failure refuses it.
    mutating func start(_ update: TouchUpdate) -> Proposal
    /// A touch went down, moved or lifted while tracking (cancels are the lifecycle's).
    mutating func track(_ update: TouchUpdate) -> Proposal
    /// A touch went down, moved or lifted while running; `moved` is set when the values change.
    mutating func run(_ update: TouchUpdate, _ running: Running, now: Instant, moved: inout Bool) -> Proposal
}

extension ContinuousGesture {
    /// The frame's updates in order, each through `step`; the first proposal finishes the
    /// recognizer and is returned (nil: the frame goes on to the recognizer's own reading).
    mutating func handleInOrder(_ updates: ArraySlice<TouchUpdate>, now: Instant, moved: inout Bool) -> Proposal? {
        for update in updates {
            let proposal = step(update, now: now, moved: &moved)
            if case .none = proposal { continue }
            return finish(proposal)
        }
        return nil
    }

    /// One update, by phase and touch phase.
    private mutating func step(_ update: TouchUpdate, now: Instant, moved: inout Bool) -> Proposal {
        switch (phase, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            let proposal = start(update)
            if case .none = proposal { phase = .tracking }
            return proposal
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled):
            // A touch that went down before this recognizer was listening.
            return .none
        case (.tracking, .cancelled):
            return follows(update.id) ? .fail(.touchCancelled) : .none
        case (.tracking, .began), (.tracking, .moved), (.tracking, .ended):
            return track(update)
        case (.running, .cancelled):
            return follows(update.id) ? .cancel : .none
        case (.running(let running), .began), (.running(let running), .moved), (.running(let running), .ended):
            return run(update, running, now: now, moved: &moved)
        }
    }

    /// Tracking → running: the threshold is passed.
    mutating func begin(_ running: Running, _ sample: GestureSample) -> Proposal {
        phase = .running(running)
        return .begin(sample)
    }

    /// → finished, proposing `proposal` (an end, a cancel or a failure).
    mutating func finish(_ proposal: Proposal) -> Proposal {
        phase = .finished
        return proposal
    }
}
