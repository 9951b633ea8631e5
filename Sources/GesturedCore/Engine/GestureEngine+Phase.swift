/// The arbiter's state of each recognizer (`Slot`, `Phase`) and the one funnel through which
/// it changes: `setPhase`, the only code that assigns a phase (`Slot.phase` can be set only in
/// this file; PhaseFunnelRuleTests checks the whole core), and `transition`, which also emits
/// the event.
extension GestureEngine {
    /// The arbiter's view of a recognizer: UIKit's states, plus waiting for `requireToFail`.
    enum Phase: Sendable {
        case possible
        /// Would have left `possible`, but a `requireToFail` recognizer is undecided; these
        /// transitions are replayed, in order, when it fails.
        case waiting([Pending])
        /// Began or changed: the continuous gesture is running.
        case active
        case ended, failed, cancelled
    }

    enum Pending: Sendable {
        case recognize(GestureSample)
        case begin(GestureSample)
        case change(GestureSample)
        case end(GestureSample)
    }

    struct Slot: Sendable {
        let name: String
        let type: String
        let view: ViewTree.Index
        let viewID: String
        let recognizer: RecognizerSet.Ref
        let delivery: TouchDelivery
        /// Type, name and view as every event of this slot carries them (encoded once).
        let label: GestureLabel
        /// Set only through `GestureEngine.setPhase` (hence `fileprivate(set)`).
        fileprivate(set) var phase: Phase = .possible
        /// Touches routed here that are still down (including those seen while deaf).
        var touches: [TouchID] = []
        var simultaneous: [Int] = []
        var requires: [Int] = []
        /// Where the touches were last seen, for failed lines.
        var lastSample: GestureSample

        init(name: String, type: String, view: ViewTree.Index, viewID: String, recognizer: RecognizerSet.Ref,
             delivery: TouchDelivery, label: GestureLabel, lastSample: GestureSample) {
            self.name = name; self.type = type; self.view = view; self.viewID = viewID
            self.recognizer = recognizer; self.delivery = delivery; self.label = label; self.lastSample = lastSample
        }
    }

    /// A state change that emits its event: the phase through `setPhase`, then the event.
    mutating func transition(_ index: Int, to phase: Phase, now: Instant, sample: GestureSample?,
                             into events: inout [GestureEvent], reported: GestureState? = nil, why: Why) {
        setPhase(index, phase, now: now, sample: sample, why: why)
        if tracksOwnership { announceDecision(ofSlot: index) }
        let state: GestureState = reported ?? {
            switch phase {
            case .ended: .ended
            case .cancelled: .cancelled
            case .failed, .possible, .waiting: .failed
            case .active: .changed
            }
        }()
        var s = sample ?? slots[index].lastSample
        if sample == nil { s.values = .none; s.touches = slots[index].touches.count }
        s.device = slots[index].lastSample.device   // the device of the frame the recognizer last saw
        slots[index].lastSample = s
        events.append(GestureEvent(label: slots[index].label, state: state, time: now, sample: s,
                                   viewLocation: tree.convert(s.location, to: slots[index].view)))
    }

    /// The one funnel for every change of a slot's phase (RepositoryTests holds that no other
    /// code assigns one): records it and, while `tracesTransitions`, traces it with its reason.
    /// Not traced: staying in the same phase (a running gesture's `changed`, one more proposal
    /// held back while waiting), which is no transition, and a return to rest (`Why.atRest`).
    mutating func setPhase(_ index: Int, _ phase: Phase, now: Instant, sample: GestureSample? = nil, why: Why) {
        if tracesTransitions { traceChange(index, to: phase, now: now, sample: sample, why: why) }
        slots[index].phase = phase
    }

    /// `setPhase`'s trace, out of line: inlined with it at every phase change, it made the
    /// arbiter's hot path bigger for a trace that is off in the daemon.
    @inline(never)
    private mutating func traceChange(_ index: Int, to phase: Phase, now: Instant, sample: GestureSample?, why: Why) {
        guard !phase.isSameKind(as: slots[index].phase), !why.isAtRest else { return }
        traceTransition(index, to: phase, now: now, sample: sample, why: why)
    }
}

extension GestureEngine.Slot {
    /// Whether the recognizer still observes its touches (possible, waiting or running).
    var isListening: Bool {
        switch phase {
        case .possible, .waiting, .active: true
        case .ended, .failed, .cancelled: false
        }
    }
}

extension GestureEngine.Slot {
    /// As `requirementStatus` judges a required gesture: still able to succeed.
    func isUndecided(deadline: Instant?) -> Bool {
        switch phase {
        case .waiting: true
        case .possible: !touches.isEmpty || deadline != nil
        case .active, .ended, .failed, .cancelled: false
        }
    }
}

extension GestureEngine.Phase {
    var isActive: Bool { if case .active = self { true } else { false } }
    /// The same case, whatever it carries (running stays running, waiting stays waiting).
    func isSameKind(as other: Self) -> Bool { name == other.name }
    var hasSucceeded: Bool {
        switch self {
        case .active, .ended: true
        case .possible, .waiting, .failed, .cancelled: false
        }
    }

    var name: String {
        switch self {
        case .possible: "possible"
        case .waiting: "waiting"
        case .active: "active"
        case .ended: "ended"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

extension GestureEngine.Pending {
    var proposal: Proposal {
        switch self {
        case .recognize(let s): .recognize(s)
        case .begin(let s): .begin(s)
        case .change(let s): .change(s)
        case .end(let s): .end(s)
        }
    }
}
