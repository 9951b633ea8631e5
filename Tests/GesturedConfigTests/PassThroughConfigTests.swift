import Testing
import GesturedConfig
import GesturedCore

/// The pass-through keys (CONTRACT.md §4): what they become and their defaults.
@Suite struct PassThroughConfigTests {
    @Test func passThroughImpliesGrabAndDefaultsOff() throws {
        let configuration = try #require(parsed("""
            { devices: [{ match: { name: "A" }, passThrough: true }, { match: { name: "B" } },
                        { match: { name: "C" }, grab: false, passThrough: true }] }
            """))
        #expect(configuration.devices.map(\.passThrough) == [true, false, true])
        #expect(configuration.devices.map(\.grab) == [true, false, true])
    }

    @Test func gesturesTakeUIKitsDefaultsAndEachPropertyIsRead() throws {
        let specs = gestures("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tap" },
                { id: "b", type: "tap", cancelsTouchesInView: false },
                { id: "c", type: "pan", delaysTouchesBegan: true },
                { id: "d", type: "tap", delaysTouchesEnded: false },
            ] }] }
            """)
        #expect(specs.map(\.delivery) == [
            TouchDelivery(),
            TouchDelivery(cancelsTouchesInView: false),
            TouchDelivery(delaysTouchesBegan: true),
            TouchDelivery(delaysTouchesEnded: false),
        ])
        #expect(TouchDelivery() == TouchDelivery(cancelsTouchesInView: true, delaysTouchesBegan: false, delaysTouchesEnded: true))
    }

    @Test func forwardsTouchesDefaultsTrue() throws {
        let configuration = try #require(parsed("""
            { views: [{ id: "a", forwardsTouches: false, subviews: [{ id: "b" }] }, { id: "c" }] }
            """))
        #expect(configuration.views.map(\.forwardsTouches) == [false, true])
        #expect(configuration.views[0].subviews[0].forwardsTouches == true)
    }

    @Test func aPropertyOfTheWrongTypeIsAnErrorAtItsKey() {
        #expect(diagnostics("{ devices: [{ passThrough: 1 }] }").contains { $0.contains("devices[0].passThrough") })
        #expect(diagnostics("{ views: [{ id: \"v\", forwardsTouches: \"no\" }] }").contains { $0.contains("views[0].forwardsTouches") })
        #expect(diagnostics("{ views: [{ id: \"v\", gestures: [{ id: \"t\", type: \"tap\", delaysTouchesBegan: 0 }] }] }")
                    .contains { $0.contains("views[0].gestures[0].delaysTouchesBegan") })
    }
}

/// `cancelStyle` (CONTRACT.md §5): how a claimed touch ends in the application.
@Suite struct CancelStyleConfigTests {
    @Test func eachStyleIsReadAndTheDefaultIsLift() throws {
        let configuration = try #require(parsed("""
            { devices: [{ match: { name: "A" }, passThrough: true, cancelStyle: "palm" },
                        { match: { name: "B" }, passThrough: true, cancelStyle: "lift" },
                        { match: { name: "C" }, passThrough: true }] }
            """))
        #expect(configuration.devices.map(\.cancelStyle) == [.palm, .lift, .lift])
        #expect(CancelStyle.default == .lift)
    }

    @Test func anUnknownStyleNamesTheKeyItsPlaceAndTheValidValues() {
        #expect(diagnostics("""
            { devices: [{ passThrough: true, cancelStyle: "palm" }] }
            """) == [])
        #expect(diagnostics("""
            { devices: [{ passThrough: true,
                          cancelStyle: "cancel" }] }
            """) == ["test.json5:2:28: devices[0].cancelStyle: must be one of palm, lift, found \"cancel\""])
        #expect(diagnostics("{ devices: [{ cancelStyle: 1 }] }").contains { $0.contains("devices[0].cancelStyle") })
    }
}
