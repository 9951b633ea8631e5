/// The engine's inputs from the touches and the clock: deadlines (`advance`) and frames
/// (`handle`), each settled by the arbiter (`GestureEngine+Arbitration.swift`).
extension GestureEngine {
    /// The earliest instant at which `advance(to:into:)` has work, or nil.
    public var nextDeadline: Instant? {
        var earliest: Instant?
        for slot in slots where slot.isListening {
            if let d = recognizers.deadline(slot.recognizer), earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        return earliest
    }

    /// Fires every deadline up to `now`, each at its own instant, earliest first (ties in winning
    /// order), appending the resulting events.
    public mutating func advance(to now: Instant, into events: inout [GestureEvent]) {
        var none: [TouchOwnership] = []
        advance(to: now, into: &events, ownership: &none)
    }

    /// `advance(to:into:)`, with the ownership facts it causes (while `tracksOwnership`).
    public mutating func advance(to now: Instant, into events: inout [GestureEvent], ownership out: inout [TouchOwnership]) {
        defer { flushOwnership(into: &out) }
        while true {
            var due: (slot: Int, at: Instant)?
            for index in rank where slots[index].isListening {
                if let d = recognizers.deadline(slots[index].recognizer), d <= now, due.map({ d < $0.at }) ?? true {
                    due = (index, d)
                }
            }
            guard let (index, at) = due else { return }
            let proposal = recognizers.fire(slots[index].recognizer, now: at)
            proposals.removeAll(keepingCapacity: true)
            if case .none = proposal {} else { proposals.append(SlotProposal(slot: index, proposal: proposal)) }
            settle(now: at, into: &events)
            resetFinished(now: at)
        }
    }

    /// Handles one frame of touch updates, all at `now`. Deadlines due at or before `now` must
    /// have been fired first (`advance(to:into:)`).
    public mutating func handle(_ frame: [TouchUpdate], now: Instant, into events: inout [GestureEvent]) {
        var none: [TouchOwnership] = []
        handle(frame, now: now, into: &events, ownership: &none)
    }

    /// `handle(_:now:into:)`, with the ownership facts it causes (while `tracksOwnership`): a
    /// `routed` fact per touch that began, then the decisions the frame brought.
    public mutating func handle(_ frame: [TouchUpdate], now: Instant, into events: inout [GestureEvent],
                                ownership out: inout [TouchOwnership]) {
        defer { flushOwnership(into: &out) }
        for update in frame where update.phase == .began {
            let view = tree.hitTest(update.location)
            let route = view.map { routesByView[$0] } ?? []
            live.add(update.id, view: view, route: route, routeKey: view.map { routeKeys[$0] })
            for slot in route { slots[slot].touches.append(update.id) }
        }
        if tracksOwnership {
            // After every began touch of the frame is on its recognizers: a recognizer that
            // several of them share is undecided about each.
            for update in frame where update.phase == .began {
                announceRouted(update.id, view: live.view(of: update.id), route: live.route(of: update.id) ?? [])
            }
        }
        // Each slot gets the updates of its touches, in frame order. A slot that sees every update
        // of the frame (the usual case: one view under all the fingers) reads the frame itself;
        // only the others get theirs copied, into buffers reused across frames.
        if let route = live.commonRoute(of: frame) {
            // The usual frame: all its touches on one route (one view under all the fingers),
            // so each slot on it sees the whole frame, without counting update by update.
            for slot in live.routes[route] { routedCount[slot] = frame.count }
        } else {
            for update in frame {
                guard let touch = live.find(update.id) else { continue }
                for slot in live.routes[touch] { routedCount[slot] += 1 }
            }
            // Only here can a slot see part of the frame (on one common route every slot on it
            // sees all of it and the others none).
            if routedCount.contains(where: { $0 > 0 && $0 < frame.count }) {
                for update in frame {
                    guard let touch = live.find(update.id) else { continue }
                    for slot in live.routes[touch] where routedCount[slot] < frame.count { inputsBySlot[slot].append(update) }
                }
            }
        }
        proposals.removeAll(keepingCapacity: true)
        // The centroid of the whole frame, shared by every slot that sees all of it (computed
        // once, when the first of them needs it).
        var frameCentroid: Point?
        for index in rank where routedCount[index] > 0 {
            if slots[index].isListening {
                let whole = routedCount[index] == frame.count
                let updates = whole ? frame[...] : inputsBySlot[index][...]
                if whole {
                    let centroid = frameCentroid ?? Self.centroid(updates)
                    frameCentroid = centroid
                    slots[index].lastSample.location = centroid
                } else {
                    slots[index].lastSample.location = Self.centroid(updates)
                }
                slots[index].lastSample.device = updates[updates.startIndex].device
                let proposal = recognizers.handle(slots[index].recognizer, updates, now: now)
                if case .none = proposal {} else { proposals.append(SlotProposal(slot: index, proposal: proposal)) }
            }
            routedCount[index] = 0
            if !inputsBySlot[index].isEmpty { inputsBySlot[index].removeAll(keepingCapacity: true) }
        }
        settle(now: now, into: &events)
        for update in frame where update.phase == .ended || update.phase == .cancelled {
            for slot in live.route(of: update.id) ?? [] { slots[slot].touches.removeAll { $0 == update.id } }
            live.remove(update.id)
        }
        resetFinished(now: now)
    }

    /// The view a live touch was hit-tested to, if any.
    public func view(of touch: TouchID) -> ViewTree.Index? { live.view(of: touch) }

    private static func centroid(_ updates: ArraySlice<TouchUpdate>) -> Point {
        var x = 0.0, y = 0.0
        for u in updates { x += u.location.x; y += u.location.y }
        return Point(x: x / Double(updates.count), y: y / Double(updates.count))
    }
}
