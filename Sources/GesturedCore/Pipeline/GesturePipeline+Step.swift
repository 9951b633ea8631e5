/// The pipeline's one step function and its entry points. Each entry point only says what came
/// in (an `Input`); `step(_:into:)` empties the batch, decides the input's effects (lines,
/// actions, what the clones receive), then settles the kiosk policy's grabs, collects the
/// engines' trace and faults, and numbers and encodes the lines for the registered clients
/// (`Subscribers`, `Batch.delivery`): that sequence exists here once.
extension GesturePipeline {
    /// What came in: one step's cause. Every change of the pipeline's state is one of these,
    /// so each cause is one step and one batch (a rule test keeps the entry points so).
    enum Input {
        /// A read's worth of one device's events: each frame they complete is a frame step, its
        /// due deadlines fired first; the faults its decoder survived come at the end.
        /// `screenOff`: what the device's screen's power attribute said just before the read, if
        /// it was read (`ScreenPower`, in the shell), taken before the first frame.
        case events(ArraySlice<RawEvent>, from: DeviceID, screenOff: Bool?)
        /// One event (replay feeds events one at a time).
        case event(RawEvent, from: DeviceID)
        /// The deadline timer: every deadline up to the instant fires.
        case deadline(Instant)
        /// The idle clock starts: the daemon starts. (Without it, the idle clock starts at the
        /// first event fed, as replay has it.)
        case start(now: Instant)
        /// A device comes (the shell opened it), prepared already (building may throw; the step
        /// cannot); `line`: its `device added` line for every client.
        case addition(PreparedDevice, line: DeviceLine?)
        /// A device goes (unplugged, failing, the shell closing it); `line`: its `device
        /// removed` line for every client, after what its going decided.
        case removal(DeviceID, now: Instant, line: DeviceLine?)
        /// A recording ended: its touches still down are cancelled, its device stays.
        case touchesCancelled(DeviceID, now: Instant)
        /// A clone (of one device, or of all) is about to go or serve other rules.
        case forwardedCancelled(DeviceID?, now: Instant)
        /// The daemon stops.
        case shutdown(now: Instant)
        /// A view hidden, shown, disabled or enabled at runtime.
        case viewChange(ViewTree.Change, view: String, now: Instant)
        /// A device's rotation set at runtime.
        case rotation(Rotation, of: DeviceID, now: Instant)
        /// A reloaded configuration's screens and unlock gestures, built already (building may
        /// throw; the step itself cannot), and what it does to each open device.
        case reload(Configuration, screens: [Screen], unlock: UnlockGestures, devices: [DeviceChange], now: Instant)
        /// A control request of an authorized peer, answered in `format` (`ControlDesk`).
        case control(ControlRequest, layouts: [ControlDesk.ScreenLayouts], devices: [ControlDesk.Device],
                     format: LineFormat, now: Instant)

        /// The instant the input happened at, when it says (a read's frames carry their own).
        var now: Instant? {
            switch self {
            case .events, .event, .addition: nil
            case .deadline(let now), .start(let now), .removal(_, let now, _), .touchesCancelled(_, let now),
                 .forwardedCancelled(_, let now), .shutdown(let now), .viewChange(_, _, let now), .rotation(_, _, let now),
                 .reload(_, _, _, _, let now), .control(_, _, _, _, let now): now
            }
        }
    }

    /// What a reload does to a device open before it (the shell's `ReloadPlan`, carried into
    /// the reload's one step, in the order the shell opened the devices).
    public enum DeviceChange: Sendable {
        /// Kept as it was, feeding the screen now at index `screen` (the new screens may be in
        /// another order).
        case keep(DeviceID, screen: Int)
        /// Treated anew (rotation, calibration, touch limit, grab or screen changed): its
        /// touches in flight are cancelled, in the application too, and it is decoded from now
        /// on as the prepared device says, under the same id.
        case replace(PreparedDevice)
        /// Let go (refused now, or to be opened again with or without its clone): it goes, and
        /// `line` tells every client.
        case release(DeviceID, line: DeviceLine)
    }

    /// Runs one step: `batch` is emptied, then holds everything the input decided. Returns why
    /// the input could not apply (a control request's refusal, a view change naming no view).
    @discardableResult
    mutating func step(_ input: Input, into batch: inout Batch) -> String? {
        batch.removeAll()
        var refusal: String?
        switch input {
        case .events(let events, let id, let screenOff):
            guard let p = devices.position(of: id) else { return nil }
            if !kiosk.started, let first = events.first { kiosk.start(at: first.time) }
            if let off = screenOff, kiosk.screens[devices[p].screen].off != off { kiosk.setOff(off, screens: [devices[p].screen]) }
            step(events, from: p, into: &batch)
            collectFaults(of: p, into: &batch)
        case .event(let event, let id):
            guard let p = devices.position(of: id) else { return nil }
            if !kiosk.started { kiosk.start(at: event.time) }
            step(event, from: p, into: &batch)
            collectFaults(of: p, into: &batch)
        case .deadline(let now):
            fireDeadlines(upTo: now, into: &batch)
        case .start(let now):
            kiosk.start(at: now)
        case .addition(let prepared, let line):
            install(prepared)
            if let line { batch.deviceLines.append(line) }
        case .removal(let id, let now, let line):
            appendRemoval(of: [id], now: now, into: &batch)
            if let line { batch.deviceLines.append(line) }
        case .touchesCancelled(let id, let now):
            guard let p = devices.position(of: id) else { return nil }
            appendCancellation(of: p, now: now, into: &batch)
        case .forwardedCancelled(let device, _):
            forwarder.claimAll(device: device?.value)
        case .shutdown(let now):
            forwarder.claimAll()   // a touch of no device left (there is none) would end too
            appendRemoval(of: devices.all.map(\.id), now: now, into: &batch)
        case .viewChange(let change, let view, let now):
            if !appendChange(change, ofView: view, now: now, into: &batch) { refusal = "no view '\(view)'" }
        case .rotation(let rotation, let id, let now):
            appendRotation(rotation, of: id, now: now, into: &batch)
        case .reload(let configuration, let fresh, let freshUnlock, let changes, let now):
            appendReload(configuration, screens: fresh, unlock: freshUnlock, now: now, into: &batch)
            appendDeviceChanges(changes, now: now, into: &batch)
        case .control(let request, let layouts, let devices, let format, let now):
            fireDeadlines(upTo: now, into: &batch)
            refusal = ControlDesk.decide(request, to: &self, layouts: layouts, devices: devices, now: now, into: &batch)
            batch.reply = refusal.map { LineEncoder.error(command: request.command, message: $0, format: format) }
                ?? LineEncoder.ok(command: request.command, format: format)
        }
        if let now = input.now { settleForwarding(now: now, into: &batch) }
        settleClaimGrabs(into: &batch)
        collectTrace(into: &batch)
        subscribers.deliver(into: &batch)
        return refusal
    }

    /// The faults a device's decoder survived during a read (the device at position `p`).
    private mutating func collectFaults(of p: Int, into batch: inout Batch) {
        guard devices[p].decoder.hasAnomalies else { return }
        let sysname = devices[p].description.sysname, id = devices[p].id
        devices[p].decoder.takeAnomalies { anomaly, count in
            batch.faults.append(DeviceFault(device: id, sysname: sysname, anomaly: anomaly, count: count))
        }
    }

    /// The engines' trace lines and recognizer bugs of this step, screen by screen, into the
    /// batch's buffers: every transition while `tracesTransitions`, and bugs either way.
    mutating func collectTrace(into batch: inout Batch) {
        for screen in screens.indices { screens[screen].engine.drainTrace(into: &batch.trace, bugs: &batch.bugs) }
    }

    // MARK: Entry points: each says what came in.

    /// Feeds a device's events (a read's worth): each frame they complete is a step, its
    /// deadlines due before it fired first. The faults its decoder survived come at the end.
    ///
    /// Concrete collections, not a generic sequence: a public generic function is not
    /// specialized across modules, and iterating through witness tables cost more than the
    /// frame's decoding.
    ///
    /// `screenOff`: what the device's screen's power attribute said just before the read, when
    /// the shell read it (`ScreenPower`): the screen is taken to be off or on from here.
    public mutating func handle(_ events: ArraySlice<RawEvent>, from id: DeviceID, screenOff: Bool? = nil,
                                into batch: inout Batch) {
        step(.events(events, from: id, screenOff: screenOff), into: &batch)
    }

    /// `handle(_:from:screenOff:into:)` for a whole array of events.
    public mutating func handle(_ events: [RawEvent], from id: DeviceID, screenOff: Bool? = nil, into batch: inout Batch) {
        step(.events(events[...], from: id, screenOff: screenOff), into: &batch)
    }

    /// `handle(_:from:into:)` for one event (replay feeds events one at a time).
    public mutating func handle(_ event: RawEvent, from id: DeviceID, into batch: inout Batch) {
        step(.event(event, from: id), into: &batch)
    }

    /// Fires every deadline up to `now` (the timer the shell armed at `nextDeadline`).
    public mutating func advance(to now: Instant, into batch: inout Batch) { step(.deadline(now), into: &batch) }

    /// Forgets a device; its touches are cancelled, and with them the gestures they drive. The
    /// application's touches on its clone are cancelled and lifted there, then the clone goes
    /// with it: nothing more is written there.
    /// `line`: its `device removed` line for every client, after what its going decided.
    public mutating func removeDevice(_ id: DeviceID, now: Instant, line: DeviceLine? = nil, into batch: inout Batch) {
        step(.removal(id, now: now, line: line), into: &batch)
    }

    /// Adds a prepared device (`prepareDevice`): its touches are decoded from now on. `line`:
    /// its `device added` line for every client.
    public mutating func addDevice(_ prepared: PreparedDevice, line: DeviceLine? = nil, into batch: inout Batch) {
        step(.addition(prepared, line: line), into: &batch)
    }

    /// Starts the idle clock (`idle` lines count from `now`): the daemon starts, a recording's
    /// first event.
    public mutating func start(at now: Instant, into batch: inout Batch) { step(.start(now: now), into: &batch) }

    /// Cancels the touches still down on a device and the gestures they drive, as if it had
    /// been unplugged, but keeps it: the end of a recording (`Replay.Session.end`), whose
    /// device then stays until the pending deadlines have fired, as a device that stays plugged
    /// in the daemon does (a tap's lift held back by a double tap is let go when it fails).
    public mutating func cancelTouches(of id: DeviceID, now: Instant, into batch: inout Batch) {
        step(.touchesCancelled(id, now: now), into: &batch)
    }

    /// Cancels and lifts every touch forwarded to a clone (of `device`, or of all): the clone is
    /// about to go, or to serve other rules (a reload that changed the device's treatment). The
    /// touches stay down but are never forwarded again.
    public mutating func cancelForwarded(device: DeviceID? = nil, now: Instant, into batch: inout Batch) {
        step(.forwardedCancelled(device, now: now), into: &batch)
    }

    /// The daemon stops: the application first sees every forwarded touch cancelled and lifted,
    /// then every device goes (its touches cancelled, their gestures ending `cancelled`), in the
    /// order they were added.
    public mutating func shutdown(now: Instant, into batch: inout Batch) { step(.shutdown(now: now), into: &batch) }

    /// Replaces the view trees and recognizers. Running gestures are cancelled; touches already
    /// down stay unrouted until they lift. `sizes` are the new screens' (`ReloadPlan.sizes`, as
    /// the daemon gives them); without, `ScreenSizing`'s rule with the screens before and no
    /// device. Throws, changing nothing, when the new engines cannot be built.
    ///
    /// `devices`: what the reload does to each device open before it (the daemon's
    /// `ReloadPlan`), in the same step; without, every device stays as it is.
    public mutating func reload(configuration: Configuration, sizes: [Size]? = nil, devices changes: [DeviceChange] = [],
                                now: Instant, into batch: inout Batch) throws(GestureEngine.BuildError) {
        let sizes = sizes ?? ScreenSizing.sizes(for: configuration, devices: [], previous: screens)
        let fresh = try Self.build(configuration, sizes: sizes)
        let freshUnlock = try UnlockGestures(configuration, sizes: sizes)
        step(.reload(configuration, screens: fresh, unlock: freshUnlock, devices: changes, now: now), into: &batch)
    }

    /// Applies a runtime change to a view (see `GestureEngine.change(_:of:now:into:)`): hiding
    /// or disabling it cancels the gestures its recognizers and its subviews' are tracking.
    /// Returns false, changing nothing, when no view has the id `view`. View ids are unique
    /// across screens: the view is looked up in every screen.
    public mutating func change(_ change: ViewTree.Change, ofView view: String, now: Instant,
                                into batch: inout Batch) -> Bool {
        step(.viewChange(change, view: view, now: now), into: &batch) == nil
    }

    /// Sets a device's rotation at runtime (a kiosk turning its screen). The device's touches in
    /// progress would jump to other screen points, so the gestures they drive are cancelled
    /// (running) or failed (pending); the touches stay down, unrouted, until they lift.
    public mutating func setRotation(_ rotation: Rotation, of id: DeviceID, now: Instant, into batch: inout Batch) {
        step(.rotation(rotation, of: id, now: now), into: &batch)
    }
}
