import Testing
import GesturedConfig
import GesturedCore
import FoundationEssentials

/// The `screens` form: what it reads to, and every mistake at its key path and line:column.
@Suite struct ScreensConfigTests {
    static let kiosk = """
        {
          screens: [
            { id: "customer", width: 800, height: 480, devices: [{ match: { name: "Front*" } }],
              views: [{ id: "front", gestures: [{ id: "frontTap", type: "tap" }] }],
              layouts: { quiet: { front: { isHidden: true } } } },
            { id: "operator", devices: "rest",
              views: [{ id: "back", gestures: [{ id: "backPan", type: "pan" }] }] },
          ],
        }
        """

    @Test func aKioskReadsToTwoScreens() throws {
        let c = try #require(parsed(Self.kiosk))
        #expect(c.screens.map(\.id) == ["customer", "operator"])
        #expect(c.screens[0].size == Size(width: 800, height: 480))
        #expect(c.screens[1].size == nil)
        #expect(c.screens[0].devices == .matching([DeviceMatch(name: "Front*")]))
        #expect(c.screens[1].devices == .rest)
        #expect(c.screens[0].layouts["quiet"]?.entries == [Layout.Entry(view: "front", changes: [.hidden(true)])])
        #expect(c.views.isEmpty && c.screenSpecs == c.screens)
        #expect(c.allViews.map(\.id) == ["front", "back"])
        // The first screen whose devices match takes a device; the rest screen the others.
        let front = DeviceDescription(sysname: "event1", name: "Front panel")
        let other = DeviceDescription(sysname: "event2", name: "Back panel")
        #expect(c.screenIndex(of: front) == 0)
        #expect(c.screenIndex(of: other) == 1)
    }

    /// `config/two-panels.json5`, the shipped two-panel example, found from this file's path.
    @Test func theTwoPanelExampleParses() throws {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let path = (parts + ["config", "two-panels.json5"]).joined(separator: "/")
        let bytes = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
        let c = try ConfigLoader.load([UInt8](bytes), file: path)
        #expect(c.screens.map(\.id) == ["customer", "operator"])
        #expect(c.screens[1].devices == .rest)
        #expect(c.screens[0].layouts.keys.sorted() == ["checkout", "idle"])
        #expect(c.allViews.map(\.id) == ["customerRoot", "till"])
    }

    @Test func theSingleFormIsOneScreenWithoutAnId() throws {
        let c = try #require(parsed("{ screen: { width: 10, height: 20 }, views: [{ id: 'root' }] }"))
        #expect(c.screens.isEmpty)
        #expect(c.screenSpecs == [ScreenSpec(id: nil, size: Size(width: 10, height: 20), devices: .rest,
                                             views: [ViewSpec(id: "root")])])
    }

    @Test func aDeviceMatchingTwoScreensBelongsToTheFirst() throws {
        let c = try #require(parsed("""
            { screens: [
              { id: "a", devices: [{ match: { name: "Panel*" } }] },
              { id: "b", devices: [{ match: { sysname: "event7" } }] },
            ] }
            """))
        #expect(c.screenIndex(of: DeviceDescription(sysname: "event7", name: "Panel 2")) == 0)
        #expect(c.screenIndex(of: DeviceDescription(sysname: "event7", name: "Other")) == 1)
        // No "rest" screen: a device nobody matches is not used.
        #expect(c.screenIndex(of: DeviceDescription(sysname: "event8", name: "Other")) == nil)
    }

    @Test func theSameMatchInTwoScreensIsAnError() {
        #expect(diagnostics("""
            { screens: [
              { id: "a", devices: [{ match: { name: "Panel*" } }] },
              { id: "b", devices: [{ match: { name: "Panel*" } }] },
            ] }
            """) == [
                #"test.json5:3:33: screens[1].devices[0].match: screen "a" (screens[0].devices[0].match) already takes the devices this matches: a device belongs to the first screen whose devices match it"#,
            ])
    }

    @Test func duplicateIdsAcrossScreensAreErrors() {
        #expect(diagnostics("""
            { screens: [
              { id: "a", devices: "rest", views: [{ id: "root", gestures: [{ id: "t", type: "tap" }] }] },
              { id: "a", devices: [], views: [{ id: "root", gestures: [{ id: "t", type: "tap" }] }] },
            ] }
            """) == [
                #"test.json5:3:9: screens[1].id: duplicate screen id "a" (first used at 2:9)"#,
                #"test.json5:3:41: screens[1].views[0].id: duplicate view id "root" (first used at 2:45)"#,
                #"test.json5:3:66: screens[1].views[0].gestures[0].id: duplicate gesture id "t" (first used at 2:70)"#,
            ])
    }

    @Test func aReferenceToAGestureOfAnotherScreenIsAnErrorAtTheReference() {
        #expect(diagnostics("""
            { screens: [
              { id: "a", devices: "rest", views: [{ id: "ra", gestures: [{ id: "t", type: "tap" }] }] },
              { id: "b", devices: [], views: [{ id: "rb", gestures: [{ id: "u", type: "tap", requireToFail: ["t"],
                                                                   recognizeSimultaneouslyWith: ["t"] }] }] },
            ] }
            """) == [
                #"test.json5:3:98: screens[1].views[0].gestures[0].requireToFail[0]: gesture "t" is on another screen (screens[0]); gestures of different screens never see the same touches"#,
                #"test.json5:4:86: screens[1].views[0].gestures[0].recognizeSimultaneouslyWith[0]: gesture "t" is on another screen (screens[0]); gestures of different screens never see the same touches"#,
            ])
    }

    @Test func screensWithTopLevelViewsScreenOrLayoutsIsAnError() {
        #expect(diagnostics("""
            {
              screen: { width: 1, height: 1 },
              views: [{ id: "root" }],
              screens: [{ id: "a", devices: "rest" }],
            }
            """) == [
                #"test.json5:2:3: screen: "screens" and top-level "screen" cannot both be given; move "screen" into each screen of "screens""#,
                #"test.json5:3:3: views: "screens" and top-level "views" cannot both be given; move "views" into each screen of "screens""#,
            ])
    }

    @Test func otherScreenMistakes() {
        #expect(diagnostics("""
            { screens: [
              { id: "a", devices: "rest", width: 10 },
              { id: "b", devices: "rest", size: 3 },
              { id: "c", devices: "others" },
            ] }
            """) == [
                #"test.json5:2:3: screens[0]: needs both "width" and "height", or neither (then its first device's size)"#,
                #"test.json5:3:23: screens[1].devices: only one screen may take the rest of the devices (screens[0].devices does already)"#,
                #"test.json5:3:31: screens[1].size: unknown key "size""#,
                #"test.json5:4:23: screens[2].devices: expected "rest" or an array of { match: {...} }, found "others""#,
            ])
        #expect(diagnostics("{ screens: [] }") == ["test.json5:1:12: screens: needs at least one screen"])
        #expect(diagnostics("{ screens: [{ id: 'a', views: [{ id: 'v' }], layouts: { l: { w: {} } } }] }") == [
            "test.json5:1:13: screens[0]: missing required key \"devices\"",
            #"test.json5:1:62: screens[0].layouts.l.w: no view has the id "w""#,
        ])
    }
}
