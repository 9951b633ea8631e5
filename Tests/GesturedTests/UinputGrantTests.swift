import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// /dev/uinput only for configurations that pass touches through (issue 25): gestured.service
/// grants none (SystemdUnitTests), and gestured-generator writes the drop-in that does, after
/// asking `gestured check-config --needs-uinput`. Run here as systemd runs it at boot: the
/// rendered script, the built binary, an output directory. The systemd guest
/// (`make test-vm-systemd`) checks the service's groups and the clone both ways.
@Suite struct UinputGrantTests {
    static let passThrough = """
        { devices: [ { match: { name: "ILITEK*" }, passThrough: true } ], views: [ { id: "root" } ] }
        """
    static let dropIn = """
        [Unit]
        Wants=modprobe@uinput.service
        After=modprobe@uinput.service
        [Service]
        SupplementaryGroups=gestured-uinput
        DeviceAllow=/dev/uinput rw
        ExecStartPre=+-/bin/udevadm trigger --settle --subsystem-match=misc --sysname-match=uinput
        """
    let units = SystemdUnitTests()

    func gestured(_ arguments: [String], in directory: String) throws -> Subprocess.Completed {
        try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments, in: directory, deadline: deadline(milliseconds: 20_000))
    }

    @Test(arguments: [
        ("the built-in configuration", "config/default.json5", "uinput: no"),
        ("the every-key example (grab, no pass-through)", "config/gestured.json5", "uinput: no"),
        ("two panels", "config/two-panels.json5", "uinput: no"),
    ])
    func shippedConfigurationsNeedNoUinput(name: String, file: String, answer: String) throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-uinput")
        let run = try gestured(["check-config", "--needs-uinput", TestEnvironment.packageRoot + "/" + file], in: directory.path)
        #expect(run.termination == .exited(0), "\(name): \(run.stderr)")
        #expect(run.stdout == answer + "\n", "\(name)")
    }

    @Test func theAnswerFollowsPassThroughAndIgnore() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-uinput")
        let yes = try gestured(["check-config", "--needs-uinput", try directory.write("p.json5", Self.passThrough)], in: directory.path)
        #expect(yes.termination == .exited(0) && yes.stdout == "uinput: yes\n", "\(yes.stdout)\(yes.stderr)")
        // A rule that ignores its devices never opens them, so never clones them.
        let ignored = Self.passThrough.replacing("passThrough: true", with: "passThrough: true, ignore: true")
        let no = try gestured(["check-config", "--needs-uinput", try directory.write("i.json5", ignored)], in: directory.path)
        #expect(no.termination == .exited(0) && no.stdout == "uinput: no\n", "\(no.stdout)\(no.stderr)")
        // Read as the daemon reads it: the word in a comment or a string means nothing.
        let mentioned = "// passThrough: true\n{ views: [ { id: \"passThrough: true\" } ] }"
        let comment = try gestured(["check-config", "--needs-uinput", try directory.write("c.json5", mentioned)], in: directory.path)
        #expect(comment.stdout == "uinput: no\n", "\(comment.stdout)\(comment.stderr)")
        // Invalid: the errors, 78, no answer.
        let invalid = try gestured(["check-config", "--needs-uinput", try directory.write("b.json5", "{ devices: [ { passThrough: 1 } ] }")],
                                   in: directory.path)
        #expect(invalid.termination == .exited(78) && invalid.stdout.isEmpty, "\(invalid.stdout)")
        #expect(invalid.stderr.contains("b.json5:1:29: devices[0].passThrough: expected a boolean"), "\(invalid.stderr)")
    }

    /// What gestured-generator writes into the generator directory for the file at
    /// `<configdir>/gestured.json5` (nil: no file), and its exit status.
    func generate(_ configuration: String?, mode: mode_t = 0o644) throws -> (dropIn: String?, termination: Subprocess.Termination) {
        let config = try TestEnvironment.TemporaryDirectory(prefix: "gestured-etc")
        if let configuration { #expect(chmod(try config.write("gestured.json5", configuration), mode) == 0) }
        let rendered = try units.renderedUnits(configdir: config.path)
        let output = try TestEnvironment.TemporaryDirectory(prefix: "gestured-generator")
        let run = try Subprocess.run("/bin/sh", [rendered.path + "/gestured-generator", output.path, output.path, output.path],
                                     in: output.path, deadline: deadline(milliseconds: 20_000))
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        return (try? readTextFile(path: output.path + "/gestured.service.d/50-uinput.conf"), run.termination)
    }

    @Test func theGeneratorGrantsUinputOnlyForPassThrough() throws {
        let granted = try generate(Self.passThrough)
        #expect(granted.termination == .exited(0))
        let directives = try #require(granted.dropIn, "no drop-in for a passThrough configuration")
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(directives == Self.dropIn)

        let defaultText = try readTextFile(path: TestEnvironment.packageRoot + "/config/default.json5")
        for (name, text) in [("the installed default", defaultText as String?), ("no file", nil),
                             ("an invalid file", "{ devices: [ { passThrough: true } "),
                             ("pass-through ignored", Self.passThrough.replacing("passThrough: true", with: "passThrough: true, ignore: true"))] {
            let result = try generate(text)
            #expect(result.termination == .exited(0), "\(name): a generator that fails would be reported at every boot")
            #expect(result.dropIn == nil, "\(name): granted uinput")
        }
    }

    /// A gesture with an input action needs `gestured input`, made through /dev/uinput, as a
    /// clone does: the answer and the generator's drop-in follow it; a command action does not.
    @Test func anInputActionIsGrantedUinputToo() throws {
        let input = #"{ views: [ { id: "root", gestures: [ { id: "menu", type: "longPress", action: { on: "began", input: { click: "right" } } } ] } ] }"#
        let command = input.replacing(#"input: { click: "right" }"#, with: #"run: ["/bin/true"]"#)
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-uinput")
        for (text, answer) in [(input, "uinput: yes\n"), (command, "uinput: no\n")] {
            let run = try gestured(["check-config", "--needs-uinput", try directory.write("a.json5", text)], in: directory.path)
            #expect(run.termination == .exited(0) && run.stdout == answer, "\(text): \(run.stdout)\(run.stderr)")
        }
        let granted = try generate(input)
        let directives = try #require(granted.dropIn, "no drop-in for an input action")
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(directives == Self.dropIn)
        #expect(try generate(command).dropIn == nil)
    }

    /// The unit with the drop-in as systemd loads it: verify finds nothing wrong, and the grant
    /// keeps the exposure within the limit.
    @Test func theGrantedServiceVerifiesAndStaysWithinTheExposureLimit() throws {
        let rendered = try units.renderedUnits()
        #expect(mkdir(rendered.path + "/gestured.service.d", 0o755) == 0)
        _ = try rendered.write("gestured.service.d/50-uinput.conf", Self.dropIn + "\n")
        guard let analyze = units.tool("systemd-analyze") else { return }
        let verify = try Subprocess.run(analyze, ["verify", "--man=no", rendered.path + "/gestured.service"], in: rendered.path,
                                        deadline: deadline(milliseconds: 30_000))
        #expect(verify.termination == .exited(0) && verify.stderr.isEmpty, "\(verify.stderr)")
        let exposure = try #require(try units.exposure(in: rendered.path))
        #expect(exposure <= SystemdUnitTests.maximumExposure, "exposure with the uinput grant: \(exposure)")
    }
}
