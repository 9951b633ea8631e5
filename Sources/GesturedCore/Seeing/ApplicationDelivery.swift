/// What the application behind a pass-through device gets of a touch that begins at a point:
/// `gestured explain`'s `application:` line (CONTRACT.md §5, docs/KIOSK.md).
///
/// It is the daemon's own decision at the down of a touch alone on the panel (`TouchForwarder.began`
/// and the first `decide`), taken on a copy of the engine: the touch's view, and the recognizers
/// of its route still undecided once the down is handled. So a screen-edge pan whose edge zone
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
    /// pass-through device, decided as the daemon decides at the down: from the engine's own
    /// ownership fact for that touch (`TouchOwnership.routed`), as `TouchForwarder` reads it.
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
        var events: [GestureEvent] = []
        var facts: [TouchOwnership] = []
        engine.handle([TouchUpdate(id: touch, phase: .began, location: point, device: "explain", slot: 0)],
                      now: .zero, into: &events, ownership: &facts)
        // The touch's fact, then the decisions the down itself brought (an edge pan whose edge
        // zone does not hold the point fails at once), as `TouchForwarder.apply` takes them.
        guard let routed = facts.firstIndex(where: { if case .routed(touch, _, _, _) = $0 { true } else { false } }),
              case .routed(_, var holders, var claimed, let forwards) = facts[routed] else {
            return .forwarded   // not routed (outside every view): no rule applies
        }
        for case .decided(let recognizer, let claims) in facts[(routed + 1)...] where holders.contains(where: { $0.recognizer == recognizer }) {
            holders.removeAll { $0.recognizer == recognizer }
            claimed = claimed || claims
        }
        if !forwards || claimed { return .never }
        let holding = holders.filter(\.delaysBegan).map { engine.slots[$0.recognizer].name }
        return holding.isEmpty ? .forwarded : .held(holding)
    }
}
