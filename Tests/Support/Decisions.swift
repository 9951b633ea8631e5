import GesturedCore

/// What a test's pipeline calls decided, batch after batch, concatenated: tests compare whole
/// transcripts, while the pipeline hands out one `Batch` per call.
public struct Decisions {
    public var outputs: [GesturePipeline.Output] = []
    public var forwarded: [ForwardedTouch] = []
    public var actions: [(event: GestureEvent, action: GestureAction)] = []
    public var faults: [DeviceFault] = []
    public var trace: [String] = []
    public var replies: [String] = []
    /// The batches taken, one per call (empty ones included).
    public var batches = 0

    public init() {}

    public mutating func take(_ batch: Batch) {
        batches += 1
        if let reply = batch.reply { replies.append(reply) }
        outputs += batch.outputs
        forwarded += batch.forwarded
        actions += batch.actions.compactMap { request in request.event(in: batch).map { ($0, request.action) } }
        faults += batch.faults
        trace += batch.trace
    }

    /// Forgets what was taken so far.
    public mutating func removeAll() { self = Decisions() }
}

extension GesturePipeline {
    /// Feeds one event, taking what it decided into `decisions`.
    public mutating func handle(_ event: RawEvent, from id: DeviceID, into decisions: inout Decisions) {
        var batch = Batch()
        handle(event, from: id, into: &batch)
        decisions.take(batch)
    }

    /// Fires the deadlines up to `now`, taking what they decided into `decisions`.
    public mutating func advance(to now: Instant, into decisions: inout Decisions) {
        var batch = Batch()
        advance(to: now, into: &batch)
        decisions.take(batch)
    }

    public mutating func removeDevice(_ id: DeviceID, now: Instant, into decisions: inout Decisions) {
        var batch = Batch()
        removeDevice(id, now: now, into: &batch)
        decisions.take(batch)
    }

    public mutating func change(_ change: ViewTree.Change, ofView view: String, now: Instant,
                                into decisions: inout Decisions) -> Bool {
        var batch = Batch()
        defer { decisions.take(batch) }
        return self.change(change, ofView: view, now: now, into: &batch)
    }

    public mutating func setRotation(_ rotation: Rotation, of id: DeviceID, now: Instant, into decisions: inout Decisions) {
        var batch = Batch()
        setRotation(rotation, of: id, now: now, into: &batch)
        decisions.take(batch)
    }

    public mutating func reload(configuration: Configuration, sizes: [Size]? = nil, now: Instant,
                                into decisions: inout Decisions) throws(GestureEngine.BuildError) {
        var batch = Batch()
        try reload(configuration: configuration, sizes: sizes, now: now, into: &batch)
        decisions.take(batch)
    }

    public mutating func cancelForwarded(device: DeviceID? = nil, now: Instant, into decisions: inout Decisions) {
        var batch = Batch()
        cancelForwarded(device: device, now: now, into: &batch)
        decisions.take(batch)
    }

    public mutating func shutdown(now: Instant, into decisions: inout Decisions) {
        var batch = Batch()
        shutdown(now: now, into: &batch)
        decisions.take(batch)
    }
}
