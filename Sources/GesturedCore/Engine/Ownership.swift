/// A fact of the arbiter about who owns a touch: what `TouchForwarder` needs to decide what the
/// application behind a pass-through device gets, so that it never reads the engine's state.
///
/// UIKit's delivery rules (docs/KIOSK.md) need, per touch, the recognizers of its route that were
/// still undecided when it began (each may hold its down back, `delaysTouchesBegan`, or its lift,
/// `delaysTouchesEnded`), and then when each of those decides: one that recognizes or begins
/// claims the touch when it cancels touches in view, one that fails lets go of it.
public enum TouchOwnership: Hashable, Sendable {
    /// A touch began and was hit-tested: its undecided recognizers (`holders`), whether a
    /// recognizer of its route that had already succeeded claims it at once, and whether its
    /// view forwards touches at all (`forwardsTouches` of the view and its ancestors).
    case routed(TouchID, holders: [Holder], claimed: Bool, forwards: Bool)
    /// A recognizer that was undecided about some touch decided: it began or recognized
    /// (`claims` when it cancels touches in view) or failed (it no longer holds anything).
    /// Every touch that listed it as a holder is concerned.
    case decided(recognizer: Int, claims: Bool)

    /// An undecided recognizer of a touch's route, and what it holds back while undecided.
    public struct Holder: Hashable, Sendable {
        /// The recognizer, as `decided` names it (an index within its engine).
        public var recognizer: Int
        public var delaysBegan: Bool
        public var delaysEnded: Bool
    }
}

extension GestureEngine {
    /// What a recognizer has decided about the touches it is tracking: undecided while it may
    /// still recognize (as `requirementStatus` judges it: possible and watching touches or a
    /// deadline, or waiting); succeeded once it began or recognized; failed otherwise (which is
    /// also where one ends up unseen when its touches lifted before it decided).
    enum Decision: Sendable { case undecided, succeeded, failed }

    func decision(ofSlot index: Int) -> Decision {
        switch slots[index].phase {
        case .waiting: .undecided
        case .possible:
            !slots[index].touches.isEmpty || recognizers.deadline(slots[index].recognizer) != nil ? .undecided : .failed
        case .active, .ended: .succeeded
        case .failed, .cancelled: .failed
        }
    }

    /// The ownership fact of a touch that was just routed (`handle`), with its route's
    /// recognizers undecided now listed as its holders (and marked as announced undecided, so
    /// that their decision is announced).
    mutating func announceRouted(_ touch: TouchID, view: ViewTree.Index?, route: [Int]) {
        var holders: [TouchOwnership.Holder] = []
        var claimed = false
        for slot in route {
            switch decision(ofSlot: slot) {
            case .undecided:
                let delivery = slots[slot].delivery
                holders.append(.init(recognizer: slot, delaysBegan: delivery.delaysTouchesBegan,
                                     delaysEnded: delivery.delaysTouchesEnded))
                announced[slot] = .undecided
            case .succeeded: if slots[slot].delivery.cancelsTouchesInView { claimed = true }
            case .failed: break
            }
        }
        let forwards = view.map { tree.nodes[$0].forwardsTouches } ?? true
        ownership.append(.routed(touch, holders: holders, claimed: claimed, forwards: forwards))
    }

    /// Announces the decision of `slot` if it was announced undecided and has decided since.
    mutating func announceDecision(ofSlot slot: Int) {
        guard case .undecided = announced[slot] else { return }
        let now = decision(ofSlot: slot)
        switch now {
        case .undecided: return
        case .succeeded: ownership.append(.decided(recognizer: slot, claims: slots[slot].delivery.cancelsTouchesInView))
        case .failed: ownership.append(.decided(recognizer: slot, claims: false))
        }
        announced[slot] = now
    }

    /// Announces every decision taken since the last announcement, including those no
    /// transition shows (a recognizer whose touches lifted before it decided), and hands the
    /// facts gathered by this call to `out`. The end of every entry point that may change them.
    mutating func flushOwnership(into out: inout [TouchOwnership]) {
        guard tracksOwnership else { return }
        for slot in slots.indices { announceDecision(ofSlot: slot) }
        if !ownership.isEmpty {
            out.append(contentsOf: ownership)
            ownership.removeAll(keepingCapacity: true)
        }
    }
}
