import GesturedCore
import GesturedIO

/// The daemon's one pure pipeline and the one batch every entry point fills, carried out by the
/// shell (`Shell.carryOut`) right after: whatever drives the pipeline (a read, the timer, a
/// control request, a reload, a removal, shutdown) goes through here, so no caller runs it and
/// forgets to carry out what it decided. A class so that every part shares the same one.
final class LivePipeline {
    private(set) var pipeline: GesturePipeline
    /// Reused for every call: its arrays keep their capacity, and a steady frame allocates
    /// nothing.
    private var batch = Batch()
    /// Carries each batch out, in its one order.
    private let shell: any BatchCarrying
    /// The batches' grabs not taken yet (`takeGrabs`).
    private var grabs: [PanelGrab] = []

    init(_ pipeline: GesturePipeline, shell: any BatchCarrying) {
        self.pipeline = pipeline
        self.shell = shell
    }

    // Read through these, not through `pipeline`: a struct read out of a class property is
    // copied whole for the call of its getter (every array and table retained, then released),
    // and two are read a frame (docs/PERFORMANCE.md). Passed `inout`, it is not.

    /// When the timer must wake the pipeline next.
    var nextDeadline: Instant? { Self.reading(&pipeline) { $0.nextDeadline } }

    /// The screen a device's touches go to (nil: no such device).
    func screen(of device: GesturePipeline.DeviceID) -> Int? { Self.reading(&pipeline) { $0.screen(of: device) } }

    /// Whether a touch is down on the screen.
    func hasTouchesDown(onScreen screen: Int) -> Bool { Self.reading(&pipeline) { $0.hasTouchesDown(onScreen: screen) } }
    /// Each screen's size in points (after a reload: `InputSink`'s pointer spans one).
    var screenSizes: [Size] { Self.reading(&pipeline) { $0.screens.map(\.size) } }

    private static func reading<T>(_ pipeline: inout GesturePipeline, _ read: (GesturePipeline) -> T) -> T { read(pipeline) }

    /// The clients' subscription changes (`ClientHub.takeSubscriptionChanges`), in order: the
    /// core numbers and encodes each step's lines for the subscriptions it holds.
    func apply(_ changes: [SubscriptionChange]) {
        for change in changes {
            let key = ClientKey(change.client.rawValue)
            if let subscription = change.subscription { pipeline.subscribers.set(subscription, of: key) } else { pipeline.subscribers.drop(key) }
        }
    }

    /// The panels to grab or let go for the kiosk policy's claims, decided by the batches
    /// carried out since they were last taken (`Batch.grabs`), in order: the loop hands them to
    /// `DeviceHub` (data, not a call from the shell into another part).
    func takeGrabs() -> [PanelGrab] {
        guard !grabs.isEmpty else { return [] }
        defer { grabs.removeAll() }
        return grabs
    }

    /// Touch outputs and trace lines as the clients (and `run --trace`) want them.
    func setReporting(_ reporting: GesturePipeline.Reporting) {
        if pipeline.reporting != reporting { pipeline.reporting = reporting }
    }

    /// A device the daemon is about to read, built (its id taken) but not added: `add` adds it.
    func prepare(_ description: DeviceDescription, _ admitted: DeviceAdmission.Admitted) throws(EvdevFrameDecoder.Unsupported)
        -> GesturePipeline.PreparedDevice {
        try pipeline.prepareDevice(description, rule: admitted.rule, fallbackCalibration: admitted.udevCalibration,
                                   screen: admitted.screen)
    }

    /// A prepared device is read from now on; `line`: its `device added` line for every client
    /// (the batch grows to its busiest step now, not mid-frame).
    func add(_ prepared: GesturePipeline.PreparedDevice, line: DeviceLine?) {
        pipeline.addDevice(prepared, line: line, into: &batch)
        carryOut()
        batch = Batch(for: pipeline)
    }

    /// The idle clock starts: the daemon starts.
    func start(now: Instant) {
        pipeline.start(at: now, into: &batch)
        carryOut()
    }

    /// A read's events of one device; `screenOff`: what its screen's power attribute said just
    /// before (`ScreenPower`), if it was read.
    func read(_ events: [RawEvent], from device: GesturePipeline.DeviceID, screenOff: Bool? = nil) {
        pipeline.handle(events, from: device, screenOff: screenOff, into: &batch)
        carryOut()
    }

    /// The deadline timer fired.
    func advance(to now: Instant) {
        pipeline.advance(to: now, into: &batch)
        carryOut()
    }

    /// A device went (unplugged, failing): its touches end, then its `device removed` line.
    func remove(_ device: GesturePipeline.DeviceID, now: Instant, line: DeviceLine) {
        pipeline.removeDevice(device, now: now, line: line, into: &batch)
        carryOut()
    }

    /// The daemon stops.
    func shutdown(now: Instant) {
        pipeline.shutdown(now: now, into: &batch)
        carryOut()
    }

    /// A reloaded configuration's screens, and what it does to each open device, in one step
    /// (nothing changes when it throws).
    func reload(_ configuration: Configuration, sizes: [Size], devices: [GesturePipeline.DeviceChange] = [],
                now: Instant) throws(GestureEngine.BuildError) {
        try pipeline.reload(configuration: configuration, sizes: sizes, devices: devices, now: now, into: &batch)
        carryOut()
        batch = Batch(for: pipeline)   // the new recognizers' busiest step
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

    /// Moves the batch out of `self` to carry it out and back after (its arrays keep their
    /// capacity): the stored property passed as it is would be copied, every array retained and
    /// released again, twice a step.
    private func carryOut(requester: ClientID? = nil) {
        var carried = Batch()
        swap(&carried, &batch)
        if !carried.isEmpty {
            shell.carryOut(carried, requester: requester)
            if !carried.grabs.isEmpty { grabs.append(contentsOf: carried.grabs) }
        }
        swap(&carried, &batch)
    }
}
