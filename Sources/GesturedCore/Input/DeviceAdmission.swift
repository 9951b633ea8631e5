/// Whether and how the daemon uses one input device: the one policy the daemon (at start, on
/// hotplug, at a reload), `gestured replay` and `gestured devices` all apply (docs/DEVICES.md).
///
/// In two steps, because opening a node has a cost (and a keyboard's is never worth it): what
/// udev says decides whether to open it (`considers`), then the device's own description, its
/// udev properties and the configuration decide its treatment (`admit`): the rule, the screen,
/// the calibration, and whether it can pass through.
public enum DeviceAdmission {
    /// Why a device is not used.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// udev has not processed it yet; the monitor announces it again when it has.
        case notProcessed
        /// A pass-through clone made by gestured: the application's touchscreen, never input.
        case ownClone
        /// Not a touchscreen, and no rule adds it.
        case notSelected(DeviceKind)
        /// Rule `rule` says `ignore: true`.
        case ignoredByRule(Int)
        /// No screen's `devices` take it and no screen says `"rest"`.
        case noScreen

        public var description: String {
            switch self {
            case .notProcessed: "not used yet (udev has not processed it)"
            case .ownClone: "not used (a pass-through clone made by gestured: the application's touchscreen)"
            case .notSelected(let kind): "not used (\(kind.rawValue); a rule with add: true would use it)"
            case .ignoredByRule(let rule): "ignored (devices[\(rule)] says ignore)"
            case .noScreen: "not used (no screen takes it: no screen's devices match it and none says devices: \"rest\")"
            }
        }
    }

    /// What udev says of a device before its node is opened.
    public struct UdevFacts: Hashable, Sendable {
        public var name: String
        public var syspath: String
        public var properties: [String: String]
        public var isInitialized: Bool
        public init(name: String, syspath: String, properties: [String: String], isInitialized: Bool) {
            self.name = name; self.syspath = syspath; self.properties = properties; self.isInitialized = isInitialized
        }
    }

    /// Whether a device is worth opening: nil when it is, else why not.
    public static func considers(_ udev: UdevFacts, rules: [DeviceRule]) -> Refusal? {
        guard DeviceSelection.isReady(initialized: udev.isInitialized, properties: udev.properties) else { return .notProcessed }
        // The daemon's own clones are touchscreens to udev too: taking one as input would feed
        // the daemon its own forwarded touches.
        guard !CloneName.isClone(name: udev.name, syspath: udev.syspath) else { return .ownClone }
        let kind = DeviceKind(properties: udev.properties)
        guard kind == .touchscreen || rules.contains(where: \.add) else { return .notSelected(kind) }
        return nil
    }

    /// How the configuration treats a device it uses.
    public struct Admitted: Hashable, Sendable {
        /// The index of the rule that applies, if any.
        public var ruleIndex: Int?
        /// That rule as it applies: `passThrough` and `grab` off when the device cannot be
        /// cloned (`DeviceDescription.cloneRefusal`; `passThroughRefused` says why).
        public var rule: DeviceRule?
        /// The index of its screen in `Configuration.screenSpecs`.
        public var screen: Int
        /// udev's `LIBINPUT_CALIBRATION_MATRIX`, when the rule sets no calibration and it is six
        /// numbers: the pipeline's fallback.
        public var udevCalibration: [Double]?
        /// That property's text when it is not six numbers: ignored, worth a warning.
        public var invalidUdevCalibration: String?
        /// Why a rule's `passThrough` cannot apply (the device is read without grabbing, so the
        /// application still sees every touch).
        public var passThroughRefused: String?
    }

    /// The treatment of a device the configuration uses, or why it does not use it.
    ///
    /// - Parameter selecting: whether the device's kind must be selected (a touchscreen, or added
    ///   by its rule). `gestured replay` passes false: a recording is a device its user chose.
    public static func admit(_ description: DeviceDescription, properties: [String: String], configuration: Configuration,
                             selecting: Bool = true) -> Result<Admitted, Refusal> {
        let ruleIndex: Int?
        switch DeviceSelection.decide(description, properties: properties, rules: configuration.devices) {
        case .use(let index): ruleIndex = index
        case .ignoredByRule(let index): return .failure(.ignoredByRule(index))
        case .notSelected(let kind):
            guard !selecting else { return .failure(.notSelected(kind)) }
            ruleIndex = DeviceSelection.rule(for: description, properties: properties, rules: configuration.devices)
        }
        guard let screen = configuration.screenIndex(of: description, properties: properties) else { return .failure(.noScreen) }
        var admitted = Admitted(ruleIndex: ruleIndex, rule: ruleIndex.map { configuration.devices[$0] }, screen: screen)
        if admitted.rule?.calibration == nil, let text = properties["LIBINPUT_CALIBRATION_MATRIX"] {
            admitted.udevCalibration = CalibrationMatrix.parse(text)
            if admitted.udevCalibration == nil { admitted.invalidUdevCalibration = text }
        }
        if var rule = admitted.rule, rule.passThrough, let reason = description.cloneRefusal {
            rule.passThrough = false
            rule.grab = false
            admitted.rule = rule
            admitted.passThroughRefused = reason
        }
        return .success(admitted)
    }
}

/// The names of the uinput clones gestured makes (`<panel name> (gestured)`), so that the daemon
/// never takes its own clone as input.
public enum CloneName {
    public static let suffix = " (gestured)"

    /// The longest name the kernel keeps for a uinput device: `UINPUT_MAX_NAME_SIZE` (80, in
    /// linux/uinput.h) less its terminating NUL. Longer names are cut, which would cut the suffix.
    public static let maximumBytes = 79

    /// The clone's name for a device named `name`, as the kernel will hold it: `<name> (gestured)`,
    /// the device's name shortened (at a character) when the whole would not fit `maximumBytes`,
    /// so the suffix always survives (`isClone` recognizes it). The one place the name is made:
    /// `UinputClone` names the clone with it, and `CalibrationReport` matches the clone by it.
    public static func of(_ name: String) -> String {
        var base = Substring(name)
        while base.utf8.count + suffix.utf8.count > maximumBytes { base = base.dropLast() }
        return base + suffix
    }

    /// Whether a device is one of gestured's clones (this daemon's or another instance's): a
    /// uinput device, so under /sys/devices/virtual/input/ (it has no physical parent), whose name
    /// ends in `suffix`. A real panel is never taken for one by its name alone.
    public static func isClone(name: String, syspath: String) -> Bool {
        name.hasSuffix(suffix) && syspath.hasPrefix("/sys/devices/virtual/input/")
    }
}
