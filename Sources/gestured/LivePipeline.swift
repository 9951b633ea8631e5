import GesturedCore

/// The daemon's one pure pipeline and the output buffer the parts fill: the device hub with what
/// devices did, control with what a request changed, the loop with fired deadlines; the client
/// hub drains it (`ClientHub.publish`). A class so that every part shares the same one.
final class LivePipeline {
    var pipeline: GesturePipeline
    /// Scratch, reused for every batch: filled by a part, then published and emptied.
    var output: [GesturePipeline.Output] = []

    init(_ pipeline: GesturePipeline) { self.pipeline = pipeline }

    /// Feeds one read's events to the pipeline, its outputs appended to `output`.
    ///
    /// The pipeline and the output are this class's stored properties, so each access to them
    /// is checked for exclusivity at run time (`swift_beginAccess`, about 70 instructions);
    /// passed `inout` to one static loop they are checked once per read instead of twice per
    /// event (66 checks for a frame of ten fingers).
    func handle(_ events: [RawEvent], from device: GesturePipeline.DeviceID) {
        Self.handle(events, from: device, pipeline: &pipeline, into: &output)
    }

    private static func handle(_ events: [RawEvent], from device: GesturePipeline.DeviceID,
                               pipeline: inout GesturePipeline, into output: inout [GesturePipeline.Output]) {
        for event in events { pipeline.handle(event, from: device, into: &output) }
    }
}
