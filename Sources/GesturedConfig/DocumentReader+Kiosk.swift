import GesturedCore

extension ConfigKeys {
    static let power = ["source", "wakeTouch"]
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

    /// `power: { source: "auto"|"drm"|"backlight"|"socket", wakeTouch: "claim"|"forward" }`.
    /// This version learns a screen's power only from control requests: `"drm"` and
    /// `"backlight"` are refused rather than read as the socket without a word.
    mutating func powerPolicy(_ node: Node) -> PowerPolicy? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.power)
        var policy = PowerPolicy()
        if let node = members["source"], let text = string(node) {
            switch PowerSource(rawValue: text) {
            case .auto?, .socket?: policy.source = PowerSource(rawValue: text)!
            case .drm?, .backlight?:
                report("\"\(text)\" is not read by this version: a screen's power comes from `gestured ctl screen off|on` "
                       + "(\"socket\", which \"auto\" means here)", at: node.path)
            case nil:
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
        return policy
    }
}
