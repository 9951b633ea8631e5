/// Routes touches to recognizers and arbitrates between them: the one place where UIKit's
/// conflict rules live (SEMANTICS.md, "Conflicts between recognizers").
///
/// Invariants:
/// - a touch is hit-tested once, when it begins, and goes to the recognizers of its view and of
///   every ancestor, for its whole life;
/// - a recognizer leaves `possible` only through `transition(_:to:now:sample:)`, which also
///   emits the event, so the reported states are exactly the transitions taken;
/// - every `began` is followed by exactly one `ended` or `cancelled`;
/// - when a recognizer begins or recognizes, every other recognizer sharing any of its touches
///   is forced out (`failed`, or `cancelled` if it had begun) unless the pair may recognize
///   simultaneously or the winner cannot prevent it (`RecognizerSet.canPrevent`);
/// - a recognizer with `requireToFail` waits in `possible` while any of those is undecided,
///   fails when one of them succeeds, and goes ahead (at the instant the last one fails) when all
///   have failed;
/// - among recognizers that would win on the same frame, the deepest view goes first, then config
///   order (with the multi-tap exception of `RecognizerSet.tapPrecedence`);
/// - a recognizer returns to `possible` once it is finished and all its touches are up.
public struct GestureEngine: Sendable {
    public enum BuildError: Error, Hashable, Sendable, CustomStringConvertible {
        case unsupportedType(String)
        case unknownGesture(String)
        public var description: String {
            switch self {
            case .unsupportedType(let type): "recognizer type \"\(type)\" is not available in this build"
            case .unknownGesture(let id): "no gesture with id \"\(id)\""
            }
        }
    }

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
        var phase: Phase = .possible
        /// Touches routed here that are still down (including those seen while deaf).
        var touches: [TouchID] = []
        var simultaneous: [Int] = []
        var requires: [Int] = []
        /// Where the touches were last seen, for failed lines.
        var lastSample: GestureSample
    }

    public private(set) var tree: ViewTree
    var slots: [Slot] = []
    /// The slots' recognizers, stored by type (`Slot.recognizer` names one).
    var recognizers = RecognizerSet()
    /// Slot indices in winning order (deepest view, then tap precedence, then config order).
    private var rank: [Int] = []
    /// Per view: the slots on its path to the root, in winning order.
    private var routesByView: [[Int]] = []
    /// Per view: the first view with the same route (views without gestures of their own share
    /// their parent's), the key `LiveTouches.commonRoute` compares.
    private var routeKeys: [Int] = []
    /// Per live touch: the slots it is routed to and the view it was hit-tested to.
    private var live = LiveTouches()

    /// Per slot: how many of the current frame's updates are of its touches (0 between frames).
    private var routedCount: [Int] = []
    /// Per slot that sees only some of the current frame's updates: those, in frame order.
    /// Reused across frames (emptied, capacity kept), so routing a frame allocates nothing.
    private var inputsBySlot: [[TouchUpdate]] = []
    /// The proposals of the current frame or deadline other than `.none`, in winning order
    /// (a scratch buffer reused across frames).
    private var proposals: [SlotProposal] = []

    /// A named pair, not a tuple: an array of tuples is copied and destroyed through the
    /// runtime's generic tuple witnesses.
    struct SlotProposal {
        let slot: Int
        let proposal: Proposal
    }

    /// Whether the engine reports touch ownership (`TouchOwnership`): on in a pipeline with a
    /// pass-through device, where `TouchForwarder` needs it; off, nothing of it is computed.
    public internal(set) var tracksOwnership = false
    /// Per slot: the decision last announced (`Ownership.swift`).
    var announced: [Decision] = []
    /// The ownership facts of the entry point in progress, handed out at its end.
    var ownership: [TouchOwnership] = []

    /// Whether every transition is traced with its reason (`--trace`): `TIME name: old → new
    /// (why)`, drained by the caller into its step's buffers (`drainTrace(into:bugs:)`). Off,
    /// nothing is built but recognizer bugs (typed, `RecognizerBug`): those are kept tracing on
    /// or off; with it off, at most `untracedCapacity` of them between drains (a daemon that runs
    /// for months must not grow with every bug) and `recognizerBugs` counts them all.
    public var tracesTransitions = false
    public internal(set) var trace: [String] = [], bugs: [RecognizerBug] = []
    public private(set) var recognizerBugs = 0
    public static let untracedCapacity = 64

    /// - Parameters:
    ///   - screen: the screen's size in points.
    ///   - screenID: the screen's id (`ScreenSpec.id`), which its events carry; nil in the single form.
    public init(views: [ViewSpec], screen: Size, screenID: String? = nil) throws(BuildError) {
        tree = ViewTree(views: views, screen: screen)
        var indexByName: [String: Int] = [:]
        for (viewIndex, node) in tree.nodes.enumerated() {
            for spec in node.gestures {
                indexByName[spec.id] = slots.count
                let empty = GestureSample(touches: 0, location: .zero, device: DeviceName(), values: .none)
                let recognizer = recognizers.add(spec.kind, screen: screen)
                let label = GestureLabel(type: spec.kind.typeName, name: spec.id, view: node.id, screen: screenID,
                                         templates: recognizers.templateNames(recognizer), slot: slots.count,
                                         action: spec.action)
                slots.append(Slot(name: spec.id, type: spec.kind.typeName, view: viewIndex, viewID: node.id,
                                  recognizer: recognizer, delivery: spec.delivery, label: label, lastSample: empty))
            }
        }
        var order = 0
        var configOrder = Array(repeating: 0, count: slots.count)
        for node in tree.nodes {
            for spec in node.gestures {
                let slot = indexByName[spec.id]!
                configOrder[slot] = order; order += 1
                for other in spec.requireToFail {
                    guard let o = indexByName[other] else { throw .unknownGesture(other) }
                    slots[slot].requires.append(o)
                }
                for other in spec.recognizeSimultaneouslyWith {
                    guard let o = indexByName[other] else { throw .unknownGesture(other) }
                    if !slots[slot].simultaneous.contains(o) { slots[slot].simultaneous.append(o) }
                    if !slots[o].simultaneous.contains(slot) { slots[o].simultaneous.append(slot) }
                }
            }
        }
        rank = Self.winningOrder(slots: slots, recognizers: recognizers, tree: tree, configOrder: configOrder)
        inputsBySlot = Array(repeating: [], count: slots.count)
        // At most one proposal per slot per frame: sized up front, so that the first frame with
        // more of them than any before does not allocate.
        proposals.reserveCapacity(slots.count)
        routedCount = Array(repeating: 0, count: slots.count)
        announced = Array(repeating: .failed, count: slots.count)
        let position = Dictionary(uniqueKeysWithValues: rank.enumerated().map { ($1, $0) })
        routesByView = tree.nodes.indices.map { view in
            tree.path(from: view).flatMap { v in slots.indices.filter { slots[$0].view == v } }
                .sorted { position[$0]! < position[$1]! }
        }
        var firstWithRoute: [[Int]: Int] = [:]
        routeKeys = routesByView.indices.map { view in
            if let first = firstWithRoute[routesByView[view]] { return first }
            firstWithRoute[routesByView[view]] = view
            return view
        }
    }

    /// Deepest view first, then config order; within one depth, the positions held by taps are
    /// refilled by those taps sorted by tap count, most first (see `RecognizerSet.tapPrecedence`).
    private static func winningOrder(slots: [Slot], recognizers: RecognizerSet, tree: ViewTree,
                                     configOrder: [Int]) -> [Int] {
        var order = slots.indices.sorted {
            let (da, db) = (tree.nodes[slots[$0].view].depth, tree.nodes[slots[$1].view].depth)
            return da != db ? da > db : configOrder[$0] < configOrder[$1]
        }
        var start = 0
        while start < order.count {
            let depth = tree.nodes[slots[order[start]].view].depth
            var end = start
            while end < order.count, tree.nodes[slots[order[end]].view].depth == depth { end += 1 }
            let positions = (start..<end).filter { recognizers.tapPrecedence(slots[order[$0]].recognizer) > 0 }
            let taps = positions.map { order[$0] }
                .sorted { recognizers.tapPrecedence(slots[$0].recognizer) > recognizers.tapPrecedence(slots[$1].recognizer) }
            for (position, slot) in zip(positions, taps) { order[position] = slot }
            start = end
        }
        return order
    }

    /// One recognizer a touch on a view reaches, for `gestured explain`.
    public struct RouteEntry: Hashable, Sendable {
        public var name: String
        public var type: String
        /// The id of the view it is attached to.
        public var view: String
        public var requireToFail: [String]
        public var simultaneous: [String]
    }

    /// The recognizers a touch on `view` reaches, in winning order.
    public func route(of view: ViewTree.Index) -> [RouteEntry] {
        routesByView[view].map { index in
            RouteEntry(name: slots[index].name, type: slots[index].type, view: slots[index].viewID,
                       requireToFail: slots[index].requires.map { slots[$0].name },
                       simultaneous: slots[index].simultaneous.map { slots[$0].name })
        }
    }

    // MARK: Inputs

    /// Turns ownership facts on (`TouchForwarder` needs them for pass-through devices). Touches
    /// already down were never announced: the forwarder does not track them either.
    public mutating func trackOwnership() { tracksOwnership = true }

    /// How many recognizers the engine runs (for callers sizing their event buffers).
    public var recognizerCount: Int { slots.count }

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
            resetFinished()
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
        resetFinished()
    }

    /// The view a live touch was hit-tested to, if any.
    public func view(of touch: TouchID) -> ViewTree.Index? { live.view(of: touch) }

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
            slots[index].phase = .possible
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
        resetFinished()
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
        resetFinished()
        return true
    }

    // MARK: Arbitration

    /// Applies the collected proposals in winning order, then releases or fails the recognizers
    /// waiting on `requireToFail` until nothing changes.
    private mutating func settle(now: Instant, into events: inout [GestureEvent]) {
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

    private mutating func apply(_ proposal: Proposal, to index: Int, now: Instant, into events: inout [GestureEvent]) {
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
            if let blocker = blockingActive(index) {
                transition(index, to: .failed, now: now, sample: nil, into: &events, why: .blocked(by: blocker)); break
            }
            switch requirementStatus(index) {
            case .someSucceeded:
                transition(index, to: .failed, now: now, sample: nil, into: &events, why: .requiredSucceeded)
            case .undecided:
                setPhase(index, .waiting([Pending(proposal)!]), now: now, why: .waitingForRequired)
            case .allFailed:
                let isDiscrete = if case .recognize = proposal { true } else { false }
                transition(index, to: isDiscrete ? .ended : .active, now: now, sample: s, into: &events,
                           reported: isDiscrete ? .ended : .began, why: .succeeded)
                excludeOthers(from: index, now: now, into: &events)
            }
        case (.waiting(var pending), .change), (.waiting(var pending), .end):
            pending.append(Pending(proposal)!)
            slots[index].phase = .waiting(pending)
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

    private enum RequirementStatus { case allFailed, undecided, someSucceeded }

    private func requirementStatus(_ index: Int) -> RequirementStatus {
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
    private func blockingActive(_ index: Int) -> Int? {
        for other in slots.indices where other != index {
            guard case .active = slots[other].phase, shareTouches(index, other),
                  !slots[index].simultaneous.contains(other),
                  recognizers.canPrevent(slots[other].recognizer, slots[index].recognizer) else { continue }
            return other
        }
        return nil
    }

    private mutating func excludeOthers(from winner: Int, now: Instant, into events: inout [GestureEvent]) {
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

    private func shareTouches(_ a: Int, _ b: Int) -> Bool {
        slots[a].touches.contains { slots[b].touches.contains($0) }
    }

    /// The one funnel for state changes: records the new phase, traces it, emits the event.
    private mutating func transition(_ index: Int, to phase: Phase, now: Instant, sample: GestureSample?,
                                     into events: inout [GestureEvent], reported: GestureState? = nil, why: Why) {
        if tracesTransitions, !(phase.isActive && slots[index].phase.isActive) {
            traceTransition(index, to: phase, now: now, sample: sample, why: why)
        }
        slots[index].phase = phase
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
    }

    /// A phase change that emits no event (waiting, released): traced all the same.
    private mutating func setPhase(_ index: Int, _ phase: Phase, now: Instant, why: Why) {
        if tracesTransitions { traceTransition(index, to: phase, now: now, sample: nil, why: why) }
        slots[index].phase = phase
    }

    /// `TIME name: old → new (why)`, e.g. `… single: possible → waiting (requires double to fail)`.
    private mutating func traceTransition(_ index: Int, to phase: Phase, now: Instant, sample: GestureSample?, why: Why) {
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
        }
        // The running phase reads as its reported state: `began` when entered, `running` after.
        let old = slots[index].phase.isActive ? "running" : slots[index].phase.name
        trace.append("\(now) \(slots[index].name): \(old) → \(phase.isActive ? "began" : phase.name) (\(text))")
    }

    /// A proposal the state machine should never make in this phase: a recognizer bug. It is
    /// ignored (the arbiter's state stays consistent), counted and traced.
    mutating func recognizerBug(_ index: Int, proposal: Proposal) {
        recognizerBugs += 1
        guard tracesTransitions || bugs.count < Self.untracedCapacity else { return }
        bugs.append(RecognizerBug(recognizer: slots[index].name, proposal: "\(proposal)", phase: slots[index].phase.name))
    }

    private mutating func resetFinished() {
        for index in slots.indices where slots[index].touches.isEmpty {
            switch slots[index].phase {
            case .ended, .failed, .cancelled:
                // Not traced: a return to rest after all touches lifted, not a decision.
                slots[index].phase = .possible
                recognizers.reset(slots[index].recognizer)
            case .possible, .waiting, .active:
                break
            }
        }
    }

    private static func centroid(_ updates: ArraySlice<TouchUpdate>) -> Point {
        var x = 0.0, y = 0.0
        for u in updates { x += u.location.x; y += u.location.y }
        return Point(x: x / Double(updates.count), y: y / Double(updates.count))
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
    init?(_ proposal: Proposal) {
        switch proposal {
        case .recognize(let s): self = .recognize(s)
        case .begin(let s): self = .begin(s)
        case .change(let s): self = .change(s)
        case .end(let s): self = .end(s)
        case .none, .fail, .cancel: return nil
        }
    }

    var proposal: Proposal {
        switch self {
        case .recognize(let s): .recognize(s)
        case .begin(let s): .begin(s)
        case .change(let s): .change(s)
        case .end(let s): .end(s)
        }
    }
}
