import GesturedCore
import GesturedIO
import GesturedTestSupport
import Testing

/// The kiosk examples that ship (`/usr/share/doc/gestured/examples/`, issue 37): each passes
/// `check-config --strict`, and a recording of its three cases replays to what its header
/// promises: the admin corner's long press reaches no application and runs the admin action, a
/// tap elsewhere is forwarded at once, three fingers held are taken from the application when
/// the service-menu press begins. Replay runs no action and says on stderr which it would run.
struct KioskExampleTests {
    static let root = TestEnvironment.packageRoot
    static let recording = TestEnvironment.recordings + "/synthetic-kiosk.events"
    static let description = TestEnvironment.recordings + "/synthetic-touchscreen.desc"

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let done = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments, in: "/",
                                      deadline: deadline(milliseconds: 20_000))
        guard case .exited(let status) = done.termination, !done.timedOut else {
            Issue.record("gestured \(arguments) ended with \(done.termination)"); return (-1, done.stdout, done.stderr)
        }
        return (status, done.stdout, done.stderr)
    }

    @Test(arguments: ["kiosk.json5", "kiosk-rpi-7inch.json5", "kiosk-rpi-touch-display-2.json5", "kiosk-browser.json5"])
    func theExamplePassesStrictChecking(_ name: String) throws {
        let path = Self.root + "/config/" + name
        let checked = try run(["check-config", "--strict", path])
        #expect(checked.status == 0 && checked.stdout == "\(path): valid\n", "\(checked)")
    }

    static let replayed: [String: String] = [
        "kiosk.json5": """
            gesture longPress began admin view=adminCorner device=event0 time=2.100000 seq=1 touches=1 x=1875.46 y=10.55 viewX=75.46 viewY=10.55 duration=2.000
            gesture longPress ended admin view=adminCorner device=event0 time=2.600000 seq=2 touches=1 x=1875.46 y=10.55 viewX=75.46 viewY=10.55 duration=2.500
            forward down 2 device=event0 slot=0 trackingID=0 x=2048 y=2048 time=3.100000 seq=3
            forward up 2 device=event0 slot=0 time=3.150000 seq=4
            forward down 3 device=event0 slot=0 trackingID=1 x=1500 y=2048 time=4.100000 seq=5
            forward down 4 device=event0 slot=1 trackingID=2 x=2048 y=2048 time=4.100000 seq=6
            forward down 5 device=event0 slot=2 trackingID=3 x=2600 y=2048 time=4.100000 seq=7
            gesture longPress began serviceMenu view=app device=event0 time=6.100000 seq=8 touches=3 x=960.86 y=540.13 viewX=960.86 viewY=540.13 duration=2.000
            forward cancel 3 device=event0 slot=0 time=6.100000 seq=9
            forward up 3 device=event0 slot=0 time=6.100000 seq=10
            forward cancel 4 device=event0 slot=1 time=6.100000 seq=11
            forward up 4 device=event0 slot=1 time=6.100000 seq=12
            forward cancel 5 device=event0 slot=2 time=6.100000 seq=13
            forward up 5 device=event0 slot=2 time=6.100000 seq=14
            gesture longPress ended serviceMenu view=app device=event0 time=6.600000 seq=15 touches=3 x=960.86 y=540.13 viewX=960.86 viewY=540.13 duration=2.500

            """,
        "kiosk-rpi-7inch.json5": """
            gesture longPress began admin view=adminCorner device=event0 time=2.100000 seq=1 touches=1 x=781.44 y=4.69 viewX=61.44 viewY=4.69 duration=2.000
            gesture longPress ended admin view=adminCorner device=event0 time=2.600000 seq=2 touches=1 x=781.44 y=4.69 viewX=61.44 viewY=4.69 duration=2.500
            forward down 2 device=event0 slot=0 trackingID=0 x=2048 y=2048 time=3.100000 seq=3
            forward up 2 device=event0 slot=0 time=3.150000 seq=4
            forward down 3 device=event0 slot=0 trackingID=1 x=1500 y=2048 time=4.100000 seq=5
            forward down 4 device=event0 slot=1 trackingID=2 x=2048 y=2048 time=4.100000 seq=6
            forward down 5 device=event0 slot=2 trackingID=3 x=2600 y=2048 time=4.100000 seq=7
            gesture longPress began serviceMenu view=app device=event0 time=6.100000 seq=8 touches=3 x=400.36 y=240.06 viewX=400.36 viewY=240.06 duration=2.000
            forward cancel 3 device=event0 slot=0 time=6.100000 seq=9
            forward up 3 device=event0 slot=0 time=6.100000 seq=10
            forward cancel 4 device=event0 slot=1 time=6.100000 seq=11
            forward up 4 device=event0 slot=1 time=6.100000 seq=12
            forward cancel 5 device=event0 slot=2 time=6.100000 seq=13
            forward up 5 device=event0 slot=2 time=6.100000 seq=14
            gesture longPress ended serviceMenu view=app device=event0 time=6.600000 seq=15 touches=3 x=400.36 y=240.06 viewX=400.36 viewY=240.06 duration=2.500

            """,
    ]

    @Test(arguments: ["kiosk.json5", "kiosk-rpi-7inch.json5"])
    func theExampleReplaysItsAdminCornerTapAndServiceMenu(_ name: String) throws {
        let replay = try run(["replay", "--forwarded", "--config", Self.root + "/config/" + name,
                              "--description", Self.description, Self.recording])
        #expect(replay.status == 0)
        #expect(replay.stdout == Self.replayed[name], "\(replay.stdout)")
        #expect(replay.stderr == """
            replay: would run /usr/bin/touch /run/gestured/actions/kiosk-admin (admin began at 2.100000)
            replay: would run /usr/bin/touch /run/gestured/actions/kiosk-service-menu (serviceMenu began at 6.100000)

            """)
    }

    /// The explain answers at the admin corner's edges, and at the centre.
    @Test func explainAnswersAtTheAdminCornersEdges() throws {
        let path = Self.root + "/config/kiosk.json5"
        func tail(_ x: String, _ y: String) throws -> [String] {
            let answer = try run(["explain", "--config", path, x, y])
            #expect(answer.status == 0 && answer.stderr == "config: \(path)\n", "\(answer)")
            return Array(answer.stdout.split(separator: "\n").suffix(2).map(String.init))
        }
        #expect(try tail("1800", "0") == ["application: never", "view adminCorner"])
        #expect(try tail("1919.9", "119.9") == ["application: never", "view adminCorner"])
        #expect(try tail("1799.9", "20") == ["application: forwarded", "view app"])
        #expect(try tail("1900", "120") == ["application: forwarded", "view app"])
        #expect(try tail("960", "540") == ["application: forwarded", "view app"])
    }

    /// The browser kiosk (config/kiosk-browser.json5, docs/KIOSK.md "Recipe: browser gestures
    /// stopped below the browser"): a one-finger drag and a tap reach the browser whole; a
    /// two-finger pinch is taken from it as soon as it begins (a cancel and a lift for both
    /// fingers, instead of the move of the frame it began in); a swipe in from the left edge
    /// never reaches it.
    @Test func theBrowserExampleClaimsPinchesAndEdgeSwipesAndPassesOneFinger() throws {
        let replay = try run(["replay", "--forwarded", "--config", Self.root + "/config/kiosk-browser.json5",
                              "--description", Self.description, TestEnvironment.recordings + "/synthetic-browser.events"])
        #expect(replay.status == 0 && replay.stderr == "", "\(replay.stderr)")
        #expect(replay.stdout == """
            forward down 1 device=event0 slot=0 trackingID=0 x=2048 y=2048 time=0.100000 seq=1
            forward move 1 device=event0 slot=0 x=2048 y=1900 time=0.120000 seq=2
            forward move 1 device=event0 slot=0 x=2048 y=1750 time=0.140000 seq=3
            forward move 1 device=event0 slot=0 x=2048 y=1600 time=0.160000 seq=4
            forward move 1 device=event0 slot=0 x=2048 y=1450 time=0.180000 seq=5
            forward up 1 device=event0 slot=0 time=0.200000 seq=6
            forward down 2 device=event0 slot=0 trackingID=1 x=1500 y=2048 time=1.000000 seq=7
            forward down 3 device=event0 slot=1 trackingID=2 x=2600 y=2048 time=1.000000 seq=8
            gesture pinch began noZoom view=page device=event0 time=1.050000 seq=9 touches=2 x=961.17 y=540.13 viewX=961.17 viewY=540.13 scale=1.007 velocity=0.00
            forward cancel 2 device=event0 slot=0 time=1.050000 seq=10
            forward up 2 device=event0 slot=0 time=1.050000 seq=11
            forward cancel 3 device=event0 slot=1 time=1.050000 seq=12
            forward up 3 device=event0 slot=1 time=1.050000 seq=13
            gesture pinch changed noZoom view=page device=event0 time=1.080000 seq=14 touches=2 x=961.17 y=540.13 viewX=961.17 viewY=540.13 scale=1.182 velocity=0.00
            gesture pinch changed noZoom view=page device=event0 time=1.110000 seq=15 touches=2 x=961.17 y=540.13 viewX=961.17 viewY=540.13 scale=1.364 velocity=5.94
            gesture pinch changed noZoom view=page device=event0 time=1.140000 seq=16 touches=2 x=961.17 y=540.13 viewX=961.17 viewY=540.13 scale=1.545 velocity=5.99
            gesture pinch ended noZoom view=page device=event0 time=1.300000 seq=17 touches=2 x=961.17 y=540.13 viewX=961.17 viewY=540.13 scale=1.545 velocity=0.00
            gesture screenEdgePan began edgeBack view=leftEdge device=event0 time=2.020000 seq=18 touches=1 x=93.77 y=540.13 viewX=93.77 viewY=540.13 translationX=84.40 translationY=0.00 velocityX=0.00 velocityY=0.00 edge=left
            gesture screenEdgePan changed edgeBack view=leftEdge device=event0 time=2.040000 seq=19 touches=1 x=187.55 y=540.13 viewX=187.55 viewY=540.13 translationX=178.17 translationY=0.00 velocityX=4454.21 velocityY=0.00 edge=left
            gesture screenEdgePan changed edgeBack view=leftEdge device=event0 time=2.060000 seq=20 touches=1 x=281.32 y=540.13 viewX=281.32 viewY=540.13 translationX=271.94 translationY=0.00 velocityX=4547.99 velocityY=0.00 edge=left
            gesture screenEdgePan changed edgeBack view=leftEdge device=event0 time=2.080000 seq=21 touches=1 x=375.09 y=540.13 viewX=375.09 viewY=540.13 translationX=365.71 translationY=0.00 velocityX=4594.87 velocityY=0.00 edge=left
            gesture screenEdgePan ended edgeBack view=leftEdge device=event0 time=2.150000 seq=22 touches=1 x=375.09 y=540.13 viewX=375.09 viewY=540.13 translationX=365.71 translationY=0.00 velocityX=0.00 velocityY=0.00 edge=left
            forward down 5 device=event0 slot=0 trackingID=3 x=2048 y=2048 time=3.000000 seq=23
            forward up 5 device=event0 slot=0 time=3.050000 seq=24

            """, "\(replay.stdout)")
    }

    /// `explain` on the browser kiosk: the page forwards (its pinch on the route), the edge
    /// strips never do.
    @Test func explainShowsTheBrowserExamplesEdgesAndPage() throws {
        let path = Self.root + "/config/kiosk-browser.json5"
        func tail(_ x: String, _ y: String) throws -> [String] {
            let answer = try run(["explain", "--config", path, x, y])
            #expect(answer.status == 0 && answer.stderr == "config: \(path)\n", "\(answer)")
            return Array(answer.stdout.split(separator: "\n").suffix(3).map(String.init))
        }
        #expect(try tail("960", "540") == ["  1. noZoom (pinch on page)", "application: forwarded", "view page"])
        #expect(try tail("23.9", "540") == ["  2. noZoom (pinch on page)", "application: never", "view leftEdge"])
        #expect(try tail("24", "540") == ["  1. noZoom (pinch on page)", "application: forwarded", "view page"])
        #expect(try tail("1896", "1079") == ["  2. noZoom (pinch on page)", "application: never", "view rightEdge"])
        #expect(try tail("1895.9", "10") == ["  1. noZoom (pinch on page)", "application: forwarded", "view page"])
    }

    /// The Touch Display 2 example (config/kiosk-rpi-touch-display-2.json5) on a portrait panel
    /// shaped like that display's (Goodix's name, 720×1280 axes; synthetic-touch-display-2.desc):
    /// `rotation: 90` turns the panel's axes as labwc turns a touchscreen mapped to an output at
    /// transform 90 (x' = 1 - y, y' = x, wlroots' apply_output_transform), so a press near the
    /// panel's own origin is the landscape screen's top-right corner, the admin corner, and never
    /// reaches the page; the centre is the centre; a finger drawn along the panel's +y axis moves
    /// left on the screen. The clone gets the panel's own units (labwc turns them), and the idle
    /// lines come at the hook's thresholds after the last lift.
    @Test func theTouchDisplay2ExampleTurnsThePortraitPanelToLandscape() throws {
        let replay = try run(["replay", "--forwarded", "--touches", "--config", Self.root + "/config/kiosk-rpi-touch-display-2.json5",
                              "--description", TestEnvironment.recordings + "/synthetic-touch-display-2.desc",
                              TestEnvironment.recordings + "/synthetic-touch-display-2.events"])
        #expect(replay.status == 0)
        #expect(replay.stdout == """
            touch began 1 view=adminCorner device=event0 slot=0 x=1259.98 y=20.03 time=0.100000 seq=1
            gesture longPress began admin view=adminCorner device=event0 time=2.100000 seq=2 touches=1 x=1259.98 y=20.03 viewX=59.98 viewY=20.03 duration=2.000
            touch ended 1 view=adminCorner device=event0 slot=0 x=1259.98 y=20.03 time=2.600000 seq=3
            gesture longPress ended admin view=adminCorner device=event0 time=2.600000 seq=4 touches=1 x=1259.98 y=20.03 viewX=59.98 viewY=20.03 duration=2.500
            touch began 2 view=app device=event0 slot=0 x=639.50 y=360.50 time=3.100000 seq=5
            forward down 2 device=event0 slot=0 trackingID=0 x=360 y=640 time=3.100000 seq=6
            touch ended 2 view=app device=event0 slot=0 x=639.50 y=360.50 time=3.150000 seq=7
            forward up 2 device=event0 slot=0 time=3.150000 seq=8
            touch began 3 view=app device=event0 slot=0 x=979.77 y=360.50 time=4.000000 seq=9
            forward down 3 device=event0 slot=0 trackingID=1 x=360 y=300 time=4.000000 seq=10
            touch moved 3 view=app device=event0 slot=0 x=779.61 y=360.50 time=4.050000 seq=11
            forward move 3 device=event0 slot=0 x=360 y=500 time=4.050000 seq=12
            touch moved 3 view=app device=event0 slot=0 x=579.45 y=360.50 time=4.100000 seq=13
            forward move 3 device=event0 slot=0 x=360 y=700 time=4.100000 seq=14
            touch moved 3 view=app device=event0 slot=0 x=379.30 y=360.50 time=4.150000 seq=15
            forward move 3 device=event0 slot=0 x=360 y=900 time=4.150000 seq=16
            touch ended 3 view=app device=event0 slot=0 x=379.30 y=360.50 time=4.200000 seq=17
            forward up 3 device=event0 slot=0 time=4.200000 seq=18
            idle seconds=120 time=124.200000 seq=19
            idle seconds=600 time=604.200000 seq=20

            """, "\(replay.stdout)")
        #expect(replay.stderr == "replay: would run /usr/bin/touch /run/gestured/actions/kiosk-admin (admin began at 2.100000)\n")
    }

    /// The clone's name that labwc's `<touch deviceName="…">` must give for the Touch Display 2,
    /// as the example's header and the guide (docs/KIOSK.md) state it, is the one the daemon
    /// makes (`CloneName.of`, which `UinputClone` names the clone with).
    @Test func theGuideNamesTheTouchDisplay2sCloneAsTheDaemonNamesIt() throws {
        let clone = CloneName.of("Goodix Capacitive TouchScreen")
        #expect(clone == "Goodix Capacitive TouchScreen (gestured)")
        let guide = try readTextFile(path: Self.root + "/docs/KIOSK.md")
        #expect(guide.contains("<touch deviceName=\"\(clone)\" mapToOutput="))
        #expect(guide.contains("**`\(clone)`**"))
        let example = try readTextFile(path: Self.root + "/config/kiosk-rpi-touch-display-2.json5")
        #expect(example.contains("\"\(clone)\""))
    }
}
