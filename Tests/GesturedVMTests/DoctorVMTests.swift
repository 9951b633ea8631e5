import GesturedCore
import GesturedDoctor
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured doctor` in the kernel guest with a compositor holding a pass-through clone (issue
/// #33 item 2, CONTRACT.md §6): the daemon running, the compositor's application on the clone,
/// `gestured doctor --json --config … --socket …` for each `cancelStyle` (switched by a reload)
/// names the compositor as the clone's reader with its Debian package and version (not seatd,
/// which opened the device for it), and says whether it passes `wl_touch.cancel` on, the style
/// it recommends and whether the rule's style fits, as GesturedCore's CancelPassing table has it
/// for that version (the table CompositorVMTests checks against the application's events); it
/// exits 0 when the style fits and 1 when it does not. On Debian 13's guest (`make
/// test-vm-trixie`): cage, sway and labwc; on Debian 12's: cage and sway.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct DoctorVMTests {
    /// The wlroots compositors of this guest: seatd opens the clone for them, so the reader must
    /// be told from the seat manager.
    static var kinds: [CompositorSession.Kind] {
        CompositorSession.Kind.inThisGuest.filter { [.cage, .sway, .labwc].contains($0) }
    }

    @Test(arguments: kinds)
    func theDoctorNamesTheCompositorReadingTheCloneAndJudgesItsStyle(on kind: CompositorSession.Kind) throws {
        let (installed, found) = DebianRelease.measured(kind)
        let entry = try #require(found, "\(installed) is not in GesturedCore's CancelPassing table")
        var matrix = try Matrix(kind)
        defer { matrix.finish() }
        try matrix.waitForTheApplication()
        let version = String(installed.split(separator: " ").last ?? "")
        for style in [CancelStyle.lift, .palm] {
            if style != matrix.style { try matrix.reload(style: style) }
            let result = try Subprocess.run(VMGuest.gestured, ["doctor", "--json", "--config", matrix.daemon.configPath,
                                                               "--socket", matrix.daemon.socket],
                                            in: matrix.directory.path, deadline: deadline(milliseconds: 60_000))
            let json = result.stdout
            let fits = entry.fitting.contains(style)
            let name = "\(kind.rawValue), cancelStyle \(style.rawValue)"
            matrix.report("doctor \(kind.rawValue) \(style.rawValue): exit \(result.termination); \(json)")
            #expect(result.termination == .exited(fits ? 0 : 1), "\(name): \(json)\n\(result.stderr)")
            #expect(json.hasPrefix("{\"ok\":\(fits)"), "\(name): \(json)")
            #expect(json.contains("\"cancelStyle\":\"\(style.rawValue)\",\"heldBy\":[{\"pid\":"), "\(name): \(json)")
            #expect(json.contains("\"command\":\"\(kind.rawValue)\",\"package\":\"\(kind.package)\",\"version\":\"\(version)\"}]"),
                    "\(name): the compositor alone reads the clone: \(json)")
            #expect(!json.contains("\"command\":\"seatd\""), "\(name): seatd is a seat manager, not the reader: \(json)")
            #expect(json.contains("\"passesCancel\":\(entry.passesCancel),\"recommendedCancelStyle\":\"\(entry.recommended.rawValue)\","
                                  + "\"fits\":\(fits)}"), "\(name): \(json)")
            let verdict = fits ? "\"status\":\"ok\"" : "\"status\":\"problem\""
            #expect(json.contains("{\"check\":\"clone\",\(verdict),\"message\":\"/dev/input/\(matrix.cloneSysname) (clone of "),
                    "\(name): \(json)")
        }
    }

    /// Issue #44 item 3 on a real clone, without a compositor: doctor finds the clone's reader by
    /// its device number (a `sleep` given the clone as descriptor 3) and the daemon's guard by its
    /// executable with /dev/uinput open, and reaches no bound of its scan.
    @Test func theDoctorKnowsTheReaderByItsDeviceAndTheGuardByItsExecutable() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try PassThroughVMTests.start()
        let held = open(setup.cloneNode, O_RDONLY | O_CLOEXEC)
        try #require(held >= 0, "\(setup.cloneNode)")
        let reader = try Subprocess("sleep", ["100"], descriptors: [3: held])
        close(held)
        let result = try Subprocess.run(VMGuest.gestured, ["doctor", "--json", "--config", setup.daemon.configPath,
                                                           "--socket", setup.daemon.socket],
                                        in: setup.daemon.directory.path, deadline: deadline(milliseconds: 60_000))
        reader.killGroup(SIGKILL)
        let json = result.stdout
        #expect(result.termination == .exited(0), "\(json)\n\(result.stderr)")
        #expect(json.contains("\"heldBy\":[{\"pid\":\(reader.pid),\"command\":\"sleep\""), "\(json)")
        #expect(json.contains("{\"check\":\"guard\",\"status\":\"ok\",\"message\":\"\(setup.cloneNode) ("), "\(json)")
        #expect(!json.contains("\"check\":\"processes\""), "\(json)")
        try setup.daemon.stop()
        withExtendedLifetime((screen, setup.monitor)) {}
    }
}
