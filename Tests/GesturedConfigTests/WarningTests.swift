import GesturedConfig
import FoundationEssentials
import GesturedCore
import GesturedSeeing
import Testing

/// `check-config`'s warnings: likely mistakes in a valid file, each at its key path and
/// line:column. One test per warning, and none on the shipped files.
struct WarningTests {
    private func warnings(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        do { return try ConfigLoader.check(text, file: testFile).warnings.map(\.description) } catch {
            Issue.record("unexpected diagnostics:\n\(error)", sourceLocation: sourceLocation)
            return []
        }
    }

    /// With `screens`, each screen's tree is checked against its own size, and the warnings name
    /// the screen's key path.
    @Test func eachScreenIsCheckedOnItsOwn() {
        #expect(warnings("""
            { screens: [
                { id: "a", width: 800, height: 480, devices: "rest",
                  views: [{ id: "aRoot", subviews: [{ id: "far", frame: [900, 0, 50, 50] }] }] },
                { id: "b", width: 1000, height: 1000, devices: [{ match: { name: "B*" } }],
                  views: [{ id: "bRoot", gestures: [{ id: "single", type: "tap" }, { id: "double", type: "tap", numberOfTapsRequired: 2 }],
                            subviews: [{ id: "near", frame: [900, 0, 50, 50] }] }] } ] }
            """) == [#"test.json5:3:41: screens[0].views[0].subviews[0]: view "far" can never be hit: no part of its hit area is on the 800×480 screen inside its parents' hit areas"#,
                     #"test.json5:5:41: screens[1].views[0].gestures[0]: taps "single" (1) and "double" (2) see the same touches without requireToFail: every 2-tap also fires "single" first; add requireToFail: ["double"] to "single""#])
    }

    @Test func tapsDifferingInTapCountWithoutRequireToFail() {
        #expect(warnings("""
            { screen: { width: 1000, height: 1000 },
              views: [{ id: "root", gestures: [{ id: "single", type: "tap" }],
                subviews: [{ id: "photo", gestures: [{ id: "double", type: "tap", numberOfTapsRequired: 2 }] }] }] }
            """) == [#"test.json5:2:36: views[0].gestures[0]: taps "single" (1) and "double" (2) see the same touches without requireToFail: every 2-tap also fires "single" first; add requireToFail: ["double"] to "single""#])
        // With requireToFail (here through a chain), or with different touch counts: nothing to say.
        #expect(warnings("""
            { views: [{ id: "root", gestures: [
                { id: "single", type: "tap", requireToFail: ["double"] },
                { id: "double", type: "tap", numberOfTapsRequired: 2, requireToFail: ["triple"] },
                { id: "triple", type: "tap", numberOfTapsRequired: 3 },
                { id: "twoFingers", type: "tap", numberOfTapsRequired: 2, numberOfTouchesRequired: 2 } ] }] }
            """) == [])
        // On views side by side, a touch reaches one of them only.
        #expect(warnings("""
            { views: [{ id: "root", subviews: [
                { id: "a", frame: [0, 0, 10, 10], gestures: [{ id: "a1", type: "tap" }] },
                { id: "b", frame: [20, 0, 10, 10], gestures: [{ id: "b2", type: "tap", numberOfTapsRequired: 2 }] } ] }] }
            """) == [])
    }

    @Test func viewsThatCanNeverBeHit() {
        #expect(warnings("""
            { screen: { width: 1000, height: 1000 },
              views: [{ id: "root", subviews: [
                { id: "under", frame: [350, 350, 100, 100] },
                { id: "cover", frame: [300, 300, 200, 200] },
                { id: "away", frame: [1200, 0, 100, 100] },
                { id: "clipped", frame: [0, 0, 100, 100], subviews: [{ id: "outside", frame: [150, 0, 10, 10] }] },
                { id: "hidden", frame: [1200, 0, 100, 100], isHidden: true },
                { id: "round", frame: [300, 300, 100, 100], hitShape: { circle: { x: 50, y: 50, radius: 50 } } },
                { id: "grown", frame: [980, 0, 10, 10], hitTestInsets: { right: -40 } } ] }] }
            """) == [
                #"test.json5:3:5: views[0].subviews[0]: view "under" can never be hit: "cover", in front of it, covers its whole hit area"#,
                #"test.json5:5:5: views[0].subviews[2]: view "away" can never be hit: no part of its hit area is on the 1000×1000 screen inside its parents' hit areas"#,
                #"test.json5:6:58: views[0].subviews[3].subviews[0]: view "outside" can never be hit: no part of its hit area is on the 1000×1000 screen inside its parents' hit areas"#,
            ])
    }

    @Test func screenEdgePanWhoseViewDoesNotReachItsEdge() {
        #expect(warnings("""
            { screen: { width: 1000, height: 1000 },
              views: [{ id: "root", subviews: [
                { id: "panel", frame: [300, 300, 400, 400], gestures: [{ id: "edge", type: "screenEdgePan", edges: ["left", "top"] }] },
                { id: "side", frame: [985, 0, 15, 1000], gestures: [{ id: "back", type: "screenEdgePan", edges: ["right"] }] } ] }] }
            """) == [#"test.json5:3:104: views[0].subviews[0].gestures[0].edges: "edge" can never begin: view "panel" does not reach within edgeZoneWidth 20 pt of its edges (left, top)"#])
    }

    @Test func requireToFailChainsLongerThanASecond() {
        #expect(warnings("""
            { views: [{ id: "root", gestures: [
                { id: "drag", type: "pan", requireToFail: ["slow"] },
                { id: "slow", type: "swipe", direction: "left", maximumDuration: 0.6, requireToFail: ["triple"] },
                { id: "triple", type: "tap", numberOfTapsRequired: 3 },
                { id: "quick", type: "pan", requireToFail: ["triple"] } ] }] }
            """) == [#"test.json5:2:47: views[0].gestures[0].requireToFail: "drag" may wait 1.2 s for slow → triple to fail (requireToFail), more than 1 s: it will feel unresponsive"#])
    }

    @Test func layoutsNamingUnknownViewsAreErrorsNotWarnings() {
        #expect(diagnostics(#"{ views: [{ id: "root" }], layouts: { night: { rooot: { isHidden: true } } } }"#)
                == [#"test.json5:1:48: layouts.night.rooot: no view has the id "rooot"; did you mean "root"?"#])
    }

    @Test func theShippedFilesHaveNoWarnings() throws {
        let bytes = try #require(FileManager.default.contents(atPath: ExampleAndDefaultTests.examplePath))
        #expect(try ConfigLoader.check([UInt8](bytes), file: ExampleAndDefaultTests.examplePath).warnings == [])
        #expect(ConfigLoader.defaultConfiguration().warnings() == [])
    }

    /// A `passThrough` rule whose `maximumTouches` is below what a gesture needs: the gesture can
    /// never recognize on its devices. Beside it, a limit that fits and a rule that does not
    /// pass through: nothing to say.
    @Test func aPassThroughLimitBelowAGesturesTouches() {
        let views = """
            views: [{ id: "root", gestures: [{ id: "hold", type: "longPress", numberOfTouchesRequired: 3 },
                                             { id: "zoom", type: "pinch" }] }] }
            """
        #expect(warnings("""
            { devices: [{ passThrough: true,
                          maximumTouches: 2 }],
            \(views)
            """) == [#"test.json5:2:31: devices[0].maximumTouches: "hold" needs 3 touches, more than the 2 this passThrough rule lets its devices report: it can never recognize there, and its touches all reach the application"#])
        #expect(warnings("{ devices: [{ passThrough: true, maximumTouches: 3 }],\n\(views)") == [])
        #expect(warnings("{ devices: [{ maximumTouches: 1 }],\n\(views)") == [])
    }

    /// A `passThrough` rule matching touchpads or tablets: they have no `INPUT_PROP_DIRECT`, so
    /// the daemon never clones them. A rule matching touchscreens passes.
    @Test func aPassThroughRuleForDevicesThatCannotBeCloned() {
        #expect(warnings("""
            { devices: [{ match: { type: "touchpad" }, add: true, passThrough: true },
                        { match: { type: "tablet" }, passThrough: true, add: true }] }
            """) == [#"test.json5:1:30: devices[0].match.type: a touchpad cannot pass through: it has no INPUT_PROP_DIRECT, so its clone would be a touchpad too, which compositors use as a pointer; the daemon reads it without grabbing instead"#,
                     #"test.json5:2:30: devices[1].match.type: a tablet cannot pass through: it has no INPUT_PROP_DIRECT, so its clone would be a tablet too, which compositors use as a pointer; the daemon reads it without grabbing instead"#])
        #expect(warnings(#"{ devices: [{ match: { type: "touchscreen" }, passThrough: true }, { match: { type: "touchpad" }, add: true }] }"#) == [])
    }
}
