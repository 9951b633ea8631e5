/// What ends gestures from outside the touches: a reload or shutdown (`cancelAll`), a device
/// that lost events (`cancelGestures`), a view hidden or disabled at runtime (`change`).
extension GestureEngine {
    /// Cancels every running gesture and fails every pending one (configuration reload, shutdown).
    public mutating func cancelAll(now: Instant, into events: inout [GestureEvent]) {
        var none: [TouchOwnership] = []
        cancelAll(now: now, into: &events, ownership: &none)
    }

    /// `cancelAll(now:into:)`, with the ownership facts it causes (while `tracksOwnership`).
    public mutating func cancelAll(now: Instant, into events: inout [GestureEvent], ownership out: inout [TouchOwnership]) {
        defer { flushOwnership(into: &out) }
        for index in rank {
            switch slots[index].phase {
            case .active: transition(index, to: .cancelled, now: now, sample: nil, into: &events, why: .cancelledAll)
            case .possible, .waiting: transition(index, to: .failed, now: now, sample: nil, into: &events, why: .cancelledAll)
            case .ended, .failed, .cancelled: break
            }
            recognizers.reset(slots[index].recognizer)
            setPhase(index, .possible, now: now, why: .atRest)
            slots[index].touches.removeAll()
        }
        live.removeAll()
    }

    /// Cancels the gestures that involve any of `touches`, whose device lost events: running
    /// ones end `cancelled`, pending ones fail. The touches stay down but unrouted until they lift;
    /// gestures on other touches (another device's) go on undisturbed.
    public mutating func cancelGestures(involving touches: [TouchID], now: Instant, into events: inout [GestureEvent]) {
        var none: [TouchOwnership] = []
        cancelGestures(involving: touches, now: now, into: &events, ownership: &none)
    }

    /// `cancelGestures(involving:now:into:)`, with the ownership facts it causes.
    public mutating func cancelGestures(involving touches: [TouchID], now: Instant, into events: inout [GestureEvent],
                                        ownership out: inout [TouchOwnership]) {
        defer { flushOwnership(into: &out) }
        guard !touches.isEmpty else { return }
        for index in rank where slots[index].touches.contains(where: touches.contains) {
            switch slots[index].phase {
            case .active: transition(index, to: .cancelled, now: now, sample: nil, into: &events, why: .touchesLost)
            case .possible, .waiting: transition(index, to: .failed, now: now, sample: nil, into: &events, why: .touchesLost)
            case .ended, .failed, .cancelled: break
            }
            slots[index].touches.removeAll(where: touches.contains)
        }
        for touch in touches { live.remove(touch) }
        resetFinished(now: now)
    }

    /// Applies a runtime change to a view (socket control, a layout switch).
    ///
    /// When the change leaves the view hidden or with interaction disabled (SEMANTICS.md: "the
    /// view hidden or disabled at runtime"), every recognizer attached to it or to a view below
    /// it that is tracking touches is cancelled (running) or failed (pending), and those touches
    /// are taken off its route until they lift: touches already down keep the view they were
    /// hit-tested to (UIKit), but the recognizers of an unreachable view see no more of them.
    /// Recognizers of ancestors go on. A frame change, showing or enabling cancels nothing: later
    /// touches are hit-tested against the new state.
    ///
    /// - Returns: false when `view` is not a view of the tree (nothing changes).
    @discardableResult
    public mutating func change(_ change: ViewTree.Change, of view: ViewTree.Index, now: Instant,
                                into events: inout [GestureEvent]) -> Bool {
        var none: [TouchOwnership] = []
        return self.change(change, of: view, now: now, into: &events, ownership: &none)
    }

    /// `change(_:of:now:into:)`, with the ownership facts it causes.
    @discardableResult
    public mutating func change(_ change: ViewTree.Change, of view: ViewTree.Index, now: Instant,
                                into events: inout [GestureEvent], ownership out: inout [TouchOwnership]) -> Bool {
        defer { flushOwnership(into: &out) }
        guard tree.nodes.indices.contains(view) else { return false }
        tree.apply(change, to: view)
        switch change {
        case .hidden(false), .userInteractionEnabled(true), .frame: return true
        case .hidden(true), .userInteractionEnabled(false): break
        }
        for index in rank where tree.isDescendant(slots[index].view, of: view) && !slots[index].touches.isEmpty {
            switch slots[index].phase {
            case .active: transition(index, to: .cancelled, now: now, sample: nil, into: &events, why: .viewUnreachable(view))
            case .possible, .waiting: transition(index, to: .failed, now: now, sample: nil, into: &events, why: .viewUnreachable(view))
            case .ended, .failed, .cancelled: break
            }
            for touch in slots[index].touches { live.removeSlot(index, from: touch) }
            slots[index].touches.removeAll()
        }
        // A recognizer elsewhere that waited for one of these to fail may now go ahead.
        settle(now: now, into: &events)
        resetFinished(now: now)
        return true
    }
}
