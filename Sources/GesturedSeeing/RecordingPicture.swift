import GesturedCore

/// What a recording did, for `gestured draw`: each touch's path and every gesture line, with
/// their times in seconds from the recording's first output.
public struct RecordingPicture: Hashable, Sendable {
    public struct Sample: Hashable, Sendable {
        /// Seconds since `start`.
        public var t: Double
        public var location: Point
    }

    public struct Touch: Hashable, Sendable {
        public var id: UInt64
        public var samples: [Sample]
        /// Whether the recording shows it lifting (or cancelled), rather than still down at the end.
        public var lifted: Bool
    }

    public struct Gesture: Hashable, Sendable {
        public var t: Double
        public var type: String
        public var name: String
        public var state: String
        public var location: Point
    }

    public var start: Instant
    public var touches: [Touch] = []
    public var gestures: [Gesture] = []
    /// Seconds from the first output to the last.
    public var duration: Double = 0

    /// From a replay's outputs (`Replay.outputs`), in order. Failed states are left out: they are
    /// what did not happen (`--trace` says why).
    public init(_ outputs: [GesturePipeline.Output]) {
        let times = outputs.map { switch $0 { case .touch(let t): t.time; case .gesture(let g): g.time; case .kiosk(let k): k.time } }
        start = times.min() ?? .zero
        var index: [TouchID: Int] = [:]
        for output in outputs {
            switch output {
            case .touch(let event):
                let sample = Sample(t: (event.time - start).seconds, location: event.update.location)
                let i: Int
                if let known = index[event.update.id] {
                    i = known
                    touches[i].samples.append(sample)
                } else {
                    i = touches.count
                    index[event.update.id] = i
                    touches.append(Touch(id: UInt64(i + 1), samples: [sample], lifted: false))
                }
                if event.update.phase == .ended || event.update.phase == .cancelled { touches[i].lifted = true }
            case .gesture(let g) where g.state != .failed:
                gestures.append(Gesture(t: (g.time - start).seconds, type: g.type, name: g.name, state: g.state.rawValue,
                                        location: g.sample.location))
            case .gesture, .kiosk:
                break
            }
        }
        duration = ((times.max() ?? start) - start).seconds
    }
}

extension Configuration {
    /// The configuration as it stands once `layout` has been applied (`explain --layout`,
    /// `draw --layout`): its views' flags and frames changed as the `layout` request would.
    /// Nil when there is no such layout.
    public func applying(layout name: String) -> Configuration? {
        guard let layout = layouts[name] else { return nil }
        var result = self
        let changes = Dictionary(layout.entries.map { ($0.view, $0.changes) }, uniquingKeysWith: +)
        func apply(_ views: inout [ViewSpec]) {
            for i in views.indices {
                for change in changes[views[i].id] ?? [] {
                    switch change {
                    case .hidden(let hidden): views[i].isHidden = hidden
                    case .userInteractionEnabled(let enabled): views[i].isUserInteractionEnabled = enabled
                    case .frame(let frame): views[i].frame = frame
                    }
                }
                apply(&views[i].subviews)
            }
        }
        apply(&result.views)
        return result
    }
}
