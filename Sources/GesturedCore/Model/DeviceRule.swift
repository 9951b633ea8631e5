/// Screen rotation of a device's axes, clockwise.
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270
}

/// Which devices a rule applies to. Every given key must match (string keys are globs with `*`,
/// `?`, `[...]`); a match without keys matches every device.
public struct DeviceMatch: Hashable, Sendable {
    public var name: String?
    public var sysname: String?
    /// USB/Bluetooth/… ids (`EVIOCGID`), exact.
    public var vendor: UInt16?
    public var product: UInt16?
    /// What udev says the device is (`ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`, `ID_INPUT_TABLET`).
    public var type: DeviceKind?
    /// udev properties, each value a glob (`ID_PATH: "pci-*"`); a missing property never matches.
    public var properties: [String: String]

    public init(name: String? = nil, sysname: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil,
                type: DeviceKind? = nil, properties: [String: String] = [:]) {
        self.name = name; self.sysname = sysname; self.vendor = vendor; self.product = product
        self.type = type; self.properties = properties
    }
}

/// A device's kind as udev's `60-input-id` rules classify it; the `type` of `DeviceMatch` and of
/// `gestured devices`.
public enum DeviceKind: String, Hashable, Sendable, CaseIterable {
    case touchscreen, touchpad, tablet, other

    /// From the udev properties: touchscreen before tablet before touchpad (a pen display sets
    /// both `ID_INPUT_TOUCHSCREEN` and `ID_INPUT_TABLET` on its touch node).
    public init(properties: [String: String]) {
        if properties["ID_INPUT_TOUCHSCREEN"] == "1" { self = .touchscreen }
        else if properties["ID_INPUT_TABLET"] == "1" { self = .tablet }
        else if properties["ID_INPUT_TOUCHPAD"] == "1" { self = .touchpad }
        else { self = .other }
    }
}

/// How the daemon treats the devices a rule matches.
public struct DeviceRule: Hashable, Sendable {
    public var match: DeviceMatch
    public var rotation: Rotation
    /// libinput's calibration matrix (a, b, c, d, e, f) on normalized device coordinates:
    /// x' = a·x + b·y + c, y' = d·x + e·y + f. `nil`: identity (or the udev property).
    public var calibration: [Double]?
    public var grab: Bool
    public var ignore: Bool
    /// Use the device even though udev does not call it a touchscreen (a touchpad, a touch
    /// tablet, an unclassified panel). Touchscreens are used without it.
    public var add: Bool
    /// At most this many simultaneous touches; further ones are ignored for their whole life.
    /// `nil`: no limit but the device's slots.
    public var maximumTouches: Int?
    /// Forward the touches the application should get to a uinput clone of the device
    /// (docs/KIOSK.md). Implies `grab`.
    public var passThrough: Bool
    /// How a touch the map claims ends in the application (CONTRACT.md §5).
    public var cancelStyle: CancelStyle

    public init(match: DeviceMatch = DeviceMatch(), rotation: Rotation = .none,
                calibration: [Double]? = nil, grab: Bool = false, ignore: Bool = false,
                add: Bool = false, maximumTouches: Int? = nil, passThrough: Bool = false,
                cancelStyle: CancelStyle = .default) {
        self.match = match; self.rotation = rotation; self.calibration = calibration
        self.grab = grab || passThrough; self.ignore = ignore; self.add = add; self.maximumTouches = maximumTouches
        self.passThrough = passThrough; self.cancelStyle = cancelStyle
    }
}

/// How a touch the map claims (or the daemon cancels) ends on a pass-through device's clone,
/// that is in the application. The core decides the same either way; only the evdev events
/// differ (`CloneEncoder`).
public enum CancelStyle: String, Hashable, Sendable, CaseIterable {
    /// `MT_TOOL_PALM`, then the lift: libinput's `TOUCH_CANCEL`, which a compositor that passes
    /// it on makes `wl_touch.cancel`. Debian 12's wlroots 0.15 (cage, sway) and weston 10 drop
    /// it: the application then keeps the touch pressed (docs/KIOSK.md, measured).
    case palm
    /// A plain lift: libinput's `TOUCH_UP`, `wl_touch.up` in every compositor, so nothing stays
    /// pressed; the application sees the touch end where it was, as an ordinary lift.
    case lift

    /// The measured choice for Debian 12's compositors (docs/KIOSK.md): see there.
    public static let `default`: CancelStyle = .lift
}
