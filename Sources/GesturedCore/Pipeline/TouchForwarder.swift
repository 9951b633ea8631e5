/// One thing the application behind a pass-through device receives: a touch's down, move,
/// cancel or lift on the device's uinput clone, in the device's own units. The shell turns these
/// into evdev events with `CloneEncoder` and writes them; `replay --forwarded` prints them.
public struct ForwardedTouch: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A new touch: `trackingID` is the clone's own (never the real device's).
        case down(trackingID: Int32, position: DevicePosition)
        case move(DevicePosition)
        /// The slot's tool becomes `MT_TOOL_PALM`: libinput reports `TOUCH_CANCEL`, Wayland
        /// `wl_touch.cancel`. Always followed by `up` for the same slot.
        case cancel
        case up
    }

    public var device: GesturePipeline.DeviceID
    public var time: Instant
    /// The real touch it stands for.
    public var touch: TouchID
    /// The clone's slot (not necessarily the real one: a lift held back keeps its slot busy).
    public var slot: Int
    public var kind: Kind
}

/// Decides, per touch of a pass-through device, what the application gets: UIKit's touch
/// delivery with the recognizers' `cancelsTouchesInView`, `delaysTouchesBegan`,
/// `delaysTouchesEnded` and the views' `forwardsTouches` (docs/KIOSK.md; its state diagram is in
/// docs/RECOGNIZERS.md, "The forwarder": a change to one is a change to both).
///
/// It learns who owns a touch only from the arbiter's `TouchOwnership` facts, never by reading an
/// engine: each touch keeps the recognizers of its route that were undecided when it was routed
/// (its `holders`). A holder that decides by recognizing or beginning claims the touch when it
/// cancels touches (sent parts are cancelled in the application, held ones never sent); one that
/// fails leaves the holders. Then, when it has news (`hasNews`) at the end of an engine call, a
/// claim or a step (`decide`, through the pipeline's one `settleForwarding`), after the facts and
/// before any of the frame's positions is written:
/// - a touch is held (not sent yet) while a holder has `delaysTouchesBegan`; else sent, the held
///   down and moves flushed in their order;
/// - a sent touch gets the step's moves, unless the step claimed it: then its cancel, never a
///   move of the frame that claimed it (UIKit: the view gets `touchesCancelled` for that event,
///   not `touchesMoved`);
/// - its lift is held while a holder has `delaysTouchesEnded`;
/// - a touch in a view that does not forward touches, or claimed before it was sent, is never
///   sent; a touch that cannot get a free clone slot is not sent either.
///
/// Invariants: every `down` is followed by exactly one `up` for its slot (after a `cancel` or
/// not); a slot is reused only after its `up`.
struct TouchForwarder: Sendable {
    enum State: Sendable {
        /// Not sent yet: its positions so far (`Tracked.unsent`), the down's first.
        case held
        case forwarded(slot: Int)
        /// Never (again) sent: claimed, cancelled, outside a forwarding view or without a slot.
        case dropped
    }

    struct Tracked: Sendable {
        let touch: TouchID
        let device: Int
        var screen: Int
        var state: State
        /// The recognizers of its route that were undecided when it was routed and have not
        /// decided since (within its screen's engine).
        var holders: [TouchOwnership.Holder] = []
        var claimed = false
        var lifted = false
        /// Positions not written yet: a held touch's down and moves, a sent touch's moves of
        /// the step in progress (written by `decide`).
        var unsent: [DevicePosition]
    }

    /// Live (or held) touches of pass-through devices, in the order they began.
    private(set) var tracked: [Tracked] = []
    /// Per device (`DeviceID.value`): which real touch holds each clone slot; nil when the
    /// device does not pass through.
    private var cloneSlots: [[TouchID?]?] = []
    private var nextTrackingID: [Int32] = []
    /// How many times `decide` ran (tests count them).
    private(set) var decisions = 0
    /// Whether anything changed since the last `decide` (a touch began, moved or lifted, a fact
    /// or a claim was taken in): the pipeline decides only then (`settleForwarding`), and a
    /// decision with nothing new would write nothing.
    private(set) var hasNews = false

    /// Starts forwarding a device whose clone has `slotCount` slots.
    mutating func addDevice(_ device: Int, slotCount: Int) {
        while cloneSlots.count <= device { cloneSlots.append(nil); nextTrackingID.append(0) }
        cloneSlots[device] = Array(repeating: nil, count: max(slotCount, 1))
    }

    /// Forgets a device and its touches: its clone goes with it.
    mutating func removeDevice(_ device: Int) {
        guard cloneSlots.indices.contains(device) else { return }
        cloneSlots[device] = nil
        tracked.removeAll { $0.device == device }
    }

    func forwards(device: Int) -> Bool { cloneSlots.indices.contains(device) && cloneSlots[device] != nil }

    /// Whether any device forwards (the engines need to tell who owns touches only then).
    var isActive: Bool { cloneSlots.contains { $0 != nil } }

    /// A touch of a pass-through device began, before the arbiter routes it (its `routed` fact
    /// comes with the frame's ownership facts): held until that fact says who holds it.
    mutating func began(_ touch: TouchID, device: Int, screen: Int, at position: DevicePosition) {
        tracked.append(Tracked(touch: touch, device: device, screen: screen, state: .held, unsent: [position]))
        hasNews = true
    }

    /// A touch moved, lifted or was cancelled by its device. Nothing is written here: a move
    /// waits for the step's `decide`, which knows whether the step claimed the touch.
    mutating func updated(_ touch: TouchID, phase: TouchPhase, at position: DevicePosition) {
        guard let i = tracked.firstIndex(where: { $0.touch == touch }) else { return }
        if case .dropped = tracked[i].state {
            // Never written again: its end only forgets it, with nothing to decide.
            if phase == .ended || phase == .cancelled { tracked.remove(at: i) }
            return
        }
        switch phase {
        case .began: return
        case .moved: tracked[i].unsent.append(position)
        case .ended: tracked[i].lifted = true
        case .cancelled: tracked[i].lifted = true; tracked[i].claimed = true   // a palm on the real device
        }
        hasNews = true
    }

    /// Takes in a screen's ownership facts, in the order the arbiter stated them.
    mutating func apply(_ facts: [TouchOwnership], screen: Int) {
        guard !tracked.isEmpty, !facts.isEmpty else { return }
        hasNews = true
        for fact in facts {
            switch fact {
            case .routed(let touch, let holders, let claimed, let forwards):
                guard let i = tracked.firstIndex(where: { $0.touch == touch }) else { continue }
                tracked[i].holders = holders
                if claimed { tracked[i].claimed = true }
                if !forwards, case .held = tracked[i].state { tracked[i].state = .dropped }
            case .decided(let recognizer, let claims):
                for i in tracked.indices where tracked[i].screen == screen {
                    guard let k = tracked[i].holders.firstIndex(where: { $0.recognizer == recognizer }) else { continue }
                    tracked[i].holders.remove(at: k)
                    if claims { tracked[i].claimed = true }
                }
            }
        }
    }

    /// What a reload does to a touch of a pass-through device (`carry`).
    enum Carry: Sendable {
        /// Its rules did not change: it goes on in the application, on screen `screen` now.
        case keep(screen: Int)
        /// Its screen is gone, or its view is gone or forwards differently: cancelled there.
        case claim
    }

    /// Carries the touches over a reload: the old recognizers are gone (cancelled, like a failure
    /// to the touch: they hold nothing back any more), and `verdict` says whether each touch's
    /// rules changed. Call `decide` after.
    mutating func carry(_ verdict: (_ touch: TouchID, _ screen: Int) -> Carry) {
        if !tracked.isEmpty { hasNews = true }
        for i in tracked.indices {
            tracked[i].holders = []
            switch verdict(tracked[i].touch, tracked[i].screen) {
            case .keep(let screen): tracked[i].screen = screen
            case .claim: tracked[i].claimed = true
            }
        }
    }

    /// Claims every tracked touch (of `device`, or all): SYN_DROPPED, reload, shutdown.
    mutating func claimAll(device: Int? = nil) {
        for i in tracked.indices where device.map({ tracked[i].device == $0 }) ?? true {
            tracked[i].claimed = true
            hasNews = true
        }
    }

    /// Where a touch stands with the application (`explain`'s `application:` line reads it after
    /// the touch's first `decide`).
    enum Standing: Hashable, Sendable {
        case sent
        /// Not sent yet, held back by these recognizers' `delaysTouchesBegan` (in route order).
        case held(by: [Int])
        case never
    }

    /// The standing of a touch it tracks (nil for one it does not, or no longer does).
    func standing(of touch: TouchID) -> Standing? {
        guard let t = tracked.first(where: { $0.touch == touch }) else { return nil }
        switch t.state {
        case .forwarded: return .sent
        case .held: return .held(by: t.holders.filter(\.delaysBegan).map(\.recognizer))
        case .dropped: return .never
        }
    }

    /// Sends, moves, cancels and lifts what the touches' states now allow, at `now`: after an
    /// engine call's ownership facts, or a claim, when there is news (`hasNews`;
    /// `GesturePipeline.settleForwarding` is its one caller in the pipeline). The moves of touches already sent come first, in
    /// the order the touches began; then each touch's cancel, flush or lift.
    mutating func decide(now: Instant, into out: inout [ForwardedTouch]) {
        decisions += 1
        hasNews = false
        guard !tracked.isEmpty else { return }
        for i in tracked.indices where !tracked[i].claimed && !tracked[i].unsent.isEmpty {
            guard case .forwarded(let slot) = tracked[i].state else { continue }
            let device = GesturePipeline.DeviceID(value: tracked[i].device)
            for position in tracked[i].unsent {
                out.append(ForwardedTouch(device: device, time: now, touch: tracked[i].touch, slot: slot, kind: .move(position)))
            }
            tracked[i].unsent.removeAll(keepingCapacity: true)
        }
        for i in tracked.indices {
            let device = GesturePipeline.DeviceID(value: tracked[i].device)
            let touch = tracked[i].touch
            if tracked[i].claimed {
                if case .forwarded(let slot) = tracked[i].state {
                    out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot, kind: .cancel))
                    out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot, kind: .up))
                    cloneSlots[tracked[i].device]?[slot] = nil
                }
                tracked[i].state = .dropped
                tracked[i].unsent = []
                continue
            }
            if case .held = tracked[i].state, !tracked[i].holders.contains(where: \.delaysBegan) {
                guard let slot = cloneSlots[tracked[i].device]?.firstIndex(where: { $0 == nil }) else {
                    tracked[i].state = .dropped; continue
                }
                cloneSlots[tracked[i].device]?[slot] = touch
                let id = nextTrackingID[tracked[i].device]
                nextTrackingID[tracked[i].device] = (id + 1) & 0xFFFF
                for (n, position) in tracked[i].unsent.enumerated() {
                    out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot,
                                              kind: n == 0 ? .down(trackingID: id, position: position) : .move(position)))
                }
                tracked[i].unsent.removeAll(keepingCapacity: true)   // the touch's later moves reuse it
                tracked[i].state = .forwarded(slot: slot)
            }
            if tracked[i].lifted, case .forwarded(let slot) = tracked[i].state, !tracked[i].holders.contains(where: \.delaysEnded) {
                out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot, kind: .up))
                cloneSlots[tracked[i].device]?[slot] = nil
                tracked[i].state = .dropped
            }
        }
        tracked.removeAll { t in
            if case .dropped = t.state { t.lifted } else { false }
        }
    }
}
