import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The built `gestured` binary, as scripts and kiosk integrators call it: messages and exit
/// statuses (CONTRACT.md §1: 0 success, 2 bad command line, 78 invalid configuration, 1 other).
struct CommandLineTests {
    static var gestured: String { TestEnvironment.buildDirectory + "/gestured" }

    func run(_ arguments: [String], files: [String: String] = [:], fifos: [String] = []) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-cli")
        for (name, text) in files { _ = try directory.write(name, text) }
        for name in fifos { #expect(mkfifo(directory.path + "/" + name, 0o600) == 0) }
        let args = arguments.map { $0.replacing("$DIR", with: directory.path) }
        let done = try Subprocess.run(Self.gestured, args, in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(!done.timedOut)
        guard case .exited(let status) = done.termination else {
            Issue.record("gestured \(arguments) ended with \(done.termination)"); return (-1, done.stdout, done.stderr)
        }
        return (status, done.stdout, done.stderr.replacing(directory.path, with: "$DIR"))
    }

    /// Every class of bad input: the documented message (file, key path, line:column) and 78,
    /// both from check-config and from the daemon, which must not start on it.
    @Test(arguments: [
        ("syntax", "{ views: [ { id: \"root\" } }", "$DIR/c.json5:1:27: views: expected ',' or ']' after array element"),
        ("wrong type", "{ views: [ { id: \"root\", alpha: \"high\" } ] }",
         "$DIR/c.json5:1:33: views[0].alpha: expected a number, found a string"),
        ("unknown key", "{ views: [ { id: \"root\", gestures: [ { id: \"t\", type: \"tap\", numberOfTapRequired: 2 } ] } ] }",
         "$DIR/c.json5:1:62: views[0].gestures[0].numberOfTapRequired: unknown key \"numberOfTapRequired\"; did you mean \"numberOfTapsRequired\"?"),
        ("duplicate id", "{ views: [ { id: \"root\" }, { id: \"root\" } ] }",
         "$DIR/c.json5:1:34: views[1].id: duplicate view id \"root\" (first used at 1:18)"),
        ("dangling requireToFail", "{ views: [ { id: \"root\", gestures: [ { id: \"t\", type: \"tap\", requireToFail: [\"double\"] } ] } ] }",
         "$DIR/c.json5:1:78: views[0].gestures[0].requireToFail[0]: no gesture has the id \"double\""),
    ])
    func invalidConfiguration(kind: String, text: String, message: String) throws {
        let check = try run(["check-config", "$DIR/c.json5"], files: ["c.json5": text])
        #expect(check.status == 78, "\(kind)")
        #expect(check.stderr.split(separator: "\n").first.map(String.init) == message, "\(kind)")
        let daemon = try run(["run", "--config", "$DIR/c.json5", "--socket", "$DIR/g.sock"], files: ["c.json5": text])
        #expect(daemon.status == 78, "\(kind): \(daemon.stderr)")
        #expect(daemon.stderr.contains(message), "\(kind)")
    }

    /// A file that cannot be read: the system's reason, without a position, and 78.
    @Test(arguments: [
        ("$DIR/missing.json5", "$DIR/missing.json5: cannot open: No such file or directory"),
        ("$DIR", "$DIR: cannot read: not a regular file (a directory)"),
        // Opened without blocking: no writer ever comes, and check-config still answers at once.
        ("$DIR/c.fifo", "$DIR/c.fifo: cannot read: not a regular file (a FIFO)"),
        ("/dev/null", "/dev/null: cannot read: not a regular file (a character device)"),
    ])
    func unreadableConfiguration(path: String, message: String) throws {
        let check = try run(["check-config", path], files: ["c.json5": "{}"], fifos: ["c.fifo"])
        #expect(check.status == 78)
        #expect(check.stderr.split(separator: "\n").first.map(String.init) == message, "\(check.stderr)")
    }

    @Test func validConfigurationIsAccepted() throws {
        let example = try run(["check-config", TestEnvironment.packageRoot + "/config/gestured.json5"])
        #expect(example.status == 0)
        #expect(example.stdout.hasSuffix("config/gestured.json5: valid\n"))
    }

    @Test(arguments: [
        (["frobnicate"], "gestured: unknown command 'frobnicate'"),
        (["run", "--bogus"], "gestured: unknown option '--bogus'"),
        (["run", "--config"], "gestured: --config needs a value"),
        (["replay", "--format", "xml", "x.events"], "gestured: --format must be text or json, not 'xml'"),
        (["replay"], "gestured: expected 1 argument, got 0"),
        (["check-config"], "gestured: expected 1 argument, got 0"),
        (["listen", "--filter", "colour=red"], "gestured: --filter: unknown filter key 'colour' (type, state, name, view, device or screen)"),
        (["listen", "--shell"], "gestured: --shell only goes with --exec"),
        (["ctl"], "gestured: ctl needs a request, e.g. 'gestured ctl screen off'"),
        (["ctl", "--socket"], "gestured: --socket needs a value"),
        (["ctl", "--verbose", "ping"], "gestured: unknown option '--verbose'"),
        (["ctl", "lock 5\nunlock"], "gestured: ctl sends one request line: no line breaks or NUL in its words"),
        (["listen", "--exec", " "], "gestured: --exec needs a command"),
        (["mqtt", "--socket"], "gestured: --socket needs a value"),
        (["mqtt", "--bogus"], "gestured: unknown option '--bogus'"),
        (["listen", "--exec", "true", "--format", "json"], "gestured: --format applies to printed lines; --exec prints none"),
        (["listen", "--exec", "true", "--touches"], "gestured: --exec runs for gesture lines only; --touches would have no effect"),
        (["record-stroke", "--name", "s", "--timeout", "0"], "gestured: --timeout must be a number of seconds above 0, not '0'"),
        (["record-stroke", "--name", "s", "--timeout", "soon"], "gestured: --timeout must be a number of seconds above 0, not 'soon'"),
        (["record-stroke", "--name", "s", "--timeout", "5", "x.events"],
         "gestured: --config and --timeout go with capturing from a live device (no RECORDING)"),
        (["record-stroke", "--name", "s", "--description", "x.desc"], "gestured: --description goes with a RECORDING"),
        (["record-stroke", "--name", "s", "a.events", "b.events"], "gestured: expected 1 argument, got 2"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let r = try run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr == message + "\nTry 'gestured --help'.\n")
    }

    @Test func otherErrorsExitOneAndNameTheFile() throws {
        let missing = try run(["replay", "$DIR/none.events"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "open $DIR/none.events: No such file or directory (errno 2)\n")
        let bare = try run(["replay", "$DIR/tap.events"], files: ["tap.events": "E: 0.000001 0000 0000 0\n"])
        #expect(bare.status == 1)
        #expect(bare.stderr.hasPrefix("$DIR/tap.events: the recording has no device description; name the file that has it with --description DESC"))
        let garbage = try run(["replay", "$DIR/bad.events"], files: ["bad.events": "E: 1.0 zz 0 0\n"])
        #expect(garbage.status == 1)
        #expect(garbage.stderr.hasPrefix("$DIR/bad.events: line 1: "), "\(garbage.stderr)")
    }

    /// Replay streams its recordings: a malformed line is found when its piece of the file is
    /// read, so the lines of the events before that piece are written first (gestured.8), and
    /// the error still names the file and the line. A recording that fails before anything is
    /// replayed (the second one here) writes nothing.
    @Test func aMalformedLineLateInALongRecordingComesAfterTheLinesBeforeIt() throws {
        let description = try EvemuDevices.read(TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        let taps = 3000
        var text = description
        for i in 0..<taps {
            let down = String(i) + ".000000", up = String(i) + ".050000"
            text += "E: \(down) 0003 002f 0\nE: \(down) 0003 0039 \(i + 1)\nE: \(down) 0003 0035 2048\nE: \(down) 0003 0036 2048\n"
                + "E: \(down) 0000 0000 0\nE: \(up) 0003 0039 -1\nE: \(up) 0000 0000 0\n"
        }
        let badLine = text.split(separator: "\n", omittingEmptySubsequences: false).count
        text += "E: 3000.000000 zz 0000 0\n"
        #expect(text.utf8.count > 2 * (256 << 10), "the recording spans several pieces")
        let long = try run(["replay", "$DIR/long.events"], files: ["long.events": text])
        #expect(long.status == 1)
        #expect(long.stderr.hasPrefix("$DIR/long.events: line \(badLine): "), "\(long.stderr)")
        let tapLines = long.stdout.split(separator: "\n").filter { $0.hasPrefix("gesture tap ended") }.count
        #expect(tapLines > 100 && tapLines < taps, "\(tapLines) taps written before the error")
        let second = try run(["replay", "$DIR/long.events", "$DIR/bad.events"],
                             files: ["long.events": text, "bad.events": description + "E: 0.5 zz 0 0\n"])
        #expect(second.status == 1 && second.stdout.isEmpty)
        #expect(second.stderr.hasPrefix("$DIR/bad.events: line \(description.split(separator: "\n", omittingEmptySubsequences: false).count): "),
                "\(second.stderr)")
        // The device is made from the lines before the first event: one after it is an error.
        let late = try run(["replay", "$DIR/late.events"],
                           files: ["late.events": "E: 0.000000 0000 0000 0\n" + description])
        #expect(late.status == 1 && late.stdout.isEmpty)
        let firstDescriptionLine = try #require(description.split(separator: "\n").firstIndex { !$0.hasPrefix("#") }) + 2
        #expect(late.stderr.hasPrefix("$DIR/late.events: line \(firstDescriptionLine): a device description line after the first event"),
                "\(late.stderr)")
    }

    @Test func versionAndHelp() throws {
        let version = try run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("gestured ") && version.stdout.contains("(protocol 1)"))
        let help = try run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("gestured replay") && help.stdout.contains("Exit status"))
    }

    /// The binary's replay is the in-process replay, byte for byte, run after run.
    @Test func replayThroughTheBinaryIsByteIdentical() throws {
        let recording = try RealRecordings.named("Wacom ISDv4 E6 Finger.double-center-circle")
        let arguments = ["replay", "--format", "json", "--touches", "--failed", "--description", recording.description, recording.events]
        let first = try run(arguments), second = try run(arguments)
        #expect(first.status == 0 && first.stderr.isEmpty)
        #expect(first.stdout == second.stdout)
        let inProcess = try recording.replay(format: .json, touches: true, failed: true).joined()
        #expect(first.stdout == inProcess)
        #expect(first.stdout.utf8.count > 10_000)
    }
}
