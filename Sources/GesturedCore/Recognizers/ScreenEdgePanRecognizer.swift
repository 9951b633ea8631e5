/// UIKit's `UIScreenEdgePanGestureRecognizer`: one touch that starts at a configured screen edge
/// and moves away from it. Continuous; after `began` it behaves as a one-touch pan.
///
/// - The touch must go down within `edgeZoneWidth` of one of `edges`: its distance to the edge
///   (x for left, width − x for right, y for top, height − y for bottom, in screen points) must be
///   less than the zone width. Otherwise it fails at once.
/// - It begins when the touch has moved more than `slop` along the edge's inward normal, and at
///   least as much along the normal as along the edge (within 45° of the normal). Once the touch
///   is more than `slop` from where it went down outside every candidate edge's 45° cone (along
///   the edge, or back towards it), it fails.
/// - A second touch before `began` fails it; after, extra touches are ignored. It ends when its
///   touch lifts, with the release velocity, and is cancelled when it is cancelled.
/// In a corner within the zone of two edges, the edge it moves most directly away from wins.
/// Its lifecycle is the one of every continuous recognizer (`ContinuousGesture`); running, it
/// carries the edge it moves away from.
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct ScreenEdgePanRecognizer: Sendable, ContinuousGesture {
    public let parameters: ScreenEdgePanParameters
    /// The screen's size in points: where the right and bottom edges are.
    public let screen: Size

    /// Tracking: one touch down in the zone of at least one configured edge, not yet past the
    /// slop. Running: moving away from its edge.
    var phase = ContinuousPhase<ScreenEdge>.idle
    private var touches = TouchGroup()
    private var velocity = VelocityTracker()

    init(_ parameters: ScreenEdgePanParameters, screen: Size) {
        self.parameters = parameters
        self.screen = screen
    }

    var deadline: Instant? { nil }

    mutating func reset() {
        phase = .idle
        touches.removeAll()
        velocity.removeAll()
    }

    mutating func fire(now: Instant) -> Proposal { .none }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        var moved = false
        if let proposal = handleInOrder(updates, now: now, moved: &moved) { return proposal }
        switch phase {
        case .idle, .finished:
            return .none
        case .tracking:
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            return judge()
        case .running(let edge):
            guard moved else { return .none }
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            return .change(sample(edge))
        }
    }

    func follows(_ id: TouchID) -> Bool { touches.contains(id) }

    mutating func start(_ update: TouchUpdate) -> Proposal {
        guard ScreenEdge.allCases.contains(where: { isNear($0, update.location) }) else {
            return .fail(.notAtEdge(zone: parameters.edgeZoneWidth))
        }
        touches.add(update.id, at: update.location)
        return .none
    }

    mutating func track(_ update: TouchUpdate) -> Proposal {
        switch update.phase {
        case .began:
            return .fail(.secondTouch)
        case .moved:
            touches.move(update.id, to: update.location)
        case .ended:
            if touches.contains(update.id) { return .fail(.liftedBeforeMovement(slop: parameters.slop)) }
        case .cancelled:
            break   // the lifecycle's
        }
        return .none
    }

    mutating func run(_ update: TouchUpdate, _ edge: ScreenEdge, now: Instant, moved: inout Bool) -> Proposal {
        switch update.phase {
        case .began:
            // One touch only: others are ignored.
            return .none
        case .moved:
            if touches.move(update.id, to: update.location) != nil { moved = true }
        case .ended:
            guard touches.move(update.id, to: update.location) != nil else { return .none }
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            return .end(sample(edge))
        case .cancelled:
            break   // the lifecycle's
        }
        return .none
    }

    /// Whether `point` is within the zone of `edge`, and `edge` is configured.
    private func isNear(_ edge: ScreenEdge, _ point: Point) -> Bool {
        guard parameters.edges.contains(edge) else { return false }
        let distance = switch edge {
        case .left: Distance(points: point.x)
        case .right: Distance(points: screen.width - point.x)
        case .top: Distance(points: point.y)
        case .bottom: Distance(points: screen.height - point.y)
        }
        return distance < parameters.edgeZoneWidth
    }

    /// The unit vector pointing from `edge` into the screen.
    private static func inwardNormal(_ edge: ScreenEdge) -> Vector {
        switch edge {
        case .left: Vector(dx: 1, dy: 0)
        case .right: Vector(dx: -1, dy: 0)
        case .top: Vector(dx: 0, dy: 1)
        case .bottom: Vector(dx: 0, dy: -1)
        }
    }

    /// Begin, fail, or wait, from the movement so far.
    private mutating func judge() -> Proposal {
        guard let start = touches.members.first?.down else { return .none }
        let d = touches.translation
        var best: (edge: ScreenEdge, inward: Distance)?
        var inCone = false
        for edge in ScreenEdge.allCases where isNear(edge, start) {
            let n = Self.inwardNormal(edge)
            let inward = Distance(points: d.dx * n.dx + d.dy * n.dy)
            let along = Distance(points: (d.dx * n.dy - d.dy * n.dx).magnitude)
            guard inward >= along else { continue }
            inCone = true
            if inward > parameters.slop, best.map({ inward > $0.inward }) ?? true { best = (edge, inward) }
        }
        if let best { return begin(best.edge, sample(best.edge)) }
        return d.distance > parameters.slop && !inCone ? finish(.fail(.notAwayFromEdge(slop: parameters.slop))) : .none
    }

    /// `mutating`: `VelocityTracker.velocity` reads its ring in place.
    private mutating func sample(_ edge: ScreenEdge) -> GestureSample {
        let v = velocity.velocity
        return GestureSample(touches: touches.count, location: touches.centroid,
                             values: .screenEdgePan(translation: touches.translation,
                                                    velocity: Vector(dx: v.x, dy: v.y), edge: edge))
    }
}
