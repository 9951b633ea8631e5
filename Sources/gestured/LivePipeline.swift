import GesturedCore
import GesturedIO

/// The daemon's one pure pipeline and the one batch every entry point fills, carried out by the
/// shell (`Shell.carryOut`) right after: whatever drives the pipeline (a read, the timer, a
/// control request, a reload, a removal, shutdown) goes through here, so no caller runs it and
/// forgets to carry out what it decided. A class so that every part shares the same one.
final class LivePipeline {
    var pipeline: GesturePipeline
    /// Reused for every call: its arrays keep their capacity, and a steady frame allocates
    /// nothing.
    private var batch = Batch()
    /// Carries a batch out, in its one order; the client that sent the control request it
    /// answers, if any.
    var outlet: (Batch, ClientID?) -> Void = { _, _ in }

    init(_ pipeline: GesturePipeline) { self.pipeline = pipeline }

    /// A read's events of one device.
    func read(_ events: [RawEvent], from device: GesturePipeline.DeviceID) {
        pipeline.handle(events, from: device, into: &batch)
        carryOut()
    }

    /// The deadline timer fired.
    func advance(to now: Instant) {
        pipeline.advance(to: now, into: &batch)
        carryOut()
    }

    /// A device went (unplugged, let go by a reload, failing).
    func remove(_ device: GesturePipeline.DeviceID, now: Instant) {
        pipeline.removeDevice(device, now: now, into: &batch)
        carryOut()
    }

    /// A device's clone is about to serve other rules or go: the application's touches end.
    func cancelForwarded(device: GesturePipeline.DeviceID, now: Instant) {
        pipeline.cancelForwarded(device: device, now: now, into: &batch)
        carryOut()
    }

    /// The daemon stops.
    func shutdown(now: Instant) {
        pipeline.shutdown(now: now, into: &batch)
        carryOut()
    }

    /// A reloaded configuration's screens (nothing changes when it throws).
    func reload(_ configuration: Configuration, sizes: [Size], now: Instant) throws(GestureEngine.BuildError) {
        try pipeline.reload(configuration: configuration, sizes: sizes, now: now, into: &batch)
        carryOut()
    }

    /// A control request of an authorized peer, answered (in `format`) ahead of the lines it
    /// causes; why it cannot apply instead.
    func control(_ request: ControlRequest, from client: ClientID, format: LineFormat,
                 layouts: [ControlDesk.ScreenLayouts], now: Instant) -> String? {
        let refusal = ControlDesk.apply(request, to: &pipeline, layouts: layouts, devices: pipeline.deviceList,
                                        format: format, now: now, into: &batch)
        carryOut(requester: client)
        return refusal
    }

    private func carryOut(requester: ClientID? = nil) {
        if !batch.isEmpty { outlet(batch, requester) }
    }
}
