/// The whole pure pipeline: raw evdev events of any number of devices in, touch and gesture
/// events out. The daemon and `gestured replay` both drive exactly this, so a recording replays
/// to the same lines the daemon produced live.
///
/// Time comes only from the events and from `advance(to:into:)`; `nextDeadline` tells the
/// caller when to call `advance` if no event arrives first.
public struct GesturePipeline: Sendable {
    /// A device known to the pipeline.
    public struct DeviceID: Hashable, Sendable { public let value: Int }

    /// One output of the pipeline, in the order it happened.
    public enum Output: Hashable, Sendable {
        case touch(TouchEvent)
        case gesture(GestureEvent)
    }

    struct Device: Sendable {
        let description: DeviceDescription
        /// `description.sysname`, as touch updates carry it.
        let name: DeviceName
        var decoder: EvdevFrameDecoder
        var geometry: DeviceGeometry
        /// The touch in each slot, if any.
        var touchInSlot: [SlotTouch?]

        /// The device's live touches.
        var touches: [TouchID] { touchInSlot.compactMap { $0?.id } }
    }

    /// A live touch of a slot, and the id of the view it was hit-tested to (for touch lines; the
    /// engine forgets it on lift).
    struct SlotTouch: Sendable {
        var id: TouchID
        var view: String?
    }

    public let screen: Size
    public private(set) var engine: GestureEngine
    /// Whether touch updates are output (`Output.touch`). Off when nobody would receive them (no
    /// client subscribed to touches, `replay` without `--touches`): the gestures are the same,
    /// and a frame then builds no touch outputs only to have them dropped.
    public var reportsTouches = true
    /// By `DeviceID.value` (ids are never reused; a removed device leaves nil). An array rather
    /// than a dictionary: it is indexed for every raw event, and devices come and go rarely.
    private var devices: [Device?] = []
    private var nextTouchID: UInt64 = 1
    /// Scratch buffers reused across frames.
    private var updates: [TouchUpdate] = []
    /// The view id of each of `updates`, for its touch line.
    private var updateViews: [String?] = []
    private var gestureEvents: [GestureEvent] = []

    public init(configuration: Configuration, screen: Size) throws(GestureEngine.BuildError) {
        self.screen = screen
        engine = try GestureEngine(views: configuration.views, screen: screen)
        reserveEventCapacity()
    }

    /// Sizes the frame's event buffer for the busiest frames up front (a recognizer rarely
    /// reports more than a few transitions in one frame), so that a frame busier than any before
    /// it does not grow the buffer mid-frame: steady frames allocate nothing.
    private mutating func reserveEventCapacity() {
        gestureEvents.reserveCapacity(4 * engine.recognizerCount + 16)
    }

    /// The screen in points: the config's, else the first device's physical size (see
    /// `DeviceGeometry.impliedScreen`), else `DeviceGeometry.fallbackScreen`.
    public static func screen(configuration: Configuration, firstDevice: DeviceDescription?,
                              rotation: Rotation = .none) -> Size {
        if let screen = configuration.screen { return screen }
        guard let device = firstDevice, let (x, y) = device.positionAxes else { return DeviceGeometry.fallbackScreen }
        return DeviceGeometry.impliedScreen(x: x, y: y, rotation: rotation)
    }

    /// Starts decoding a device. Throws when its protocol or axes are unusable.
    ///
    /// - Parameters:
    ///   - rule: the configuration's rule for it, if any: rotation, calibration, touch limit.
    ///   - fallbackCalibration: the matrix to use when the rule sets none (the device's udev
    ///     `LIBINPUT_CALIBRATION_MATRIX`, parsed by `CalibrationMatrix`).
    public mutating func addDevice(_ description: DeviceDescription, rule: DeviceRule? = nil,
                                   fallbackCalibration: [Double]? = nil)
        throws(EvdevFrameDecoder.Unsupported) -> DeviceID {
        let decoder = try EvdevFrameDecoder(device: description,
                                            options: .init(maximumTouches: rule?.maximumTouches))
        guard let (x, y) = description.positionAxes else { throw .noPositionAxes }
        guard let name = DeviceName(description.sysname) else { throw .sysnameTooLong(description.sysname) }
        let calibration = rule?.calibration ?? fallbackCalibration ?? DeviceGeometry.identityCalibration
        let geometry = DeviceGeometry(x: x, y: y, screen: screen, rotation: rule?.rotation ?? .none,
                                      calibration: calibration)
        let id = DeviceID(value: devices.count)
        devices.append(Device(description: description, name: name, decoder: decoder, geometry: geometry,
                              touchInSlot: Array(repeating: nil, count: decoder.slotCount)))
        updates.reserveCapacity(2 * decoder.slotCount)
        updateViews.reserveCapacity(2 * decoder.slotCount)
        return id
    }

    private func contains(_ id: DeviceID) -> Bool { devices.indices.contains(id.value) && devices[id.value] != nil }

    /// The geometry a device was added with (rotation, calibration, screen), if it is known.
    public func geometry(of id: DeviceID) -> DeviceGeometry? { contains(id) ? devices[id.value]!.geometry : nil }

    /// The faults a device's decoder survived since the last call (see
    /// `EvdevFrameDecoder.Anomaly`), with their counts, for the caller to log; resets them.
    public mutating func takeAnomalies(of id: DeviceID) -> [(EvdevFrameDecoder.Anomaly, Int)] {
        guard contains(id) else { return [] }
        return devices[id.value]!.decoder.takeAnomalies()
    }

    /// Forgets a device; its touches are cancelled, and with them the gestures they drive.
    public mutating func removeDevice(_ id: DeviceID, now: Instant, into output: inout [Output]) {
        guard contains(id) else { return }
        if devices[id.value]!.decoder.cancelAll(now: now) {
            deliver(device: id.value, now: now, into: &output)
        }
        devices[id.value] = nil
    }

    /// Feeds one raw event of a device. Deadlines due before the event fire first.
    ///
    /// The device is mutated in place in `devices` (never copied out and back): a copy would
    /// share the decoder's buffers and so copy them on every event.
    public mutating func handle(_ event: RawEvent, from id: DeviceID, into output: inout [Output]) {
        guard contains(id), let (time, resynchronized) = Self.feed(event, to: &devices[id.value]!) else { return }
        advance(to: time, into: &output)
        if resynchronized {
            // Events of this device were lost: what its gestures in progress were doing is
            // unknown. Its touches stay down, unrouted, until the resynchronized state ends or
            // moves them; other devices' gestures go on.
            gestureEvents.removeAll(keepingCapacity: true)
            engine.cancelGestures(involving: devices[id.value]!.touches, now: time, into: &gestureEvents)
            for event in gestureEvents { output.append(.gesture(event)) }
        }
        deliver(device: id.value, now: time, into: &output)
    }

    /// Feeds an event to a device's decoder; when it completes a frame, the frame's time and
    /// whether events were lost before it. The device is reached in place (`&devices[i]!`): a
    /// read through `devices[i]!` copies the whole `Device`, decoder buffers included.
    private static func feed(_ event: RawEvent, to device: inout Device) -> (time: Instant, resynchronized: Bool)? {
        guard device.decoder.feed(event) else { return nil }
        return (device.decoder.frame.time, device.decoder.frame.resynchronized)
    }

    /// Fires every deadline up to `now`.
    public mutating func advance(to now: Instant, into output: inout [Output]) {
        gestureEvents.removeAll(keepingCapacity: true)
        engine.advance(to: now, into: &gestureEvents)
        for event in gestureEvents { output.append(.gesture(event)) }
    }

    /// Whether the engine traces its transitions with reasons (`--trace`); read them with
    /// `drainTrace()` after each call.
    public var tracesTransitions: Bool {
        get { engine.tracesTransitions }
        set { engine.tracesTransitions = newValue }
    }

    /// The trace lines since the last call (empty unless `tracesTransitions`).
    public mutating func drainTrace() -> [String] { engine.trace.isEmpty ? [] : engine.drainTrace() }

    /// When `advance(to:into:)` next has work, if ever.
    public var nextDeadline: Instant? { engine.nextDeadline }

    /// The engine's trace since the last call (recognizer bugs, unless transitions are traced).
    public mutating func takeTrace() -> [String] { engine.drainTrace() }

    /// Replaces the view tree and recognizers. Running gestures are cancelled; touches already
    /// down stay unrouted until they lift.
    public mutating func reload(configuration: Configuration, now: Instant, into output: inout [Output])
        throws(GestureEngine.BuildError) {
        var fresh = try GestureEngine(views: configuration.views, screen: screen)
        gestureEvents.removeAll(keepingCapacity: true)
        engine.cancelAll(now: now, into: &gestureEvents)
        for event in gestureEvents { output.append(.gesture(event)) }
        fresh.tracesTransitions = engine.tracesTransitions
        fresh.trace = engine.drainTrace()
        engine = fresh
        reserveEventCapacity()
    }

    /// Applies a runtime change to a view (see `GestureEngine.change(_:of:now:into:)`): hiding
    /// or disabling it cancels the gestures its recognizers and its subviews' are tracking.
    /// Returns false, changing nothing, when no view has the id `view`.
    public mutating func change(_ change: ViewTree.Change, ofView view: String, now: Instant,
                                into output: inout [Output]) -> Bool {
        guard let index = engine.tree.index(of: view) else { return false }
        gestureEvents.removeAll(keepingCapacity: true)
        engine.change(change, of: index, now: now, into: &gestureEvents)
        for event in gestureEvents { output.append(.gesture(event)) }
        return true
    }

    /// Sets a device's rotation at runtime (a kiosk turning its screen). The device's touches in
    /// progress would jump to other screen points, so the gestures they drive are cancelled
    /// (running) or failed (pending); the touches stay down, unrouted, until they lift.
    public mutating func setRotation(_ rotation: Rotation, of id: DeviceID, now: Instant, into output: inout [Output]) {
        guard contains(id), devices[id.value]!.geometry.rotation != rotation else { return }
        let g = devices[id.value]!.geometry
        devices[id.value]!.geometry = DeviceGeometry(x: g.x, y: g.y, screen: g.screen, rotation: rotation,
                                                     calibration: g.calibration)
        gestureEvents.removeAll(keepingCapacity: true)
        engine.cancelGestures(involving: devices[id.value]!.touches, now: now, into: &gestureEvents)
        for event in gestureEvents { output.append(.gesture(event)) }
    }

    /// The device's current frame as touch updates with stable ids (new ones for touches that
    /// began), and the view id each touch was hit-tested to (nil for those that began: the engine
    /// hit-tests them). The device is reached in place, as in `feed(_:to:)`.
    private static func touchUpdates(of device: inout Device, nextTouchID: inout UInt64, into updates: inout [TouchUpdate],
                                     views updateViews: inout [String?]) {
        let geometry = device.geometry
        let sysname = device.name
        for change in device.decoder.frame.changes {
            let phase: TouchPhase
            let id: TouchID
            let view: String?
            switch change.phase {
            case .began:
                id = TouchID(nextTouchID); nextTouchID += 1
                device.touchInSlot[change.slot] = SlotTouch(id: id, view: nil)
                phase = .began
                view = nil // hit-tested by the engine
            case .moved, .ended, .cancelled:
                guard let existing = device.touchInSlot[change.slot] else { continue }
                id = existing.id
                view = existing.view
                phase = change.phase == .moved ? .moved : change.phase == .ended ? .ended : .cancelled
                if phase != .moved { device.touchInSlot[change.slot] = nil }
            }
            updates.append(TouchUpdate(id: id, phase: phase, location: geometry.point(for: change.position),
                                       device: sysname, slot: change.slot))
            updateViews.append(view)
        }
    }

    /// Turns the device's current frame into touch updates with stable ids, runs the engine on
    /// them, and appends the touch and gesture outputs.
    private mutating func deliver(device index: Int, now: Instant, into output: inout [Output]) {
        updates.removeAll(keepingCapacity: true)
        updateViews.removeAll(keepingCapacity: true)
        Self.touchUpdates(of: &devices[index]!, nextTouchID: &nextTouchID, into: &updates, views: &updateViews)
        guard !updates.isEmpty else { return }
        // Touch lines carry the view the touch was hit-tested to, so began needs the engine first.
        gestureEvents.removeAll(keepingCapacity: true)
        engine.handle(updates, now: now, into: &gestureEvents)
        for (i, update) in updates.enumerated() {
            if update.phase == .began {
                let view = engine.view(of: update.id).map { engine.tree.nodes[$0].id }
                devices[index]!.touchInSlot[update.slot]?.view = view
                updateViews[i] = view
            }
            if reportsTouches { output.append(.touch(TouchEvent(update: update, view: updateViews[i], time: now))) }
        }
        for event in gestureEvents { output.append(.gesture(event)) }
    }
}

/// A touch line's worth of information.
public struct TouchEvent: Hashable, Sendable {
    public var update: TouchUpdate
    /// The id of the view the touch was hit-tested to, nil when it hit none.
    public var view: String?
    public var time: Instant
}

extension DeviceDescription {
    /// The axes that carry positions, as `EvdevFrameDecoder` chooses them: MT when present and
    /// usable (not fake MT; slots need tracking ids unless there is no single-touch fallback),
    /// else single-touch.
    public var positionAxes: (AxisInfo, AxisInfo)? {
        let singleTouch = x != nil && y != nil
        if !isFakeMultitouch, let x = mtX, let y = mtY, !(slotCount > 0 && !hasTrackingID && singleTouch) {
            return (x, y)
        }
        if let x = x, let y = y { return (x, y) }
        return nil
    }
}
