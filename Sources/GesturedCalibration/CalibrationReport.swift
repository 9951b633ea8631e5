import GesturedCore

/// What `gestured calibrate` prints once a fit is accepted: the matrix, the residual, the
/// configuration's device rule, and the udev rule with where to install it (docs/KIOSK.md,
/// "Calibration").
///
/// The udev rule sets `LIBINPUT_CALIBRATION_MATRIX` on the panel and on gestured's pass-through
/// clone of it (`CloneName.of`), both matched by name: the daemon reads the panel's property for
/// its own map, every libinput compositor reads the clone's (or the panel's, when the daemon is
/// down or no clone is made), so one measured matrix serves all three. A name that cannot be a
/// pattern safely (`UdevName`) gets no name rule: the panel and its clone (which copies the ids)
/// are matched by their vendor and product ids instead, or the report says how to match them.
///
/// Its text escapes what the panel chose (its name) with `LogText`; the JSON escapes it as JSON.
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
    /// The panel's vendor and product ids (`EVIOCGID`), when known: the rule's match when the
    /// name cannot be one.
    public var ids: IDs?

    /// A device's vendor and product ids, as sysfs's `id/vendor` and `id/product` show them.
    public struct IDs: Hashable, Sendable {
        public var vendor: UInt16
        public var product: UInt16
        public init(vendor: UInt16, product: UInt16) { self.vendor = vendor; self.product = product }
    }

    public init(device: String, fit: CalibrationFit, screen: Size, touches: [NormalizedPoint], ids: IDs? = nil) {
        self.device = device; self.fit = fit; self.screen = screen; self.touches = touches; self.ids = ids
    }

    public var residualLimit: Double { CalibrationFit.residualLimit(screen: screen) }

    /// `a b c d e f`, each with at most 6 decimals (a millionth of the panel's range).
    public var matrixText: String { fit.matrix.map(Self.number).joined(separator: " ") }

    /// The udev rules, with comment lines saying what they are: by name for the panel and for
    /// its clone (named as `UinputClone` names it, cut to the kernel's length); when the name
    /// cannot be a pattern, one rule by vendor and product ids (the clone copies them), else
    /// comments alone saying how to match the panel.
    public var udevRule: String {
        let value = "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(matrixText)\""
        let base = "SUBSYSTEM==\"input\", KERNEL==\"event*\", "
        let head = "# \(Self.udevRulePath): measured by gestured calibrate (residual "
            + "\(LineEncoder.fixed(fit.residual, decimals: 1)) points)"
        let unsafe: UdevName.Unsafe
        switch (UdevName.pattern(device), UdevName.pattern(CloneName.of(device))) {
        case (.success(let panel), .success(let clone)):
            return head + "; the panel, then gestured's clone of it\n"
                + base + "ATTRS{name}==\"\(panel)\", " + value + "\n"
                + base + "ATTRS{name}==\"\(clone)\", " + value + "\n"
        case (.failure(let reason), _), (_, .failure(let reason)):
            unsafe = reason
        }
        let why = head + "\n# no rule by name: the panel's name holds \(unsafe), which a udev rule cannot match safely;\n"
        guard let ids, ids.vendor != 0 || ids.product != 0 else {
            return why + "# the panel reports no vendor and product ids either: match it (and its clone) by an attribute that\n"
                + "# `udevadm info --attribute-walk /dev/input/eventN` shows for the panel's node, with \(value)\n"
        }
        return why + "# the panel and gestured's clone of it (which copies them) by their vendor and product ids instead\n"
            + base + "ATTRS{id/vendor}==\"\(Self.hex4(ids.vendor))\", ATTRS{id/product}==\"\(Self.hex4(ids.product))\", "
            + value + "\n"
    }

    /// `0x04e7` as sysfs writes it: `04e7`.
    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The configuration's rule for the same matrix (it takes precedence over the udev property
    /// for gestured only).
    public var deviceRule: String {
        "{ match: { name: \(Self.configString(Self.globLiteral(device))) }, calibration: ["
            + fit.matrix.map(Self.number).joined(separator: ", ") + "] }"
    }

    /// What a person reads: the matrix, the residual, the rules and how to install them.
    public var text: String {
        """
        device: \(LogText.escaped(device))
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

    /// A name as a configuration glob that matches it: `*`, `?` and `[` become `?` (by scalar:
    /// a `[` followed by a combining mark is one `Character` that is not `[`).
    public static func globLiteral(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { out.append(scalar == "*" || scalar == "?" || scalar == "[" ? "?" : scalar) }
        return String(out)
    }

    /// A JSON5 string literal for the configuration: JSON's escaping (C0 and DEL as `\u00XX`),
    /// and C1 controls (U+0080…U+009F) as `\u00XX` too, so the literal printed to a terminal
    /// holds no control character (JSON allows either form; the value is the same).
    static func configString(_ text: String) -> String {
        let json = LineEncoder.jsonString(text)
        guard json.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) { out += "\\u00" + String(scalar.value, radix: 16) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
