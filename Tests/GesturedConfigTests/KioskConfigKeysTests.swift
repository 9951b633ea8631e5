import GesturedConfig
import GesturedCore
import Testing

/// The kiosk policy's keys (CONTRACT.md §6): `idle` and `power`, at the top level and per
/// screen, with what each refuses.
@Suite struct KioskConfigKeysTests {
    static func seconds(_ list: [Int]) -> [Interval] { list.map { Interval(microseconds: Int64($0) * 1_000_000) } }

    @Test func idleAndPowerAreReadAtTheTopLevel() throws {
        let configuration = try #require(parsed(#"{ idle: [60, 300], power: { source: "socket", wakeTouch: "forward" } }"#))
        #expect(configuration.idle == Self.seconds([60, 300]))
        #expect(configuration.power == PowerPolicy(source: .socket, wakeTouch: .forward))
    }

    @Test func theDefaultsAreNoIdleAndAClaimedWakeTouch() throws {
        let configuration = try #require(parsed("{}"))
        #expect(configuration.idle.isEmpty)
        #expect(configuration.power == PowerPolicy(source: .auto, wakeTouch: .claim))
    }

    @Test func aScreenHasItsOwnIdleAndPower() throws {
        let configuration = try #require(parsed("""
            { idle: [600], screens: [
                { id: "door", devices: "rest", idle: [30], power: { wakeTouch: "forward" } },
                { id: "desk", devices: [{ match: { name: "desk*" } }] } ] }
            """))
        #expect(configuration.idle == Self.seconds([600]))
        #expect(configuration.screens.map(\.idle) == [Self.seconds([30]), []])
        #expect(configuration.screens.map(\.power) == [PowerPolicy(wakeTouch: .forward), nil])
    }

    @Test func badValuesAreRefusedWithWhere() {
        #expect(diagnostics("{ idle: [300, 60] }") == ["test.json5:1:15: idle[1]: thresholds must increase: 60 comes after 300"])
        #expect(diagnostics("{ idle: [0] }") == ["test.json5:1:10: idle[0]: must be at least 1, found 0"])
        #expect(diagnostics("{ idle: [1.5] }") == ["test.json5:1:10: idle[0]: expected an integer, found 1.5"])
        #expect(diagnostics("{ idle: [999999999] }")
                == ["test.json5:1:10: idle[0]: must be at most 604800 seconds (a week), found 999999999"])
        #expect(diagnostics("{ idle: 60 }") == ["test.json5:1:9: idle: expected an array, found a number"])
        #expect(diagnostics(#"{ power: { wakeTouch: "eat" } }"#)
                == [#"test.json5:1:23: power.wakeTouch: must be one of claim, forward, found "eat""#])
        #expect(diagnostics(#"{ power: { source: "dpms" } }"#)
                == [#"test.json5:1:20: power.source: must be one of auto, drm, backlight, socket, found "dpms""#])
        #expect(diagnostics(#"{ power: { source: "drm" } }"#) == [
            #"test.json5:1:20: power.source: "drm" needs "connector": the screen's DRM connector, as /sys/class/drm names it (card1-HDMI-A-1)"#,
        ])
        #expect(diagnostics(#"{ power: { source: "backlight" } }"#) == [
            #"test.json5:1:20: power.source: "backlight" needs "backlight": the screen's backlight, as /sys/class/backlight names it"#,
        ])
        #expect(diagnostics(#"{ power: { connector: "../../etc" } }"#)
                == [#"test.json5:1:23: power.connector: must be a name in /sys/class/drm, found "../../etc""#])
        #expect(diagnostics(#"{ power: { sauce: "auto" } }"#).count == 1)
    }

    /// `power.wakeAction`: a command (`run`, `timeout`) like a gesture's action, without `on`.
    @Test func theWakeActionIsReadWithItsErrorsWhere() throws {
        let configuration = try #require(parsed(#"{ power: { wakeAction: { run: ["/usr/bin/touch", "/run/gestured/actions/screen-on"], timeout: 3 } } }"#))
        #expect(configuration.power.wakeAction == GestureAction(run: ["/usr/bin/touch", "/run/gestured/actions/screen-on"],
                                                                 timeout: Interval(seconds: 3)))
        let perScreen = try #require(parsed(#"{ screens: [ { id: "a", devices: "rest", power: { wakeAction: { run: ["/bin/true"] } } } ] }"#))
        #expect(perScreen.screens.map(\.power?.wakeAction) == [GestureAction(run: ["/bin/true"])])
        #expect(diagnostics(#"{ power: { wakeAction: { run: "wlopm --on *" } } }"#)
                == [#"test.json5:1:31: power.wakeAction.run: expected an array, found a string: the program and its arguments, each a string (no shell splits it); did you mean ["wlopm", "--on", "*"]?"#])
        #expect(diagnostics(#"{ power: { wakeAction: { run: [] } } }"#)
                == [#"test.json5:1:31: power.wakeAction.run: must name a program: ["/path/to/program", arguments…]"#])
        #expect(diagnostics(#"{ power: { wakeAction: { run: ["/bin/true"], on: "began" } } }"#).count == 1)
        #expect(diagnostics(#"{ power: { wakeAction: { timeout: 2 } } }"#).count == 1)
        #expect(diagnostics(#"{ power: { wakeAction: { run: ["/bin/true"], timeout: 0 } } }"#)
                == [#"test.json5:1:55: power.wakeAction.timeout: must be greater than 0"#])
    }

    /// `lock.unlockGesture` and `lock.unlockFrame`, top level and per screen, with what an
    /// unlock gesture may not take.
    @Test func theUnlockGestureIsReadWithItsErrorsWhere() throws {
        let configuration = try #require(parsed("""
            { lock: { unlockGesture: { id: "unlock", type: "longPress", minimumPressDuration: 3 },
                      unlockFrame: { x: 0, y: 0, width: 120, height: 120 } } }
            """))
        #expect(configuration.lock.unlockFrame == Rect(x: 0, y: 0, width: 120, height: 120))
        #expect(configuration.lock.unlockGesture?.id == "unlock")
        let perScreen = try #require(parsed(#"{ screens: [ { id: "a", devices: "rest", lock: { unlockGesture: { id: "u", type: "tap", numberOfTapsRequired: 3 } } } ] }"#))
        #expect(perScreen.screens.map { $0.lock?.unlockGesture?.id } == ["u"])
        #expect(perScreen.lock(ofScreen: 0).unlockFrame == nil)
        #expect(diagnostics(#"{ lock: { unlockGesture: { id: "u", type: "tap", action: { run: ["/bin/true"] } } } }"#)
                == [#"test.json5:1:58: lock.unlockGesture.action: an unlock gesture runs alone while every touch is claimed: it takes no "action""#])
        #expect(diagnostics(#"{ lock: { unlockGesture: { id: "u", type: "tap", requireToFail: ["x"] } } }"#).count == 1)
        #expect(diagnostics(#"{ lock: { unlockGesture: { id: "u", type: "wiggle" } } }"#).count == 1)
        #expect(diagnostics(#"{ lock: { unlockGesture: { type: "tap" } } }"#).count == 1)
        #expect(diagnostics(#"{ lock: { unlockFrame: { x: 0, y: 0, width: -1, height: 5 } } }"#).count == 1)
        #expect(diagnostics(#"{ lock: { unlock: {} } }"#).count == 1)
    }

    /// Which attribute each source reads: `"auto"` reads the connector's `dpms` when one is named.
    @Test func theSourceChoosesTheAttribute() throws {
        let configuration = try #require(parsed("""
            { screens: [
                { id: "a", devices: [{ match: { name: "a" } }], power: { connector: "card1-HDMI-A-1" } },
                { id: "b", devices: [{ match: { name: "b" } }], power: { source: "backlight", backlight: "rpi_backlight" } },
                { id: "c", devices: [{ match: { name: "c" } }], power: { source: "socket", connector: "card1-DSI-1" } },
                { id: "d", devices: "rest" } ] }
            """))
        #expect(configuration.screenSpecs.indices.map { configuration.power(ofScreen: $0).attribute } == [
            .dpms(connector: "card1-HDMI-A-1"), .blPower(backlight: "rpi_backlight"), nil, nil,
        ])
        #expect(PowerAttribute.dpms(connector: "card1-HDMI-A-1").path() == "/sys/class/drm/card1-HDMI-A-1/dpms")
        #expect(PowerAttribute.blPower(backlight: "rpi_backlight").path(sys: "/tmp/s") == "/tmp/s/class/backlight/rpi_backlight/bl_power")
    }

    @Test func whatTheAttributesSay() {
        let dpms = PowerAttribute.dpms(connector: "x"), blPower = PowerAttribute.blPower(backlight: "y")
        #expect(["On\n", "Off\n", "Standby\n", "Suspend\n", "", "on\n"].map { dpms.isOff($0) } == [false, true, true, true, nil, nil])
        #expect(["0\n", "4\n", "1", "-1\n", "x\n", ""].map { blPower.isOff($0) } == [false, true, true, nil, nil, nil])
    }
}
