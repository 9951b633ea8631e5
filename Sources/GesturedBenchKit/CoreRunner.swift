import GesturedConfig
import GesturedCore

/// The daemon's per-frame work without its syscalls: raw events through the pipeline (decode →
/// normalize → hit-test → recognizers), and the lines a default client receives encoded into a
/// reused byte buffer (where the daemon would hand them to the socket).
public struct CoreRunner {
    public private(set) var pipeline: GesturePipeline
    public let device: GesturePipeline.DeviceID
    private var batch = Batch()
    private var subscription = ClientSubscription()
    /// The encoded lines of the current frame; cleared, capacity kept, every frame.
    public private(set) var bytes: [UInt8] = []
    private var seq: UInt64 = 0
    /// Lines encoded so far (a checksum of sorts: every scenario must produce some).
    public private(set) var lines = 0
    /// A pass-through scenario's clone: its encoder, and the events of the current frame (where
    /// the daemon would write them to uinput).
    private var clone: CloneEncoder?
    public private(set) var cloneEvents: [RawEvent] = []
    /// Events encoded for the clone so far.
    public private(set) var forwardedEvents = 0

    public init(_ scenario: Scenario) throws {
        let configuration = scenario.configuration(defaultGestures: ConfigLoader.defaultConfiguration().views
            .flatMap(\.gestures))
        pipeline = try GesturePipeline(configuration: configuration, screen: Scenario.screen)
        // As the daemon does: no client here wants touch lines, so none are made.
        pipeline.reportsTouches = subscription.touches
        var added = Batch()   // a device added before any event decides nothing
        device = try pipeline.addDevice(Scenario.device, rule: DeviceRule(passThrough: scenario.passThrough), into: &added)
        batch = Batch(for: pipeline)
        if scenario.passThrough {
            clone = CloneEncoder(slotCount: Scenario.device.slotCount, hasTouchButton: false)
            cloneEvents.reserveCapacity(256)
        }
        bytes.reserveCapacity(1 << 16)
    }

    /// Feeds one frame's events, then encodes what the client wants.
    @inline(never)
    public mutating func run(_ events: ArraySlice<RawEvent>) {
        pipeline.handle(events, from: device, into: &batch)
        bytes.removeAll(keepingCapacity: true)
        for item in batch.outputs where subscription.wants(item) {
            seq += 1
            LineEncoder.output(item, seq: seq, format: .text, into: &bytes)
            lines += 1
        }
        if clone != nil {
            cloneEvents.removeAll(keepingCapacity: true)
            clone!.encode(batch.forwarded[...], into: &cloneEvents)
            forwardedEvents += cloneEvents.count
        }
    }

    /// Runs a whole stream once: the smoke test's entry point.
    public mutating func run(_ stream: FrameStream) {
        for frame in stream.frames { run(stream.events[frame.range]) }
    }
}
