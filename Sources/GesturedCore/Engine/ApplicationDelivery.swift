/// What the application behind a pass-through device gets of a touch that begins at a point:
/// `gestured explain`'s `application:` line (CONTRACT.md §5, docs/KIOSK.md).
///
/// It is the daemon's own decision at the down of a touch alone on the panel, taken by the same
/// two parts on copies: the engine's ownership facts for the down (the arbiter), read by a
/// `TouchForwarder` (`began`, `apply`, the first `decide`), whose rule alone says what is held,
/// claimed or sent. So a screen-edge pan whose edge zone
/// does not hold the point, which fails at the down, holds nothing here either. (A touch that
/// joins a gesture already running on its route is claimed at once; a lone touch never is.)
public enum ApplicationDelivery: Hashable, Sendable, CustomStringConvertible {
    /// Sent at once (its lift may still wait for `delaysTouchesEnded`).
    case forwarded
    /// Held back while these gestures (with `delaysTouchesBegan`, in winning order) are
    /// undecided: sent once they fail, never if one claims it.
    case held([String])
    /// Never sent: its view or an ancestor has `forwardsTouches: false` (or a gesture claims it
    /// at its down, which a lone touch never meets).
    case never
    /// No device rule forwards or grabs: the application reads the panel itself and gets every
    /// touch, the gestures' too.
    case direct
    /// A device rule grabs the panel without `passThrough`: the application gets no touch at all.
    case grabbedNotForwarded

    /// `forwarded`, `held swipe,edge`, `never`, `direct`, `never (grabbed, not forwarded)`: the
    /// words after `application: `.
    public var description: String {
        switch self {
        case .forwarded: "forwarded"
        case .held(let ids): "held " + ids.joined(separator: ",")
        case .never: "never"
        case .direct: "direct"
        case .grabbedNotForwarded: "never (grabbed, not forwarded)"
        }
    }
}

/// How the configuration's device rules let the application behind the daemon have touches.
public enum ApplicationPath: Hashable, Sendable {
    /// A rule passes its devices through: touch by touch, as `applicationDelivery(at:)` says.
    case passThrough
    /// A rule grabs without passing through: nothing reaches the application.
    case grabbed
    /// No rule grabs: the application reads the panel itself.
    case direct
}

extension Configuration {
    /// The configuration's `ApplicationPath`, from its rules that are not `ignore`: a
    /// `passThrough` rule makes it `passThrough` even beside a rule that only grabs (that
    /// rule's devices are a `check-config` warning of their own).
    public var applicationPath: ApplicationPath {
        let rules = devices.filter { !$0.ignore }
        if rules.contains(where: \.passThrough) { return .passThrough }
        return rules.contains(where: \.grab) ? .grabbed : .direct
    }
}

extension GestureEngine {
    /// What the application gets of a touch that begins at `point` (screen coordinates) on a
    /// pass-through device, decided as the daemon decides at the down: the engine's ownership
    /// facts for that touch, taken in and decided on by a `TouchForwarder` of one clone slot.
    public func applicationDelivery(at point: Point, path: ApplicationPath) -> ApplicationDelivery {
        switch path {
        case .passThrough: applicationDelivery(at: point)
        case .grabbed: .grabbedNotForwarded
        case .direct: .direct
        }
    }

    /// `applicationDelivery(at:path:)` on a pass-through device.
    public func applicationDelivery(at point: Point) -> ApplicationDelivery {
        var engine = self
        engine.trackOwnership()
        let touch = TouchID(0)
        var forwarder = TouchForwarder()
        forwarder.addDevice(0, slotCount: 1)
        forwarder.began(touch, device: 0, screen: 0, at: DevicePosition(x: 0, y: 0))
        var events: [GestureEvent] = []
        var facts: [TouchOwnership] = []
        engine.handle([TouchUpdate(id: touch, phase: .began, location: point, device: "explain", slot: 0)],
                      now: .zero, into: &events, ownership: &facts)
        forwarder.apply(facts, screen: 0)
        var written: [ForwardedTouch] = []
        forwarder.decide(now: .zero, into: &written)
        switch forwarder.standing(of: touch) {
        case .sent, nil: return .forwarded   // nil: sent and lifted, which a lone down never is
        case .held(let holders): return .held(holders.map { engine.slots[$0].name })
        case .never: return .never
        }
    }
}
