/// The engines within a step: one engine call, then its gesture events into the batch (with the
/// actions they reach) and the forwarder's decision, written once here for every input; and the
/// deadlines of all screens, the kiosk policy's and the unlock gestures', fired in time order.
extension GesturePipeline {
    /// What an engine call is about.
    enum EngineCall {
        /// The frame's touch updates (`updates`).
        case frame
        /// The engine's deadlines up to the instant.
        case deadlines(Instant)
        /// A reload or shutdown: every gesture ends.
        case cancelAll
        /// The touches' gestures end (their device lost events, was rotated, its screen locked).
        case cancelGestures([TouchID])
        /// A view's runtime change.
        case change(ViewTree.Change, view: ViewTree.Index)
    }

    /// One engine call on `screen` at `now`, then its outputs and the forwarder's decision
    /// (`conclude`).
    mutating func run(_ call: EngineCall, screen: Int, now: Instant, into batch: inout Batch) {
        callEngine(call, screen: screen, now: now)
        conclude(screen: screen, now: now, into: &batch)
    }

    /// One engine call: its gesture events and ownership facts in the scratch buffers.
    mutating func callEngine(_ call: EngineCall, screen: Int, now: Instant) {
        if !gestureEvents.isEmpty { gestureEvents.removeAll(keepingCapacity: true) }
        if !ownership.isEmpty { ownership.removeAll(keepingCapacity: true) }
        switch call {
        case .frame:
            screens[screen].engine.handle(updates, now: now, into: &gestureEvents, ownership: &ownership)
        case .deadlines(let deadline):
            screens[screen].engine.advance(to: deadline, into: &gestureEvents, ownership: &ownership)
        case .cancelAll:
            screens[screen].engine.cancelAll(now: now, into: &gestureEvents, ownership: &ownership)
        case .cancelGestures(let touches):
            screens[screen].engine.cancelGestures(involving: touches, now: now, into: &gestureEvents, ownership: &ownership)
        case .change(let change, let view):
            _ = screens[screen].engine.change(change, of: view, now: now, into: &gestureEvents, ownership: &ownership)
        }
    }

    /// The end of an engine call: its ownership facts to the forwarder, its gesture events into
    /// the batch with the actions they reach, then the forwarder's decision at the call's instant.
    mutating func conclude(screen: Int, now: Instant, into batch: inout Batch) {
        if !ownership.isEmpty { forwarder.apply(ownership, screen: screen) }
        for event in gestureEvents {
            batch.outputs.append(.gesture(event))
            if let action = event.label.action, action.fires(on: event.state) {
                batch.actions.append(ActionRequest(output: batch.outputs.count - 1, action: action))
            }
        }
        settleForwarding(now: now, into: &batch)
    }

    /// The forwarder's one decision point: whatever changed for it since it last decided (a
    /// touch began, moved or lifted; the arbiter stated a fact; a touch was claimed) is carried
    /// into what the application receives, at `now`. It is called at the end of every engine
    /// call, before a device's touches are forgotten, and at the end of every step, and decides
    /// only on news (`TouchForwarder.hasNews`): the forwarder's own facts say when, not the
    /// caller (a decision with nothing new would write nothing).
    mutating func settleForwarding(now: Instant, into batch: inout Batch) {
        if forwarder.hasNews { forwarder.decide(now: now, into: &batch.forwarded) }
    }

    /// Fires every deadline up to `now`, of all screens in time order: each due deadline fires
    /// with its own time, the earliest first (ties: the earlier screen), so what one screen's
    /// deadline does never precedes an earlier deadline of another. The forwarder decides after
    /// each deadline that did something, at its time: a held touch a failed gesture lets go of
    /// reaches the application when the gesture fails, not at the next frame.
    ///
    /// The kiosk policy's deadlines (a lock's end, an idle threshold) and the unlock gestures'
    /// fire in the same order, after the engines' at the same instant (then the kiosk's first).
    mutating func fireDeadlines(upTo now: Instant, into batch: inout Batch) {
        while true {
            let engines = earliestDeadline()
            let unlocking = unlock.nextDeadline
            if let k = kiosk.nextDeadline, k <= now, engines.map({ k < $0.1 }) ?? true, unlocking.map({ k <= $0.1 }) ?? true {
                kiosk.fire(at: k, into: &batch.outputs)
                continue
            }
            if let (s, u) = unlocking, u <= now, engines.map({ u < $0.1 }) ?? true, kiosk.nextDeadline.map({ u < $0 }) ?? true {
                if unlock.advance(screen: s, to: u) { kiosk.unlock([s], now: u, into: &batch.outputs) }
                continue
            }
            guard let (screen, deadline) = engines, deadline <= now else { return }
            run(.deadlines(deadline), screen: screen, now: deadline, into: &batch)
        }
    }

    /// The screen whose engine's deadline comes first, and that deadline.
    func earliestDeadline() -> (Int, Instant)? {
        var earliest: (Int, Instant)?
        // By index, asked in place: a loop over the screens copied each (its engine) first.
        for i in screens.indices {
            if let d = screens[i].engine.nextDeadline, earliest.map({ d < $0.1 }) ?? true { earliest = (i, d) }
        }
        return earliest
    }
}
