import GesturedCore

/// A gesture of the configuration as Home Assistant sees it: an `event` entity whose event types
/// are what the gesture's messages carry in `event_type`.
public struct DiscoveredGesture: Hashable, Sendable {
    public var id: String
    public var eventTypes: [String]

    public init(id: String, eventTypes: [String]) { self.id = id; self.eventTypes = eventTypes }

    /// Every gesture of the configuration's views (every screen's), in file order; an id seen
    /// twice (screens may repeat one) once.
    public static func all(in configuration: Configuration) -> [DiscoveredGesture] {
        var seen = Set<String>()
        var found: [DiscoveredGesture] = []
        func visit(_ views: [ViewSpec]) {
            for view in views {
                for gesture in view.gestures where seen.insert(gesture.id).inserted {
                    found.append(DiscoveredGesture(id: gesture.id, eventTypes: eventTypes(of: gesture.kind)))
                }
                visit(view.subviews)
            }
        }
        for spec in configuration.screenSpecs { visit(spec.views) }
        return found
    }

    /// A swipe's directions; a discrete gesture's one `ended`; a continuous gesture's states.
    static func eventTypes(of kind: GestureKind) -> [String] {
        switch kind {
        case .swipe(let parameters): SwipeDirection.allCases.filter { parameters.direction.contains($0) }.map(\.rawValue)
        case .tap, .stroke: ["ended"]
        case .pan, .pinch, .rotation, .longPress, .screenEdgePan: ["began", "changed", "ended", "cancelled"]
        }
    }
}

/// The Home Assistant discovery configs of one node (CONTRACT.md §7): retained JSON objects under
/// the discovery prefix, each with the availability topic and the same `device` object, so Home
/// Assistant groups them as one device.
struct DiscoveryConfigs {
    let topics: MQTTTopics
    let nodeName: String
    let version: String

    private var device: String {
        "{\"identifiers\":[" + FlatJSON.quoted("gestured_" + topics.node) + "],\"name\":" + FlatJSON.quoted(nodeName)
            + ",\"manufacturer\":\"gestured\",\"model\":\"gestured mqtt\",\"sw_version\":" + FlatJSON.quoted(version) + "}"
    }

    private func entity(_ object: String, name: String, _ members: [(String, String)]) -> String {
        var fields = [("name", FlatJSON.quoted(name)),
                      ("unique_id", FlatJSON.quoted("gestured_" + topics.node + "_" + MQTTTopics.level(object))),
                      ("availability_topic", FlatJSON.quoted(topics.status))]
        fields += members
        fields.append(("device", device))
        return "{" + fields.map { FlatJSON.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// The node's configs in a fixed order: the fixed entities, then one per gesture.
    func publications(gestures: [DiscoveredGesture]) -> [Publication] {
        var configs: [(String?, String)] = [
            (topics.discovery("binary_sensor", "activity"),
             entity("activity", name: "Activity", [("state_topic", FlatJSON.quoted(topics.idle)),
                                                    ("payload_on", "\"active\""), ("payload_off", "\"idle\""),
                                                    ("device_class", "\"occupancy\"")])),
            (topics.discovery("sensor", "last_touch"),
             entity("last_touch", name: "Last touch", [("state_topic", FlatJSON.quoted(topics.lastTouch)),
                                                       ("device_class", "\"timestamp\"")])),
            (topics.discovery("switch", "lock"),
             entity("lock", name: "Touch lock", [("state_topic", FlatJSON.quoted(topics.lock)),
                                                 ("command_topic", FlatJSON.quoted(topics.set("lock"))),
                                                 ("payload_on", "\"on\""), ("payload_off", "\"off\""),
                                                 ("state_on", "\"locked\""), ("state_off", "\"unlocked\""),
                                                 ("icon", "\"mdi:lock\"")])),
            (topics.discovery("switch", "screen"),
             entity("screen", name: "Screen", [("state_topic", FlatJSON.quoted(topics.screen)),
                                               ("command_topic", FlatJSON.quoted(topics.set("screen"))),
                                               ("payload_on", "\"on\""), ("payload_off", "\"off\""),
                                               ("state_on", "\"on\""), ("state_off", "\"off\""),
                                               ("icon", "\"mdi:monitor\"")])),
        ]
        for gesture in gestures {
            let types = "[" + gesture.eventTypes.map(FlatJSON.quoted).joined(separator: ",") + "]"
            configs.append((topics.discovery("event", gesture.id),
                            entity(gesture.id, name: gesture.id, [("state_topic", FlatJSON.quoted(topics.gesture(gesture.id))),
                                                                  ("event_types", types)])))
        }
        return configs.compactMap { topic, payload in topic.map { Publication(topic: $0, payload: payload, retain: true, qos: 1) } }
    }

    /// Empty retained messages: Home Assistant removes the entities of gestures gone from the
    /// configuration.
    func removals(_ ids: [String]) -> [Publication] {
        ids.compactMap { id in topics.discovery("event", id).map { Publication(topic: $0, payload: "", retain: true, qos: 1) } }
    }
}
