/// The pile-up policy for commands run per gesture (`gestured listen --exec`, config actions): at
/// most one instance running and one pending; a newer request replaces the pending one. A slow
/// command therefore never accumulates a backlog, and the last gesture is never lost: when the
/// running instance exits, the newest pending one starts.
///
/// A state machine: one `mutating func` per input, returning what the caller must do.
public struct CommandQueue<Job: Sendable>: Sendable {
    private enum State: Sendable {
        case idle
        case running
        case runningWithPending(Job)
    }

    public enum Action: Sendable {
        /// Start this job now.
        case start(Job)
        /// The job waits for the running one; `replaced` is the older pending job it displaced.
        case queued(replaced: Job?)
        /// Nothing to do.
        case none
    }

    private var state = State.idle

    public init() {}

    /// Whether an instance is running.
    public var isRunning: Bool {
        switch state {
        case .idle: false
        case .running, .runningWithPending: true
        }
    }

    /// Whether a job waits.
    public var hasPending: Bool {
        switch state {
        case .runningWithPending: true
        case .idle, .running: false
        }
    }

    /// A gesture asks for the command.
    public mutating func submit(_ job: Job) -> Action {
        switch state {
        case .idle:
            state = .running
            return .start(job)
        case .running:
            state = .runningWithPending(job)
            return .queued(replaced: nil)
        case .runningWithPending(let old):
            state = .runningWithPending(job)
            return .queued(replaced: old)
        }
    }

    /// The running instance exited (or could not be started).
    public mutating func finished() -> Action {
        switch state {
        case .idle:
            return .none
        case .running:
            state = .idle
            return .none
        case .runningWithPending(let job):
            state = .running
            return .start(job)
        }
    }
}
