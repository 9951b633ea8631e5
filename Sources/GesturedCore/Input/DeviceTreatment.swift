/// How the configuration treats an open device: what its rule sets and its screen. A reload
/// adds a device to the pipeline again (cancelling its touches in flight) only when this changes.
public struct DeviceTreatment: Hashable, Sendable {
    public var rotation: Rotation
    /// The effective matrix: the rule's, else udev's, else nil (identity).
    public var calibration: [Double]?
    public var maximumTouches: Int?
    public var grab: Bool
    /// Whether it forwards to a clone (false when the rule asked but the device cannot be
    /// cloned, or the clone could not be made).
    public var passThrough: Bool
    public var screenID: String?
    public var screenSize: Size

    public init(_ admitted: DeviceAdmission.Admitted, screenID: String?, screenSize: Size) {
        rotation = admitted.rule?.rotation ?? .none
        calibration = admitted.rule?.calibration ?? admitted.udevCalibration
        maximumTouches = admitted.rule?.maximumTouches
        grab = admitted.rule?.grab ?? false
        passThrough = admitted.rule?.passThrough ?? false
        self.screenID = screenID
        self.screenSize = screenSize
    }

    /// What differs from `old`, as the log says it ("rotation 0 → 90").
    public func changes(from old: DeviceTreatment) -> [String] {
        var changes: [String] = []
        func size(_ s: Size) -> String { "\(LineEncoder.fixed(s.width, decimals: 0))x\(LineEncoder.fixed(s.height, decimals: 0))" }
        if rotation != old.rotation { changes.append("rotation \(old.rotation.rawValue) → \(rotation.rawValue)") }
        if calibration != old.calibration { changes.append("calibration changed") }
        if maximumTouches != old.maximumTouches {
            changes.append("maximumTouches \(old.maximumTouches.map(String.init) ?? "none") → \(maximumTouches.map(String.init) ?? "none")")
        }
        if grab != old.grab { changes.append(grab ? "grabbed" : "grab released") }
        if passThrough != old.passThrough { changes.append(passThrough ? "passThrough on" : "passThrough off") }
        if screenID != old.screenID { changes.append("screen \(old.screenID ?? "-") → \(screenID ?? "-")") }
        if screenSize != old.screenSize { changes.append("screen size \(size(old.screenSize)) → \(size(screenSize))") }
        return changes
    }
}

extension GesturePipeline {
    /// Each screen's size for a configuration (`ScreenSizing`, the one rule).
    public static func sizes(for configuration: Configuration,
                             devices: [(description: DeviceDescription, admitted: DeviceAdmission.Admitted)],
                             previous: [Screen] = []) -> [Size] {
        ScreenSizing.sizes(for: configuration, devices: devices, previous: previous)
    }
}

/// What a reload does to each device the daemon has open, as data (the daemon carries it out):
/// a device now refused is let go, one whose treatment changed is added to the pipeline again
/// (its touches in flight cancelled) or, when its `passThrough` changed, closed and opened again
/// with or without its clone; the others keep going, on their screen's new index.
public struct ReloadPlan<Key: Hashable & Sendable>: Sendable {
    public enum Step: Hashable, Sendable {
        /// Its treatment is the same: it goes on (on the screen `admitted.screen`, whose index may
        /// have changed; a new `cancelStyle` applies without cancelling anything).
        case keep(DeviceAdmission.Admitted)
        case readd(DeviceAdmission.Admitted, changes: [String])
        case reopen(changes: [String])
        case release(DeviceAdmission.Refusal)

        /// How the configuration treats it from now on, unless it is let go or reopened.
        public var admitted: DeviceAdmission.Admitted? {
            switch self {
            case .keep(let a), .readd(let a, _): a
            case .reopen, .release: nil
            }
        }
    }

    /// An open device as the plan sees it.
    public struct Open: Sendable {
        public var key: Key
        public var description: DeviceDescription
        public var properties: [String: String]
        public var treatment: DeviceTreatment
        public init(key: Key, description: DeviceDescription, properties: [String: String], treatment: DeviceTreatment) {
            self.key = key; self.description = description; self.properties = properties; self.treatment = treatment
        }
    }

    /// The new screens' sizes (`ScreenSizing`, the current screens kept by id).
    public var sizes: [Size]
    /// One step per open device, in the order given.
    public var steps: [(key: Key, step: Step)]

    public init(open: [Open], fresh: Configuration, current: [GesturePipeline.Screen]) {
        let verdicts = open.map { DeviceAdmission.admit($0.description, properties: $0.properties, configuration: fresh) }
        var admitted: [(description: DeviceDescription, admitted: DeviceAdmission.Admitted)] = []
        for (device, verdict) in zip(open, verdicts) { if case .success(let a) = verdict { admitted.append((device.description, a)) } }
        let sizes = ScreenSizing.sizes(for: fresh, devices: admitted, previous: current)
        let specs = fresh.screenSpecs
        self.sizes = sizes
        steps = zip(open, verdicts).map { device, verdict -> (key: Key, step: Step) in
            switch verdict {
            case .failure(let refusal): return (device.key, .release(refusal))
            case .success(let a):
                let new = DeviceTreatment(a, screenID: specs[a.screen].id, screenSize: sizes[a.screen])
                let changes = new.changes(from: device.treatment)
                if changes.isEmpty { return (device.key, .keep(a)) }
                if new.passThrough != device.treatment.passThrough { return (device.key, .reopen(changes: changes)) }
                return (device.key, .readd(a, changes: changes))
            }
        }
    }
}
