/// The whole pure pipeline: raw evdev events of any number of devices in, touch and gesture
/// events out. The daemon and `gestured replay` both drive exactly this, so a recording replays
/// to the same lines the daemon produced live.
///
/// Time comes only from the events and from `advance(to:into:)`; `nextDeadline` tells the
/// caller when to call `advance` if no event arrives first.
///
/// One way out: every entry point (a read's events, a deadline, a control change, a rotation, a
/// reload, a removal, shutdown) fills one `Batch` with everything the shell must carry out, in
/// order: lines, actions, what the clones receive, faults, trace. Within a call, each frame or
/// deadline is one step: its gesture events, then the forwarder's decision for it.
///
/// Screens: each screen (`Configuration.screenSpecs`) has its own size, view tree and engine;
/// a device feeds one screen, so a touch and its gestures belong to one screen. Deadlines of
/// all screens fire in time order (ties: the earlier screen first). Touch ids are unique
/// across screens. Outputs of a named screen carry its id (`screen=` on lines).
public struct GesturePipeline: Sendable {
    /// A device known to the pipeline.
    public struct DeviceID: Hashable, Sendable { public let value: Int }

    /// One output of the pipeline, in the order it happened.
    public enum Output: Hashable, Sendable {
        case touch(TouchEvent)
        case gesture(GestureEvent)
        /// A kiosk line: `wake`, `lock`, `unlock`, `idle`, `active` (`KioskEvent`).
        case kiosk(KioskEvent)
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

    /// A live touch of a slot, and the view it was hit-tested to (for touch lines; the engine
    /// forgets it on lift): its id's index in `viewNames`, nil for none. Plain values: a
    /// touch's view is copied with every update of it.
    struct SlotTouch: Sendable {
        var id: TouchID
        var view: Int?
        /// Claimed by the kiosk policy (it began while its screen was locked or off, or while a
        /// claimed touch was down there): it reaches neither the engine nor the application.
        var claimed = false
        /// Claimed while its screen was locked, on a screen with an unlock gesture: its changes
        /// go to that gesture's engine (`UnlockGestures`).
        var unlocking = false
    }

    /// A change of a claimed touch in a frame: it began (at `location`, in screen points) or ended.
    struct ClaimedChange: Sendable {
        var began: Bool
        var location: Point
    }

    /// One screen: its coordinate space and the engine of its view tree.
    public struct Screen: Sendable {
        /// Nil for the single form's one screen (its lines carry no `screen=`).
        public let id: String?
        public let size: Size
        public internal(set) var engine: GestureEngine
    }

    public internal(set) var screens: [Screen]
    /// The first screen's size (the only one in the single form).
    public var screen: Size { screens[0].size }
    /// The first screen's engine (the only one in the single form).
    public var engine: GestureEngine { screens[0].engine }
    /// Whether touch updates are output (`Output.touch`). Off when nobody would receive them (no
    /// client subscribed to touches, `replay` without `--touches`): the gestures are the same,
    /// and a frame then builds no touch outputs only to have them dropped.
    public var reportsTouches = true
    /// By `DeviceID.value` (ids are never reused; a removed device leaves nil). An array rather
    /// than a dictionary: it is indexed for every raw event, and devices come and go rarely.
    var devices: [Device?] = []
    /// The index in `screens` of each device's screen, by `DeviceID.value`: beside `devices`
    /// rather than in `Device`, because a read through `devices[i]!` copies the whole `Device`
    /// (decoder buffers included), and the screen is read for every frame.
    var screenOfDevice: [Int] = []
    private var nextTouchID: UInt64 = 1
    /// The ids of the views touches are hit-tested to, for touch lines (`SlotTouch.view`): every
    /// screen's views (view `v` of screen `s` at `viewBase[s] + v`), then the views of touches
    /// that were down across a reload, which went with the old configuration.
    var viewNames: [String] = []
    var viewBase: [Int] = []
    /// Scratch buffers reused across frames.
    var updates: [TouchUpdate] = []
    /// The view of each of `updates` (`SlotTouch.view`), for its touch line.
    private var updateViews: [Int?] = []
    /// The device position of each of `updates`, for the clone of a pass-through device.
    private var updatePositions: [DevicePosition] = []
    /// What the touches of pass-through devices do in the application.
    var forwarder = TouchForwarder()
    /// Scratch buffers of one engine call, reused: its gesture events and ownership facts.
    var gestureEvents: [GestureEvent] = []
    var ownership: [TouchOwnership] = []
    /// Locks, screen power and idle clocks (docs/KIOSK.md).
    var kiosk: KioskState
    /// Scratch: the claimed touches' changes of one frame.
    var claimedChanges: [ClaimedChange] = []
    /// The screens' unlock gestures, and scratch: the unlocking touches' updates of one frame.
    var unlock: UnlockGestures
    var unlockUpdates: [TouchUpdate] = []
    /// By `DeviceID.value`: whether the device is grabbed only while the kiosk policy claims its
    /// touches (neither `grab` nor `passThrough`: the application reads it directly), and
    /// whether it is so grabbed now (`GesturePipeline+Kiosk.swift`, `settleClaimGrabs`).
    var grabsForClaims: [Bool] = []
    var grabbedForClaims: [Bool] = []
    /// How many of `grabbedForClaims` are true.
    var claimGrabsHeld = 0

    /// A pipeline of the single form (or of the first screen's size for every screen of the
    /// `screens` form that sets none).
    public init(configuration: Configuration, screen: Size) throws(GestureEngine.BuildError) {
        try self.init(configuration: configuration, sizes: configuration.screenSpecs.map { $0.size ?? screen })
    }

    /// A pipeline with one screen per `configuration.screenSpecs`, of the given sizes (see
    /// `screen(configuration:firstDevice:rotation:)`).
    public init(configuration: Configuration, sizes: [Size]) throws(GestureEngine.BuildError) {
        screens = try Self.build(configuration, sizes: sizes)
        unlock = try UnlockGestures(configuration, sizes: sizes)
        kiosk = KioskState(configuration: configuration)
        (viewNames, viewBase) = Self.viewNames(of: screens)
        reserveEventCapacity()
    }

    /// The most outputs and forwarded touches one step can make: each recognizer a few
    /// transitions, a touch line per slot of every device, and each slot's touch down, moves,
    /// cancel and lift (`Batch.init(for:)`).
    var busiestStep: (outputs: Int, forwarded: Int) {
        let slots = devices.reduce(0) { $0 + ($1?.touchInSlot.count ?? 0) }
        let recognizers = screens.map(\.engine.recognizerCount).reduce(0, +)
        return (4 * recognizers + 2 * slots + 16, 4 * slots + 16)
    }

    /// The index of the screen with id `id` (nil: the single form's).
    public func screenIndex(id: String?) -> Int? { screens.firstIndex { $0.id == id } }

    /// The screen a device feeds, if it is known.
    public func screen(of id: DeviceID) -> Int? { contains(id) ? screenOfDevice[id.value] : nil }

    /// The single form's screen in points (`ScreenSizing`, the one rule).
    public static func screen(configuration: Configuration, firstDevice: DeviceDescription?,
                              rotation: Rotation = .none) -> Size {
        ScreenSizing.size(configured: configuration.screen, firstDevice: firstDevice, rotation: rotation)
    }

    /// A screen's size (`ScreenSizing`, the one rule).
    public static func size(configured: Size?, firstDevice: DeviceDescription?, rotation: Rotation = .none) -> Size {
        ScreenSizing.size(configured: configured, firstDevice: firstDevice, rotation: rotation)
    }

    /// Starts decoding a device. Throws when its protocol or axes are unusable.
    ///
    /// - Parameters:
    ///   - rule: the configuration's rule for it, if any: rotation, calibration, touch limit.
    ///   - fallbackCalibration: the matrix to use when the rule sets none (the device's udev
    ///     `LIBINPUT_CALIBRATION_MATRIX`, parsed by `CalibrationMatrix`).
    ///   - screen: the index of the screen it feeds (`Configuration.screenIndex(of:properties:)`).
    public mutating func addDevice(_ description: DeviceDescription, rule: DeviceRule? = nil,
                                   fallbackCalibration: [Double]? = nil, screen: Int = 0)
        throws(EvdevFrameDecoder.Unsupported) -> DeviceID {
        let decoder = try EvdevFrameDecoder(device: description,
                                            options: .init(maximumTouches: rule?.maximumTouches))
        guard let (x, y) = description.positionAxes else { throw .noPositionAxes }
        guard let name = DeviceName(description.sysname) else { throw .sysnameTooLong(description.sysname) }
        let calibration = rule?.calibration ?? fallbackCalibration ?? DeviceGeometry.identityCalibration
        let geometry = DeviceGeometry(x: x, y: y, screen: screens[screen].size, rotation: rule?.rotation ?? .none,
                                      calibration: calibration)
        let id = DeviceID(value: devices.count)
        devices.append(Device(description: description, name: name, decoder: decoder, geometry: geometry,
                              touchInSlot: Array(repeating: nil, count: decoder.slotCount)))
        screenOfDevice.append(screen)
        grabsForClaims.append(rule?.grab != true && rule?.passThrough != true)
        grabbedForClaims.append(false)
        updates.reserveCapacity(2 * decoder.slotCount)
        updateViews.reserveCapacity(2 * decoder.slotCount)
        updatePositions.reserveCapacity(2 * decoder.slotCount)
        if rule?.passThrough == true {
            forwarder.addDevice(id.value, slotCount: decoder.slotCount)
            reserveEventCapacity()   // the engines report touch ownership from now on
        }
        return id
    }

    func contains(_ id: DeviceID) -> Bool { devices.indices.contains(id.value) && devices[id.value] != nil }

    /// The geometry a device was added with (rotation, calibration, screen), if it is known.
    public func geometry(of id: DeviceID) -> DeviceGeometry? { contains(id) ? devices[id.value]!.geometry : nil }

    /// The devices fed now, in the order they were added, as control requests (`rotate`) name
    /// them.
    public var deviceList: [ControlDesk.Device] {
        devices.indices.compactMap { i in devices[i].map { ControlDesk.Device(sysname: $0.description.sysname, id: DeviceID(value: i)) } }
    }

    /// A device's sysname, if it is known.
    public func sysname(of id: DeviceID) -> String? { contains(id) ? devices[id.value]!.description.sysname : nil }

    /// Whether a device forwards touches to a clone (`DeviceRule.passThrough`).
    public func passesThrough(_ id: DeviceID) -> Bool { forwarder.forwards(device: id.value) }

    /// Feeds a device's events (a read's worth): each frame they complete is a step, its
    /// deadlines due before it fired first. The faults its decoder survived come at the end.
    ///
    /// Concrete collections, not a generic sequence: a public generic function is not
    /// specialized across modules, and iterating through witness tables cost more than the
    /// frame's decoding.
    public mutating func handle(_ events: ArraySlice<RawEvent>, from id: DeviceID, into batch: inout Batch) {
        batch.removeAll()
        guard contains(id) else { return }
        for event in events { step(event, from: id.value, into: &batch) }
        finishRead(of: id, into: &batch)
    }

    /// `handle(_:from:into:)` for a whole array of events.
    public mutating func handle(_ events: [RawEvent], from id: DeviceID, into batch: inout Batch) {
        handle(events[...], from: id, into: &batch)
    }

    /// `handle(_:from:into:)` for one event (replay feeds events one at a time).
    public mutating func handle(_ event: RawEvent, from id: DeviceID, into batch: inout Batch) {
        batch.removeAll()
        guard contains(id) else { return }
        step(event, from: id.value, into: &batch)
        finishRead(of: id, into: &batch)
    }

    /// The end of a read: the faults the device's decoder survived, and the trace.
    private mutating func finishRead(of id: DeviceID, into batch: inout Batch) {
        if devices[id.value]!.decoder.hasAnomalies {
            let sysname = devices[id.value]!.description.sysname
            devices[id.value]!.decoder.takeAnomalies { anomaly, count in
                batch.faults.append(DeviceFault(device: id, sysname: sysname, anomaly: anomaly, count: count))
            }
        }
        settleClaimGrabs(into: &batch)
        collectTrace(into: &batch)
    }

    /// One raw event of a device, appended to `batch`. The device is mutated in place in
    /// `devices` (never copied out and back): a copy would share the decoder's buffers and so
    /// copy them on every event.
    private mutating func step(_ event: RawEvent, from index: Int, into batch: inout Batch) {
        guard let (time, resynchronized) = Self.feed(event, to: &devices[index]!) else { return }
        fireDeadlines(upTo: time, into: &batch)
        if resynchronized {
            // Events of this device were lost: what its gestures in progress were doing is
            // unknown. Its touches stay down, unrouted, until the resynchronized state ends or
            // moves them; other devices' gestures go on. The application is cancelled out of
            // them too.
            forwarder.claimAll(device: index)
            let screen = screenOfDevice[index]
            clearScratch()
            screens[screen].engine.cancelGestures(involving: devices[index]!.touches, now: time, into: &gestureEvents,
                                                  ownership: &ownership)
            emit(screen: screen, into: &batch)
        }
        deliver(device: index, now: time, resynchronized: resynchronized, into: &batch)
    }

    /// Feeds an event to a device's decoder; when it completes a frame, the frame's time and
    /// whether events were lost before it. The device is reached in place (`&devices[i]!`): a
    /// read through `devices[i]!` copies the whole `Device`, decoder buffers included.
    private static func feed(_ event: RawEvent, to device: inout Device) -> (time: Instant, resynchronized: Bool)? {
        guard device.decoder.feed(event) else { return nil }
        return (device.decoder.frame.time, device.decoder.frame.resynchronized)
    }

    /// Fires every deadline up to `now` (the timer the shell armed at `nextDeadline`).
    public mutating func advance(to now: Instant, into batch: inout Batch) {
        batch.removeAll()
        fireDeadlines(upTo: now, into: &batch)
        settleClaimGrabs(into: &batch)
        collectTrace(into: &batch)
    }

    /// Fires every deadline up to `now`, of all screens in time order: each due deadline fires
    /// with its own time, the earliest first (ties: the earlier screen), so what one screen's
    /// deadline does never precedes an earlier deadline of another. The forwarder decides after
    /// each deadline that did something, at its time: a held touch a failed gesture lets go of
    /// reaches the application when the gesture fails, not at the next frame.
    ///
    /// The kiosk policy's deadlines (a lock's end, an idle threshold) and the unlock gestures'
    /// fire in the same order, after the engines' at the same instant (then the kiosk's first).
    mutating func fireDeadlines(upTo now: Instant, into batch: inout Batch) {
        while true {
            let engines = earliestDeadline()
            let unlocking = unlock.nextDeadline
            if let k = kiosk.nextDeadline, k <= now, engines.map({ k < $0.1 }) ?? true, unlocking.map({ k <= $0.1 }) ?? true {
                kiosk.fire(at: k, into: &batch.outputs)
                continue
            }
            if let (s, u) = unlocking, u <= now, engines.map({ u < $0.1 }) ?? true, kiosk.nextDeadline.map({ u < $0 }) ?? true {
                if unlock.advance(screen: s, to: u) { kiosk.unlock([s], now: u, into: &batch.outputs) }
                continue
            }
            guard let (screen, deadline) = engines, deadline <= now else { return }
            clearScratch()
            screens[screen].engine.advance(to: deadline, into: &gestureEvents, ownership: &ownership)
            let decided = !gestureEvents.isEmpty || !ownership.isEmpty
            emit(screen: screen, into: &batch)
            if decided { forwarder.decide(now: deadline, into: &batch.forwarded) }
        }
    }

    private func earliestDeadline() -> (Int, Instant)? {
        var earliest: (Int, Instant)?
        for (i, s) in screens.enumerated() {
            if let d = s.engine.nextDeadline, earliest.map({ d < $0.1 }) ?? true { earliest = (i, d) }
        }
        return earliest
    }

    /// What a pipeline makes besides gestures, for whom: touch outputs, trace lines.
    public struct Reporting: Hashable, Sendable {
        public var touches: Bool
        public var trace: Bool
        public init(touches: Bool, trace: Bool) { self.touches = touches; self.trace = trace }
    }

    /// Touch outputs and trace lines on or off (`reportsTouches`, `tracesTransitions`).
    public var reporting: Reporting {
        get { Reporting(touches: reportsTouches, trace: tracesTransitions) }
        set {
            if reportsTouches != newValue.touches { reportsTouches = newValue.touches }
            if tracesTransitions != newValue.trace { tracesTransitions = newValue.trace }
        }
    }

    /// Whether the engines trace their transitions with reasons (`--trace`): the lines come in
    /// each call's batch. Every screen's engine traces or none does.
    public var tracesTransitions: Bool {
        get { screens[0].engine.tracesTransitions }
        set { for screen in screens.indices { screens[screen].engine.tracesTransitions = newValue } }
    }

    /// The engines' trace lines of this call, screen by screen, into the batch: every
    /// transition while `tracesTransitions`, and recognizer bugs either way (bounded while it is
    /// off).
    mutating func collectTrace(into batch: inout Batch) {
        for screen in screens.indices where !screens[screen].engine.trace.isEmpty {
            batch.trace += screens[screen].engine.drainTrace()
        }
    }

    /// When `advance(to:into:)` next has work, if ever.
    public var nextDeadline: Instant? {
        var earliest = screens.count == 1 ? screens[0].engine.nextDeadline : earliestDeadline()?.1
        if let k = kiosk.nextDeadline { earliest = earliest.map { min($0, k) } ?? k }
        if let (_, u) = unlock.nextDeadline { earliest = earliest.map { min($0, u) } ?? u }
        return earliest
    }


    /// Empties the scratch buffers of one engine call.
    mutating func clearScratch() {
        if !gestureEvents.isEmpty { gestureEvents.removeAll(keepingCapacity: true) }
        if !ownership.isEmpty { ownership.removeAll(keepingCapacity: true) }
    }

    /// Appends the gesture events of `screen`'s engine call to the batch, with the actions they
    /// reach, and hands its ownership facts to the forwarder.
    mutating func emit(screen: Int, into batch: inout Batch) {
        if !ownership.isEmpty { forwarder.apply(ownership, screen: screen) }
        for event in gestureEvents {
            batch.outputs.append(.gesture(event))
            if let action = event.label.action, action.state == event.state {
                batch.actions.append(ActionRequest(output: batch.outputs.count - 1, action: action))
            }
        }
    }

    /// The device's current frame as touch updates with stable ids (new ones for touches that
    /// began), and the view id each touch was hit-tested to (nil for those that began: the engine
    /// hit-tests them). The device is reached in place, as in `feed(_:to:)`.
    ///
    /// A touch that begins while `claimsNew` is claimed: it and its later changes go to `claimed`
    /// instead of `updates`, and, when `unlocks` (its screen is locked and has an unlock
    /// gesture), to `unlocking` as well.
    private static func touchUpdates(of device: inout Device, nextTouchID: inout UInt64, into updates: inout [TouchUpdate],
                                     views updateViews: inout [Int?], positions: inout [DevicePosition],
                                     claimsNew: Bool, claimed: inout [ClaimedChange], unlocks: Bool,
                                     unlocking: inout [TouchUpdate]) {
        let geometry = device.geometry
        let sysname = device.name
        for change in device.decoder.frame.changes {
            let phase: TouchPhase
            let id: TouchID
            let view: Int?
            switch change.phase {
            case .began:
                id = TouchID(nextTouchID); nextTouchID += 1
                device.touchInSlot[change.slot] = SlotTouch(id: id, view: nil, claimed: claimsNew, unlocking: claimsNew && unlocks)
                if claimsNew {
                    claimed.append(ClaimedChange(began: true, location: geometry.point(for: change.position)))
                    if unlocks {
                        unlocking.append(TouchUpdate(id: id, phase: .began, location: geometry.point(for: change.position),
                                                     device: sysname, slot: change.slot))
                    }
                    continue
                }
                phase = .began
                view = nil // hit-tested by the engine
            case .moved, .ended, .cancelled:
                guard let existing = device.touchInSlot[change.slot] else { continue }
                if existing.claimed {
                    if existing.unlocking {
                        let phase: TouchPhase = change.phase == .moved ? .moved : change.phase == .ended ? .ended : .cancelled
                        unlocking.append(TouchUpdate(id: existing.id, phase: phase, location: geometry.point(for: change.position),
                                                     device: sysname, slot: change.slot))
                    }
                    if change.phase != .moved {
                        device.touchInSlot[change.slot] = nil
                        claimed.append(ClaimedChange(began: false, location: geometry.point(for: change.position)))
                    }
                    continue
                }
                id = existing.id
                view = existing.view
                phase = change.phase == .moved ? .moved : change.phase == .ended ? .ended : .cancelled
                if phase != .moved { device.touchInSlot[change.slot] = nil }
            }
            updates.append(TouchUpdate(id: id, phase: phase, location: geometry.point(for: change.position),
                                       device: sysname, slot: change.slot))
            updateViews.append(view)
            positions.append(change.position)
        }
    }

    /// Turns the device's current frame into touch updates with stable ids, runs the engine on
    /// them, and appends the touch and gesture outputs, then the forwarder's one decision of the
    /// step (even for an empty frame when `resynchronized` claimed the device's touches).
    mutating func deliver(device index: Int, now: Instant, resynchronized: Bool = false, into batch: inout Batch) {
        updates.removeAll(keepingCapacity: true)
        updateViews.removeAll(keepingCapacity: true)
        updatePositions.removeAll(keepingCapacity: true)
        let screen = screenOfDevice[index]
        let watching = kiosk.watchesTouches
        let claimsNew = watching && (kiosk.claims(screen: screen) || claimedTouchDown(onScreen: screen))
        let unlocks = claimsNew && kiosk.screens[screen].lockedUntil != nil && unlock.has(screen: screen)
        Self.touchUpdates(of: &devices[index]!, nextTouchID: &nextTouchID, into: &updates, views: &updateViews,
                          positions: &updatePositions, claimsNew: claimsNew, claimed: &claimedChanges, unlocks: unlocks,
                          unlocking: &unlockUpdates)
        if watching { applyKiosk(screen: screen, device: index, now: now, into: &batch) }
        guard !updates.isEmpty else { if resynchronized { forwarder.decide(now: now, into: &batch.forwarded) }; return }
        // The forwarder takes the frame in but writes nothing before the arbiter's facts: a touch
        // claimed in this frame gets its cancel, not this frame's move first.
        let forwards = forwarder.forwards(device: index)
        if forwards {
            for (i, update) in updates.enumerated() {
                if update.phase == .began {
                    forwarder.began(update.id, device: index, screen: screen, at: updatePositions[i])
                } else {
                    forwarder.updated(update.id, phase: update.phase, at: updatePositions[i])
                }
            }
        }
        // Touch lines carry the view the touch was hit-tested to, so began needs the engine first.
        clearScratch()
        screens[screen].engine.handle(updates, now: now, into: &gestureEvents, ownership: &ownership)
        for (i, update) in updates.enumerated() {
            if update.phase == .began {
                let view = screens[screen].engine.view(of: update.id).map { viewBase[screen] + $0 }
                devices[index]!.touchInSlot[update.slot]?.view = view
                updateViews[i] = view
            }
            if reportsTouches {
                batch.outputs.append(.touch(TouchEvent(update: update, view: updateViews[i].map { viewNames[$0] }, time: now,
                                                       screen: screens[screen].id)))
            }
        }
        emit(screen: screen, into: &batch)
        if forwards || resynchronized || !ownership.isEmpty { forwarder.decide(now: now, into: &batch.forwarded) }
    }
}
