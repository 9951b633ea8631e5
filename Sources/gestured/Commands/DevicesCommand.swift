import GesturedCore
import GesturedIO
import Glibc

/// `gestured devices [--json]`: every input event node udev knows, what it is, what it can
/// report, and how the configuration treats it (the rule that applies, used or not and why); the
/// configuration is the one `ConfigChoice` picks (said on stderr).
///
/// Opens each node read-only for a moment (libevdev reads its capabilities; no events are
/// consumed and no grab is taken); a node it cannot open is listed with the reason.
enum DevicesCommand {
    /// One device, as listed.
    struct Entry {
        var info: InputDeviceInfo
        var kind: DeviceKind
        var description: DeviceDescription?
        var openError: String?
        /// `protocol B, 10 slots` / `protocol A` / `single touch` / `unusable: …` / nil.
        var touch: String?
        var usable: Bool
        /// The daemon would use it.
        var used = false
        var rule: Int?
        var decision: String
        /// With `screens` configured: the id of the screen that takes the device, "" for none.
        var screen: String?
        /// For a device used under a `passThrough` rule: whether it can be cloned, and the
        /// gestures that need more touches than it reports (PassThroughChecks.swift).
        var passThrough: String?
    }

    static func run(config: String?, json: Bool) throws(CommandFailure) {
        let choice = ConfigChoice.resolve(given: config)
        let configuration = try loadConfiguration(choice.path)
        // The panels give the screen its size here: none is assumed.
        choice.announce(assumedScreen: false)
        let infos: [InputDeviceInfo]
        do { infos = try UdevEnumerator.inputDevices() } catch {
            throw CommandFailure(ExitStatus.failure, "udev enumeration failed: \(error)")
        }
        let entries = infos.map { entry(for: $0, configuration: configuration) }
        var out = OutputBuffer()
        if json {
            out.append("[" + entries.map(jsonObject).joined(separator: ",\n ") + "]\n")
        } else if entries.isEmpty {
            out.append("no input devices (udev lists none under /dev/input)\n")
        } else {
            for entry in entries { out.append(text(entry)) }
        }
        out.flush()
    }

    static func entry(for info: InputDeviceInfo, configuration: Configuration) -> Entry {
        var entry = Entry(info: info, kind: DeviceKind(properties: info.properties), usable: false, decision: "")
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(path: info.devnode) } catch {
            entry.openError = "\(error)"
            entry.decision = "not used (cannot open)"
            return entry
        }
        defer { evdev.close() }
        let description = evdev.description(sysname: info.sysname)
        entry.description = description
        if description.positionAxes != nil || description.mtX != nil || description.x != nil {
            do {
                let decoder = try EvdevFrameDecoder(device: description)
                switch decoder.mode {
                case .slots(let n): entry.touch = "multitouch protocol B, \(n) slots"
                case .protocolA: entry.touch = "multitouch protocol A (contacts matched across frames)"
                case .singleTouch: entry.touch = "single touch (ABS_X/ABS_Y)"
                }
                entry.usable = true
            } catch {
                entry.touch = "unusable: \(error)"
            }
        }
        entry.rule = DeviceSelection.rule(for: description, properties: info.properties, rules: configuration.devices)
        let screen = configuration.screenIndex(of: description, properties: info.properties)
        if !configuration.screens.isEmpty { entry.screen = screen.flatMap { configuration.screens[$0].id } ?? "" }
        // The daemon's own policy (DeviceAdmission), as it would decide now.
        let verdict = DeviceAdmission.considers(info.udevFacts, rules: configuration.devices).map { .failure($0) }
            ?? DeviceAdmission.admit(description, properties: info.properties, configuration: configuration)
        switch verdict {
        case .failure(let refusal):
            entry.decision = "\(refusal)"
        case .success where !entry.usable:
            entry.decision = "not used (\(entry.touch ?? "no touch axes"))"
        case .success(let admitted):
            entry.used = true
            entry.decision = admitted.ruleIndex.map { "used (devices[\($0)])" } ?? "used (touchscreen)"
            if let reason = admitted.passThroughRefused { entry.decision += "; passThrough off: \(reason)" }
            if let index = admitted.ruleIndex, configuration.devices[index].passThrough {
                entry.passThrough = passThroughText(description, rule: configuration.devices[index],
                                                    screen: admitted.screen, configuration: configuration)
            }
        }
        return entry
    }

    /// `cannot be cloned: …; read without grabbing` or `cloned as "NAME (gestured)", N slots`
    /// with the gestures that need more touches than that.
    static func passThroughText(_ description: DeviceDescription, rule: DeviceRule, screen: Int,
                                configuration: Configuration) -> String {
        if let reason = description.cloneRefusal { return "cannot be cloned: \(reason); read without grabbing" }
        let (slots, needing) = configuration.gesturesBeyond(description, rule: rule, screen: screen)
        var text = "cloned as \"\(UinputClone.name(cloning: description.name))\", \(slots) touches"
        if !needing.isEmpty {
            text += "; never recognized here (more touches than that): "
                + needing.map { "\($0.id) (\($0.touches))" }.joined(separator: ", ")
        }
        return text
    }

    static func axisText(_ name: String, _ axis: AxisInfo?) -> String? {
        guard let axis else { return nil }
        let resolution = axis.resolution > 0 ? "\(axis.resolution) units/mm" : "no resolution"
        return "\(name) \(axis.minimum)..\(axis.maximum) (\(resolution))"
    }

    static func text(_ e: Entry) -> String {
        var lines = ["\(e.info.sysname) \"\(e.info.name)\" \(e.kind.rawValue): \(e.decision)"]
        lines.append("  node \(e.info.devnode)")
        if let error = e.openError { lines.append("  cannot open: \(error)") }
        if let d = e.description {
            lines.append("  bus 0x\(hex(d.bustype)) vendor 0x\(hex(d.vendor)) product 0x\(hex(d.product))\(d.isDirect ? ", direct" : "")")
            if let touch = e.touch { lines.append("  \(touch)") }
            let axes = [axisText("x", d.x), axisText("y", d.y), axisText("mt-x", d.mtX), axisText("mt-y", d.mtY)].compactMap { $0 }
            if !axes.isEmpty { lines.append("  " + axes.joined(separator: ", ")) }
        }
        lines.append("  rule: " + (e.rule.map { "devices[\($0)]" } ?? "none"))
        if let screen = e.screen { lines.append("  screen: " + (screen.isEmpty ? "none" : screen)) }
        if let passThrough = e.passThrough { lines.append("  passThrough: " + passThrough) }
        // Names and errors are the devices' text: escaped, line by line (`LogText`).
        return lines.map(LogText.escaped).joined(separator: "\n") + "\n"
    }

    static func jsonObject(_ e: Entry) -> String {
        var fields: [(String, String)] = [
            ("sysname", string(e.info.sysname)), ("devnode", string(e.info.devnode)), ("name", string(e.info.name)),
            ("type", string(e.kind.rawValue)),
            ("initialized", e.info.isInitialized ? "true" : "false"),
        ]
        if let error = e.openError { fields.append(("error", string(error))) }
        if let d = e.description {
            fields += [("bustype", "\(d.bustype)"), ("vendor", "\(d.vendor)"), ("product", "\(d.product)"),
                       ("direct", d.isDirect ? "true" : "false"), ("slots", "\(d.slotCount)")]
            var axes: [String] = []
            for (name, axis) in [("x", d.x), ("y", d.y), ("mtX", d.mtX), ("mtY", d.mtY)] {
                guard let axis else { continue }
                axes.append("\(string(name)):{\"minimum\":\(axis.minimum),\"maximum\":\(axis.maximum),\"resolution\":\(axis.resolution)}")
            }
            fields.append(("axes", "{" + axes.joined(separator: ",") + "}"))
            if let touch = e.touch { fields.append(("protocol", string(touch))) }
        }
        fields.append(("usable", e.usable ? "true" : "false"))
        fields.append(("rule", e.rule.map { "\($0)" } ?? "null"))
        fields.append(("decision", string(e.decision)))
        if let screen = e.screen { fields.append(("screen", screen.isEmpty ? "null" : string(screen))) }
        if let passThrough = e.passThrough { fields.append(("passThrough", string(passThrough))) }
        return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// A JSON string literal, escaped as the protocol's JSON lines are.
    static func string(_ s: String) -> String { LineEncoder.jsonString(s) }
}
