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

    @Test(arguments: ["kiosk.json5", "kiosk-rpi-7inch.json5"])
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
}
