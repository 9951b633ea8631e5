import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The whole daemon, from an emulated touchscreen to a socket client.
///
/// Builds nothing itself: runs the `gestured` next to the test bundle (`.build/debug/gestured`)
/// as `timeout -s KILL 20 umockdev-run … -- gestured run --socket … --config …` with the
/// synthetic 10-slot touchscreen replaying `synthetic-tap.events` (an empty frame, then a tap
/// at the centre 1.5 s later, which leaves time to connect).
@Suite struct EndToEndTests {
    @Test func tapOnAnEmulatedTouchscreenReachesAClient() throws {
        try scenario(config: """
            { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [{id: "tap", type: "tap"}]}] }
            """, expect: "gesture tap ended tap view=root device=event")
    }

    /// The single tap must wait for the double tap to fail: no event comes after the lift, so the
    /// line can only come from the daemon's timerfd firing at the pipeline's deadline.
    @Test func aDeadlineFiresWithNoFurtherEvent() throws {
        try scenario(config: """
            { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [
                {id: "single", type: "tap", requireToFail: ["double"]},
                {id: "double", type: "tap", numberOfTapsRequired: 2}]}] }
            """, expect: "gesture tap ended single view=root device=event")
    }

    func scenario(config configText: String, expect prefix: String) throws {
        let gestured = TestEnvironment.buildDirectory + "/gestured"
        guard (try? readFile(path: gestured, limit: 1 << 30)) != nil else {
            Issue.record("\(gestured) is missing: build the package first"); return
        }
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps`"); return
        }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-e2e")
        let node = "/dev/input/event7"
        let descText = try readTextFile(path: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        let description = try #require(try EvemuRecording.parse(descText, sysname: "event7").description)
        let files = UmockdevDevice.files(for: description, node: node)
        let umockdev = try directory.write("device.umockdev", files.umockdev)
        let ioctl = try directory.write("device.ioctl", files.ioctl)
        let config = try directory.write("c.json5", configText)
        let socket = directory.path + "/g.sock"
        let stderrPath = directory.path + "/stderr"
        let process = try Subprocess(
            "timeout", ["-s", "KILL", "20", umockdevRun, "-d", umockdev, "-i", "\(node)=\(ioctl)",
                        "-e", "\(node)=\(TestEnvironment.recordings)/synthetic-tap.events", "--",
                        gestured, "run", "--socket", socket, "--config", config],
            stdout: .file(directory.path + "/stdout"), stderr: .file(stderrPath))
        func daemonLog() -> String { (try? readTextFile(path: stderrPath)) ?? "" }

        // Connect, giving up early if the daemon exits instead of listening.
        let connectLimit = deadline(milliseconds: 10_000)
        var client: LineClient?
        while client == nil {
            if let (termination, _) = try process.wait(deadline: MonotonicClock.now(), killOnTimeout: false) {
                Issue.record("gestured exited before listening (\(termination)); stderr:\n\(daemonLog())"); return
            }
            guard MonotonicClock.now() < connectLimit else {
                Issue.record("no socket at \(socket) after 10 s; stderr:\n\(daemonLog())"); return
            }
            client = try? LineClient(path: socket, deadline: min(connectLimit, deadline(milliseconds: 200)))
        }
        let lines = try #require(client)
        #expect(try lines.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")

        // Device lines may come first; the tap ends about 1.55 s after the device was opened.
        var gesture: String?
        let tapLimit = deadline(milliseconds: 10_000)
        while gesture == nil, let line = try lines.readLine(deadline: tapLimit) {
            #expect(!line.isEmpty, "an empty line on the socket")
            if line.hasPrefix("gesture ") { gesture = line }
        }
        let tap = try #require(gesture, "no gesture line; stderr:\n\(daemonLog())")
        #expect(tap.hasPrefix(prefix), "\(tap)")
        #expect(tap.contains(" x=500."))
        #expect(tap.contains(" y=500."))
        #expect(tap.contains(" touches=1"))
        #expect(tap.contains(" taps=1"))

        // SIGTERM to the daemon itself (timeout → umockdev-run → gestured): a clean exit, and
        // the socket file removed.
        // The program umockdev-run started (its command name is "gestured" unless it is a script).
        let tree = process.descendants()
        let wrapper = tree.first { $0.name == "umockdev-run" }
        let daemon = try #require(tree.first { $0.name == "gestured" || $0.parent == wrapper?.pid },
                                  "gestured process not found among \(tree)")
        #expect(kill(daemon.pid, SIGTERM) == 0)
        let (termination, timedOut) = try #require(try process.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut)
        #expect(termination == .exited(0), "stderr:\n\(daemonLog())")
        var status = stat()
        #expect(lstat(socket, &status) == -1, "the socket file remains after SIGTERM")
        // The rest of the stream, to the daemon's close: one event per line, no empty line.
        while let line = try lines.readLine(deadline: deadline(milliseconds: 5000)) {
            #expect(!line.isEmpty, "an empty line on the socket")
        }
    }
}
