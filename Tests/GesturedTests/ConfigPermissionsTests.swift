import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The executable's side of `StrictModes` (security review, round two, fault 3): `check-config`,
/// the daemon and gestured-generator refuse a configuration others may write, and grant no
/// uinput for it; `--allow-insecure-config-permissions` reads it anyway, with a warning.
@Suite struct ConfigPermissionsTests {
    func gestured(_ arguments: [String], in directory: String) throws -> Subprocess.Completed {
        try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments, in: directory, deadline: deadline(milliseconds: 20_000))
    }

    @Test func checkConfigRefusesAFileOthersMayWriteAndTheFlagReadsItLoudly() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-modes")
        let file = try directory.write("g.json5", UinputGrantTests.passThrough)
        #expect(chmod(file, 0o666) == 0)
        let refused = try gestured(["check-config", file], in: directory.path)
        #expect(refused.termination == .exited(78) && refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(refused.stderr == "\(file): refused: \(file) is writable by its group and others (owner uid \(getuid()), mode 0666); "
                + "only its owner may write it: chmod go-w \(file), or run with --allow-insecure-config-permissions (development only)\n")
        let uinput = try gestured(["check-config", "--needs-uinput", file], in: directory.path)
        #expect(uinput.termination == .exited(78) && uinput.stdout.isEmpty, "\(uinput.stdout)")

        let allowed = try gestured(["check-config", "--allow-insecure-config-permissions", file], in: directory.path)
        #expect(allowed.termination == .exited(0) && allowed.stdout == "\(file): valid\n", "\(allowed.stdout)\(allowed.stderr)")
        #expect(allowed.stderr.hasPrefix("--allow-insecure-config-permissions: configuration and stroke-template files are read"))

        #expect(chmod(file, 0o644) == 0)
        let fixed = try gestured(["check-config", file], in: directory.path)
        #expect(fixed.termination == .exited(0) && fixed.stderr.isEmpty, "\(fixed.stderr)")
    }

    /// A template file is held to the same rule as the configuration that names it.
    @Test func aTemplateFileOthersMayWriteIsRefusedWhereItIsNamed() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-modes")
        let templates = StrokeTemplateFile.text([StrokeTemplate(name: "zig", points: [Point(x: 0, y: 0), Point(x: 10, y: 10),
                                                                                      Point(x: 20, y: 0)])], comment: "test")
        let strokes = try directory.write("zig.json5", templates)
        #expect(chmod(strokes, 0o646) == 0)
        let config = try directory.write("g.json5", #"{ views: [{ id: "v", gestures: [{ id: "s", type: "stroke", templates: [{ file: "zig.json5" }] }] }] }"#)
        let run = try gestured(["check-config", config], in: directory.path)
        #expect(run.termination == .exited(78))
        #expect(run.stderr.contains("\(strokes): refused: \(strokes) is writable by others (owner uid \(getuid()), mode 0646)"), "\(run.stderr)")
    }

    /// The daemon stops at start with the refusal (exit 78), before it listens.
    @Test func theDaemonRefusesToStartWithAFileOthersMayWrite() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-modes")
        let file = try directory.write("g.json5", "{ views: [{ id: \"root\" }] }")
        #expect(chmod(directory.path, 0o777) == 0)
        let run = try gestured(["run", "--config", file, "--socket", directory.path + "/g.sock"], in: directory.path)
        #expect(run.termination == .exited(78), "\(run.stderr)")
        #expect(run.stderr.contains("<3>\(file): refused: \(directory.path), a directory on the path to \(file), is writable"), "\(run.stderr)")
        #expect(access(directory.path + "/g.sock", F_OK) != 0)
    }

    /// gestured-generator asks check-config: a pass-through configuration others may write, or
    /// one reached through a symlink to a file of an untrusted owner, gets no uinput.
    @Test func theGeneratorGrantsNoUinputForAConfigurationOthersMayWrite() throws {
        let writable = try UinputGrantTests().generate(UinputGrantTests.passThrough, mode: 0o666)
        #expect(writable.termination == .exited(0))
        #expect(writable.dropIn == nil, "granted uinput for a file anyone may write")
        let owned = try UinputGrantTests().generate(UinputGrantTests.passThrough, mode: 0o644)
        #expect(owned.dropIn != nil)
    }
}
