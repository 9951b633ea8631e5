import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Escape sequences in a device's name reach the terminal escaped (`LogText`) in `gestured
/// devices` and `gestured doctor`, the built binary under umockdev-run with a touchscreen so
/// named; their JSON escapes them as JSON (docs/RELIABILITY.md, "Security"). A reader's `comm` in
/// doctor's text: ForeignTextTests. And `gestured ctl` refuses a request with a line break by
/// byte (`"\r\n"` is one Character), sending nothing.
@Suite struct ForeignTextCommandTests {
    /// Retitles the terminal, then erases the line and returns to its start.
    static let name = "gestured \u{1b}]0;pwned\u{7} touch\u{1b}[2K\rok"
    static let escaped = "gestured \\x1b]0;pwned\\x07 touch\\x1b[2K\\rok"

    /// `umockdev-run … -- gestured COMMAND ARGUMENTS` with the synthetic touchscreen named `name`.
    static func run(_ command: [String], in directory: TestEnvironment.TemporaryDirectory) throws -> Subprocess.Completed? {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps`"); return nil
        }
        let descText = try readTextFile(path: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        var touchscreen = try #require(try EvemuRecording.parse(descText, sysname: "").description)
        touchscreen.name = Self.name
        let config = try directory.write("c.json5", "{ views: [{ id: \"root\" }] }")
        let node = "/dev/input/event7"
        let files = UmockdevDevice.files(for: touchscreen, node: node, properties: nil)
        let arguments = ["-s", "KILL", "20", umockdevRun,
                         "-d", try directory.write("d.umockdev", files.umockdev), "-i", "\(node)=" + (try directory.write("d.ioctl", files.ioctl)),
                         "--", TestEnvironment.buildDirectory + "/gestured"] + command + ["--config", config]
        return try Subprocess.run("timeout", arguments, in: directory.path, deadline: deadline(milliseconds: 30_000))
    }

    static func hasControlBytes(_ text: String) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != UInt8(ascii: "\n")) || $0 == 0x7f }
    }

    @Test func devicesShowsTheNameEscaped() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-foreign-devices")
        guard let text = try Self.run(["devices"], in: directory) else { return }
        #expect(text.termination == .exited(0), "\(text.stderr)")
        #expect(!Self.hasControlBytes(text.stdout), "\(text.stdout)")
        #expect(text.stdout.hasPrefix("event7 \"\(Self.escaped)\" touchscreen: used (touchscreen)\n"), "\(text.stdout)")
        guard let json = try Self.run(["devices", "--json"], in: directory) else { return }
        #expect(json.termination == .exited(0), "\(json.stderr)")
        #expect(!Self.hasControlBytes(json.stdout), "\(json.stdout)")
        #expect(json.stdout.contains("\"name\":\"gestured \\u001b]0;pwned\\u0007 touch\\u001b[2K\\rok\""), "\(json.stdout)")
    }

    @Test func doctorShowsTheNameEscaped() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-foreign-doctor")
        guard let text = try Self.run(["doctor", "--socket", directory.path + "/none.sock"], in: directory) else { return }
        #expect(text.termination == .exited(1), "\(text.stderr)")
        #expect(!Self.hasControlBytes(text.stdout), "\(text.stdout)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok       device: event7 \"\(Self.escaped)\" touchscreen: used (touchscreen)"), "\(text.stdout)")
        guard let json = try Self.run(["doctor", "--json", "--socket", directory.path + "/none.sock"], in: directory) else { return }
        #expect(!Self.hasControlBytes(json.stdout), "\(json.stdout)")
        #expect(json.stdout.contains("event7 \\\"gestured \\u001b]0;pwned\\u0007 touch\\u001b[2K\\rok\\\" touchscreen"), "\(json.stdout)")
    }

    /// `"\r\n"` is one Character, equal to neither "\r" nor "\n": the check is by byte. Nothing
    /// is sent: the listening socket has no connection waiting.
    @Test(arguments: ["ping\r\nlock 3600", "ping\nlock 3600", "ping\rlock 3600"])
    func ctlRefusesALineBreakByByte(request: String) throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-foreign-ctl")
        let socket = directory.path + "/s.sock"
        let fd = try DoctorCommandTests.listen(at: socket)
        defer { close(fd) }
        let run = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", ["ctl", "--socket", socket, request],
                                     in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(run.termination == .exited(2), "\(run.stderr)")
        #expect(run.stdout == "")
        #expect(run.stderr.contains("ctl sends one request line: no line breaks or NUL in its words"), "\(run.stderr)")
        #expect(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0)
        let accepted = accept(fd, nil, nil)
        let acceptErrno = errno
        if accepted >= 0 { close(accepted) }
        #expect(accepted == -1 && (acceptErrno == EAGAIN || acceptErrno == EWOULDBLOCK), "ctl connected")
    }
}
