import GesturedCore

/// The daemon's one pure pipeline and the output buffer the parts fill: the device hub with what
/// devices did, control with what a request changed, the loop with fired deadlines; the client
/// hub drains it (`ClientHub.publish`). A class so that every part shares the same one.
final class LivePipeline {
    var pipeline: GesturePipeline
    /// Scratch, reused for every batch: filled by a part, then published and emptied.
    var output: [GesturePipeline.Output] = []

    init(_ pipeline: GesturePipeline) { self.pipeline = pipeline }
}
