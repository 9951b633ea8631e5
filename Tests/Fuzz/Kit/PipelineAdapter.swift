import GesturedCore

/// What one step of the pipeline produced, in order: its outputs, what it forwarded to the
/// clones of pass-through devices, its trace lines and its recognizer bugs.
public struct PipelineStep: Sendable {
    public var outputs: [GesturePipeline.Output] = []
    public var forwarded: [ForwardedTouch] = []
    public var trace: [String] = []
    /// The recognizer bugs the engines survived (typed).
    public var bugs: [RecognizerBug] = []
    /// The answer to a control request, when the step applied one.
    public var reply: String?

    public init() {}

    init(_ batch: Batch) {
        outputs = batch.outputs
        forwarded = batch.forwarded
        trace = batch.trace
        bugs = batch.bugs
        reply = batch.reply
    }
}

/// The one place where the fuzz kit drives the pipeline, so that a change of the pipeline's API
/// is adapted here and nowhere else in the kit.
///
/// It plays recordings (one device each) through `Replay.Session`, as `gestured replay` does:
/// frame by frame, the frame that ends earliest first, ties to the lower recording, each deadline
/// fired as a step of its own before the frame at or after its instant. Unlike replay, every
/// device stays until the end: after the last frame of all the recordings, the pending deadlines
/// fire, `settled` is called (the harness has lifted every finger, so nothing may be running or
/// held any more), and only then does each recording end as replay ends it (what is still down
/// is cancelled), the deadlines that leaves fire and the devices go.
///
/// - Parameters:
///   - step: each step's batch, in order; steps that decided nothing are skipped.
/// - Throws: the replay's own refusal of the configuration or a device (`ReplayError`, as
///   `Violation` when `step` or `settled` throws one).
public func drivePipeline(devices: [DeviceDescription], recordings: [[RawEvent]], configuration: Configuration,
                          trace: Bool, step: (PipelineStep) throws(Violation) -> Void,
                          settled: () throws(Violation) -> Void) throws -> Void {
    var session = try Replay.Session(devices: devices, configuration: configuration, touches: true, trace: trace)
    func deliver() throws(Violation) {
        let result = PipelineStep(session.batch)
        if !result.outputs.isEmpty || !result.forwarded.isEmpty || !result.trace.isEmpty || !result.bugs.isEmpty { try step(result) }
    }
    var next = [Int](repeating: 0, count: recordings.count)
    while true {
        // The recording whose next frame (up to its SYN_REPORT, or its last event) ends first.
        var best: (k: Int, end: Int, time: Instant)?
        for k in recordings.indices where next[k] < recordings[k].count {
            var end = next[k]
            while end < recordings[k].count - 1,
                  !(recordings[k][end].type == EventCode.EV_SYN && recordings[k][end].code == EventCode.SYN_REPORT) { end += 1 }
            let time = recordings[k][end].time
            if best.map({ time < $0.time }) ?? true { best = (k, end, time) }
        }
        guard let (k, end, _) = best else { break }
        for i in next[k]...end {
            let event = recordings[k][i]
            if event.type == EventCode.EV_SYN && event.code == EventCode.SYN_REPORT {
                while let deadline = session.nextDeadline, deadline <= event.time, session.fireNextDeadline() { try deliver() }
            }
            session.handle(event, of: k)
            try deliver()
        }
        next[k] = end + 1
    }
    while session.fireNextDeadline() { try deliver() }
    try settled()
    for k in recordings.indices {
        session.end(k, at: recordings[k].last?.time ?? .zero)
        try deliver()
    }
    while session.fireNextDeadline() { try deliver() }
    for k in recordings.indices {
        session.finish(k)
        try deliver()
    }
}

/// The pipeline as the daemon's control requests reach it (`ControlDesk.apply`), for the
/// requests target: events fed one at a time, time advanced, requests applied, each returning
/// what it produced. Part of the adapter for the same reason as `drivePipeline`.
public struct ControlledPipeline {
    private var pipeline: GesturePipeline
    private let ids: [GesturePipeline.DeviceID]
    private let layouts: [ControlDesk.ScreenLayouts]
    private let devices: [ControlDesk.Device]

    public init(configuration: Configuration, devices: [DeviceDescription], screen: Size) throws {
        pipeline = try GesturePipeline(configuration: configuration, screen: screen)
        pipeline.reportsTouches = true
        var ids: [GesturePipeline.DeviceID] = []
        var added = Batch()   // a device added before any event decides nothing
        for device in devices { ids.append(try pipeline.addDevice(device, into: &added)) }
        self.ids = ids
        layouts = ControlDesk.layouts(of: configuration)
        self.devices = zip(devices, ids).map { ControlDesk.Device(sysname: $0.sysname, id: $1) }
        batch = Batch(for: pipeline)
    }

    private var batch: Batch

    public mutating func feed(_ event: RawEvent, device k: Int) -> PipelineStep {
        pipeline.handle(event, from: ids[k], into: &batch)
        return PipelineStep(batch)
    }

    public mutating func advance(to now: Instant) -> PipelineStep {
        pipeline.advance(to: now, into: &batch)
        return PipelineStep(batch)
    }

    public var nextDeadline: Instant? { pipeline.nextDeadline }

    /// Applies an authorized peer's control request at `now`: why it was refused, if it was,
    /// and what it produced.
    public mutating func apply(_ request: ControlRequest, format: LineFormat = .text,
                               now: Instant) -> (refusal: String?, step: PipelineStep) {
        let refusal = ControlDesk.apply(request, to: &pipeline, layouts: layouts, devices: devices, format: format,
                                        now: now, into: &batch)
        return (refusal, PipelineStep(batch))
    }
}
