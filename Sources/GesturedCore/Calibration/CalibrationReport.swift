/// What `gestured calibrate` prints once a fit is accepted: the matrix, the residual, the
/// configuration's device rule, and the udev rule with where to install it (docs/KIOSK.md,
/// "Calibration").
///
/// The udev rule sets `LIBINPUT_CALIBRATION_MATRIX` on the panel and on gestured's pass-through
/// clone of it (`CloneName`), both matched by name: the daemon reads the panel's property for its
/// own map, every libinput compositor reads the clone's (or the panel's, when the daemon is down
/// or no clone is made), so one measured matrix serves all three.
public struct CalibrationReport: Hashable, Sendable {
    /// Where the udev rule goes. 99: after every rule the system ships, so that no earlier rule
    /// or hwdb entry setting the same property wins over the measured matrix.
    public static let udevRulePath = "/etc/udev/rules.d/99-gestured-calibration.rules"
    /// What makes udev apply the rule to devices already present.
    public static let udevReload = "udevadm control --reload && udevadm trigger --subsystem-match=input --action=change"

    /// The panel's name (`EVIOCGNAME`), as udev's `ATTRS{name}` and the configuration's
    /// `match.name` see it.
    public var device: String
    public var fit: CalibrationFit
    public var screen: Size
    /// The raw touches, in normalized panel coordinates, in target order.
    public var touches: [NormalizedPoint]

    public init(device: String, fit: CalibrationFit, screen: Size, touches: [NormalizedPoint]) {
        self.device = device; self.fit = fit; self.screen = screen; self.touches = touches
    }

    public var residualLimit: Double { CalibrationFit.residualLimit(screen: screen) }

    /// `a b c d e f`, each with at most 6 decimals (a millionth of the panel's range).
    public var matrixText: String { fit.matrix.map(Self.number).joined(separator: " ") }

    /// The two udev rules, with a comment line saying what they are.
    public var udevRule: String {
        let value = "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(matrixText)\""
        let base = "SUBSYSTEM==\"input\", KERNEL==\"event*\", "
        return "# \(Self.udevRulePath): measured by gestured calibrate (residual "
            + "\(LineEncoder.fixed(fit.residual, decimals: 1)) points); the panel, then gestured's clone of it\n"
            + base + "ATTRS{name}==\"\(Self.udevPattern(device))\", " + value + "\n"
            + base + "ATTRS{name}==\"\(Self.udevPattern(device + CloneName.suffix))\", " + value + "\n"
    }

    /// The configuration's rule for the same matrix (it takes precedence over the udev property
    /// for gestured only).
    public var deviceRule: String {
        "{ match: { name: \(LineEncoder.jsonString(Self.globLiteral(device))) }, calibration: ["
            + fit.matrix.map(Self.number).joined(separator: ", ") + "] }"
    }

    /// What a person reads: the matrix, the residual, the rules and how to install them.
    public var text: String {
        """
        device: \(device)
        calibration: \(matrixText)
        residual: \(LineEncoder.fixed(fit.residual, decimals: 1)) points (limit \(LineEncoder.fixed(residualLimit, decimals: 1)) \
        on a \(Self.number(screen.width)) × \(Self.number(screen.height)) screen)

        udev rule (gestured, every libinput compositor and the panel without the daemon), install as
        \(Self.udevRulePath), then run `\(Self.udevReload)`:
        \(udevRule)
        or, for gestured alone, this rule in the configuration's devices (it wins over the udev rule):
        \(deviceRule)

        """
    }

    /// One JSON object on one line: CONTRACT.md §6's keys and a few more.
    public var json: String {
        let numbers = fit.matrix.map(Self.number).joined(separator: ",")
        let touches = touches.map { "[\(Self.number($0.x)),\(Self.number($0.y))]" }.joined(separator: ",")
        return "{\"device\":\(LineEncoder.jsonString(device)),\"calibration\":[\(numbers)],"
            + "\"residual\":\(LineEncoder.fixed(fit.residual, decimals: 2)),"
            + "\"residualLimit\":\(LineEncoder.fixed(residualLimit, decimals: 2)),"
            + "\"screen\":{\"width\":\(Self.number(screen.width)),\"height\":\(Self.number(screen.height))},"
            + "\"touches\":[\(touches)],"
            + "\"udevRule\":\(LineEncoder.jsonString(udevRule)),\"udevRuleFile\":\(LineEncoder.jsonString(Self.udevRulePath)),"
            + "\"udevReload\":\(LineEncoder.jsonString(Self.udevReload)),"
            + "\"deviceRule\":\(LineEncoder.jsonString(deviceRule))}\n"
    }

    /// `value` with at most 6 decimals, trailing zeros dropped (`1`, `-0.035`, never `-0`).
    public static func number(_ value: Double) -> String {
        var text = LineEncoder.fixed(value, decimals: 6)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A name as a udev match pattern that matches exactly it: udev's `*`, `?`, `[` and `|`
    /// are pattern characters and a `"` or `\` would end or escape the string, so each of them
    /// becomes `?` (which matches that character, among others).
    public static func udevPattern(_ name: String) -> String {
        String(name.map { "*?[]|\"\\".contains($0) ? "?" : $0 })
    }

    /// A name as a configuration glob that matches it: `*`, `?` and `[` become `?`.
    public static func globLiteral(_ name: String) -> String {
        String(name.map { "*?[".contains($0) ? "?" : $0 })
    }
}
