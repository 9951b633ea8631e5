/// The top-level `mqtt` object (CONTRACT.md §7, docs/MQTT.md): how `gestured mqtt` reaches its
/// broker and what it publishes there. The daemon reads and ignores it; only the bridge uses it.
public struct MQTTSettings: Hashable, Sendable {
    /// `mqtt://` (plain TCP, port 1883 by default) or `mqtts://` (TLS, port 8883).
    public enum Transport: String, Hashable, Sendable, CaseIterable {
        case mqtt, mqtts

        public var defaultPort: Int {
            switch self {
            case .mqtt: 1883
            case .mqtts: 8883
            }
        }
    }

    /// The MQTT protocol spoken to the broker (`protocol: "3.1.1"` or `"5"`).
    public enum ProtocolVersion: String, Hashable, Sendable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }

    /// A command the bridge may pass on to the daemon, from `P/N/set/<command>` (the `commands`
    /// list): the kiosk verbs and the view verbs of the control requests (docs/PROTOCOL.md).
    public enum Command: String, Hashable, Sendable, CaseIterable {
        case lock, unlock, screen, show, hide, enable, disable, frame, layout, rotate
    }

    public var transport: Transport
    public var host: String
    public var port: Int
    /// The node's name in topics and in Home Assistant (`N`); nil: the host name.
    public var node: String?
    /// `P`: every topic of the node begins `P/N/`.
    public var topicPrefix: String
    /// Where Home Assistant discovery configs go; nil: no discovery.
    public var discoveryPrefix: String?
    public var username: String?
    /// The file holding the password (its first line), checked like the configuration (StrictModes)
    /// and refused when others may read it.
    public var passwordFile: String?
    /// The certificate authorities that sign the broker's certificate (`mqtts://`); nil: the
    /// system's.
    public var caFile: String?
    /// A client certificate and its key, for brokers that ask for one (`mqtts://`).
    public var certFile: String?
    public var keyFile: String?
    /// The commands accepted from `P/N/set/…`; none by default.
    public var commands: Set<Command>
    public var protocolVersion: ProtocolVersion
    /// Gesture messages waiting longer than this for the broker (it was down) are dropped: a tap
    /// from minutes ago would switch a page nobody is looking at any more.
    public var maximumEventAge: Interval
    /// How long `P/N/set/lock` with payload `on` (Home Assistant's lock switch) locks the panel.
    public var lockSeconds: Int

    public static let defaultTopicPrefix = "gestured"
    public static let defaultDiscoveryPrefix = "homeassistant"
    /// Long enough to ride out a broker restart, short enough that a replayed tap still means
    /// something.
    public static let defaultMaximumEventAge = Interval(microseconds: 30_000_000)
    /// Five minutes: a panel's cleaning.
    public static let defaultLockSeconds = 300

    public init(transport: Transport = .mqtt, host: String, port: Int? = nil, node: String? = nil,
                topicPrefix: String = MQTTSettings.defaultTopicPrefix,
                discoveryPrefix: String? = MQTTSettings.defaultDiscoveryPrefix, username: String? = nil,
                passwordFile: String? = nil, caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil,
                commands: Set<Command> = [], protocolVersion: ProtocolVersion = .v311,
                maximumEventAge: Interval = MQTTSettings.defaultMaximumEventAge,
                lockSeconds: Int = MQTTSettings.defaultLockSeconds) {
        self.transport = transport; self.host = host; self.port = port ?? transport.defaultPort; self.node = node
        self.topicPrefix = topicPrefix; self.discoveryPrefix = discoveryPrefix; self.username = username
        self.passwordFile = passwordFile; self.caFile = caFile; self.certFile = certFile; self.keyFile = keyFile
        self.commands = commands; self.protocolVersion = protocolVersion; self.maximumEventAge = maximumEventAge
        self.lockSeconds = lockSeconds
    }
}
