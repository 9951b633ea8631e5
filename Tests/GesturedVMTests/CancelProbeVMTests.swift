import GesturedCore
import GesturedDoctor
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured doctor --probe-cancel` under every Wayland compositor of the guest's matrix
/// (`CompositorSession.Kind`, `Tests/VM/compositor`), run as the matrix runs them: the panel, the
/// daemon with its pass-through clone and the application (wev) on it. For each `cancelStyle` of
/// the daemon's rule, the probe must find, for that style, what the matrix found for a cancelled
/// touch (`CompositorVMTests.expected`), judge the rule by it (exit 1 where the style leaves the
/// touch pressed), and leave the application's clone alone: wev gets nothing from the probe, and
/// a tap on the panel still reaches it afterwards.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct CancelProbeVMTests {
    static var waylandKinds: [CompositorSession.Kind] { CompositorSession.Kind.inThisGuest.filter(\.isWayland) }

    /// What the matrix records for a touch the daemon cancels in `style` on `kind` (the
    /// measured table, `CancelPassing`, for the package and version installed: an up for "lift";
    /// for "palm", a cancel where the compositor passes it on, else nothing), or nil when the
    /// installed version was never measured.
    static func matrixFinding(_ style: CancelStyle, on kind: CompositorSession.Kind) -> CancelProbe.Received? {
        guard let entry = DebianRelease.measured(kind).entry else { return nil }
        switch CompositorVMTests.ending(style, entry) {
        case .up: return .up
        case .cancel: return .cancel
        case .nothing: return .nothing
        }
    }

    @Test(arguments: waylandKinds)
    func theProbeFindsWhatTheMatrixFound(on kind: CompositorSession.Kind) throws {
        let unmeasured = "\(DebianRelease.measured(kind).installed) is not in GesturedCore's CancelPassing table"
        let lift = try #require(Self.matrixFinding(.lift, on: kind), "\(unmeasured)")
        let palm = try #require(Self.matrixFinding(.palm, on: kind), "\(unmeasured)")
        func finding(_ style: CancelStyle) -> CancelProbe.Received { style == .lift ? lift : palm }
        var matrix = try Matrix(kind)
        defer { matrix.finish() }
        try matrix.waitForTheApplication()
        let expected = CancelProbe.order.map { style in
            "{\"cancelStyle\":\"\(style.rawValue)\",\"received\":\"\(finding(style).rawValue)\"}"
        }
        var folders: [TestEnvironment.TemporaryDirectory] = []
        for style in [CancelStyle.lift, .palm] {
            if style != matrix.style { try matrix.reload(style: style) }
            let (runtime, display) = try Self.display()
            let started = MonotonicClock.now()
            let result = try Subprocess.run(VMGuest.gestured, ["doctor", "--probe-cancel", "--json", "--config", matrix.daemon.configPath,
                                                               "--socket", matrix.daemon.socket],
                                            environment: ["WAYLAND_DISPLAY": display, "XDG_RUNTIME_DIR": runtime],
                                            in: matrix.directory.path, deadline: deadline(milliseconds: 60_000))
            let took = VMTests.milliseconds((MonotonicClock.now() - started).microseconds)
            let probe = result.stdout.firstRange(of: ",\"probe\":").map { String(result.stdout[$0.upperBound...]) } ?? "(no probe key)"
            let problems = result.stdout.split(separator: "{\"check\":").filter { $0.contains("\"status\":\"problem\"") }
                .map { $0.prefix { $0 != "}" } }
            matrix.report("\(kind.rawValue) probe with cancelStyle \(style.rawValue) configured, \(took) ms: \(result.termination), "
                          + probe.split(separator: "\n").joined() + "; problems: \(problems)")
            #expect(probe.hasPrefix("{\"results\":[\(expected.joined(separator: ","))],"), "\(kind.rawValue): \(result.stdout)\n\(result.stderr)")
            #expect(probe.contains("\"failure\":null"), "\(result.stdout)")
            let fits = finding(style) != .nothing
            let judged = "devices[0] cancelStyle \\\"\(style.rawValue)\\\" " + (fits ? "fits" : "does not fit")
            #expect(result.stdout.contains(judged), "\(kind.rawValue): \(result.stdout)")
            if !fits { #expect(result.termination == .exited(1), "\(result.stdout)") }
            // The application's clone was left alone: wev got nothing meanwhile.
            let (meanwhile, _) = try matrix.session.events(within: 500) { _ in false }
            #expect(meanwhile.isEmpty, "\(kind.rawValue): the application got \(meanwhile) during the probe")
            // And it still gets a tap; or, where "palm" left the probe's touch pressed and the
            // compositor sends every touch to that touch's (gone) surface (weston 10), it does once
            // the compositor restarts, as the probe's fix says.
            if try Self.tapArrives(&matrix) {
                matrix.report("\(kind.rawValue): after the probe a tap reaches the application")
            } else {
                #expect(palm == .nothing, "\(kind.rawValue): no tap reaches the application after the probe")
                matrix.report("\(kind.rawValue): after the probe no tap reaches the application; restarting the compositor")
                try matrix.session.stop()
                // The new session's folder (its FIFO) lives as long as the test.
                folders.append(try TestEnvironment.TemporaryDirectory(prefix: "gestured-compositor"))
                matrix.session = try CompositorSession(kind, in: folders[folders.count - 1])
                try matrix.waitForTheApplication()
            }
        }
    }

    /// Whether a tap at the panel's center reaches the application whole within 20 s (a few
    /// tries: a new clone takes the compositor a moment), without recording an issue.
    static func tapArrives(_ matrix: inout Matrix) throws -> Bool {
        let limit = deadline(milliseconds: 20_000)
        var seen: [AppTouch] = []
        while MonotonicClock.now() < limit {
            try matrix.tap()
            let (events, done) = try matrix.session.events(within: 2000) { AppTouch.completes(taps: 1, seen + $0) }
            seen += events
            if done { return true }
        }
        return false
    }

    /// The compositor's `XDG_RUNTIME_DIR` and `WAYLAND_DISPLAY`: `Tests/VM/compositor` makes
    /// `$TMPDIR/compositor.XXXXXX/xdg`, and the one compositor running has its socket there.
    static func display() throws -> (runtime: String, display: String) {
        let tmp = Subprocess.currentEnvironment()["TMPDIR"] ?? "/tmp"
        var found: [(String, String)] = []
        for work in try Self.names(in: tmp) where work.hasPrefix("compositor.") {
            let runtime = tmp + "/" + work + "/xdg"
            for name in (try? Self.names(in: runtime)) ?? [] where name.hasPrefix("wayland-") && !name.hasSuffix(".lock") {
                var info = stat()
                if stat(runtime + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK { found.append((runtime, name)) }
            }
        }
        try #require(found.count == 1, "Wayland sockets under \(tmp): \(found)")
        return found[0]
    }

    static func names(in folder: String) throws -> [String] {
        guard let dir = opendir(folder) else { throw SystemError(operation: "opendir", path: folder, errno: .current) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
