import GesturedCalibration
import GesturedCore
import GesturedTestSupport
import Glibc
import Testing

/// `gestured calibrate` on a panel whose name is hostile, through the built binary under
/// `umockdev-run` (docs/RELIABILITY.md, "Security"): a name that would add a rule line of its own
/// to the printed udev rule gets no name rule (the ids' rule instead), a long name's clone rule
/// matches the clone's real (cut) name, and escape sequences in the name reach the terminal
/// escaped, as does what the surface says on stderr (a compositor's error text). The report's pure
/// parts: ForeignTextTests.
struct CalibrateForeignNameTests {
    static let injecting = "ILITEK Multi-Touch\nENV{ID_SEAT}=\"\u{301}x"
    static let combining = "ILITEK \"\u{301}, ENV{ID_SEAT}=\"seat9"

    static func run(name: String, json: Bool, in directory: TestEnvironment.TemporaryDirectory) throws -> Subprocess.Completed? {
        let points = CalibrationTarget.allCases.map { CalibrateCommandTests.raw($0, CalibrateCommandTests.truth) }
        return try CalibrateCommandTests.calibrate(["--display", "none"] + (json ? ["--json"] : []),
                                                   events: CalibrateCommandTests.events(points),
                                                   environment: ["WAYLAND_DISPLAY": ""], name: name, in: directory)
    }

    /// The JSON's `udevRule` value, as it stands in the JSON text.
    static func udevRule(inJSON json: String) throws -> Substring {
        let start = try #require(json.firstRange(of: "\"udevRule\":\"")).upperBound
        let end = try #require(json[start...].firstRange(of: "\",\"udevRuleFile\"")).lowerBound
        return json[start..<end]
    }

    @Test(arguments: [injecting, combining])
    func aNameThatWouldAddARuleLineGetsTheIDsRuleInstead(name: String) throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-inject")
        guard let json = try Self.run(name: name, json: true, in: directory) else { return }
        #expect(json.termination == .exited(0), "\(json.stderr)")
        let rule = try Self.udevRule(inJSON: json.stdout)
        #expect(!rule.contains("ATTRS{name}") && !rule.contains("ID_SEAT"), "\(rule)")
        #expect(rule.contains("SUBSYSTEM==\\\"input\\\", KERNEL==\\\"event*\\\", ATTRS{id/vendor}==\\\"0001\\\", ATTRS{id/product}==\\\"0001\\\", "
                              + "ENV{LIBINPUT_CALIBRATION_MATRIX}=\\\""), "\(rule)")
        #expect(json.stdout.contains("\"calibration\":["))

        // The text: every line is the report's own (the name's line break and quote escaped or refused).
        guard let text = try Self.run(name: name, json: false, in: directory) else { return }
        #expect(text.termination == .exited(0), "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("ENV{") }, "\(text.stdout)")
        #expect(lines.filter { $0.hasPrefix("SUBSYSTEM==") }.allSatisfy { $0.contains("ATTRS{id/vendor}==\"0001\"") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("# no rule by name: the panel's name holds ") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("calibration: ") })
    }

    @Test func aLongNamedPanelsCloneRuleMatchesTheClonesRealName() throws {
        let name = "Very Long Vendor Name Industrial Capacitive Multi-Touch Controller Model XK-2000-PRO"
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-long")
        guard let run = try Self.run(name: name, json: true, in: directory) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        let rule = try Self.udevRule(inJSON: run.stdout)
        let clone = String(name.prefix(79 - 11)) + " (gestured)"
        #expect(rule.contains("ATTRS{name}==\\\"\(name)\\\""), "\(rule)")
        #expect(rule.contains("ATTRS{name}==\\\"\(clone)\\\""), "\(rule)")
        #expect(!rule.contains(name + " (gestured)"), "\(rule)")
    }

    @Test func escapeSequencesInTheNameReachTheTerminalEscaped() throws {
        let name = "gestured \u{1b}]0;pwned\u{7} touch\u{1b}[2K\rok"
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-escape")
        guard let run = try Self.run(name: name, json: false, in: directory) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        #expect(!run.stdout.utf8.contains(0x1b) && !run.stdout.utf8.contains(0x07) && !run.stdout.utf8.contains(0x0d), "\(run.stdout)")
        #expect(!run.stderr.utf8.contains(0x1b), "\(run.stderr)")
        let escaped = "gestured \\x1b]0;pwned\\x07 touch\\x1b[2K\\rok"
        #expect(run.stdout.contains("calibrating event7 (\(escaped)) on a 1280 × 800 screen"), "\(run.stdout)")
        #expect(run.stdout.contains("\ndevice: \(escaped)\n"), "\(run.stdout)")
    }

    /// A surface that dies with a compositor's error text on stderr (libwayland prints the
    /// `wl_display.error` message it was sent): the failure names it, escaped; before, the
    /// surface's stderr was the terminal's.
    @Test func theSurfacesErrorTextIsEscaped() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-surface-error")
        let session = try CalibrateCommandTests.session(in: directory, surface: """
            #!/bin/sh
            printf 'xdg_wm_base@3: error 4: \\033]0;pwned\\007\\033[2K\\rok\\n' >&2
            exit 1
            """)
        guard let run = try CalibrateCommandTests.calibrate(
            ["--display", "wayland"], events: CalibrateCommandTests.events([]),
            environment: session.environment, in: directory, gestured: session.gestured) else { return }
        #expect(run.termination == .exited(1), "\(run.stderr)")
        #expect(!run.stderr.utf8.contains(0x1b) && !run.stderr.utf8.contains(0x0d), "\(run.stderr)")
        #expect(run.stderr.contains(": xdg_wm_base@3: error 4: \\x1b]0;pwned\\x07\\x1b[2K\\rok\n"),
                "\(run.stderr)")
    }
}
