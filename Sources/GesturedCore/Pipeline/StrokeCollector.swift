/// The strokes of a touch stream: from a first touch-down to the last lift, the path of the
/// touches' centroid as the stroke recognizer keeps it (`StrokePath`, the translation that does
/// not jump when a finger lands or lifts). For `gestured record-stroke` and `replay --strokes`.
public struct StrokeCollector: Sendable {
    public struct Stroke: Hashable, Sendable {
        /// When the first touch went down and the last lifted.
        public var start: Instant
        public var end: Instant
        /// The most touches down together.
        public var touches: Int
        /// The kept path, relative to where it began.
        public var points: [Point]
    }

    /// The strokes completed so far, in order.
    public private(set) var strokes: [Stroke] = []
    private var group = TouchGroup()
    private var path = StrokePath()
    private var start = Instant(microseconds: 0)
    private var most = 0

    public init() {}

    /// Takes one touch event (in the order the pipeline emits them).
    public mutating func add(_ event: TouchEvent) {
        let update = event.update
        switch update.phase {
        case .began:
            if group.isEmpty { start = event.time; most = 0; path.removeAll() }
            group.add(update.id, at: update.location)
            most = max(most, group.count)
        case .moved:
            group.move(update.id, to: update.location)
        case .ended, .cancelled:
            guard group.contains(update.id) else { return }
            group.move(update.id, to: update.location)
            let t = group.translation
            path.finish(at: Point(x: t.dx, y: t.dy))
            group.remove(update.id)
            if group.isEmpty {
                strokes.append(Stroke(start: start, end: event.time, touches: most, points: path.points))
            }
            return
        }
        let t = group.translation
        path.add(Point(x: t.dx, y: t.dy))
    }
}

extension Replay {
    /// The strokes a recording holds (see `StrokeCollector`), through the same pipeline as
    /// `run`: the same device geometry and screen.
    public static func strokes(device: DeviceDescription, events: [RawEvent],
                               configuration: Configuration) throws(ReplayError) -> [StrokeCollector.Stroke] {
        var collector = StrokeCollector()
        for output in try outputs(device: device, events: events, configuration: configuration) {
            if case .touch(let touch) = output { collector.add(touch) }
        }
        return collector.strokes
    }
}
