import GesturedCore

/// The bridge's decisions (docs/MQTT.md): the daemon's JSON lines in, MQTT publications out;
/// MQTT commands in, control requests out; the broker's and the daemon's comings and goings.
///
/// A value with one `mutating func` per input, each taking `now` (CLOCK_MONOTONIC) and returning
/// every action in order; the shell performs them and owns no decision. Invariants:
/// - `.publish` is returned only while the broker is connected; gesture and error messages made
///   while it is away wait in a bounded outbox and are dropped when older than
///   `maximumEventAge` (counted, one log line per reconnection);
/// - the state topics and discovery are republished whole on every (re)connection;
/// - at most `maximumPendingRequests` requests await the daemon's answer, so a flood of commands
///   from the broker cannot exhaust the daemon's per-client budget.
public struct MQTTBridge {
    public let settings: MQTTSettings
    public let topics: MQTTTopics
    private let discovery: DiscoveryConfigs
    private(set) public var gestures: [DiscoveredGesture]

    private var brokerConnected = false
    private var daemon: DaemonLink = .disconnected
    private var outbox: Outbox
    private var overflowedSinceDrain = 0

    /// Retained states, as published: what the daemon's lines said last.
    private var idle = "active", screen = "on", lock = "unlocked"
    private var lastTouch: String?

    /// The requests sent and not yet answered, oldest first, with the command's payload.
    private var pending: [PendingRequest] = []

    public static let outboxCapacity = 256
    public static let maximumPendingRequests = 16

    private enum DaemonLink { case disconnected, greeting, ready }

    private struct PendingRequest: Hashable {
        var verb: String
        var payload: String
        var request: String
    }

    /// - Parameters:
    ///   - node: the node's name: `settings.node`, or the host name the shell found.
    ///   - version: gestured's version, for the discovery device.
    public init(settings: MQTTSettings, node: String, gestures: [DiscoveredGesture], version: String) {
        self.settings = settings
        topics = MQTTTopics(prefix: settings.topicPrefix, node: node, discoveryPrefix: settings.discoveryPrefix)
        discovery = DiscoveryConfigs(topics: topics, nodeName: node, version: version)
        self.gestures = gestures
        outbox = Outbox(capacity: Self.outboxCapacity)
    }

    /// Gesture messages dropped (too old, or no room) since the start.
    public var droppedMessages: Int { outbox.dropped }

    /// The last will the shell gives the broker at connect: `offline`, retained.
    public var will: Publication { Publication(topic: topics.status, payload: "offline", retain: true, qos: 1) }

    // MARK: The broker

    /// Connected (or connected again): subscribe, say where things stand, then send what waited.
    public mutating func brokerConnected(now: Instant) -> [BridgeAction] {
        brokerConnected = true
        var actions: [BridgeAction] = [.subscribe(topics.commands)]
        if let birth = topics.homeAssistantStatus { actions.append(.subscribe(birth)) }
        if let filter = topics.gestureDiscoveryFilter { actions.append(.subscribe(filter)) }
        actions += state().map(BridgeAction.publish)
        actions += discovery.publications(gestures: gestures).map(BridgeAction.publish)
        let (fresh, stale) = outbox.drain(now: now, maximumAge: settings.maximumEventAge)
        if stale + overflowedSinceDrain > 0 {
            actions.append(.log(.warning, "dropped \(stale + overflowedSinceDrain) messages that waited for the broker"
                                + " (older than \(settings.maximumEventAge.seconds) s, or past \(Self.outboxCapacity) waiting)"))
        }
        overflowedSinceDrain = 0
        actions += fresh.map(BridgeAction.publish)
        return actions
    }

    public mutating func brokerDisconnected(now: Instant) -> [BridgeAction] {
        brokerConnected = false
        return []
    }

    /// The retained state topics, as they stand.
    private func state() -> [Publication] {
        var list = [Publication(topic: topics.status, payload: daemon == .ready ? "online" : "offline", retain: true, qos: 1),
                    Publication(topic: topics.idle, payload: idle, retain: true, qos: 1),
                    Publication(topic: topics.screen, payload: screen, retain: true, qos: 1),
                    Publication(topic: topics.lock, payload: lock, retain: true, qos: 1)]
        if let lastTouch { list.append(Publication(topic: topics.lastTouch, payload: lastTouch, retain: true, qos: 1)) }
        return list
    }

    /// A message from the broker: a command, Home Assistant's birth, or a discovery config.
    public mutating func message(topic: String, payload: String, now: Instant) -> [BridgeAction] {
        if topic == topics.homeAssistantStatus {
            guard payload == "online" else { return [] }
            return discovery.publications(gestures: gestures).map(BridgeAction.publish) + state().map(BridgeAction.publish)
        }
        let commandPrefix = topics.set("")
        if topic.hasPrefix(commandPrefix) {
            return command(verb: String(topic.dropFirst(commandPrefix.count)), payload: payload, now: now)
        }
        if let stale = staleDiscovery(topic: topic, payload: payload) { return [.publish(stale)] }
        return []
    }

    /// A retained gesture config of this node that names no gesture of the configuration (left by
    /// an earlier one, while the bridge was not running): its removal.
    private func staleDiscovery(topic: String, payload: String) -> Publication? {
        guard !payload.isEmpty, let prefix = topics.discoveryPrefix else { return nil }
        let head = prefix + "/event/" + topics.node + "/", tail = "/config"
        guard topic.hasPrefix(head), topic.hasSuffix(tail), topic.count > head.count + tail.count else { return nil }
        let level = String(topic.dropFirst(head.count).dropLast(tail.count))
        guard !gestures.contains(where: { MQTTTopics.level($0.id) == level }) else { return nil }
        return Publication(topic: topic, payload: "", retain: true, qos: 1)
    }

    private mutating func command(verb: String, payload: String, now: Instant) -> [BridgeAction] {
        switch CommandTranslation.translate(verb: verb, payload: payload, settings: settings) {
        case .refused(let reason):
            return refusal(verb: verb, payload: payload, reason, now: now)
        case .request(let request):
            guard daemon == .ready else { return refusal(verb: verb, payload: payload, "the daemon is not connected", now: now) }
            guard pending.count < Self.maximumPendingRequests else {
                return refusal(verb: verb, payload: payload, "too many commands waiting for the daemon", now: now)
            }
            pending.append(PendingRequest(verb: verb, payload: payload, request: request))
            return [.send(request)]
        }
    }

    /// The refusal on `P/N/error` and in the log.
    private mutating func refusal(verb: String, payload: String, _ reason: String, now: Instant) -> [BridgeAction] {
        let message = FlatJSON.encode([("command", verb), ("payload", payload), ("message", reason)])
        return [.log(.warning, "refused \(verb) '\(payload)': \(reason)")]
            + publish(Publication(topic: topics.error, payload: message), now: now)
    }

    /// Out now, or into the outbox while the broker is away.
    private mutating func publish(_ publication: Publication, now: Instant) -> [BridgeAction] {
        if brokerConnected { return [.publish(publication)] }
        if outbox.count == outbox.capacity { overflowedSinceDrain += 1 }
        outbox.append(publication, now: now)
        return []
    }

    /// Retained state: published at once when connected; otherwise sent whole at reconnection.
    private func publishState(_ publication: Publication) -> [BridgeAction] {
        brokerConnected ? [.publish(publication)] : []
    }

    // MARK: The daemon

    /// Connected to the daemon's socket: ask for JSON lines; `online` once it answers.
    public mutating func daemonConnected(now: Instant) -> [BridgeAction] {
        daemon = .greeting
        pending = []
        // A daemon that (re)started begins unlocked, active and with its screens on.
        (idle, screen, lock) = ("active", "on", "unlocked")
        return [.send("format json")]
    }

    /// The daemon went away: the node is offline until it is back; waiting commands are answered.
    public mutating func daemonDisconnected(now: Instant) -> [BridgeAction] {
        daemon = .disconnected
        var actions: [BridgeAction] = []
        for request in pending {
            actions += refusal(verb: request.verb, payload: request.payload, "the daemon went away before answering", now: now)
        }
        pending = []
        return actions + publishState(Publication(topic: topics.status, payload: "offline", retain: true, qos: 1))
    }

    /// One line from the daemon, without its newline.
    /// - Parameter wallSeconds: the wall clock (seconds since the epoch), for the last touch.
    public mutating func daemonLine(_ line: Substring, now: Instant, wallSeconds: Int64) -> [BridgeAction] {
        guard let fields = FlatJSON.object(line) else {
            if daemon == .greeting, line.hasPrefix("hello ") { return [] }
            return [.log(.warning, "not a JSON line from the daemon, ignoring: \(line.prefix(120))")]
        }
        switch fields["event"] ?? "" {
        case "ok":
            return answered(ok: true, fields: fields, now: now)
        case "error":
            return answered(ok: false, fields: fields, now: now)
        case "gesture":
            guard let name = fields["name"], line.last == "}" else { return [] }
            let state = fields["state"] ?? ""
            let eventType = fields["type"] == "swipe" && state == "ended" ? fields["direction"] ?? state : state
            var actions = publish(Publication(topic: topics.gesture(name),
                                              payload: line.dropLast() + ",\"event_type\":" + FlatJSON.quoted(eventType) + "}"),
                                  now: now)
            if state == "began" || state == "ended" && fields["type"].map(["tap", "swipe", "stroke"].contains) == true {
                actions += touched(wallSeconds)
            }
            return actions
        case "idle": return setState(\.idle, "idle", topic: topics.idle)
        case "active": return setState(\.idle, "active", topic: topics.idle) + touched(wallSeconds)
        case "lock": return setState(\.lock, "locked", topic: topics.lock)
        case "unlock": return setState(\.lock, "unlocked", topic: topics.lock)
        case "wake": return setState(\.screen, "on", topic: topics.screen) + touched(wallSeconds)
        default: return []
        }
    }

    private mutating func setState(_ key: WritableKeyPath<MQTTBridge, String>, _ value: String, topic: String) -> [BridgeAction] {
        guard self[keyPath: key] != value else { return [] }
        self[keyPath: key] = value
        return publishState(Publication(topic: topic, payload: value, retain: true, qos: 1))
    }

    /// The last touch, at most once a second (the sensor's resolution).
    private mutating func touched(_ wallSeconds: Int64) -> [BridgeAction] {
        let text = Timestamp.iso8601(wallSeconds)
        guard text != lastTouch else { return [] }
        lastTouch = text
        return publishState(Publication(topic: topics.lastTouch, payload: text, retain: true, qos: 1))
    }

    /// An `ok` or `error` line: the answer to the oldest request waiting.
    private mutating func answered(ok: Bool, fields: FlatJSON.Object, now: Instant) -> [BridgeAction] {
        if daemon == .greeting {
            guard ok else { return [.log(.error, "the daemon refused 'format json': \(fields["message"] ?? "")")] }
            daemon = .ready
            return publishState(Publication(topic: topics.status, payload: "online", retain: true, qos: 1))
        }
        guard !pending.isEmpty else { return [.log(.warning, "an answer from the daemon to no request, ignoring")] }
        let request = pending.removeFirst()
        guard ok else {
            return refusal(verb: request.verb, payload: request.payload,
                           "the daemon refused '\(request.request)': \(fields["message"] ?? "")", now: now)
        }
        // The daemon sends no line for `screen on|off`: its answer is the news.
        if request.request.hasPrefix("screen ") {
            return setState(\.screen, request.request.hasPrefix("screen on") ? "on" : "off", topic: topics.screen)
        }
        return []
    }

    // MARK: Reload

    /// A new configuration's gestures: their configs published, the removed ones' cleared.
    public mutating func reload(gestures new: [DiscoveredGesture], now: Instant) -> [BridgeAction] {
        let removed = gestures.map(\.id).filter { id in !new.contains { MQTTTopics.level($0.id) == MQTTTopics.level(id) } }
        gestures = new
        guard brokerConnected else { return [] }
        return (discovery.removals(removed) + discovery.publications(gestures: new)).map(BridgeAction.publish)
    }

    /// A clean stop: `offline`, as the will would say.
    public mutating func stop() -> [BridgeAction] {
        brokerConnected ? [.publish(will)] : []
    }
}
