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
/// See docs/RECOGNIZERS.md for the diagram; a change to one is a change to both.
public struct ScreenEdgePanRecognizer: Sendable {
    public let parameters: ScreenEdgePanParameters
    /// The screen's size in points: where the right and bottom edges are.
    public let screen: Size

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// One touch down in the zone of at least one configured edge, not yet past the slop.
        case tracking
        /// Began, moving away from `edge`.
        case running(edge: ScreenEdge)
        /// Ended, cancelled or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    private var touches = TouchGroup()
    private var velocity = VelocityTracker()

    init(_ parameters: ScreenEdgePanParameters, screen: Size) {
        self.parameters = parameters
        self.screen = screen
    }

    var deadline: Instant? { nil }

    mutating func reset() {
        state = .idle
        touches.removeAll()
        velocity.removeAll()
    }

    mutating func fire(now: Instant) -> Proposal { .none }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        var moved = false
        for update in updates {
            let proposal = handle(update, now: now, moved: &moved)
            if case .none = proposal { continue }
            state = .finished
            return proposal
        }
        switch state {
        case .idle, .finished:
            return .none
        case .tracking:
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            let proposal = judge()
            if case .fail = proposal { state = .finished }
            return proposal
        case .running(let edge):
            guard moved else { return .none }
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            return .change(sample(edge))
        }
    }

    private mutating func handle(_ update: TouchUpdate, now: Instant, moved: inout Bool) -> Proposal {
        switch (state, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            guard ScreenEdge.allCases.contains(where: { isNear($0, update.location) }) else {
                return .fail(.notAtEdge(zone: parameters.edgeZoneWidth.points))
            }
            touches.add(update.id, at: update.location)
            state = .tracking
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled):
            // A touch that went down before this recognizer was listening.
            return .none
        case (.tracking, .began):
            return .fail(.secondTouch)
        case (.tracking, .moved):
            touches.move(update.id, to: update.location)
        case (.tracking, .ended), (.tracking, .cancelled):
            if touches.contains(update.id) {
                return .fail(update.phase == .cancelled ? .touchCancelled : .liftedBeforeMovement(slop: parameters.slop.points))
            }
        case (.running, .began):
            // One touch only: others are ignored.
            return .none
        case (.running, .moved):
            if touches.move(update.id, to: update.location) != nil { moved = true }
        case (.running(let edge), .ended):
            guard touches.move(update.id, to: update.location) != nil else { return .none }
            velocity.add(now, x: touches.translation.dx, y: touches.translation.dy)
            return .end(sample(edge))
        case (.running, .cancelled):
            if touches.contains(update.id) { return .cancel }
        }
        return .none
    }

    /// Whether `point` is within the zone of `edge`, and `edge` is configured.
    private func isNear(_ edge: ScreenEdge, _ point: Point) -> Bool {
        guard parameters.edges.contains(edge) else { return false }
        let distance = switch edge {
        case .left: point.x
        case .right: screen.width - point.x
        case .top: point.y
        case .bottom: screen.height - point.y
        }
        return distance < parameters.edgeZoneWidth.points
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
        var best: (edge: ScreenEdge, inward: Double)?
        var inCone = false
        for edge in ScreenEdge.allCases where isNear(edge, start) {
            let n = Self.inwardNormal(edge)
            let inward = d.dx * n.dx + d.dy * n.dy
            let along = (d.dx * n.dy - d.dy * n.dx).magnitude
            guard inward >= along else { continue }
            inCone = true
            if inward > parameters.slop.points, best.map({ inward > $0.inward }) ?? true { best = (edge, inward) }
        }
        if let best {
            state = .running(edge: best.edge)
            return .begin(sample(best.edge))
        }
        return d.length > parameters.slop.points && !inCone ? .fail(.notAwayFromEdge(slop: parameters.slop.points)) : .none
    }

    /// `mutating`: `VelocityTracker.velocity` reads its ring in place.
    private mutating func sample(_ edge: ScreenEdge) -> GestureSample {
        let v = velocity.velocity
        return GestureSample(touches: touches.count, location: touches.centroid,
                             values: .screenEdgePan(translation: touches.translation,
                                                    velocity: Vector(dx: v.x, dy: v.y), edge: edge))
    }
}
