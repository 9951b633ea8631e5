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
    /// Never sent: its view or an ancestor has `forwardsTouches: false`.
    case never

    /// `forwarded`, `held swipe,edge`, `never`: the words after `application: `.
    public var description: String {
        switch self {
        case .forwarded: "forwarded"
        case .held(let ids): "held " + ids.joined(separator: ",")
        case .never: "never"
        }
    }
}

extension GestureEngine {
    /// What the application gets of a touch that begins at `point` (screen coordinates) on a
    /// pass-through device, decided as the daemon decides at the down.
    public func applicationDelivery(at point: Point) -> ApplicationDelivery {
        var engine = self
        let touch = TouchID(0)
        var events: [GestureEvent] = []
        engine.handle([TouchUpdate(id: touch, phase: .began, location: point, device: "explain", slot: 0)],
                      now: .zero, into: &events)
        guard let view = engine.view(of: touch) else { return .forwarded }   // outside every view: no rule
        if !engine.tree.nodes[view].forwardsTouches { return .never }
        var holding: [String] = []
        // The touch's route, slot by slot, beside the same route's entries (for the names).
        for (slot, entry) in zip(engine.route(of: touch), engine.route(of: view)) {
            switch engine.decision(ofSlot: slot) {
            case .undecided:
                if engine.delivery(ofSlot: slot).delaysTouchesBegan { holding.append(entry.name) }
            case .succeeded, .failed:
                break
            }
        }
        return holding.isEmpty ? .forwarded : .held(holding)
    }
}
