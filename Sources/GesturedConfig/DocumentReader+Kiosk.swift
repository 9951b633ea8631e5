import GesturedCore

extension ConfigKeys {
    static let power = ["source", "wakeTouch", "wakeAction", "connector", "backlight"]
    static let wakeAction = ["run", "timeout"]
    static let lock = ["unlockGesture", "unlockFrame"]
}

extension DocumentReader {
    /// `idle: [SECONDS, …]`: whole seconds, increasing, each 1…`KioskLimits.maximumIdleSeconds`,
    /// at most `KioskLimits.maximumIdleThresholds` of them.
    mutating func idleThresholds(_ node: Node) -> [Interval] {
        guard let elements = array(node) else { return [] }
        guard elements.count <= KioskLimits.maximumIdleThresholds else {
            report("at most \(KioskLimits.maximumIdleThresholds) thresholds, found \(elements.count)", at: node.path)
            return []
        }
        var seconds: [Int] = []
        for element in elements {
            guard let n = integer(element, minimum: 1) else { continue }
            guard n <= KioskLimits.maximumIdleSeconds else {
                report("must be at most \(KioskLimits.maximumIdleSeconds) seconds (a week), found \(n)", at: element.path)
                continue
            }
            if let last = seconds.last, n <= last {
                report("thresholds must increase: \(n) comes after \(last)", at: element.path)
                continue
            }
            seconds.append(n)
        }
        return seconds.map { Interval(microseconds: Int64($0) * 1_000_000) }
    }

    /// `power: { source: "auto"|"drm"|"backlight"|"socket", wakeTouch: "claim"|"forward",
    /// wakeAction: { run, timeout }, connector: NAME, backlight: NAME }`. `"drm"` needs `connector`, `"backlight"` needs
    /// `backlight`; each name is one sysfs directory name.
    mutating func powerPolicy(_ node: Node) -> PowerPolicy? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.power)
        var policy = PowerPolicy()
        for (key, target) in [("connector", \PowerPolicy.connector), ("backlight", \PowerPolicy.backlight)] {
            guard let node = members[key], let name = identifier(node) else { continue }
            guard !name.contains("/"), name != ".", name != ".." else {
                report("must be a name in /sys/class/\(key == "connector" ? "drm" : "backlight"), found \"\(name)\"", at: node.path)
                continue
            }
            policy[keyPath: target] = name
        }
        if let node = members["source"], let text = string(node) {
            if let source = PowerSource(rawValue: text) {
                policy.source = source
                if source == .drm && members["connector"] == nil {
                    report("\"drm\" needs \"connector\": the screen's DRM connector, as /sys/class/drm names it (card1-HDMI-A-1)",
                           at: node.path)
                }
                if source == .backlight && members["backlight"] == nil {
                    report("\"backlight\" needs \"backlight\": the screen's backlight, as /sys/class/backlight names it",
                           at: node.path)
                }
            } else {
                report("must be one of \(PowerSource.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(text)\"",
                       at: node.path)
            }
        }
        if let node = members["wakeTouch"], let text = string(node) {
            if let wake = WakeTouch(rawValue: text) {
                policy.wakeTouch = wake
            } else {
                report("must be one of \(WakeTouch.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(text)\"",
                       at: node.path)
            }
        }
        if let node = members["wakeAction"], node.value != .null { policy.wakeAction = gestureAction(node, keys: ConfigKeys.wakeAction) }
        return policy
    }

    /// `lock: { unlockGesture: GESTURE, unlockFrame: { x, y, width, height } }`. The gesture is
    /// read as any other (its `id` and `type` required), but it runs alone in its own engine,
    /// so it may not name other gestures, run an action or say how the application gets its
    /// touches (it gets none while locked).
    mutating func lockPolicy(_ node: Node) -> LockPolicy? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.lock)
        var policy = LockPolicy()
        if let node = members["unlockFrame"], node.value != .null { policy.unlockFrame = frame(node) }
        if let node = members["unlockGesture"], node.value != .null {
            if let gestureMembers = object(node) {
                for key in ["requireToFail", "recognizeSimultaneouslyWith", "action", "cancelsTouchesInView",
                            "delaysTouchesBegan", "delaysTouchesEnded"] {
                    guard let keyNode = gestureMembers[key] else { continue }
                    report("an unlock gesture runs alone while every touch is claimed: it takes no \"\(key)\"", at: keyNode.path)
                }
            }
            // Its own table: the gesture's id is not one of the views' (nothing may refer to it).
            var own = ReferenceTable()
            policy.unlockGesture = gesture(node, references: &own)
        }
        return policy
    }
}
