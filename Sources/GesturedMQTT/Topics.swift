import GesturedCore

/// The node's topics (CONTRACT.md §7), with `P` the topic prefix and `N` the node's level.
public struct MQTTTopics: Hashable, Sendable {
    public let prefix: String
    /// The node's name as a topic level (`level(_:)` of the configured or host name).
    public let node: String
    public let discoveryPrefix: String?

    public init(prefix: String, node: String, discoveryPrefix: String?) {
        self.prefix = prefix; self.node = Self.level(node); self.discoveryPrefix = discoveryPrefix
    }

    /// `text` as one topic level that Home Assistant also accepts in its ids: every character but
    /// ASCII letters, digits, `_` and `-` becomes `_` (`/`, `+`, `#` and NUL are not allowed in a
    /// level at all; discovery's node and object ids allow only these). Empty becomes `_`.
    public static func level(_ text: String) -> String {
        let level = String(String.UnicodeScalarView(text.unicodeScalars.map { c in
            switch c {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": c
            default: "_"
            }
        }))
        return level.isEmpty ? "_" : level
    }

    var base: String { prefix + "/" + node }
    public var status: String { base + "/status" }
    public var idle: String { base + "/idle" }
    public var screen: String { base + "/screen" }
    public var lock: String { base + "/lock" }
    public var lastTouch: String { base + "/last_touch" }
    public var error: String { base + "/error" }
    public func gesture(_ id: String) -> String { base + "/gesture/" + Self.level(id) }
    public func set(_ command: String) -> String { base + "/set/" + command }
    /// What the bridge subscribes to for commands.
    public var commands: String { base + "/set/+" }

    /// `<discoveryPrefix>/<component>/N/<object>/config`.
    public func discovery(_ component: String, _ object: String) -> String? {
        discoveryPrefix.map { $0 + "/" + component + "/" + node + "/" + Self.level(object) + "/config" }
    }
    /// Home Assistant's birth and will (`online` when it starts).
    public var homeAssistantStatus: String? { discoveryPrefix.map { $0 + "/status" } }
    /// Every gesture's discovery config of this node: retained ones left by an earlier
    /// configuration are found here and cleared.
    public var gestureDiscoveryFilter: String? { discoveryPrefix.map { $0 + "/event/" + node + "/+/config" } }
}

/// One MQTT message to send.
public struct Publication: Hashable, Sendable, CustomStringConvertible {
    public var topic: String
    public var payload: String
    public var retain: Bool
    public var qos: Int

    public init(topic: String, payload: String, retain: Bool = false, qos: Int = 0) {
        self.topic = topic; self.payload = payload; self.retain = retain; self.qos = qos
    }

    /// `topic payload` with ` (retained)` and ` qos1` when they apply: one transcript line.
    public var description: String {
        topic + " " + (payload.isEmpty ? "<empty>" : payload) + (retain ? " (retained)" : "") + (qos > 0 ? " qos\(qos)" : "")
    }
}
