/// The arbiter: applies the proposals of a frame or deadline in winning order, with UIKit's
/// exclusivity, `requireToFail` and simultaneity (the invariants are on `GestureEngine`).
extension GestureEngine {
    /// Applies the collected proposals in winning order, then releases or fails the recognizers
    /// waiting on `requireToFail` until nothing changes.
    mutating func settle(now: Instant, into events: inout [GestureEvent]) {
        // A recognizer forced out by an earlier proposal of this same frame (exclusivity) made
        // its own proposal before it knew: it is moot, not a recognizer bug.
        for p in proposals where slots[p.slot].isListening {
            apply(p.proposal, to: p.slot, now: now, into: &events)
        }
        proposals.removeAll(keepingCapacity: true)
        var changed = true
        while changed {
            changed = false
            for index in rank {
                guard case .waiting(let pending) = slots[index].phase else { continue }
                switch requirementStatus(index) {
                case .undecided: continue
                case .someSucceeded:
                    transition(index, to: .failed, now: now, sample: nil, into: &events, why: .requiredSucceeded)
                case .allFailed:
                    setPhase(index, .possible, now: now, why: .requiredFailed)
                    for p in pending { apply(p.proposal, to: index, now: now, into: &events) }
                }
                changed = true
            }
        }
    }

    mutating func apply(_ proposal: Proposal, to index: Int, now: Instant, into events: inout [GestureEvent]) {
        let phase = slots[index].phase
        switch (phase, proposal) {
        case (_, .none):
            break
        case (.possible, .fail(let reason)), (.waiting, .fail(let reason)):
            transition(index, to: .failed, now: now, sample: nil, into: &events, why: .failure(reason))
        case (.waiting, .cancel):
            transition(index, to: .failed, now: now, sample: nil, into: &events, why: .failure(.touchCancelled))
        case (.active, .fail(let reason)):
            transition(index, to: .cancelled, now: now, sample: nil, into: &events, why: .failure(reason))
        case (.active, .cancel):
            transition(index, to: .cancelled, now: now, sample: nil, into: &events, why: .failure(.touchCancelled))
        case (.possible, .recognize(let s)), (.possible, .begin(let s)):
            let isDiscrete = if case .recognize = proposal { true } else { false }
            if let blocker = blockingActive(index) {
                transition(index, to: .failed, now: now, sample: nil, into: &events, why: .blocked(by: blocker)); break
            }
            switch requirementStatus(index) {
            case .someSucceeded:
                transition(index, to: .failed, now: now, sample: nil, into: &events, why: .requiredSucceeded)
            case .undecided:
                setPhase(index, .waiting([isDiscrete ? .recognize(s) : .begin(s)]), now: now, why: .waitingForRequired)
            case .allFailed:
                transition(index, to: isDiscrete ? .ended : .active, now: now, sample: s, into: &events,
                           reported: isDiscrete ? .ended : .began, why: .succeeded)
                excludeOthers(from: index, now: now, into: &events)
            }
        case (.waiting(let pending), .change(let s)):
            hold(.change(s), after: pending, at: index, now: now)
        case (.waiting(let pending), .end(let s)):
            hold(.end(s), after: pending, at: index, now: now)
        case (.active, .change(let s)):
            transition(index, to: .active, now: now, sample: s, into: &events, reported: .changed, why: .succeeded)
        case (.active, .end(let s)):
            transition(index, to: .ended, now: now, sample: s, into: &events, why: .touchesLifted)
        case (.ended, _), (.failed, _), (.cancelled, _),
             (.possible, .change), (.possible, .end), (.possible, .cancel),
             (.waiting, .recognize), (.waiting, .begin),
             (.active, .recognize), (.active, .begin):
            recognizerBug(index, proposal: proposal)
        }
    }

    /// One more proposal of a waiting recognizer, queued (a rare path, kept out of `apply`).
    @inline(never)
    mutating func hold(_ next: Pending, after pending: [Pending], at index: Int, now: Instant) {
        setPhase(index, .waiting(pending + [next]), now: now, why: .waitingForRequired)
    }

    enum RequirementStatus { case allFailed, undecided, someSucceeded }

    func requirementStatus(_ index: Int) -> RequirementStatus {
        var status = RequirementStatus.allFailed
        for other in slots[index].requires {
            switch slots[other].phase {
            case .active, .ended: return .someSucceeded
            case .waiting: status = .undecided
            case .possible:
                // Only a recognizer that is still watching something can still succeed.
                if !slots[other].touches.isEmpty || recognizers.deadline(slots[other].recognizer) != nil { status = .undecided }
            case .failed, .cancelled: break
            }
        }
        return status
    }

    /// A running gesture keeps its touches: a newcomer sharing them, not allowed to run together
    /// with it, fails. Returns that running gesture.
    func blockingActive(_ index: Int) -> Int? {
        for other in slots.indices where other != index {
            guard case .active = slots[other].phase, shareTouches(index, other),
                  !slots[index].simultaneous.contains(other),
                  recognizers.canPrevent(slots[other].recognizer, slots[index].recognizer) else { continue }
            return other
        }
        return nil
    }

    mutating func excludeOthers(from winner: Int, now: Instant, into events: inout [GestureEvent]) {
        for other in rank where other != winner {
            guard shareTouches(winner, other), !slots[winner].simultaneous.contains(other),
                  recognizers.canPrevent(slots[winner].recognizer, slots[other].recognizer) else { continue }
            switch slots[other].phase {
            case .possible, .waiting: transition(other, to: .failed, now: now, sample: nil, into: &events, why: .excluded(by: winner))
            case .active: transition(other, to: .cancelled, now: now, sample: nil, into: &events, why: .excluded(by: winner))
            case .ended, .failed, .cancelled: break
            }
        }
    }

    func shareTouches(_ a: Int, _ b: Int) -> Bool {
        slots[a].touches.contains { slots[b].touches.contains($0) }
    }

    mutating func resetFinished(now: Instant) {
        for index in slots.indices where slots[index].touches.isEmpty {
            switch slots[index].phase {
            case .ended, .failed, .cancelled:
                setPhase(index, .possible, now: now, why: .atRest)
                recognizers.reset(slots[index].recognizer)
            case .possible, .waiting, .active:
                break
            }
        }
    }
}
