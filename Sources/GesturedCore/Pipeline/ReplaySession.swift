extension Replay {
    /// The pipeline of a replay, fed one event at a time: what it holds is the pipeline and one
    /// step's outputs, whatever the recordings' length, so recordings can be streamed from their
    /// files (`play`) or fed as a live device reads them (`gestured record-stroke`).
    ///
    /// After each step (`handle`, `end`, `fireNextDeadline`) the step's outputs are in `output`
    /// and `forwarded`, and its trace lines in `drainTrace()`, until `clear()`.
    public struct Session {
        /// The outputs of the steps since the last `clear()`, in order.
        public private(set) var output: [GesturePipeline.Output] = []
        private var pipeline: GesturePipeline
        private let ids: [GesturePipeline.DeviceID]
        private let traces: Bool

        /// A pipeline built from `configuration` with one device per recording: recording `k`'s
        /// device is `devices[k]`, on the screen the configuration assigns it; a screen without
        /// a size takes its first device's, as in the daemon. `touches` makes touch outputs,
        /// `trace` every arbiter transition's trace line.
        public init(devices: [DeviceDescription], configuration: Configuration, touches: Bool,
                    trace: Bool = false) throws(ReplayError) {
            var placed: [(rule: DeviceRule?, screen: Int)] = []
            var refusals: [String?] = []
            for device in devices {
                var rule = configuration.devices.first { $0.matches(device, properties: Replay.properties(device)) }
                // As the daemon: a device that cannot be cloned is read without passing through.
                if rule?.passThrough == true, let reason = device.cloneRefusal {
                    rule?.passThrough = false
                    refusals.append("it cannot pass through: \(reason)")
                } else {
                    refusals.append(rule?.passThrough == true ? nil : "no device rule with passThrough: true matches it")
                }
                guard let screen = configuration.screenIndex(of: device, properties: Replay.properties(device)) else {
                    throw .noScreen(device.sysname)
                }
                placed.append((rule, screen))
            }
            let sizes = configuration.screenSpecs.enumerated().map { index, spec in
                let first = placed.firstIndex { $0.screen == index }
                return GesturePipeline.size(configured: spec.size, firstDevice: first.map { devices[$0] },
                                            rotation: first.flatMap { placed[$0].rule?.rotation } ?? .none)
            }
            do { pipeline = try GesturePipeline(configuration: configuration, sizes: sizes) } catch {
                throw .configuration(error)
            }
            pipeline.reportsTouches = touches
            pipeline.tracesTransitions = trace
            var ids: [GesturePipeline.DeviceID] = []
            for (k, device) in devices.enumerated() {
                do { ids.append(try pipeline.addDevice(device, rule: placed[k].rule, screen: placed[k].screen)) } catch {
                    throw .device(error)
                }
            }
            self.ids = ids
            passThroughRefusals = refusals
            traces = trace
            output.reserveCapacity(64)
        }

        /// Per recording, why its device forwards nothing (`replay --forwarded` says it), or nil
        /// when it passes through.
        public let passThroughRefusals: [String?]

        /// What pass-through devices forwarded since the last `clear()`.
        public var forwarded: ArraySlice<ForwardedTouch> { pipeline.forwarded[...] }

        /// The trace lines since the last call (none unless the session traces).
        public mutating func drainTrace() -> [String] { traces ? pipeline.drainTrace() : [] }

        /// Empties `output` and `forwarded`, keeping their capacity.
        public mutating func clear() {
            if !output.isEmpty { output.removeAll(keepingCapacity: true) }
            if !pipeline.forwarded.isEmpty { pipeline.removeForwarded() }
        }

        /// Whether the last steps left anything for `each`: outputs, forwarded touches, or (when
        /// tracing) possibly trace lines.
        private var hasResults: Bool { traces || !output.isEmpty || !pipeline.forwarded.isEmpty }

        /// Hands the step's results to `each` and clears them; most events (all but a frame's
        /// `SYN_REPORT`) leave nothing, and `each` is not called for them.
        private mutating func deliver(_ each: (inout Session) -> Void) {
            guard hasResults else { return }
            each(&self)
            clear()
        }

        /// Feeds one event of recording `k`.
        public mutating func handle(_ event: RawEvent, of k: Int) {
            pipeline.handle(event, from: ids[k], into: &output)
        }

        /// The end of recording `k`: its device goes away at `time` (its last event's) as the
        /// daemon removes an unplugged one, so touches still down are cancelled and so are the
        /// gestures they drive.
        public mutating func end(_ k: Int, at time: Instant) {
            pipeline.removeDevice(ids[k], now: time, into: &output)
        }

        /// Fires the earliest pending deadline at its instant; false when none is pending.
        public mutating func fireNextDeadline() -> Bool {
            guard let deadline = pipeline.nextDeadline else { return false }
            pipeline.advance(to: deadline, into: &output)
            return true
        }

        /// Plays the recordings to their end, then the pending deadlines. `next(k)` gives
        /// recording `k`'s next piece of events (any number, frames cut anywhere), nil once it
        /// has no more; it is asked only when the piece before is nearly played, so what is held
        /// is about one piece per recording. The recordings are interleaved frame by frame (a
        /// frame is the events up to its `SYN_REPORT`): the frame whose last event is earliest
        /// first, ties to the lower `k`; a recording ends (`end`) at its last event's time right
        /// after its last frame. `each` is called after every step that left outputs, forwarded
        /// touches or trace lines, which are cleared after it. An error of `next` stops the
        /// replay where it is.
        public mutating func play<Failure: Error>(next: (_ recording: Int) throws(Failure) -> [RawEvent]?,
                                                  each: (inout Session) -> Void) throws(Failure) {
            var streams = [FrameStream](repeating: FrameStream(), count: ids.count)
            for k in streams.indices { try streams[k].fill { () throws(Failure) in try next(k) } }
            while let k = Self.earliestFrame(of: streams) {
                let end = streams[k].frameEnd!
                for i in streams[k].start..<end {
                    handle(streams[k].events[i], of: k)
                    deliver(each)
                }
                let last = streams[k].events[end - 1].time
                streams[k].start = end
                try streams[k].fill { () throws(Failure) in try next(k) }
                if streams[k].frameEnd == nil {
                    self.end(k, at: last)
                    deliver(each)
                }
            }
            while fireNextDeadline() { deliver(each) }
        }

        /// The stream whose next frame ends first, ties to the first; nil when all have ended.
        private static func earliestFrame(of streams: [FrameStream]) -> Int? {
            if streams.count == 1 { return streams[0].frameEnd == nil ? nil : 0 }
            var best: (k: Int, time: Instant)?
            for (k, stream) in streams.enumerated() {
                guard let end = stream.frameEnd else { continue }
                let time = stream.events[end - 1].time
                if best.map({ time < $0.time }) ?? true { best = (k, time) }
            }
            return best?.k
        }
    }

    /// One recording's events as `Session.play` pulls them: what is left of the pieces read so
    /// far, and where its next frame ends.
    private struct FrameStream {
        var events: [RawEvent] = []
        /// The next event to play.
        var start = 0
        /// Past the next frame: after its `SYN_REPORT`, or at the end of the recording's last
        /// events; nil once the recording has no event left.
        var frameEnd: Int?
        /// Events before this index hold no `SYN_REPORT` from `start` on.
        private var scanned = 0
        private var exhausted = false

        /// Finds the next frame from `start`, pulling pieces until one holds its end or the
        /// recording has no more.
        mutating func fill<Failure: Error>(_ next: () throws(Failure) -> [RawEvent]?) throws(Failure) {
            scanned = max(scanned, start)
            while true {
                while scanned < events.count {
                    if events[scanned].isFrameEnd { frameEnd = scanned + 1; scanned += 1; return }
                    scanned += 1
                }
                if exhausted {
                    frameEnd = start < events.count ? events.count : nil
                    return
                }
                guard let piece = try next() else { exhausted = true; continue }
                if start == events.count {
                    // Everything played: the piece replaces the buffer (no copy of a whole recording).
                    events = piece
                    start = 0; scanned = 0
                } else {
                    events.removeSubrange(0..<start)
                    scanned -= start; start = 0
                    events += piece
                }
            }
        }
    }
}
