import GesturedCore
@testable import GesturedMQTT
import Testing

/// The bridge's decisions as transcripts: inputs in, every action out, compared whole.
@Suite struct MQTTBridgeTests {
    static let settings = MQTTSettings(host: "b", node: "hall", commands: [.lock, .screen, .layout])
    static let gestures = [DiscoveredGesture(id: "next page", eventTypes: ["left", "right"]),
                           DiscoveredGesture(id: "tap", eventTypes: ["ended"])]

    static func bridge(_ settings: MQTTSettings = settings) -> MQTTBridge {
        MQTTBridge(settings: settings, node: "hall", gestures: gestures, version: "1.0")
    }

    static func at(_ seconds: Double) -> Instant { Instant(microseconds: Int64(seconds * 1_000_000)) }

    /// Connected to both; the transcript of that left out.
    static func ready(_ settings: MQTTSettings = settings) -> MQTTBridge {
        var bridge = bridge(settings)
        _ = bridge.daemonConnected(now: at(0))
        _ = bridge.daemonLine("hello version=1 daemon=gestured", now: at(0), wallSeconds: 0)
        _ = bridge.daemonLine(#"{"event":"ok","command":"format"}"#, now: at(0), wallSeconds: 0)
        _ = bridge.brokerConnected(now: at(0))
        return bridge
    }

    @Test func connectingSubscribesPublishesStateAndDiscovery() {
        var bridge = Self.bridge()
        #expect(bridge.daemonConnected(now: Self.at(0)).map(\.description) == ["send format json"])
        #expect(bridge.daemonLine("hello version=1 daemon=gestured", now: Self.at(0), wallSeconds: 0).isEmpty)
        #expect(bridge.daemonLine(#"{"event":"ok","command":"format"}"#, now: Self.at(0), wallSeconds: 0).isEmpty)
        let device = #"{"identifiers":["gestured_hall"],"name":"hall","manufacturer":"gestured","model":"gestured mqtt","sw_version":"1.0"}"#
        #expect(bridge.brokerConnected(now: Self.at(1)).map(\.description) == [
            "subscribe gestured/hall/set/+",
            "subscribe homeassistant/status",
            "subscribe homeassistant/event/hall/+/config",
            "publish gestured/hall/status online (retained) qos1",
            "publish gestured/hall/idle active (retained) qos1",
            "publish gestured/hall/screen on (retained) qos1",
            "publish gestured/hall/lock unlocked (retained) qos1",
            #"publish homeassistant/binary_sensor/hall/activity/config {"name":"Activity","unique_id":"gestured_hall_activity","availability_topic":"gestured/hall/status","state_topic":"gestured/hall/idle","payload_on":"active","payload_off":"idle","device_class":"occupancy","device":\#(device)} (retained) qos1"#,
            #"publish homeassistant/sensor/hall/last_touch/config {"name":"Last touch","unique_id":"gestured_hall_last_touch","availability_topic":"gestured/hall/status","state_topic":"gestured/hall/last_touch","device_class":"timestamp","device":\#(device)} (retained) qos1"#,
            #"publish homeassistant/switch/hall/lock/config {"name":"Touch lock","unique_id":"gestured_hall_lock","availability_topic":"gestured/hall/status","state_topic":"gestured/hall/lock","command_topic":"gestured/hall/set/lock","payload_on":"on","payload_off":"off","state_on":"locked","state_off":"unlocked","icon":"mdi:lock","device":\#(device)} (retained) qos1"#,
            #"publish homeassistant/switch/hall/screen/config {"name":"Screen","unique_id":"gestured_hall_screen","availability_topic":"gestured/hall/status","state_topic":"gestured/hall/screen","command_topic":"gestured/hall/set/screen","payload_on":"on","payload_off":"off","state_on":"on","state_off":"off","icon":"mdi:monitor","device":\#(device)} (retained) qos1"#,
            #"publish homeassistant/event/hall/next_page/config {"name":"next page","unique_id":"gestured_hall_next_page","availability_topic":"gestured/hall/status","state_topic":"gestured/hall/gesture/next_page","event_types":["left","right"],"device":\#(device)} (retained) qos1"#,
            #"publish homeassistant/event/hall/tap/config {"name":"tap","unique_id":"gestured_hall_tap","availability_topic":"gestured/hall/status","state_topic":"gestured/hall/gesture/tap","event_types":["ended"],"device":\#(device)} (retained) qos1"#,
        ])
    }

    @Test func gestureAndKioskLinesBecomeMessagesAndStates() {
        var bridge = Self.ready()
        let swipe = #"{"event":"gesture","type":"swipe","state":"ended","name":"next page","view":"root","device":"event5","time":1.000000,"seq":3,"direction":"left"}"#
        let transcript = bridge.daemonLine(swipe[...], now: Self.at(2), wallSeconds: 1_796_652_208)
            + bridge.daemonLine(#"{"event":"idle","seconds":60,"time":62.000000,"seq":4}"#, now: Self.at(62), wallSeconds: 1_796_652_268)
            + bridge.daemonLine(#"{"event":"idle","seconds":120,"time":122.000000,"seq":5}"#, now: Self.at(122), wallSeconds: 1_796_652_328)
            + bridge.daemonLine(#"{"event":"lock","seconds":30,"time":123.000000,"seq":6}"#, now: Self.at(123), wallSeconds: 1_796_652_329)
            + bridge.daemonLine(#"{"event":"wake","device":"event5","x":1.00,"y":2.00,"time":124.000000,"seq":7}"#,
                                now: Self.at(124), wallSeconds: 1_796_652_330)
        #expect(transcript.map(\.description) == [
            "publish gestured/hall/gesture/next_page " + swipe.dropLast() + #","event_type":"left"}"#,
            "publish gestured/hall/last_touch 2026-12-07T14:03:28+00:00 (retained) qos1",
            "publish gestured/hall/idle idle (retained) qos1",
            "publish gestured/hall/lock locked (retained) qos1",
            "publish gestured/hall/last_touch 2026-12-07T14:05:30+00:00 (retained) qos1",
        ])
    }

    @Test func commandsBecomeRequestsAndRefusalsGoToTheErrorTopic() {
        var bridge = Self.ready()
        let transcript = bridge.message(topic: "gestured/hall/set/screen", payload: "off", now: Self.at(1))
            + bridge.daemonLine(#"{"event":"ok","command":"screen"}"#, now: Self.at(1), wallSeconds: 0)
            + bridge.message(topic: "gestured/hall/set/lock", payload: "on", now: Self.at(2))
            + bridge.daemonLine(#"{"event":"error","command":"lock","message":"not authorized to lock"}"#, now: Self.at(2), wallSeconds: 0)
            + bridge.message(topic: "gestured/hall/set/hide", payload: "button", now: Self.at(3))
            + bridge.message(topic: "gestured/hall/set/lock", payload: "off", now: Self.at(4))
            + bridge.message(topic: "gestured/hall/set/reboot", payload: "", now: Self.at(5))
            + bridge.message(topic: "gestured/hall/set/layout", payload: "night\nhide x", now: Self.at(6))
        #expect(transcript.map(\.description) == [
            "send screen off",
            "publish gestured/hall/screen off (retained) qos1",
            "send lock 300",
            "log<4> refused lock 'on': the daemon refused 'lock 300': not authorized to lock",
            #"publish gestured/hall/error {"command":"lock","payload":"on","message":"the daemon refused 'lock 300': not authorized to lock"}"#,
            "log<4> refused hide 'button': command 'hide' is not enabled (mqtt.commands)",
            #"publish gestured/hall/error {"command":"hide","payload":"button","message":"command 'hide' is not enabled (mqtt.commands)"}"#,
            "log<4> refused lock 'off': command 'unlock' is not enabled (mqtt.commands)",
            #"publish gestured/hall/error {"command":"lock","payload":"off","message":"command 'unlock' is not enabled (mqtt.commands)"}"#,
            "log<4> refused reboot '': unknown command 'reboot' (lock, unlock, screen, show, hide, enable, disable, frame, layout, rotate)",
            #"publish gestured/hall/error {"command":"reboot","payload":"","message":"unknown command 'reboot' (lock, unlock, screen, show, hide, enable, disable, frame, layout, rotate)"}"#,
            "log<4> refused layout 'night\nhide x': the payload has a control character",
            #"publish gestured/hall/error {"command":"layout","payload":"night\nhide x","message":"the payload has a control character"}"#,
        ])
    }

    @Test func waitingRequestsAreBounded() {
        var bridge = Self.ready()
        var sent = 0, refused = 0
        for _ in 0..<20 {
            for action in bridge.message(topic: "gestured/hall/set/layout", payload: "day", now: Self.at(1)) {
                if case .send = action { sent += 1 }
                if case .publish(let p) = action, p.topic == "gestured/hall/error" { refused += 1 }
            }
        }
        #expect(sent == MQTTBridge.maximumPendingRequests && refused == 20 - MQTTBridge.maximumPendingRequests)
    }

    @Test func brokerAwayQueuesGesturesAndDropsTheStaleOnes() {
        var bridge = Self.ready(MQTTSettings(host: "b", node: "hall", discoveryPrefix: nil, maximumEventAge: Interval(seconds: 10)))
        #expect(bridge.brokerDisconnected(now: Self.at(1)).isEmpty)
        let old = #"{"event":"gesture","type":"tap","state":"ended","name":"tap","seq":1}"#
        let new = #"{"event":"gesture","type":"tap","state":"ended","name":"tap","seq":2}"#
        #expect(bridge.daemonLine(old[...], now: Self.at(2), wallSeconds: 100).isEmpty)
        #expect(bridge.daemonLine(#"{"event":"lock","seconds":30,"seq":3}"#, now: Self.at(3), wallSeconds: 101).isEmpty)
        #expect(bridge.daemonLine(new[...], now: Self.at(15), wallSeconds: 113).isEmpty)
        #expect(bridge.brokerConnected(now: Self.at(20)).map(\.description) == [
            "subscribe gestured/hall/set/+",
            "publish gestured/hall/status online (retained) qos1",
            "publish gestured/hall/idle active (retained) qos1",
            "publish gestured/hall/screen on (retained) qos1",
            "publish gestured/hall/lock locked (retained) qos1",
            "publish gestured/hall/last_touch 1970-01-01T00:01:53+00:00 (retained) qos1",
            "log<4> dropped 1 messages that waited for the broker (older than 10.0 s, or past 256 waiting)",
            #"publish gestured/hall/gesture/tap {"event":"gesture","type":"tap","state":"ended","name":"tap","seq":2,"event_type":"ended"}"#,
        ])
        #expect(bridge.droppedMessages == 1)
    }

    @Test func theDaemonGoingAwayMakesTheNodeOfflineAndAnswersWaitingCommands() {
        var bridge = Self.ready()
        _ = bridge.message(topic: "gestured/hall/set/layout", payload: "day", now: Self.at(1))
        #expect(bridge.daemonDisconnected(now: Self.at(2)).map(\.description) == [
            "log<4> refused layout 'day': the daemon went away before answering",
            #"publish gestured/hall/error {"command":"layout","payload":"day","message":"the daemon went away before answering"}"#,
            "publish gestured/hall/status offline (retained) qos1",
        ])
        #expect(bridge.message(topic: "gestured/hall/set/layout", payload: "day", now: Self.at(3)).map(\.description) == [
            "log<4> refused layout 'day': the daemon is not connected",
            #"publish gestured/hall/error {"command":"layout","payload":"day","message":"the daemon is not connected"}"#,
        ])
        #expect(bridge.stop().map(\.description) == ["publish gestured/hall/status offline (retained) qos1"])
    }

    @Test func homeAssistantsBirthResendsDiscoveryAndStaleConfigsAreCleared() {
        var bridge = Self.ready()
        let birth = bridge.message(topic: "homeassistant/status", payload: "online", now: Self.at(1))
        #expect(birth.count == 6 + 4)   // discovery, then the states (no last touch yet)
        #expect(bridge.message(topic: "homeassistant/status", payload: "offline", now: Self.at(1)).isEmpty)
        // A config of a gesture this configuration no longer has: cleared; our own echo: left alone.
        #expect(bridge.message(topic: "homeassistant/event/hall/old/config", payload: "{}", now: Self.at(2)).map(\.description)
                == ["publish homeassistant/event/hall/old/config <empty> (retained) qos1"])
        #expect(bridge.message(topic: "homeassistant/event/hall/old/config", payload: "", now: Self.at(2)).isEmpty)
        #expect(bridge.message(topic: "homeassistant/event/hall/next_page/config", payload: "{}", now: Self.at(2)).isEmpty)
        let reload = bridge.reload(gestures: [DiscoveredGesture(id: "tap", eventTypes: ["ended"])], now: Self.at(3))
        #expect(reload.first?.description == "publish homeassistant/event/hall/next_page/config <empty> (retained) qos1")
        #expect(reload.count == 1 + 5)
    }

    @Test func topicLevelsAreSanitized() {
        #expect(MQTTTopics.level("a/b+c#d e") == "a_b_c_d_e")
        #expect(MQTTTopics.level("") == "_")
        #expect(MQTTTopics.level("Ümlaut-ok_1") == "_mlaut-ok_1")
        #expect(MQTTTopics(prefix: "home/kiosks", node: "hall #2", discoveryPrefix: nil).gesture("x/y") == "home/kiosks/hall__2/gesture/x_y")
    }

    @Test func flatJSONReadsTheDaemonsLines() {
        #expect(FlatJSON.object(#"{"event":"error","command":"lock","message":"a \"b\" \u00e9"}"#)
                == ["event": "error", "command": "lock", "message": "a \"b\" é"])
        #expect(FlatJSON.object(#"{"x":1.50,"ok":true}"#) == ["x": "1.50", "ok": "true"])
        #expect(FlatJSON.object("{\"a\":1") == nil)
        #expect(FlatJSON.object("hello version=1") == nil)
        #expect(FlatJSON.quoted("a\"\\\n\u{1}") == #""a\"\\\n\u0001""#)
    }

    @Test func timestampsAreISO8601() {
        #expect(Timestamp.iso8601(0) == "1970-01-01T00:00:00+00:00")
        #expect(Timestamp.iso8601(951_782_400) == "2000-02-29T00:00:00+00:00")
        #expect(Timestamp.iso8601(1_796_652_208) == "2026-12-07T14:03:28+00:00")
    }
}
