import GesturedConfig
import GesturedCore
import Testing

/// Forwarding asked for but not done (issue 37): a view's `forwardsTouches` or a gesture's
/// delivery keys with no `passThrough` rule, and a rule that grabs without forwarding, each a
/// warning at its key path and line:column, beside the configurations that do not warn.
struct ForwardingWarningTests {
    private func warnings(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        do { return try ConfigLoader.check(text, file: testFile).warnings.map(\.description) } catch {
            Issue.record("unexpected diagnostics:\n\(error)", sourceLocation: sourceLocation)
            return []
        }
    }

    private static func views(_ devices: String) -> String { """
        { devices: [\(devices)],
          views: [{ id: "root", gestures: [{ id: "edge", type: "screenEdgePan", edges: ["left"], delaysTouchesBegan: true,
                                             cancelsTouchesInView: false }],
                    subviews: [{ id: "corner", frame: [0, 0, 50, 50], forwardsTouches: false,
                                 gestures: [{ id: "double", type: "tap", numberOfTapsRequired: 2, delaysTouchesEnded: false }] }] }] }
        """
    }

    @Test func forwardingKeysWithoutAPassThroughRuleWarn() {
        let direct = "no device rule has passThrough: true (the application reads the panel itself and gets every touch)"
        #expect(warnings(Self.views("")) == [
            "test.json5:2:110: views[0].gestures[0].delaysTouchesBegan: delaysTouchesBegan: true does nothing: \(direct)",
            "test.json5:3:60: views[0].gestures[0].cancelsTouchesInView: cancelsTouchesInView: false does nothing: \(direct)",
            "test.json5:4:80: views[0].subviews[0].forwardsTouches: forwardsTouches: false does nothing: \(direct)",
            "test.json5:5:111: views[0].subviews[0].gestures[0].delaysTouchesEnded: delaysTouchesEnded: false does nothing: \(direct)",
        ])
        // A rule that only ignores devices forwards nothing either.
        #expect(warnings(Self.views(#"{ match: { name: "*Pen*" }, ignore: true }"#)).count == 4)
    }

    @Test func aGrabWithoutPassThroughWarnsAndSaysTheApplicationGetsNothing() {
        let grabbed = "no device rule has passThrough: true (a rule grabs: the application gets no touch at all)"
        #expect(warnings(Self.views(#"{ match: { type: "touchscreen" }, grab: true }"#)) == [
            "test.json5:1:53: devices[0].grab: grab without passThrough: the application gets no touch of these devices, not even "
                + "those no gesture claims; add passThrough: true to forward them (docs/KIOSK.md), or drop grab to let the "
                + "application read the panel itself",
            "test.json5:2:110: views[0].gestures[0].delaysTouchesBegan: delaysTouchesBegan: true does nothing: \(grabbed)",
            "test.json5:3:60: views[0].gestures[0].cancelsTouchesInView: cancelsTouchesInView: false does nothing: \(grabbed)",
            "test.json5:4:80: views[0].subviews[0].forwardsTouches: forwardsTouches: false does nothing: \(grabbed)",
            "test.json5:5:111: views[0].subviews[0].gestures[0].delaysTouchesEnded: delaysTouchesEnded: false does nothing: \(grabbed)",
        ])
        // With screens, the key paths are the screen's.
        #expect(warnings("""
            { devices: [{ match: { name: "A*" }, grab: true }],
              screens: [{ id: "a", devices: "rest", views: [{ id: "r", forwardsTouches: false }] }] }
            """).map { String($0.prefix(61)) } == ["test.json5:1:44: devices[0].grab: grab without passThrough: t",
                                                    "test.json5:2:77: screens[0].views[0].forwardsTouches: forward"])
    }

    @Test func forwardingThatIsDoneOrDefaultsDoNotWarn() {
        // A passThrough rule: every key means what it says.
        #expect(warnings(Self.views(#"{ match: { type: "touchscreen" }, passThrough: true }"#)) == [])
        // A grab beside a passThrough rule still leaves its own devices nothing.
        #expect(warnings(Self.views(#"{ match: { type: "touchscreen" }, passThrough: true }, { match: { name: "B*" }, grab: true }"#)).count == 1)
        // Defaults written out, and no rule: nothing is asked that is not done.
        #expect(warnings("""
            { views: [{ id: "root", forwardsTouches: true,
                        gestures: [{ id: "t", type: "tap", delaysTouchesBegan: false, delaysTouchesEnded: true, cancelsTouchesInView: true }] }] }
            """) == [])
    }
}
