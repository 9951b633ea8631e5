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
        /// Set once, when a prepared device takes its id (`prepareDevice`).
        var id: DeviceID
        let description: DeviceDescription
        /// `description.sysname`, as touch updates carry it.
        let name: DeviceName
        var decoder: EvdevFrameDecoder
        var geometry: DeviceGeometry
        /// The touch in each slot, if any.
        var touchInSlot: [SlotTouch?]
        /// The index in `screens` of the screen it feeds.
        var screen: Int
        /// Whether it is grabbed only while the kiosk policy claims its touches (neither `grab`
        /// nor `passThrough`: the application reads it directly), and whether it is so grabbed
        /// now (`GesturePipeline+Kiosk.swift`, `settleClaimGrabs`).
        let grabsForClaims: Bool
        var grabbedForClaims = false

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
    /// The devices fed, found by id (`DeviceTable`).
    var devices = DeviceTable()
    var nextTouchID: UInt64 = 1
    /// The ids of the views touches are hit-tested to, for touch lines (`SlotTouch.view`): every
    /// screen's views (view `v` of screen `s` at `viewBase[s] + v`), then the views of touches
    /// that were down across a reload, which went with the old configuration.
    var viewNames: [String] = []
    var viewBase: [Int] = []
    /// Scratch buffers reused across frames.
    var updates: [TouchUpdate] = []
    /// The view of each of `updates` (`SlotTouch.view`), for its touch line.
    var updateViews: [Int?] = []
    /// The device position of each of `updates`, for the clone of a pass-through device.
    var updatePositions: [DevicePosition] = []
    /// What the touches of pass-through devices do in the application.
    var forwarder = TouchForwarder()
    /// Scratch buffers of one engine call, reused: its gesture events and ownership facts.
    var gestureEvents: [GestureEvent] = []
    var ownership: [TouchOwnership] = []
    /// The connected clients' subscriptions (the daemon's shell registers them): each step's
    /// lines are numbered and encoded for them (`Batch.delivery`).
    public var subscribers = Subscribers()
    /// Locks, screen power and idle clocks (docs/KIOSK.md).
    var kiosk: KioskState
    /// Scratch: the claimed touches' changes of one frame.
    var claimedChanges: [ClaimedChange] = []
    /// The screens' unlock gestures, and scratch: the unlocking touches' updates of one frame.
    var unlock: UnlockGestures
    var unlockUpdates: [TouchUpdate] = []
    /// How many devices are `grabbedForClaims`.
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
        let slots = devices.all.reduce(0) { $0 + $1.touchInSlot.count }
        let recognizers = screens.map(\.engine.recognizerCount).reduce(0, +)
        return (4 * recognizers + 2 * slots + 16, 4 * slots + 16)
    }

    /// The index of the screen with id `id` (nil: the single form's).
    public func screenIndex(id: String?) -> Int? { screens.firstIndex { $0.id == id } }

    /// The screen a device feeds, if it is known.
    public func screen(of id: DeviceID) -> Int? { devices.position(of: id).map { devices[$0].screen } }

    /// The single form's screen in points (`ScreenSizing`, the one rule).
    public static func screen(configuration: Configuration, firstDevice: DeviceDescription?,
                              rotation: Rotation = .none) -> Size {
        ScreenSizing.size(configured: configuration.screen, firstDevice: firstDevice, rotation: rotation)
    }

    /// A screen's size (`ScreenSizing`, the one rule).
    public static func size(configured: Size?, firstDevice: DeviceDescription?, rotation: Rotation = .none) -> Size {
        ScreenSizing.size(configured: configured, firstDevice: firstDevice, rotation: rotation)
    }

    /// A device ready to be added (`addDevice`) or to replace one on reload (`DeviceChange`):
    /// built before the step that adds it, since building it may fail and a step cannot.
    public struct PreparedDevice: Sendable {
        var device: Device
        /// The id it will have.
        public var id: DeviceID { device.id }
        /// Whether it passes its touches through to a clone (`DeviceRule.passThrough`).
        let passesThrough: Bool
    }

    /// Builds a device's decoder and geometry for the screen at index `screen` of size `size`,
    /// with the id `id`. Throws when its protocol or axes are unusable.
    ///
    /// - Parameters:
    ///   - rule: the configuration's rule for it, if any: rotation, calibration, touch limit.
    ///   - fallbackCalibration: the matrix to use when the rule sets none (the device's udev
    ///     `LIBINPUT_CALIBRATION_MATRIX`, parsed by `CalibrationMatrix`).
    static func prepare(_ description: DeviceDescription, rule: DeviceRule?, fallbackCalibration: [Double]?,
                        screen: Int, size: Size, id: DeviceID) throws(EvdevFrameDecoder.Unsupported) -> PreparedDevice {
        let decoder = try EvdevFrameDecoder(device: description,
                                            options: .init(maximumTouches: rule?.maximumTouches))
        guard let (x, y) = description.positionAxes else { throw .noPositionAxes }
        guard let name = DeviceName(description.sysname) else { throw .sysnameTooLong(description.sysname) }
        let calibration = rule?.calibration ?? fallbackCalibration ?? DeviceGeometry.identityCalibration
        let geometry = DeviceGeometry(x: x, y: y, screen: size, rotation: rule?.rotation ?? .none,
                                      calibration: calibration)
        let device = Device(id: id, description: description, name: name, decoder: decoder, geometry: geometry,
                            touchInSlot: Array(repeating: nil, count: decoder.slotCount), screen: screen,
                            grabsForClaims: rule?.grab != true && rule?.passThrough != true)
        return PreparedDevice(device: device, passesThrough: rule?.passThrough == true)
    }

    /// Prepares a new device (a new id) for the screen at index `screen`
    /// (`Configuration.screenIndex(of:properties:)`); `addDevice(_:line:into:)` adds it. Throws
    /// when its protocol or axes are unusable.
    public mutating func prepareDevice(_ description: DeviceDescription, rule: DeviceRule? = nil,
                                       fallbackCalibration: [Double]? = nil, screen: Int = 0)
        throws(EvdevFrameDecoder.Unsupported) -> PreparedDevice {
        // Built first, the id taken after: a device that cannot be built takes none.
        var prepared = try Self.prepare(description, rule: rule, fallbackCalibration: fallbackCalibration, screen: screen,
                                        size: screens[screen].size, id: DeviceID(value: -1))
        prepared.device.id = devices.reserveID()
        return prepared
    }

    /// Prepares a device for a reload's new treatment (`DeviceChange.replace`): the same id, the
    /// new screens' size.
    public static func prepareReplacement(of id: DeviceID, _ description: DeviceDescription, rule: DeviceRule?,
                                          fallbackCalibration: [Double]?, screen: Int, size: Size)
        throws(EvdevFrameDecoder.Unsupported) -> PreparedDevice {
        try prepare(description, rule: rule, fallbackCalibration: fallbackCalibration, screen: screen, size: size, id: id)
    }

    /// Prepares and adds a device in one step (tests, replay, the benches): see
    /// `prepareDevice` and `addDevice(_:line:into:)`.
    @discardableResult
    public mutating func addDevice(_ description: DeviceDescription, rule: DeviceRule? = nil,
                                   fallbackCalibration: [Double]? = nil, screen: Int = 0, line: DeviceLine? = nil,
                                   into batch: inout Batch) throws(EvdevFrameDecoder.Unsupported) -> DeviceID {
        let prepared = try prepareDevice(description, rule: rule, fallbackCalibration: fallbackCalibration, screen: screen)
        addDevice(prepared, line: line, into: &batch)
        return prepared.id
    }

    /// Holds a prepared device, new or (`replacing`) in place of the one of its id: its touches
    /// are decoded from now on. Called by the step.
    mutating func install(_ prepared: PreparedDevice, replacing: Bool = false) {
        let slots = prepared.device.touchInSlot.count
        guard replacing ? devices.replace(prepared.device) : devices.append(prepared.device) else { return }
        reserveFrameCapacity(slots: slots)
        if prepared.passesThrough {
            forwarder.addDevice(prepared.id.value, slotCount: slots)
            reserveEventCapacity()   // the engines report touch ownership from now on
        }
    }

    /// Room in the frame's scratch buffers for a device of `slots` slots.
    mutating func reserveFrameCapacity(slots: Int) {
        updates.reserveCapacity(2 * slots)
        updateViews.reserveCapacity(2 * slots)
        updatePositions.reserveCapacity(2 * slots)
    }

    /// The geometry a device was added with (rotation, calibration, screen), if it is known.
    public func geometry(of id: DeviceID) -> DeviceGeometry? { devices.position(of: id).map { devices[$0].geometry } }

    /// The devices fed now, in the order they were added, as control requests (`rotate`) name
    /// them.
    public var deviceList: [ControlDesk.Device] {
        devices.all.map { ControlDesk.Device(sysname: $0.description.sysname, id: $0.id) }
    }

    /// A device's sysname, if it is known.
    public func sysname(of id: DeviceID) -> String? { devices.position(of: id).map { devices[$0].description.sysname } }

    /// Whether a device forwards touches to a clone (`DeviceRule.passThrough`).
    public func passesThrough(_ id: DeviceID) -> Bool { forwarder.forwards(device: id.value) }

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

    /// When `advance(to:into:)` next has work, if ever.
    public var nextDeadline: Instant? {
        var earliest = screens.count == 1 ? screens[0].engine.nextDeadline : earliestDeadline()?.1
        if let k = kiosk.nextDeadline { earliest = earliest.map { min($0, k) } ?? k }
        if let (_, u) = unlock.nextDeadline { earliest = earliest.map { min($0, u) } ?? u }
        return earliest
    }
}
