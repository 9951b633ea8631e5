@testable import GesturedCalibration
import GesturedDoctor
import Testing
@testable import GesturedCore

/// Text that devices and other processes choose, in what gestured prints (docs/RELIABILITY.md,
/// "Security"): the udev rule `calibrate` prints is built from the name's bytes and refuses a
/// name that could rewrite it; doctor's and calibrate's text escape it (`LogText`). The same
/// through the built binary: ForeignTextCommandTests, CalibrateCommandTests.
struct ForeignTextTests {
    static let fit = CalibrationFit(matrix: [1.038577, -0.054431, -0.021, 0.050764, 0.968671, 0.018], residual: 0.25)
    static let matrix = "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"1.038577 -0.054431 -0.021 0.050764 0.968671 0.018\""
    /// A USB panel's name that ends the match with a line break and starts a rule of its own
    /// (`ENV{ID_SEAT}=…` with no match applies to every device); and one whose quote hides behind
    /// a combining mark (`"` + U+0301 is one Character, not equal to `"`).
    static let injecting = "ILITEK Multi-Touch\nENV{ID_SEAT}=\"\u{301}x"
    static let combining = "ILITEK \"\u{301}, ENV{ID_SEAT}=\"seat9"

    static func report(_ device: String, ids: CalibrationReport.IDs? = nil) -> CalibrationReport {
        CalibrationReport(device: device, fit: fit, screen: Size(width: 1280, height: 800), touches: [], ids: ids)
    }

    /// Every line of a rule file: a comment, or a rule that matches the input subsystem's event
    /// nodes (no line of the name's making).
    static func linesAreOurs(_ rule: String) -> Bool {
        rule.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy {
            $0.isEmpty || $0.hasPrefix("# ") || $0.hasPrefix("SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{")
        }
    }

    @Test func aNameThatWouldInjectARuleGetsNoNameRuleButTheIDsRule() {
        for name in [Self.injecting, Self.combining] {
            let report = Self.report(name, ids: .init(vendor: 0x222a, product: 0x0001))
            #expect(report.udevRule == """
                # /etc/udev/rules.d/99-gestured-calibration.rules: measured by gestured calibrate (residual 0.3 points)
                # no rule by name: the panel's name holds \(name == Self.injecting ? "a control character (byte 0x0a)" : "a quote or backslash (byte 0x22)"), which a udev rule cannot match safely;
                # the panel and gestured's clone of it (which copies them) by their vendor and product ids instead
                SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="222a", ATTRS{id/product}=="0001", \(Self.matrix)

                """, "\(name)")
            #expect(Self.linesAreOurs(report.udevRule))
            #expect(!report.udevRule.contains("ID_SEAT") && !report.udevRule.contains("ATTRS{name}"))
            // The matrix and the configuration's rule are still printed, the name escaped.
            #expect(report.text.contains("calibration: 1.038577 -0.054431 -0.021 0.050764 0.968671 0.018\n"))
            #expect(report.deviceRule.hasPrefix("{ match: { name: \"ILITEK "))
            #expect(report.json.contains("\"udevRule\":\"# /etc/udev/rules.d/99-gestured-calibration.rules"))
        }
        #expect(Self.report(Self.injecting).text.contains("device: ILITEK Multi-Touch\\nENV{ID_SEAT}=\"\u{301}x\n"))
        #expect(Self.report(Self.injecting).deviceRule.hasPrefix("{ match: { name: \"ILITEK Multi-Touch\\nENV{ID_SEAT}=\\\"\u{301}x\" }"))
    }

    @Test func withoutIDsOnlyCommentsSayHowToMatchThePanel() {
        for ids in [nil, CalibrationReport.IDs(vendor: 0, product: 0)] {
            let rule = Self.report("Écran tactile", ids: ids).udevRule
            #expect(rule.contains("# no rule by name: the panel's name holds a byte outside printable ASCII (0xc3)"), "\(rule)")
            #expect(rule.contains("udevadm info --attribute-walk"))
            #expect(rule.split(separator: "\n").allSatisfy { $0.hasPrefix("# ") }, "\(rule)")
        }
    }

    @Test func udevNamesAreJudgedByByte() {
        #expect(UdevName.pattern("ILITEK Multi-Touch") == .success("ILITEK Multi-Touch"))
        #expect(UdevName.pattern("a\r\nb") == .failure(.control(0x0d)))
        #expect(UdevName.pattern("a\u{7f}") == .failure(.control(0x7f)))
        #expect(UdevName.pattern("a\u{1b}]0;x\u{7}") == .failure(.control(0x1b)))
        #expect(UdevName.pattern("a\\b") == .failure(.quoting(0x5c)))
        #expect(UdevName.pattern("\"\u{301}") == .failure(.quoting(0x22)))
        #expect(UdevName.pattern("a\u{85}") == .failure(.nonASCII(0xc2)))
    }

    /// The clone's name is cut to the kernel's 79 bytes (`CloneName.of`, which `UinputClone`
    /// names it with): its rule matches that name, not the panel's whole name and the suffix.
    @Test func aLongNamedPanelsCloneRuleMatchesTheClonesRealName() throws {
        let name = "Very Long Vendor Name Industrial Capacitive Multi-Touch Controller Model XK-2000-PRO"
        #expect(name.utf8.count > 79)
        let clone = CloneName.of(name)
        #expect(clone.utf8.count == 79 && clone.hasSuffix(" (gestured)"))
        let lines = Self.report(name).udevRule.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("ATTRS{name}==\"\(name)\", "))
        #expect(lines[2] == "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"\(clone)\", \(Self.matrix)")
        #expect(!lines[2].contains(name + " (gestured)"))
    }

    /// doctor's text escapes a device's name and a reader's `comm`; its JSON escapes them as JSON.
    @Test func doctorsTextEscapesNamesAndCommands() throws {
        let title = "\u{1b}]0;pwned\u{7}", erase = "\u{1b}[2K\r"
        let panel = DoctorFacts.Device(sysname: "event7", name: "Panel" + title, kind: .touchscreen, used: true,
                                       decision: "used (devices[0])")
        let reader = DoctorFacts.Reader(pid: 700, command: erase + "ok       clone: fine\u{9b}")
        let clone = DoctorFacts.Clone(device: "Panel" + title, rule: 0, cancelStyle: .lift, slots: 10, clone: "/dev/input/event9",
                                      readers: [reader])
        let facts = DoctorFacts(socket: DoctorChecksTests.listening, caller: DoctorChecksTests.user, devices: [panel],
                                needsUinput: true, uinputPresent: true, clones: [clone], guards: [.init(pid: 600, slots: 10)])
        let report = facts.report()
        let text = report.text
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(text)")
        #expect(text.contains("device: event7 \"Panel\\x1b]0;pwned\\x07\" touchscreen: used (devices[0])\n"), "\(text)")
        #expect(text.contains("\\x1b[2K\\rok       clone: fine\\u{9b} (pid 700"), "\(text)")
        // Each line still begins with its status or the fix's indent: none forged.
        for line in text.split(separator: "\n").dropLast() {
            #expect(["ok ", "warning ", "problem ", "         fix: "].contains { line.hasPrefix($0) }, "\(line)")
        }
        #expect(report.json.contains("\"command\":\"\\u001b[2K\\rok       clone: fine\u{9b}\""), "\(report.json)")
        #expect(report.json.contains("\"device\":\"Panel\\u001b]0;pwned\\u0007\""), "\(report.json)")
    }

    /// calibrate's text shows the name escaped; the configuration rule's literal escapes C1 too.
    @Test func calibratesTextEscapesTheName() {
        let report = Self.report("Panel\u{1b}]0;pwned\u{7}\u{9b}2J")
        #expect(report.text.hasPrefix("device: Panel\\x1b]0;pwned\\x07\\u{9b}2J\n"), "\(report.text)")
        #expect(report.deviceRule.hasPrefix("{ match: { name: \"Panel\\u001b]0;pwned\\u0007\\u009b2J\" }"), "\(report.deviceRule)")
        #expect(!report.text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }
}
