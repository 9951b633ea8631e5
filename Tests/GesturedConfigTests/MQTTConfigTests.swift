import GesturedConfig
import GesturedCore
import Testing

/// The `mqtt` object (CONTRACT.md §7): its defaults, every key read, and what each refuses, located.
@Suite struct MQTTConfigTests {
    @Test func onlyTheBrokerIsNeededAndTheRestHasDefaults() throws {
        let configuration = try #require(parsed(#"{ mqtt: { broker: "mqtt://broker.lan" } }"#))
        #expect(configuration.mqtt == MQTTSettings(transport: .mqtt, host: "broker.lan", port: 1883, node: nil,
                                                   topicPrefix: "gestured", discoveryPrefix: "homeassistant",
                                                   commands: [], protocolVersion: .v311,
                                                   maximumEventAge: Interval(microseconds: 30_000_000), lockSeconds: 300))
        #expect(try #require(parsed("{}")).mqtt == nil)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try #require(parsed("""
            { mqtt: { broker: "mqtts://[::1]:8884", node: "hall panel", topicPrefix: "home/kiosks",
                      discoveryPrefix: null, username: "kiosk", passwordFile: "/etc/gestured/mqtt.password",
                      caFile: "/etc/ssl/ca.pem", certFile: "c.pem", keyFile: "k.pem", commands: ["lock", "unlock", "screen", "layout"],
                      protocol: "5", maximumEventAge: 2.5, lockSeconds: 60 } }
            """))
        #expect(configuration.mqtt == MQTTSettings(transport: .mqtts, host: "::1", port: 8884, node: "hall panel",
                                                   topicPrefix: "home/kiosks", discoveryPrefix: nil, username: "kiosk",
                                                   passwordFile: "/etc/gestured/mqtt.password", caFile: "/etc/ssl/ca.pem",
                                                   certFile: "c.pem", keyFile: "k.pem",
                                                   commands: [.lock, .unlock, .screen, .layout], protocolVersion: .v5,
                                                   maximumEventAge: Interval(microseconds: 2_500_000), lockSeconds: 60))
        #expect(try #require(parsed(#"{ mqtt: { broker: "mqtts://b" } }"#)).mqtt?.port == 8883)
    }

    @Test func badValuesAreRefusedWithWhere() {
        #expect(diagnostics(#"{ mqtt: {} }"#) == [#"test.json5:1:9: mqtt: missing required key "broker""#])
        #expect(diagnostics(#"{ mqtt: { broker: "tcp://b" } }"#)
                == [#"test.json5:1:19: mqtt.broker: expected "mqtt://HOST[:PORT]" or "mqtts://HOST[:PORT]", found "tcp://b""#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b:99999" } }"#)
                == [#"test.json5:1:19: mqtt.broker: the port must be a number from 1 to 65535, found "99999""#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://u:p@b" } }"#)
                == [#"test.json5:1:19: mqtt.broker: the broker's address takes no user: give "username" and "passwordFile" instead"#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", topicPrefix: "a/+/b" } }"#)
                == [##"test.json5:1:44: mqtt.topicPrefix: must not contain the wildcards "+" and "#", found "a/+/b""##])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", discoveryPrefix: "ha/" } }"#)
                == [#"test.json5:1:48: mqtt.discoveryPrefix: levels separated by single "/", none empty, found "ha/""#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", commands: ["lock", "reboot", "lock"] } }"#) == [
            #"test.json5:1:50: mqtt.commands[1]: must be one of lock, unlock, screen, show, hide, enable, disable, frame, layout, rotate, found "reboot""#,
            #"test.json5:1:60: mqtt.commands[2]: "lock" is listed twice"#,
        ])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", protocol: "4" } }"#)
                == [#"test.json5:1:41: mqtt.protocol: must be one of 3.1.1, 5, found "4""#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", caFile: "ca.pem" } }"#)
                == [#"test.json5:1:39: mqtt.caFile: only for a TLS broker ("mqtts://…")"#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtts://b", certFile: "c.pem" } }"#)
                == [#"test.json5:1:42: mqtt.certFile: a client certificate needs both "certFile" and "keyFile""#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", passwordFile: "p" } }"#)
                == [#"test.json5:1:45: mqtt.passwordFile: a password needs "username""#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", lockSeconds: 7200 } }"#)
                == [#"test.json5:1:44: mqtt.lockSeconds: must be at most 3600 seconds (as the lock request), found 7200"#])
        #expect(diagnostics(#"{ mqtt: { broker: "mqtt://b", brokr: 1 } }"#)
                == [#"test.json5:1:31: mqtt.brokr: unknown key "brokr"; did you mean "broker"?"#])
    }
}
