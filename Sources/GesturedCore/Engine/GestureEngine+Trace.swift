/// What `--trace` prints and the recognizer bugs: the engine's own trace buffer, drained by
/// the pipeline's step into the step's buffers once per step (`drainTrace(into:bugs:)`).
extension GestureEngine {
    /// Whether every transition is traced with its reason (`--trace`): `TIME name: old → new
    /// (why)`, drained by the caller into its step's buffers (`drainTrace(into:bugs:)`). Off,
    /// nothing is built but recognizer bugs (typed, `RecognizerBug`): those are kept tracing on
    /// or off; with it off, at most `untracedCapacity` of them between drains (a daemon that runs
    /// for months must not grow with every bug) and `recognizerBugs` counts them all.
    public var tracesTransitions: Bool {
        get { traceBuffer.tracesTransitions }
        set { traceBuffer.tracesTransitions = newValue }
    }
    /// The lines since the last drain.
    public var trace: [String] { traceBuffer.lines }
    /// The recognizer bugs since the last drain.
    public var bugs: [RecognizerBug] { traceBuffer.bugs }
    public var recognizerBugs: Int { traceBuffer.recognizerBugs }
    public static let untracedCapacity = 64

    /// The engine's one stored trace property (`traceBuffer`): a struct, so that the trace's
    /// members stay in this file.
    struct TraceBuffer: Sendable {
        var tracesTransitions = false
        var lines: [String] = []
        var bugs: [RecognizerBug] = []
        var recognizerBugs = 0
    }

    /// Why a transition happens: what `--trace` prints after it. Plain values (no allocation);
    /// the words are built only when tracing (`traceTransition`).
    enum Why {
        /// The recognizer proposed failing (or, once running, could not go on).
        case failure(FailReason)
        /// The recognizer proposed recognizing, beginning or changing, and the arbiter let it.
        case succeeded
        /// A continuous gesture's touches lifted.
        case touchesLifted
        /// It would succeed, but a `requireToFail` gesture is undecided.
        case waitingForRequired
        /// A `requireToFail` gesture succeeded.
        case requiredSucceeded
        /// Every `requireToFail` gesture failed: its held-back proposals go ahead.
        case requiredFailed
        /// Another gesture, sharing its touches, began or recognized first.
        case excluded(by: Int)
        /// A running gesture holds its touches.
        case blocked(by: Int)
        /// Configuration reload or shutdown.
        case cancelledAll
        /// Its device lost events (`SYN_DROPPED`) or went away.
        case touchesLost
        /// Its view (or an ancestor) was hidden or disabled.
        case viewUnreachable(ViewTree.Index)
        /// Back to `possible` once finished and its touches are up, or after `cancelAll`: a
        /// return to rest, not a decision, so not traced.
        case atRest
    }

    /// `TIME name: old → new (why)`, e.g. `… single: possible → waiting (requires double to fail)`.
    mutating func traceTransition(_ index: Int, to phase: Phase, now: Instant, sample: GestureSample?, why: Why) {
        let slots = self.slots
        let names = { (indices: [Int]) in indices.map { slots[$0].name }.joined(separator: ", ") }
        let text: String
        switch why {
        case .failure(let reason): text = reason.text(templates: slots[index].label.templates)
        case .succeeded:
            text = sample.map { recognizers.successText(slots[index].recognizer, $0) } ?? "recognized"
        case .touchesLifted: text = "touches lifted"
        case .waitingForRequired:
            let undecided = slots[index].requires.filter { slots[$0].isUndecided(deadline: recognizers.deadline(slots[$0].recognizer)) }
            text = "requires \(names(undecided)) to fail"
        case .requiredSucceeded:
            text = "\(names(slots[index].requires.filter { slots[$0].phase.hasSucceeded })) succeeded first"
        case .requiredFailed: text = "\(names(slots[index].requires)) failed"
        case .excluded(let winner):
            text = "\(slots[winner].name) \(slots[winner].phase.hasSucceeded ? "won" : "went first") with a shared touch"
        case .blocked(let other): text = "\(slots[other].name) is running with a shared touch"
        case .cancelledAll: text = "configuration reloaded or daemon stopping"
        case .touchesLost: text = "its device lost events or went away"
        case .viewUnreachable(let view): text = "view \(tree.nodes[view].id) hidden or disabled"
        case .atRest: text = "all touches up"   // not traced (`setPhase`)
        }
        // The running phase reads as its reported state: `began` when entered, `running` after.
        let old = slots[index].phase.isActive ? "running" : slots[index].phase.name
        traceBuffer.lines.append("\(now) \(slots[index].name): \(old) → \(phase.isActive ? "began" : phase.name) (\(text))")
    }

    /// A proposal the state machine should never make in this phase: a recognizer bug. It is
    /// ignored (the arbiter's state stays consistent), counted and kept as a typed value.
    mutating func recognizerBug(_ index: Int, proposal: Proposal) {
        traceBuffer.recognizerBugs += 1
        guard tracesTransitions || traceBuffer.bugs.count < Self.untracedCapacity else { return }
        traceBuffer.bugs.append(RecognizerBug(recognizer: slots[index].name, proposal: "\(proposal)",
                                              phase: slots[index].phase.name))
    }

    /// Moves the trace and the recognizer bugs since the last drain into the step's buffers
    /// (`Batch.trace`, `Batch.bugs`), keeping this engine's storage: a traced step allocates no
    /// new buffer.
    public mutating func drainTrace(into lines: inout [String], bugs found: inout [RecognizerBug]) {
        if !traceBuffer.lines.isEmpty { lines += traceBuffer.lines; traceBuffer.lines.removeAll(keepingCapacity: true) }
        if !traceBuffer.bugs.isEmpty { found += traceBuffer.bugs; traceBuffer.bugs.removeAll(keepingCapacity: true) }
    }
}

extension GestureEngine.Why {
    var isAtRest: Bool { if case .atRest = self { true } else { false } }
}
