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
/// `delaysTouchesEnded` and the views' `forwardsTouches` (docs/KIOSK.md).
///
/// Each touch keeps the recognizers of its route that were undecided when it began
/// (`pending`). A pending recognizer that recognizes or begins and cancels touches claims the
/// touch: sent parts are cancelled in the application, held ones are never sent. One that fails
/// leaves `pending`. Then, per touch:
/// - held (not sent yet) while a pending recognizer has `delaysTouchesBegan`; else sent, the
///   held down and moves flushed in their order;
/// - its lift is held while a pending recognizer has `delaysTouchesEnded`;
/// - a touch in a view that does not forward touches, or claimed before it was sent, is never
///   sent; a touch that cannot get a free clone slot is not sent either.
///
/// Invariants: every `down` is followed by exactly one `up` for its slot (after a `cancel` or
/// not); a slot is reused only after its `up`.
struct TouchForwarder: Sendable {
    enum State: Sendable {
        /// Not sent yet: its positions so far, the down's first.
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
        /// Recognizers of its route still undecided about it (engine slot indices).
        var pending: [Int]
        var claimed = false
        var lifted = false
        var held: [DevicePosition]
    }

    /// Live (or held) touches of pass-through devices, in the order they began.
    private(set) var tracked: [Tracked] = []
    /// Per device (`DeviceID.value`): which real touch holds each clone slot; nil when the
    /// device does not pass through.
    private var cloneSlots: [[TouchID?]?] = []
    private var nextTrackingID: [Int32] = []

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

    /// A touch began (after the engine hit-tested and routed it). Its pending list is an array
    /// of its own, built here: taking the engine's route array would share its buffer, and the
    /// engine's next change to that route (on a steady frame) would then copy it, an allocation.
    mutating func began(_ touch: TouchID, device: Int, screen: Int, at position: DevicePosition, engine: GestureEngine) {
        var pending: [Int] = []
        var claimed = false
        for slot in engine.route(of: touch) {
            switch engine.decision(ofSlot: slot) {
            case .undecided: pending.append(slot)
            case .succeeded: if engine.delivery(ofSlot: slot).cancelsTouchesInView { claimed = true }
            case .failed: break
            }
        }
        let forwards = engine.view(of: touch).map { engine.tree.nodes[$0].forwardsTouches } ?? true
        tracked.append(Tracked(touch: touch, device: device, screen: screen, state: forwards ? .held : .dropped,
                               pending: pending, claimed: claimed, held: [position]))
    }

    /// A touch moved, lifted or was cancelled by its device; a move of a touch already sent goes
    /// out at once.
    mutating func updated(_ touch: TouchID, phase: TouchPhase, at position: DevicePosition, now: Instant,
                          into out: inout [ForwardedTouch]) {
        guard let i = tracked.firstIndex(where: { $0.touch == touch }) else { return }
        switch phase {
        case .began: return
        case .moved: break
        case .ended: tracked[i].lifted = true
        case .cancelled: tracked[i].lifted = true; tracked[i].claimed = true   // a palm on the real device
        }
        switch tracked[i].state {
        case .held: if phase == .moved { tracked[i].held.append(position) }
        case .forwarded(let slot):
            if phase == .moved {
                out.append(ForwardedTouch(device: GesturePipeline.DeviceID(value: tracked[i].device), time: now,
                                          touch: touch, slot: slot, kind: .move(position)))
            }
        case .dropped: break
        }
    }

    /// Applies a screen's gesture events: a recognizer that recognizes or begins claims the
    /// touches it was pending for (when it cancels touches); one that fails or is cancelled
    /// lets go of them. The screen's engine is read in place in `screens`: an engine argument
    /// would be a copy of it (a retain and a release of each of its arrays) per call.
    mutating func observe(_ events: [GestureEvent], screen: Int, screens: [GesturePipeline.Screen]) {
        guard !tracked.isEmpty else { return }
        for event in events {
            guard let slot = event.label.slot else { continue }
            let claims: Bool
            switch event.state {
            case .changed: continue
            case .began, .ended: claims = screens[screen].engine.delivery(ofSlot: slot).cancelsTouchesInView
            case .failed, .cancelled: claims = false
            }
            for i in tracked.indices where tracked[i].screen == screen {
                guard let k = tracked[i].pending.firstIndex(of: slot) else { continue }
                tracked[i].pending.remove(at: k)
                if claims { tracked[i].claimed = true }
            }
        }
    }

    /// Carries the touches over a reload from `old` screens to `fresh` ones, by screen id and
    /// view id: the old recognizers are gone (cancelled, like a failure to the touch: they hold
    /// nothing back any more). A touch keeps going to the application only while its rules did
    /// not change: its screen is still there and the view it began in still exists and still
    /// forwards touches. Every other touch is claimed (cancelled in the application); a touch
    /// never sent stays unsent. Call `decide` after installing `fresh`.
    mutating func carry(from old: [GesturePipeline.Screen], to fresh: [GesturePipeline.Screen]) {
        for i in tracked.indices {
            let engine = old[tracked[i].screen].engine
            let oldScreenID = old[tracked[i].screen].id
            tracked[i].pending = []
            guard let screen = fresh.firstIndex(where: { $0.id == oldScreenID }) else { tracked[i].claimed = true; continue }
            tracked[i].screen = screen
            guard let view = engine.view(of: tracked[i].touch) else { continue }   // outside every view: no rule
            let node = engine.tree.nodes[view]
            guard let now = fresh[screen].engine.tree.index(of: node.id),
                  fresh[screen].engine.tree.nodes[now].forwardsTouches == node.forwardsTouches else {
                tracked[i].claimed = true; continue
            }
        }
    }

    /// Claims every tracked touch (of `device`, or all): SYN_DROPPED, reload, shutdown.
    mutating func claimAll(device: Int? = nil) {
        for i in tracked.indices where device.map({ tracked[i].device == $0 }) ?? true { tracked[i].claimed = true }
    }

    /// Sends, cancels and lifts what the touches' states now allow, at `now`.
    mutating func decide(now: Instant, screens: [GesturePipeline.Screen], into out: inout [ForwardedTouch]) {
        guard !tracked.isEmpty else { return }
        for i in tracked.indices {
            // The engine read in place: a `let` copy of it per touch per frame would copy
            // (retain and release) every one of its arrays and dictionaries.
            let screen = tracked[i].screen
            // A recognizer can go back to `possible` unseen (its touches lifted before it
            // decided, nothing left to watch): it no longer holds anything.
            var k = 0
            while k < tracked[i].pending.count {
                switch screens[screen].engine.decision(ofSlot: tracked[i].pending[k]) {
                case .undecided: k += 1
                case .succeeded:
                    if screens[screen].engine.delivery(ofSlot: tracked[i].pending[k]).cancelsTouchesInView { tracked[i].claimed = true }
                    tracked[i].pending.remove(at: k)
                case .failed: tracked[i].pending.remove(at: k)
                }
            }
            let device = GesturePipeline.DeviceID(value: tracked[i].device)
            let touch = tracked[i].touch
            if tracked[i].claimed {
                if case .forwarded(let slot) = tracked[i].state {
                    out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot, kind: .cancel))
                    out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot, kind: .up))
                    cloneSlots[tracked[i].device]?[slot] = nil
                }
                tracked[i].state = .dropped
                continue
            }
            if case .held = tracked[i].state,
               !tracked[i].pending.contains(where: { screens[screen].engine.delivery(ofSlot: $0).delaysTouchesBegan }) {
                guard let slot = cloneSlots[tracked[i].device]?.firstIndex(where: { $0 == nil }) else {
                    tracked[i].state = .dropped; continue
                }
                cloneSlots[tracked[i].device]![slot] = touch
                let id = nextTrackingID[tracked[i].device]
                nextTrackingID[tracked[i].device] = (id + 1) & 0xFFFF
                for (n, position) in tracked[i].held.enumerated() {
                    out.append(ForwardedTouch(device: device, time: now, touch: touch, slot: slot,
                                              kind: n == 0 ? .down(trackingID: id, position: position) : .move(position)))
                }
                tracked[i].held = []
                tracked[i].state = .forwarded(slot: slot)
            }
            if tracked[i].lifted, case .forwarded(let slot) = tracked[i].state,
               !tracked[i].pending.contains(where: { screens[screen].engine.delivery(ofSlot: $0).delaysTouchesEnded }) {
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
