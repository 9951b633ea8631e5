extension Replay {
    /// The pipeline of a replay, fed one event at a time: what it holds is the pipeline and one
    /// step's batch, whatever the recordings' length, so recordings can be streamed from their
    /// files (`play`) or fed as a live device reads them (`gestured record-stroke`).
    ///
    /// Each step (`handle`, `end`, `fireNextDeadline`) is one entry point of the pipeline, as a
    /// read, an unplug or the timer is in the daemon: its `batch` holds what it decided, the very
    /// value the daemon's shell carries out, until the next step.
    public struct Session {
        /// What the last step decided.
        public private(set) var batch = Batch()
        private var pipeline: GesturePipeline
        /// Recording `k`'s device, nil when the configuration ignores it.
        private let ids: [GesturePipeline.DeviceID?]
        /// The latest instant replayed: an event's, or a deadline's.
        private var lastTime = Instant.zero

        /// What the configuration does with the recordings' devices that a reader of the replay
        /// must be told (printed on stderr by `gestured replay`): a device its rules ignore (its
        /// recording is not replayed).
        public private(set) var notices: [String] = []
        /// Per recording, why its device forwards nothing to an application (no rule with
        /// `passThrough`, or a device that cannot be cloned: `replay --forwarded` says it), nil
        /// when it passes through or is not replayed at all.
        public private(set) var passThroughRefusals: [String?] = []

        /// A pipeline built from `configuration` with one device per recording: recording `k`'s
        /// device is `devices[k]`, admitted as the daemon admits devices (`DeviceAdmission`:
        /// its rule, its screen, `ignore`), except that its kind is never a reason to leave it
        /// out (a recording is a device its user chose); a screen without a size takes its first
        /// device's, as in the daemon. `touches` makes touch outputs, `trace` every arbiter
        /// transition's trace line. `reader`, when given, is the replay's reader as one client of
        /// the pipeline's `Subscribers`: each step's lines for it are then numbered and encoded
        /// in `batch.delivery` as the daemon's are for a client (`Lines` prints them).
        public init(devices: [DeviceDescription], configuration: Configuration, touches: Bool,
                    trace: Bool = false, reader: ClientSubscription? = nil) throws(ReplayError) {
            var admitted: [DeviceAdmission.Admitted?] = []
            var notices: [String] = [], refusals: [String?] = []
            for device in devices {
                let label = "\(device.sysname) (\(device.name))"
                switch DeviceAdmission.admit(device, properties: Replay.properties(device), configuration: configuration,
                                             selecting: false) {
                case .failure(.noScreen): throw .noScreen(device.sysname)
                case .failure(let refusal):
                    notices.append("\(label): \(refusal); its recording is not replayed")
                    admitted.append(nil)
                    refusals.append(nil)
                case .success(let a):
                    // As the daemon: a device that cannot be cloned is read without passing through.
                    refusals.append(a.passThroughRefused.map { "it cannot pass through: \($0)" }
                                    ?? (a.rule?.passThrough == true ? nil : "no device rule with passThrough: true matches it"))
                    admitted.append(a)
                }
            }
            let used = zip(devices, admitted).compactMap { d, a in a.map { (description: d, admitted: $0) } }
            let sizes = GesturePipeline.sizes(for: configuration, devices: used)
            do { pipeline = try GesturePipeline(configuration: configuration, sizes: sizes) } catch {
                throw .configuration(error)
            }
            pipeline.reportsTouches = touches
            pipeline.tracesTransitions = trace
            if let reader { pipeline.subscribers.set(reader, of: Self.reader) }
            var ids: [GesturePipeline.DeviceID?] = []
            // A device added before any event decides nothing (no line: a recording's devices are
            // there from its start, and nothing is locked or off yet).
            var added = Batch()
            for (device, a) in zip(devices, admitted) {
                guard let a else { ids.append(nil); continue }
                do { ids.append(try pipeline.addDevice(device, rule: a.rule, screen: a.screen, into: &added)) } catch {
                    throw .device(error)
                }
            }
            self.ids = ids
            self.notices = notices
            passThroughRefusals = refusals
            batch = Batch(for: pipeline)
        }

        /// The reader's key among the pipeline's subscribers.
        static let reader = ClientKey(0)

        /// Whether the session has a reader (`init(reader:)`), whose lines `readerLines` are.
        public var hasReader: Bool { pipeline.subscribers.count > 0 }

        /// The reader's lines of the last step, numbered and encoded; nil when it has none.
        public var readerLines: (bytes: [UInt8], lines: ArraySlice<Delivery.Line>)? {
            guard let part = batch.delivery.parts.first(where: { $0.members.contains(Self.reader) }) else { return nil }
            return (part.bytes, part.published)
        }

        /// Numbers one line printed among the reader's that is no client's (`forward` lines).
        public mutating func numberExtraLine() -> UInt64 { pipeline.subscribers.numberExtraLine() }

        /// Feeds one event of recording `k`.
        public mutating func handle(_ event: RawEvent, of k: Int) {
            if event.time > lastTime { lastTime = event.time }
            guard let id = ids[k] else { batch.removeAll(); return }
            pipeline.handle(event, from: id, into: &batch)
        }

        /// Feeds events of recording `k` (a frame, as `play` does) as one step, as a read of
        /// them is in the daemon.
        public mutating func handle(_ events: ArraySlice<RawEvent>, of k: Int) {
            for event in events where event.time > lastTime { lastTime = event.time }
            guard let id = ids[k] else { batch.removeAll(); return }
            pipeline.handle(events, from: id, into: &batch)
        }

        /// The end of recording `k`: at `time` (its last event's) the touches still down are
        /// cancelled, and so are the gestures they drive, as when a device goes; the device
        /// itself stays until the pending deadlines have fired (`finish`), as in the daemon,
        /// where nothing more happening is not an unplug.
        public mutating func end(_ k: Int, at time: Instant) {
            guard let id = ids[k] else { batch.removeAll(); return }
            pipeline.cancelTouches(of: id, now: time, into: &batch)
        }

        /// After the last deadline: recording `k`'s device goes (what it still held ends).
        public mutating func finish(_ k: Int) {
            guard let id = ids[k] else { batch.removeAll(); return }
            pipeline.removeDevice(id, now: lastTime, into: &batch)
        }

        /// The earliest pending deadline, as the daemon's timer would be armed.
        public var nextDeadline: Instant? { pipeline.nextDeadline }

        /// Fires the earliest pending deadline at its instant, as the daemon's timer would; false
        /// when none is pending.
        public mutating func fireNextDeadline() -> Bool {
            guard let deadline = pipeline.nextDeadline else { return false }
            if deadline > lastTime { lastTime = deadline }
            pipeline.advance(to: deadline, into: &batch)
            return true
        }

        /// Fires, each as a step, the deadlines due at or before `time`.
        private mutating func fireDeadlines(through time: Instant, _ each: (inout Session) -> Void) {
            while let deadline = pipeline.nextDeadline, deadline <= time, fireNextDeadline() { deliver(each) }
        }

        /// Hands the step's batch to `each` unless it is empty (most events, all but a frame's
        /// `SYN_REPORT`, decide nothing).
        private mutating func deliver(_ each: (inout Session) -> Void) {
            guard !batch.isEmpty else { return }
            each(&self)
        }

        /// Plays the recordings to their end, then the pending deadlines. `next(k)` gives
        /// recording `k`'s next piece of events (any number, frames cut anywhere), nil once it
        /// has no more; it is asked only when the piece before is nearly played, so what is held
        /// is about one piece per recording. The recordings are interleaved frame by frame (a
        /// frame is the events up to its `SYN_REPORT`): the frame whose last event is earliest
        /// first, ties to the lower `k`; a recording ends (`end`) at its last event's time right
        /// after its last frame, and its device goes (`finish`) after the pending deadlines.
        ///
        /// Deadlines fire as the daemon's timer fires them: each as a step of its own, before the
        /// frame at or after its instant (not inside that frame's step), so a replay's batches
        /// are the daemon's. `each` is called after every step whose batch is not empty. An
        /// error of `next` stops the replay where it is.
        public mutating func play<Failure: Error>(next: (_ recording: Int) throws(Failure) -> [RawEvent]?,
                                                  each: (inout Session) -> Void) throws(Failure) {
            var streams = [FrameStream](repeating: FrameStream(), count: ids.count)
            for k in streams.indices { try streams[k].fill { () throws(Failure) in try next(k) } }
            while let k = Self.earliestFrame(of: streams) {
                guard let end = streams[k].frameEnd else { break }   // earliestFrame has one
                let frame = streams[k].events[streams[k].start..<end]
                // A frame is one step, as one read of it is in the daemon (and a step has a fixed
                // cost that is paid once per frame, not per event); the deadlines due by its end
                // fire before it.
                if let last = frame.last, last.isFrameEnd { fireDeadlines(through: last.time, each) }
                handle(frame, of: k)
                deliver(each)
                let last = streams[k].events[end - 1].time
                streams[k].start = end
                try streams[k].fill { () throws(Failure) in try next(k) }
                if streams[k].frameEnd == nil {
                    self.end(k, at: last)
                    deliver(each)
                }
            }
            while fireNextDeadline() { deliver(each) }
            for k in ids.indices {
                finish(k)
                deliver(each)
            }
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
        /// While `events` holds a frame joined across two pieces: the later piece, and where its
        /// events after that frame start.
        private var held: (events: [RawEvent], start: Int)?

        /// Finds the next frame from `start`, pulling pieces until one holds its end or the
        /// recording has no more.
        mutating func fill<Failure: Error>(_ next: () throws(Failure) -> [RawEvent]?) throws(Failure) {
            scanned = max(scanned, start)
            while true {
                // Through a pointer, with a local index: this scan runs for every event, and
                // indexing the array and writing `scanned` at each would check bounds and
                // uniqueness every time (docs/PERFORMANCE.md, "Why the hot paths look as they do").
                let end = events.withUnsafeBufferPointer { [scanned] events -> Int? in
                    var i = scanned
                    while i < events.count {
                        if events[i].isFrameEnd { return i + 1 }
                        i += 1
                    }
                    return nil
                }
                if let end { frameEnd = end; scanned = end; return }
                scanned = events.count
                if start == events.count, let rest = held {
                    // The joined frame is played: the rest of its piece follows where it is.
                    events = rest.events
                    start = rest.start; scanned = rest.start
                    held = nil
                    continue
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
                } else if held == nil, let end = piece.firstIndex(where: \.isFrameEnd) {
                    // A frame cut between two pieces: only it is joined, and the piece is held as
                    // it is, so a piece's events are never copied to join one frame.
                    events = Array(events[start...]) + piece[...end]
                    held = (piece, end + 1)
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
