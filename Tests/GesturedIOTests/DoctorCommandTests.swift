import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured doctor`, the built binary: under umockdev-run with an emulated touchscreen and a
/// touchpad a rule ignores; with no daemon, with a socket that listens, and with a socket the
/// caller (nobody, through setpriv) may not open. The verdicts themselves: DoctorChecksTests.
@Suite struct DoctorCommandTests {
    static let config = """
        { devices: [ { match: { type: "touchpad" }, ignore: true } ] }
        """

    /// `umockdev-run … -- [PREFIX…] gestured doctor --config c.json5 ARGUMENTS`, in `directory`.
    static func doctor(_ arguments: [String], in directory: TestEnvironment.TemporaryDirectory,
                       prefix: [String] = [], config configText: String = config) throws -> Subprocess.Completed? {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps`"); return nil
        }
        let descText = try readTextFile(path: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        let touchscreen = try #require(try EvemuRecording.parse(descText, sysname: "").description)
        var touchpad = touchscreen
        touchpad.name = "gestured synthetic touchpad"
        touchpad.properties = [0, 0, 0, 0, 0, 0, 0, 0]
        let config = try directory.write("c.json5", configText)
        var args = ["-s", "KILL", "20", umockdevRun]
        for (index, description) in [touchscreen, touchpad].enumerated() {
            let node = "/dev/input/event\(index + 7)"
            let files = UmockdevDevice.files(for: description, node: node, properties: nil)
            args += ["-d", try directory.write("d\(index).umockdev", files.umockdev),
                     "-i", "\(node)=" + (try directory.write("d\(index).ioctl", files.ioctl))]
        }
        args += ["--"] + prefix + [TestEnvironment.buildDirectory + "/gestured", "doctor", "--config", config] + arguments
        return try Subprocess.run("timeout", args, in: directory.path, deadline: deadline(milliseconds: 30_000))
    }

    /// A socket at `path` that listens (connections wait in its backlog), closed by the caller.
    static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #expect(fd >= 0)
        _ = try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in
            try syscall("bind", path: path, onInterrupt: .fail) { bind(fd, address, length) }
        }
        #expect(Glibc.listen(fd, 8) == 0)
        return fd
    }

    @Test func noDaemonIsAProblemAndTheIgnoredTouchpadIsNamedWithItsRule() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-doctor")
        guard let result = try Self.doctor(["--socket", directory.path + "/none.sock"], in: directory) else { return }
        #expect(result.termination == .exited(1), "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("problem  daemon: not running: no socket at \(directory.path)/none.sock"), "\(result.stdout)")
        #expect(lines.contains("         fix: start it: systemctl start gestured (or give its socket with --socket PATH)"))
        #expect(lines.contains("ok       device: event7 \"gestured synthetic touchscreen\" touchscreen: used (touchscreen)"))
        #expect(lines.contains("ok       device: event8 \"gestured synthetic touchpad\" touchpad: ignored by devices[0]"), "\(result.stdout)")
        #expect(lines.last == "1 problem")
        #expect(result.stderr.split(separator: "\n").contains { $0.hasPrefix("config: /") && $0.hasSuffix("/c.json5") }, "\(result.stderr)")
    }

    @Test func aListeningSocketAndAUsedPanelExitZeroWithTheJSONShape() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-doctor")
        let socket = directory.path + "/s.sock"
        let fd = try Self.listen(at: socket)
        defer { close(fd) }
        guard let result = try Self.doctor(["--json", "--socket", socket], in: directory) else { return }
        #expect(result.termination == .exited(0), "stdout: \(result.stdout) stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stdout.hasPrefix("{\"ok\":true,\"checks\":[{\"check\":\"daemon\",\"status\":\"ok\",\"message\":\"running; socket \(socket) (owner root, group root, mode 0"), "\(result.stdout)")
        #expect(result.stdout.contains("{\"check\":\"device\",\"status\":\"ok\",\"message\":\"event8 \\\"gestured synthetic touchpad\\\" touchpad: ignored by devices[0]\",\"fix\":null}"))
        #expect(result.stdout.hasSuffix("],\"clones\":[]}\n"))
    }

    /// check-config's warnings are warnings: with nothing else wrong, exit 0.
    @Test func theConfigurationsWarningsAreWarnings() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-doctor")
        let socket = directory.path + "/s.sock"
        let fd = try Self.listen(at: socket)
        defer { close(fd) }
        let grabbing = #"{ devices: [ { match: { type: "touchpad" }, ignore: true }, { match: { type: "touchscreen" }, grab: true } ] }"#
        guard let result = try Self.doctor(["--socket", socket], in: directory, config: grabbing) else { return }
        #expect(result.termination == .exited(0), "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let warning = lines.first { $0.hasPrefix("warning  config: ") }
        #expect(warning?.contains("/c.json5:1:") == true && warning?.contains(": devices[1].grab: grab without passThrough") == true,
                "\(result.stdout)")
        #expect(lines.contains("         fix: see docs/CONFIG.md; gestured check-config FILE lists them"))
        #expect(lines.last == "no problems, 1 warning")
    }

    @Test func anInvalidConfigurationExitsOneWithItsErrors() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-doctor")
        guard let result = try Self.doctor(["--socket", directory.path + "/none.sock"], in: directory, config: "{ view: [] }")
        else { return }
        #expect(result.termination == .exited(1), "\(result.stdout)\n\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("problem  daemon: not running") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("problem  config: \(directory.path)/c.json5:1:") == true, "\(result.stdout)")
        #expect(lines.last == "2 problems")
    }

    /// The socket is root's, mode 0660, group `daemon`; nobody may not open it and is told the
    /// group to join. Mode 0600: only its owner (or root).
    @Test func aSocketTheCallerMayNotOpenIsAProblemWithTheGroupToJoin() throws {
        guard let setpriv = TestEnvironment.which("setpriv") else { Issue.record("setpriv is missing"); return }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-doctor")
        #expect(chmod(directory.path, 0o755) == 0)
        let socket = directory.path + "/s.sock"
        let fd = try Self.listen(at: socket)
        defer { close(fd) }
        #expect(chown(socket, 0, 1) == 0 && chmod(socket, 0o660) == 0)
        let nobody = [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups"]
        guard let denied = try Self.doctor(["--socket", socket], in: directory, prefix: nobody) else { return }
        #expect(denied.termination == .exited(1), "stderr: \(denied.stderr)")
        let lines = denied.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "problem  daemon: socket \(socket) (owner root, group daemon, mode 0660) may not be opened by nobody (uid 65534)",
                "\(denied.stdout)\n\(denied.stderr)")
        #expect(lines.dropFirst().first == "         fix: join the group daemon: usermod -aG daemon nobody, then log in again")
        #expect(chmod(socket, 0o600) == 0)
        guard let ownerOnly = try Self.doctor(["--socket", socket], in: directory, prefix: nobody) else { return }
        #expect(ownerOnly.stdout.split(separator: "\n").dropFirst().first == "         fix: run it as root or as root", "\(ownerOnly.stdout)")
        // As root it opens.
        guard let root = try Self.doctor(["--socket", socket], in: directory) else { return }
        #expect(root.termination == .exited(0), "\(root.stdout)")
    }

    /// Without a Wayland display the probe cannot run: a problem (exit 1) that says why, in
    /// the JSON's "probe" key too; the other keys are there as without it.
    @Test func probeCancelWithoutAWaylandDisplayIsAProblem() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        guard let result = try Self.doctor(["--probe-cancel", "--json"], in: directory, prefix: ["env", "WAYLAND_DISPLAY="]) else { return }
        #expect(result.termination == .exited(1), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("{\"ok\":false,\"checks\":["), "\(result.stdout)")
        #expect(result.stdout.contains("\"clones\":["))
        #expect(result.stdout.hasSuffix(",\"probe\":{\"results\":[],\"passesCancel\":null,\"recommendedCancelStyle\":null,"
                                        + "\"failure\":\"WAYLAND_DISPLAY is not set: run it in the compositor's session\"}}\n"), "\(result.stdout)")
    }
}
