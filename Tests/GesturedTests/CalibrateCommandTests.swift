import GesturedCalibration
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Glibc
import Testing

/// `gestured calibrate` end to end through the built binary under `umockdev-run`: the synthetic
/// touchscreen replays one touch per target where a panel skewed by a known matrix reports them,
/// and the command recovers that matrix; `--display wayland` drives a fake `gestured-surface`
/// that prints the interface's lines (docs/KIOSK.md, "Calibration").
struct CalibrateCommandTests {
    static let gestured = TestEnvironment.buildDirectory + "/gestured"
    /// A rotation of 3°, scales 1.04 and 0.97, an offset of −3 % and +2 %.
    static let truth = [1.04 * 0.998630, -1.04 * 0.052336, -0.03, 0.97 * 0.052336, 0.97 * 0.998630, 0.02]

    /// The raw position (0…4095) where a panel calibrated by `m` reports a touch on `target`.
    static func raw(_ target: CalibrationTarget, _ m: [Double]) -> (Int32, Int32) {
        let det = m[0] * m[4] - m[1] * m[3]
        let u = target.point.x - m[2], v = target.point.y - m[5]
        let x = (m[4] * u - m[1] * v) / det, y = (m[0] * v - m[3] * u) / det
        return (Int32((x * 4095).rounded()), Int32((y * 4095).rounded()))
    }

    /// evemu `E:` lines: after an empty frame, one touch per target from 1 s on, 0.5 s apart
    /// (down, a motion of 2 units, up); `points` overrides a target's position.
    static func events(_ points: [(Int32, Int32)]) -> String {
        var script = PanelScript(firstTrackingID: 100)
        var lines = ["E: 0.000000 0000 0000 0000"]
        for (i, p) in points.enumerated() {
            let t = Instant(microseconds: 1_000_000 + Int64(i) * 500_000)
            var events = script.frame(at: t, [.down(slot: 0, x: p.0, y: p.1)])
            events += script.frame(at: t + .milliseconds(30), [.move(slot: 0, x: p.0 + 2, y: p.1)])
            events += script.frame(at: t + .milliseconds(60), [.up(slot: 0)])
            for e in events {
                let us = e.time.microseconds
                lines.append("E: \(us / 1_000_000).\(String(us % 1_000_000).leftPadded(6)) \(hex(e.type)) \(hex(e.code)) \(e.value)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func hex(_ v: UInt16) -> String { String(String(v, radix: 16)).leftPadded(4) }

    /// `timeout -s KILL 30 umockdev-run … -- gestured calibrate ARGS` with the synthetic
    /// touchscreen (renamed `name`) as event7 replaying `events`; nil (recorded) without umockdev.
    static func calibrate(_ arguments: [String], events: String, environment: [String: String] = [:], name: String? = nil,
                          in directory: TestEnvironment.TemporaryDirectory, gestured: String = gestured) throws -> Subprocess.Completed? {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps`"); return nil
        }
        let node = "/dev/input/event7"
        var description = try #require(try EvemuRecording.parse(
            try readTextFile(path: TestEnvironment.recordings + "/synthetic-touchscreen.desc"), sysname: "event7").description)
        if let name { description.name = name }
        let files = UmockdevDevice.files(for: description, node: node)
        let config = try directory.write("c.json5", "{ screen: { width: 1280, height: 800 }, views: [{ id: \"root\" }] }")
        let umockdev = ["-d", try directory.write("device.umockdev", files.umockdev),
                        "-i", "\(node)=" + (try directory.write("device.ioctl", files.ioctl)),
                        "-e", "\(node)=" + (try directory.write("device.events", events))]
        return try Subprocess.run("timeout", ["-s", "KILL", "30", umockdevRun] + umockdev
                                  + ["--", gestured, "calibrate", "--config", config] + arguments,
                                  environment: environment, in: directory.path, deadline: deadline(milliseconds: 40_000))
    }

    /// A session for `--display wayland`: `gestured` linked into DIR/bin (the surface is looked
    /// for beside it; as root PATH is not searched) with `surface` beside it as
    /// `gestured-surface`, and a Wayland socket DIR/run/wayland-7, which belongs to nobody
    /// (65534) when the test runs as root: the surface then runs as nobody. Returns the linked
    /// gestured, the environment, and the uid the surface runs as.
    static func session(in directory: TestEnvironment.TemporaryDirectory, surface: String) throws
        -> (gestured: String, environment: [String: String], uid: uid_t) {
        let bin = directory.path + "/bin", run = directory.path + "/run"
        chmod(directory.path, 0o755)
        mkdir(bin, 0o755); mkdir(run, 0o755)
        let linked = bin + "/gestured"
        if link(Self.gestured, linked) != 0 { try writeFile(path: linked, bytes: try readFile(path: Self.gestured)); chmod(linked, 0o755) }
        chmod(try directory.write("bin/gestured-surface", surface), 0o755)
        let socket = run + "/wayland-7"
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        _ = try withUnixSocketAddress(socket, for: "bind") { (address, length) throws(SystemError) in
            try GesturedIO.syscall("bind", path: socket, onInterrupt: .fail) { bind(fd, address, length) }
        }
        let uid: uid_t = getuid() == 0 ? 65534 : getuid()
        #expect(chown(socket, uid, getuid() == 0 ? 65534 : getgid()) == 0)
        return (linked, ["WAYLAND_DISPLAY": "wayland-7", "XDG_RUNTIME_DIR": run, "PATH": "/usr/bin:/bin"], uid)
    }

    /// A file anyone may append to (the surface may run as nobody).
    static func log(in directory: TestEnvironment.TemporaryDirectory) throws -> String {
        let log = try directory.write("surface.log", "")
        chmod(log, 0o666)
        return log
    }

    static func matrix(inJSON json: String) throws -> [Double] {
        let start = try #require(json.firstRange(of: "\"calibration\":[")).upperBound
        let end = try #require(json[start...].firstIndex(of: "]"))
        return json[start..<end].split(separator: ",").compactMap { Double($0) }
    }

    @Test func theSkewOfAPanelIsMeasuredAndPrintedWithItsRules() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate")
        let points = CalibrationTarget.allCases.map { Self.raw($0, Self.truth) }
        guard let run = try Self.calibrate(["--display", "none", "--json"], events: Self.events(points),
                                           environment: ["WAYLAND_DISPLAY": ""], in: directory) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        let matrix = try Self.matrix(inJSON: run.stdout)
        #expect(matrix.count == 6)
        // Within what rounding the touches to whole device units (1/4095) allows.
        for (got, want) in zip(matrix, Self.truth) { #expect(abs(got - want) < 0.001, "\(matrix) against \(Self.truth)") }
        #expect(run.stdout.hasPrefix("{\"device\":\"gestured synthetic touchscreen\",\"calibration\":["), "\(run.stdout)")
        #expect(run.stdout.contains("ATTRS{name}==\\\"gestured synthetic touchscreen (gestured)\\\", ENV{LIBINPUT_CALIBRATION_MATRIX}"))
        let prompts = run.stderr.split(separator: "\n").filter { $0.hasPrefix("touch target") }
        #expect(prompts == ["touch target 1 of 4: top left, at 12.5 % 12.5 %", "touch target 2 of 4: top right, at 87.5 % 12.5 %",
                            "touch target 3 of 4: bottom right, at 87.5 % 87.5 %", "touch target 4 of 4: bottom left, at 12.5 % 87.5 %"],
                "\(run.stderr)")
        #expect(run.stderr.contains("calibrating event7 (gestured synthetic touchscreen) on a 1280 × 800 screen"), "\(run.stderr)")
    }

    /// `--display auto` without WAYLAND_DISPLAY says why no target is shown; the text output
    /// holds the matrix, the residual, both rules and where the udev rule goes.
    @Test func withoutWaylandAutoFallsBackToPromptsAndSaysSo() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-auto")
        let points = CalibrationTarget.allCases.map { Self.raw($0, DeviceGeometry.identityCalibration) }
        guard let run = try Self.calibrate([], events: Self.events(points), environment: ["WAYLAND_DISPLAY": ""],
                                           in: directory) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        #expect(run.stderr.contains("--display auto: WAYLAND_DISPLAY is not set, so no target is shown on the screen"), "\(run.stderr)")
        #expect(run.stdout.contains("touch target 4 of 4: bottom left, at 12.5 % 87.5 %\n"), "\(run.stdout)")
        // The touches are rounded to whole units and moved by 2: the identity within 0.1 %.
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("calibration: ") })
        let matrix = line.dropFirst(13).split(separator: " ").compactMap { Double($0) }
        #expect(matrix.count == 6)
        for (got, want) in zip(matrix, DeviceGeometry.identityCalibration) { #expect(abs(got - want) < 0.001, "\(line)") }
        #expect(run.stdout.contains("\nresidual: 0.0 points (limit 30.2 on a 1280 × 800 screen)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("install as\n/etc/udev/rules.d/99-gestured-calibration.rules, then run `udevadm control --reload"),
                "\(run.stdout)")
        #expect(run.stdout.contains("{ match: { name: \"gestured synthetic touchscreen\" }, calibration: [1.0"), "\(run.stdout)")
    }

    /// A far-off touch in the first round: refused, the four asked again; the replay's second
    /// round is good.
    @Test func aFarOffTouchIsAskedAgainOnTheCommandLine() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-far")
        var points = CalibrationTarget.allCases.map { Self.raw($0, Self.truth) }
        let good = points
        points[2].0 -= 800
        guard let run = try Self.calibrate(["--display", "none", "--json"], events: Self.events(points + good),
                                           in: directory) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        #expect(run.stderr.contains("refused: a touch was far off its target"), "\(run.stderr)")
        #expect(run.stderr.contains("touch target 1 of 4: top left, at 12.5 % 12.5 % (round 2 of 3)"), "\(run.stderr)")
        for (got, want) in zip(try Self.matrix(inJSON: run.stdout), Self.truth) { #expect(abs(got - want) < 0.001) }
    }

    /// `--display wayland` with a fake `gestured-surface` beside gestured: one process per target
    /// with its crosshair, the surface's `ready` size used for the residual, its touch lines read
    /// and dropped. As root, each runs as the Wayland socket's owner with WAYLAND_DISPLAY and
    /// XDG_RUNTIME_DIR alone (issue #44 item 4).
    @Test func theWaylandDisplayStartsTheSurfaceForEachTarget() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-wayland")
        let log = try Self.log(in: directory)
        let (gestured, environment, uid) = try Self.session(in: directory, surface: """
            #!/bin/sh
            echo "$(id -u):$(id -g):$(id -G) $WAYLAND_DISPLAY $* $(env | grep -c =)" >> \(log)
            echo "ready 1920 1080"
            echo "down 0 10 10"
            echo "frame"
            echo "up 0"
            while read -r line; do :; done
            """)
        let points = CalibrationTarget.allCases.map { Self.raw($0, Self.truth) }
        guard let run = try Self.calibrate(["--display", "wayland", "--json"], events: Self.events(points),
                                           environment: environment, in: directory, gestured: gestured) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        #expect(run.stdout.contains("\"screen\":{\"width\":1920,\"height\":1080}"), "\(run.stdout)")
        let lines = try readTextFile(path: log).split(separator: "\n")
        let ids = getuid() == 0 ? "65534:65534:65534" : "\(getuid()):\(getgid()):"
        let crosshairs = ["0.125,0.125", "0.875,0.125", "0.875,0.875", "0.125,0.875"]
        #expect(lines.count == 4)
        for (line, crosshair) in zip(lines, crosshairs) {
            #expect(line.hasPrefix("\(ids)") && line.contains(" wayland-7 --crosshair \(crosshair) "), "\(line)")
            // As root: WAYLAND_DISPLAY, XDG_RUNTIME_DIR, and the PWD the shell sets.
            if getuid() == 0 { #expect(line.hasSuffix(" 3"), "\(line)") }
        }
        #expect(uid == (getuid() == 0 ? 65534 : getuid()))
        #expect(run.stderr.contains("calibrating event7 (gestured synthetic touchscreen) on a 1920 × 1080 screen"), "\(run.stderr)")
    }

    /// A surface that ignores both ends of the interface (end of stdin, SIGTERM) is killed
    /// after `CrosshairSurface.exitTimeout` instead of hanging the command (which waited for it
    /// forever before): the four targets still come and go, and no surface outlives the command.
    /// (`sleep`, not `tail -f`: GNU tail exits by itself once its output pipe is closed.)
    @Test func aSurfaceThatWillNotEndIsKilled() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-stubborn")
        let log = try Self.log(in: directory)
        let (gestured, environment, _) = try Self.session(in: directory, surface: """
            #!/bin/sh
            trap '' TERM
            echo "$$" >> \(log)
            echo "ready 800 480"
            exec sleep 1000 </dev/null
            """)
        let points = CalibrationTarget.allCases.map { Self.raw($0, Self.truth) }
        guard let run = try Self.calibrate(["--display", "wayland", "--json"], events: Self.events(points),
                                           environment: environment, in: directory, gestured: gestured) else { return }
        #expect(run.termination == .exited(0), "\(run.stderr)")
        #expect(run.stdout.contains("\"screen\":{\"width\":800,\"height\":480}"), "\(run.stdout)")
        let pids = try readTextFile(path: log).split(separator: "\n").compactMap { pid_t($0) }
        #expect(pids.count == 4)
        for pid in pids { #expect(kill(pid, 0) == -1 && errno == ESRCH, "surface \(pid) still runs") }
    }

    /// As root, a gestured-surface on PATH is never run (PATH is the caller's to set), and
    /// without the Wayland socket the surface is not started (it would run as root). As a user,
    /// PATH is searched first.
    @Test func asRootPATHIsNotSearchedAndTheSocketIsRequired() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-rootpath")
        let log = try Self.log(in: directory)
        let (linked, environment, _) = try Self.session(in: directory, surface: "#!/bin/sh\necho ran >> \(log)\necho 'ready 800 480'\n")
        var onPath = environment
        onPath["PATH"] = directory.path + "/bin:/usr/bin:/bin"
        guard let run = try Self.calibrate(["--display", "wayland"], events: Self.events([]), environment: onPath, in: directory,
                                           gestured: try Self.alone(in: directory)) else { return }
        #expect(run.termination == .exited(1))
        if getuid() == 0 {
            #expect(run.stderr.contains("--display wayland needs gestured-surface, found neither on PATH (not searched as root) "
                                        + "nor beside gestured nor in /usr/libexec/gestured"), "\(run.stderr)")
            #expect(try readTextFile(path: log) == "")
        } else {
            #expect(try readTextFile(path: log) == "ran\n")
        }
        // The socket's owner is whom the surface runs as; without one, root starts none.
        guard getuid() == 0 else { return }
        var noSocket = environment
        noSocket["XDG_RUNTIME_DIR"] = directory.path
        guard let refused = try Self.calibrate(["--display", "wayland"], events: Self.events([]), environment: noSocket, in: directory,
                                               gestured: linked) else { return }
        #expect(refused.termination == .exited(1))
        #expect(refused.stderr.contains("--display wayland: as root, gestured-surface runs as the owner of the Wayland socket, and "
                                        + "\(directory.path)/wayland-7 is no socket"), "\(refused.stderr)")
        #expect(try readTextFile(path: log) == "")
    }

    /// gestured linked alone into DIR/alone: no surface beside it.
    static func alone(in directory: TestEnvironment.TemporaryDirectory) throws -> String {
        let alone = directory.path + "/alone"
        mkdir(alone, 0o755)
        chmod(directory.path, 0o755)
        if link(Self.gestured, alone + "/gestured") != 0 {
            try writeFile(path: alone + "/gestured", bytes: try readFile(path: Self.gestured)); chmod(alone + "/gestured", 0o755)
        }
        return alone + "/gestured"
    }

    @Test func waylandAskedForWithoutASurfaceIsRefusedClearly() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-calibrate-nosurface")
        guard let run = try Self.calibrate(["--display", "wayland"], events: Self.events([]),
                                           environment: ["WAYLAND_DISPLAY": "wayland-7", "PATH": "/usr/bin:/bin"],
                                           in: directory, gestured: try Self.alone(in: directory)) else { return }
        #expect(run.termination == .exited(1))
        #expect(run.stderr.contains("--display wayland needs gestured-surface, found neither on PATH (not searched as root) "
                                    + "nor beside gestured nor in /usr/libexec/gestured"), "\(run.stderr)")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
