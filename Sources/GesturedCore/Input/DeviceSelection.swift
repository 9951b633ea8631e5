/// Which input devices the daemon uses, and with which rule (docs/DEVICES.md).
///
/// Policy: touchscreens (`ID_INPUT_TOUCHSCREEN=1`) are used by default; the first configuration
/// rule whose `match` fits a device applies to it; `ignore: true` leaves it alone; any other kind
/// (touchpad, touch tablet, a panel udev does not classify) is used only when its rule says
/// `add: true`. Whether the device's axes and protocol are usable is the decoder's decision,
/// made when it is added (`EvdevFrameDecoder.Unsupported`).
public enum DeviceSelection {
    /// What the configuration decides for one device.
    public enum Decision: Hashable, Sendable, CustomStringConvertible {
        /// Use it; `rule` is the index of the rule that applies, if any.
        case use(rule: Int?)
        /// Rule `rule` says `ignore: true`.
        case ignoredByRule(Int)
        /// Not a touchscreen, and no rule adds it.
        case notSelected(DeviceKind)

        public var description: String {
            switch self {
            case .use(let rule): rule.map { "used (devices[\($0)])" } ?? "used (touchscreen)"
            case .ignoredByRule(let rule): "ignored (devices[\(rule)] says ignore)"
            case .notSelected(let kind): "not used (\(kind.rawValue); a rule with add: true would use it)"
            }
        }
    }

    /// The index of the first rule that matches, if any.
    public static func rule(for device: DeviceDescription, properties: [String: String],
                            rules: [DeviceRule]) -> Int? {
        rules.firstIndex { $0.matches(device, properties: properties) }
    }

    public static func decide(_ device: DeviceDescription, properties: [String: String],
                              rules: [DeviceRule]) -> Decision {
        let index = rule(for: device, properties: properties, rules: rules)
        if let index, rules[index].ignore { return .ignoredByRule(index) }
        let kind = DeviceKind(properties: properties)
        if kind == .touchscreen { return .use(rule: index) }
        if let index, rules[index].add { return .use(rule: index) }
        return .notSelected(kind)
    }

    /// Whether udev has processed a device far enough to judge it.
    ///
    /// `udev_device_get_is_initialized()` is the real answer, but umockdev's devices never say so
    /// although all their properties are there (docs/TESTING.md). `ID_INPUT` is set by udev's
    /// `input_id` builtin, which a kernel uevent never carries, so its presence shows that the
    /// classification has been done. A device that has neither is skipped: on a real system the
    /// monitor announces it again once udev has processed it.
    public static func isReady(initialized: Bool, properties: [String: String]) -> Bool {
        initialized || properties["ID_INPUT"] != nil
    }
}

/// udev's `LIBINPUT_CALIBRATION_MATRIX` property: six numbers separated by spaces, libinput's
/// matrix `a b c d e f` on normalized coordinates.
public enum CalibrationMatrix {
    /// The six numbers, or nil when the text is not exactly six finite numbers.
    public static func parse(_ text: String) -> [Double]? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 6 else { return nil }
        var values: [Double] = []
        for part in parts {
            guard let value = Double(part), value.isFinite else { return nil }
            values.append(value)
        }
        return values
    }
}

extension DeviceRule {
    /// Whether every key of `match` fits the device (`DeviceMatch.matches`).
    public func matches(_ device: DeviceDescription, properties: [String: String] = [:]) -> Bool {
        match.matches(device, properties: properties)
    }
}

extension DeviceMatch {
    /// Whether every key fits the device. `properties` are its udev properties (none in replay,
    /// where only name, sysname and ids can match).
    public func matches(_ device: DeviceDescription, properties: [String: String] = [:]) -> Bool {
        if let pattern = name, !Glob.matches(pattern, device.name) { return false }
        if let pattern = sysname, !Glob.matches(pattern, device.sysname) { return false }
        if let vendor, vendor != device.vendor { return false }
        if let product, product != device.product { return false }
        if let type, type != DeviceKind(properties: properties) { return false }
        for (key, pattern) in self.properties {
            guard let value = properties[key], Glob.matches(pattern, value) else { return false }
        }
        return true
    }
}
