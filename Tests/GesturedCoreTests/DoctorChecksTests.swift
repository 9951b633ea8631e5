import GesturedCore
import GesturedDoctor
import Testing

/// `gestured doctor`'s judgement on made-up facts (DoctorChecks.swift, CancelPassing.swift): no
/// daemon, a socket the caller may not open, devices used and ignored, uinput, each clone's
/// reader against the measured table, the guards, and the output's two forms.
@Suite struct DoctorChecksTests {
    static let user = DoctorFacts.Caller(uid: 1000, name: "kiosk")
    static let listening = DoctorFacts.Socket(path: "/run/gestured/gestured.sock", reach: .connected,
                                              owner: "root", group: "gestured", mode: 0o660)
    static let panel = DoctorFacts.Device(sysname: "event7", name: "Panel", kind: .touchscreen, used: true,
                                          decision: "used (devices[0])")

    static func facts(socket: DoctorFacts.Socket = listening, clones: [DoctorFacts.Clone] = [],
                      guards: [DoctorFacts.Guard] = []) -> DoctorFacts {
        DoctorFacts(socket: socket, caller: user, devices: [panel], needsUinput: !clones.isEmpty, uinputPresent: true,
                    clones: clones, guards: guards)
    }

    static func clone(_ style: CancelStyle, readers: [DoctorFacts.Reader]) -> DoctorFacts.Clone {
        DoctorFacts.Clone(device: "Panel", rule: 0, cancelStyle: style, slots: 10, clone: "/dev/input/event9", readers: readers)
    }

    static let cage = DoctorFacts.Reader(pid: 700, command: "cage", package: "cage", version: "0.1.4-4")
    static let seatd = DoctorFacts.Reader(pid: 650, command: "seatd", seatManager: true)

    @Test func aRunningReachableDaemonAndAUsedPanelAreOK() {
        let report = Self.facts().report()
        #expect(report.ok)
        #expect(report.checks.map(\.status) == [.ok, .ok])
        #expect(report.checks[0].message
            == "running; socket /run/gestured/gestured.sock (owner root, group gestured, mode 0660) open to kiosk (uid 1000)")
    }

    @Test func noDaemonIsAProblemWithItsFix() {
        for reach in [DoctorFacts.Socket.Reach.missing, .refused] {
            let report = Self.facts(socket: DoctorFacts.Socket(path: "/run/x.sock", reach: reach)).report()
            #expect(!report.ok)
            #expect(report.checks[0].check == "daemon" && report.checks[0].status == .problem)
            #expect(report.checks[0].message.hasPrefix("not running"))
            #expect(report.checks[0].fix?.contains("systemctl") == true)
        }
    }

    @Test func aSocketTheCallerMayNotOpenNamesTheGroupToJoin() {
        var socket = Self.listening
        socket.reach = .denied
        let check = Self.facts(socket: socket).report().checks[0]
        #expect(check.status == .problem)
        #expect(check.message == "socket /run/gestured/gestured.sock (owner root, group gestured, mode 0660) may not be opened by kiosk (uid 1000)")
        #expect(check.fix == "join the group gestured: usermod -aG gestured kiosk, then log in again")
        // A group that may not write it is no way in: the owner is.
        socket.mode = 0o600
        #expect(Self.facts(socket: socket).report().checks[0].fix == "run it as root or as root")
    }

    @Test func devicesUsedIgnoredByARuleAndNoneUsed() {
        var facts = Self.facts()
        facts.devices.append(DoctorFacts.Device(sysname: "event8", name: "Pad", kind: .touchpad, used: false,
                                                decision: "not used (ignored by devices[1])", ignoredBy: 1))
        facts.devices.append(DoctorFacts.Device(sysname: "event3", name: "Keys", kind: .other, used: false, decision: "not used (other)"))
        let checks = facts.report().checks.filter { $0.check == "device" }
        #expect(checks.map(\.message) == ["event7 \"Panel\" touchscreen: used (devices[0])",
                                          "event8 \"Pad\" touchpad: ignored by devices[1]"])
        facts.devices.removeFirst()
        let none = facts.report()
        #expect(!none.ok)
        #expect(none.checks.last?.message == "no touch device is used")
        facts.udevError = "udev_enumerate_scan_devices failed"
        #expect(facts.report().checks.last?.message == "udev could not list the input devices: udev_enumerate_scan_devices failed")
    }

    @Test func uinputIsCheckedOnlyWhenARuleNeedsIt() {
        var facts = Self.facts()
        #expect(!facts.report().checks.contains { $0.check == "uinput" })
        facts.needsUinput = true
        facts.uinputPresent = false
        let check = facts.report().checks.first { $0.check == "uinput" }
        #expect(check?.status == .problem && check?.fix?.contains("modprobe uinput") == true)
    }

    @Test func palmOnDebian12sCageDoesNotFitAndSeatdIsNotTheReader() throws {
        let report = Self.facts(clones: [Self.clone(.palm, readers: [Self.seatd, Self.cage])], guards: [.init(pid: 600, slots: 10)]).report()
        #expect(!report.ok)
        let verdict = try #require(report.clones.first)
        #expect(verdict.heldBy == [Self.cage])
        #expect(verdict.passesCancel == false && verdict.recommendedCancelStyle == .lift && verdict.fits == false)
        let check = try #require(report.checks.first { $0.check == "clone" })
        #expect(check.status == .problem)
        #expect(check.fix == "set cancelStyle: \"lift\" in devices[0], then systemctl reload gestured")
        #expect(check.message.contains("cage (pid 700, cage 0.1.4-4)") && check.message.contains("CompositorVMTests"))
    }

    @Test func liftOnCageFitsAndBothStylesFitXorg() {
        #expect(Self.facts(clones: [Self.clone(.lift, readers: [Self.cage])], guards: [.init(pid: 600, slots: 10)]).report().ok)
        let xorg = DoctorFacts.Reader(pid: 800, command: "Xorg", package: "xserver-xorg-core", version: "2:21.1.7-3+deb12u13")
        for style in CancelStyle.allCases {
            let report = Self.facts(clones: [Self.clone(style, readers: [xorg])], guards: [.init(pid: 600, slots: 10)]).report()
            #expect(report.ok && report.clones[0].fits == true && report.clones[0].recommendedCancelStyle == .lift)
        }
    }

    @Test func anUnmeasuredVersionOrProgramIsUnknown() {
        let sway111 = DoctorFacts.Reader(pid: 900, command: "sway", package: "sway", version: "1.11-1")
        let labwc09 = DoctorFacts.Reader(pid: 901, command: "labwc", package: "labwc", version: "0.9.0-1")
        let kiosk = DoctorFacts.Reader(pid: 903, command: "gnome-kiosk", package: "gnome-kiosk", version: "48.0-1")
        let noPackage = DoctorFacts.Reader(pid: 902, command: "myapp")
        for reader in [sway111, labwc09, kiosk, noPackage] {
            let report = Self.facts(clones: [Self.clone(.palm, readers: [reader])], guards: [.init(pid: 600, slots: 10)]).report()
            #expect(report.ok)
            #expect(report.clones[0].passesCancel == nil && report.clones[0].recommendedCancelStyle == nil && report.clones[0].fits == nil)
            #expect(report.checks.first { $0.check == "clone" }?.status == .warning)
        }
    }

    @Test func anUnreadCloneIsAWarningAndANonRootCallerIsToldToLookAsRoot() {
        let check = Self.facts(clones: [Self.clone(.lift, readers: [Self.seatd])], guards: [.init(pid: 600, slots: 10)]).report()
            .checks.first { $0.check == "clone" }
        #expect(check?.status == .warning)
        #expect(check?.message == "/dev/input/event9 (clone of Panel): no program reads it, so the application gets no touches")
        #expect(check?.fix == "run gestured doctor as root: other users' open files are hidden from it")
        var facts = Self.facts(clones: [Self.clone(.lift, readers: [])], guards: [.init(pid: 600, slots: 10)])
        facts.caller = DoctorFacts.Caller(uid: 0, name: "root")
        #expect(facts.report().checks.first { $0.check == "clone" }?.fix == "start the compositor (it reads the clone as a touchscreen)")
    }

    /// Issue #44 item 3: a seat manager is known by its executable (ProcessScan), not by its
    /// name: a reader that calls itself seatd is a reader like any other.
    @Test func aReaderCalledSeatdIsAReaderUnlessItsExecutableIsSeatds() throws {
        let impostor = DoctorFacts.Reader(pid: 651, command: "seatd")
        let report = Self.facts(clones: [Self.clone(.lift, readers: [impostor, Self.seatd])], guards: [.init(pid: 600, slots: 10)]).report()
        #expect(report.clones.first?.heldBy == [impostor])
        let check = try #require(report.checks.first { $0.check == "clone" })
        #expect(check.message.hasPrefix("/dev/input/event9 (clone of Panel): read by seatd (pid 651), not in the measured table"), "\(check)")
    }

    @Test func aCloneWithoutAGuardIsAProblem() {
        let clones = [Self.clone(.lift, readers: [Self.cage]), Self.clone(.lift, readers: [Self.cage])]
        var facts = Self.facts(clones: clones, guards: [.init(pid: 600, slots: 10)])
        facts.caller = DoctorFacts.Caller(uid: 0, name: "root")
        let report = facts.report()
        #expect(report.checks.filter { $0.check == "guard" }.map(\.status) == [.ok, .problem])
        #expect(!report.ok)
        // Only root may see another user's /proc/PID/exe: a guard a user cannot see is not missing.
        let asUser = Self.facts(clones: clones, guards: [.init(pid: 600, slots: 10)]).report()
        #expect(asUser.checks.filter { $0.check == "guard" }.last
                == DoctorCheck("guard", .warning, "/dev/input/event9 (Panel): no clone guard seen: other users' processes are hidden from kiosk",
                               fix: "run gestured doctor as root"))
        #expect(asUser.ok)
    }

    /// Issue #44 item 3: the scan of /proc is bounded; a bound reached is a warning.
    @Test func aScanThatReachedItsBoundIsAWarning() {
        var facts = Self.facts(clones: [Self.clone(.lift, readers: [Self.cage])], guards: [.init(pid: 600, slots: 10)])
        #expect(!facts.report().checks.contains { $0.check == "processes" })
        let said: [(DoctorFacts.ScanBound, String)] = [
            (.processes(limit: 4096), "looked at the first 4096 processes only"),
            (.descriptors(pid: 42, limit: 4096), "looked at the first 4096 open files of pid 42 only"),
            (.allDescriptors(limit: 65_536), "stopped after 65536 open files in all"),
        ]
        for (bound, text) in said {
            facts.scanBound = bound
            let report = facts.report()
            #expect(report.ok)
            #expect(report.checks.filter { $0.check == "processes" }.map(\.message)
                    == ["the scan of /proc \(text): a clone's reader or guard past that bound was not seen"])
            #expect(report.checks.first { $0.check == "processes" }?.status == .warning)
        }
    }

    @Test func configurationWarningsAreWarningChecks() {
        var facts = Self.facts()
        facts.configWarnings = ["/etc/gestured/gestured.json5:3:5: devices[0].grab: grab without passThrough"]
        let report = facts.report()
        #expect(report.ok)
        #expect(report.checks.last == DoctorCheck("config", .warning, "/etc/gestured/gestured.json5:3:5: devices[0].grab: grab without passThrough",
                                                  fix: "see docs/CONFIG.md; gestured check-config FILE lists them"))
        #expect(report.text.hasSuffix("no problems, 1 warning\n"))
    }

    @Test func anInvalidConfigurationIsAProblemAndNothingElseIsJudged() {
        var facts = Self.facts()
        facts.configErrors = ["/etc/gestured/gestured.json5:1:3: unknown key 'view'"]
        let report = facts.report()
        #expect(!report.ok)
        #expect(report.checks.map(\.check) == ["daemon", "config"])
        #expect(report.checks[1].status == .problem && report.checks[1].message == "/etc/gestured/gestured.json5:1:3: unknown key 'view'")
    }

    @Test func theTableMatchesVersionRanges() {
        #expect(CancelPassing.upstreamNumbers("2:21.1.7-3+deb12u13") == [21, 1, 7])
        #expect(CancelPassing.upstreamNumbers("10.0.1-1+b1") == [10, 0, 1])
        #expect(CancelPassing.upstreamNumbers("0.1.4-4") == [0, 1, 4])
        #expect(CancelPassing.entry(package: "sway", version: "1.7-6")?.compositor == "sway")
        #expect(CancelPassing.entry(package: "sway", version: "1.8-1") == nil)
        #expect(CancelPassing.entry(package: "weston", version: "13.0.0-1") == nil)
        #expect(CancelPassing.entry(package: "cage", version: "0.1.5-1") == nil)
        #expect(CancelPassing.entry(package: "labwc", version: "0.9.0-1") == nil)
    }

    /// Debian 13's compositors as `make test-vm-trixie` measured them: sway 1.10 passes the
    /// cancel on ("palm" recommended, both styles fit); cage 0.2.0, weston 14 and labwc 0.8.3 drop
    /// it ("lift" alone fits).
    @Test func debian13sCompositorsAreInTheTable() {
        let sway = CancelPassing.entry(package: "sway", version: "1.10.1-2")
        #expect(sway?.passesCancel == true && sway?.recommended == .palm && sway?.fitting == [.lift, .palm])
        for (package, version) in [("cage", "0.2.0-2"), ("weston", "14.0.2-1"), ("labwc", "0.8.3-1")] {
            let entry = CancelPassing.entry(package: package, version: version)
            #expect(entry?.passesCancel == false && entry?.recommended == .lift && entry?.fitting == [.lift], "\(package)")
            #expect(entry?.measurement.contains("Debian 13 kernel guest") == true, "\(package)")
        }
        let sway110 = DoctorFacts.Reader(pid: 900, command: "sway", package: "sway", version: "1.10.1-2")
        let labwc = DoctorFacts.Reader(pid: 901, command: "labwc", package: "labwc", version: "0.8.3-1")
        for style in [CancelStyle.lift, .palm] {
            let report = Self.facts(clones: [Self.clone(style, readers: [sway110])], guards: [.init(pid: 600, slots: 10)]).report()
            #expect(report.ok && report.clones[0].passesCancel == true && report.clones[0].recommendedCancelStyle == .palm
                    && report.clones[0].fits == true, "\(style)")
        }
        let palmOnLabwc = Self.facts(clones: [Self.clone(.palm, readers: [labwc])], guards: [.init(pid: 600, slots: 10)]).report()
        #expect(!palmOnLabwc.ok && palmOnLabwc.clones[0].fits == false && palmOnLabwc.clones[0].recommendedCancelStyle == .lift)
        #expect(palmOnLabwc.checks.first { $0.check == "clone" }?.fix == "set cancelStyle: \"lift\" in devices[0], then systemctl reload gestured")
        #expect(CancelPassing.table.allSatisfy { !$0.measurement.isEmpty && $0.fitting.contains($0.recommended) })
    }

    @Test func textHasEachFixUnderItsProblemAndJSONHasTheContractsShape() {
        var socket = Self.listening
        socket.reach = .missing
        let report = Self.facts(socket: socket, clones: [Self.clone(.palm, readers: [Self.cage])]).report()
        let lines = report.text.split(separator: "\n")
        #expect(lines[0] == "problem  daemon: not running: no socket at /run/gestured/gestured.sock")
        #expect(lines[1].hasPrefix("         fix: start it: systemctl start gestured"))
        #expect(lines.last == "2 problems, 1 warning")
        #expect(report.json.hasPrefix("{\"ok\":false,\"checks\":[{\"check\":\"daemon\",\"status\":\"problem\","))
        #expect(report.json.contains("\"clones\":[{\"device\":\"Panel\",\"clone\":\"/dev/input/event9\",\"cancelStyle\":\"palm\","
            + "\"heldBy\":[{\"pid\":700,\"command\":\"cage\",\"package\":\"cage\",\"version\":\"0.1.4-4\"}],"
            + "\"passesCancel\":false,\"recommendedCancelStyle\":\"lift\",\"fits\":false}]}\n"))
        #expect(Self.facts().report().json.contains("\"fix\":null"))
    }
}
