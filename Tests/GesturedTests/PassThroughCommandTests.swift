import GesturedCore
import GesturedIO
import GesturedTestSupport
import Testing

/// The kiosk questions asked of the built `gestured` (CONTRACT.md §5, §6): `explain` says what
/// the application gets of a touch at a point, always, and `replay --forwarded`
/// says why it prints nothing for a device that does not pass through.
struct PassThroughCommandTests {
    static let evemu = TestEnvironment.packageRoot + "/Tests/Fixtures/evemu-devices"

    func run(_ arguments: [String], config: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-passthrough")
        let configArguments = try config.map { ["--config", try directory.write("c.json5", $0)] } ?? []
        let done = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", [arguments[0]] + configArguments + arguments.dropFirst(),
                                      in: directory.path, deadline: deadline(milliseconds: 20_000))
        guard case .exited(let status) = done.termination, !done.timedOut else {
            Issue.record("gestured \(arguments) ended with \(done.termination)"); return (-1, done.stdout, done.stderr)
        }
        return (status, done.stdout, done.stderr)
    }

    static let kiosk = kiosk(passThrough: true)

    static func kiosk(passThrough: Bool) -> String { """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { type: "touchscreen" }, \(passThrough ? "passThrough" : "grab"): true } ],
          views: [ { id: "root", gestures: [ { id: "edge", type: "screenEdgePan", edges: ["left"], delaysTouchesBegan: true } ],
                     subviews: [ { id: "strip", frame: [900, 0, 100, 1000], forwardsTouches: false } ] } ] }
        """
    }

    @Test func explainSaysWhatTheApplicationGetsBeforeTheViewLine() throws {
        func tail(_ x: String, _ y: String, config: String = Self.kiosk) throws -> [String] {
            let result = try run(["explain", x, y], config: config)
            #expect(result.status == 0, "\(result.stderr)")
            return Array(result.stdout.split(separator: "\n").suffix(2).map(String.init))
        }
        #expect(try tail("500", "500") == ["application: forwarded", "view root"])
        #expect(try tail("5", "500") == ["application: held edge", "view root"])
        #expect(try tail("950", "500") == ["application: never", "view strip"])
        // A grab without passThrough: the application gets nothing, wherever the touch is.
        let grabbed = Self.kiosk(passThrough: false)
        #expect(try tail("950", "500", config: grabbed) == ["application: never (grabbed, not forwarded)", "view strip"])
        #expect(try tail("500", "500", config: grabbed) == ["application: never (grabbed, not forwarded)", "view root"])
        // No rule grabs: the application reads the panel itself, the gestures' touches too.
        let direct = grabbed.replacing("grab: true", with: "ignore: false")
        #expect(try tail("950", "500", config: direct) == ["application: direct", "view strip"])
        #expect(try tail("-5", "500", config: direct) == ["application: direct", "view none"])
    }

    @Test func replayForwardedSaysWhyADeviceForwardsNothing() throws {
        let recording = TestEnvironment.recordings + "/synthetic-tap.events"
        let description = TestEnvironment.recordings + "/synthetic-touchscreen.desc"
        let forwarded = try run(["replay", "--forwarded", "--description", description, recording], config: Self.kiosk)
        #expect(forwarded.status == 0 && forwarded.stdout.contains("forward down ") && forwarded.stderr.isEmpty, "\(forwarded)")

        let plain = Self.kiosk(passThrough: false)
        let unmatched = try run(["replay", "--forwarded", "--description", description, recording], config: plain)
        #expect(unmatched.status == 0 && !unmatched.stdout.contains("forward "), "\(unmatched.stdout)")
        #expect(unmatched.stderr == "replay --forwarded: \(recording) (event0, \"gestured synthetic touchscreen\"): "
                + "no forward lines: no device rule with passThrough: true matches it\n")

        // A touch tablet (no INPUT_PROP_DIRECT) that a rule asks to pass through: it cannot.
        let tablet = Self.evemu + "/Wacom Bamboo 16FG 4x5 Finger double-tap.events"
        let refused = try run(["replay", "--forwarded", "--description", Self.evemu + "/Wacom Bamboo 16FG 4x5 Finger.desc", tablet],
                              config: "{ devices: [ { passThrough: true, add: true } ] }")
        #expect(refused.status == 0 && !refused.stdout.contains("forward "), "\(refused.stdout)")
        #expect(refused.stderr.contains("(event0, \"Wacom Bamboo 16FG 4x5 Finger\"): no forward lines: it cannot pass through: "
                                        + "it is not a direct-touch device (no INPUT_PROP_DIRECT"), "\(refused.stderr)")
        // Without --forwarded nothing is said.
        let quiet = try run(["replay", "--description", description, recording], config: plain)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
