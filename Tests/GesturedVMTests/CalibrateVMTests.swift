import GesturedCalibration
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured calibrate` against a real kernel and udevd (docs/KIOSK.md, "Calibration"): a
/// uinput panel whose touches land by a known affine skew; the command's prompts are read and
/// each target's skewed touch injected; the recovered matrix is compared with the true one; the
/// printed udev rule is installed, and `libinput debug-events` reports the same touches where
/// the targets were.
///
/// The guest's udevd runs from the initramfs, whose `/etc` the tests' chroot cannot reach; it
/// reads `/run/udev/rules.d` too (udev's runtime rules folder, the same rules with the same
/// meaning), and `/run` is the guest's own, bound into the chroot. So the rule file calibrate
/// prints is installed there under its own name, and the reload command calibrate prints runs
/// unchanged.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct CalibrateVMTests {
    static let panelName = "gestured vm calibration panel"
    /// A rotation of 3°, scales 1.04 and 0.97, an offset of −3 % and +2 % of the range.
    static let truth: [Double] = {
        let r = 3.0 * Double.pi / 180
        return [1.04 * cos(r), -1.04 * sin(r), -0.03, 0.97 * sin(r), 0.97 * cos(r), 0.02]
    }()

    /// Where the skewed panel reports a touch on `target` (0…4095 axes).
    static func raw(_ target: CalibrationTarget) -> (x: Int32, y: Int32) {
        let m = truth
        let det = m[0] * m[4] - m[1] * m[3]
        let u = target.point.x - m[2], v = target.point.y - m[5]
        let x = (m[4] * u - m[1] * v) / det, y = (m[0] * v - m[3] * u) / det
        return (Int32((x * 4095).rounded()), Int32((y * 4095).rounded()))
    }

    static func touch(_ panel: UinputDevice, _ target: CalibrationTarget, id: Int32) throws {
        let p = raw(target)
        try panel.frame(Touch.down(id: id, x: p.x, y: p.y))
        try panel.frame(Touch.move(x: p.x + 1, y: p.y))
        try panel.frame(Touch.up())
    }

    @Test func theMeasuredMatrixIsTheSkewAndItsUdevRuleMakesLibinputPutTouchesOnTheTargets() throws {
        let panel = try UinputDevice(try VMGuest.syntheticTouchscreen(), name: Self.panelName, udevDeadline: deadline(milliseconds: 20_000))
        defer { panel.destroy() }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-vm-calibrate")
        let config = try directory.write("c.json5", "{ screen: { width: 1280, height: 800 }, views: [{ id: \"root\" }] }")
        let prompts = try LineFIFO(path: directory.path + "/stderr.fifo")
        let stdout = directory.path + "/stdout"
        let calibrate = try Subprocess(VMGuest.gestured, ["calibrate", "--config", config, "--device", Self.panelName,
                                                          "--display", "none", "--json"],
                                       stdout: .file(stdout), stderr: .file(prompts.path))
        var said: [String] = []
        var id: Int32 = 1
        while let line = try prompts.line(within: 20_000) {
            said.append(line)
            guard line.hasPrefix("touch target ") else { continue }
            let number = try #require(Int(line.dropFirst("touch target ".count).prefix { $0 != " " }), "\(line)")
            try Self.touch(panel, CalibrationTarget(rawValue: number - 1)!, id: id)
            id += 1
        }
        let (termination, timedOut) = try #require(try calibrate.wait(deadline: deadline(milliseconds: 10_000)))
        let json = try readTextFile(path: stdout)
        try #require(!timedOut && termination == .exited(0), "\(said)")
        #expect(said.filter { $0.hasPrefix("touch target ") }.count == 4, "\(said)")

        // The matrix, against the truth: within 0.5 % of the panel's range, element by element
        // and where it puts the panel's corners.
        let start = try #require(json.firstRange(of: "\"calibration\":[")).upperBound
        let matrix = json[start...].prefix { $0 != "]" }.split(separator: ",").compactMap { Double($0) }
        try #require(matrix.count == 6, "\(json)")
        print("calibrate: true matrix \(Self.truth.map(CalibrationReport.number))")
        print("calibrate: measured    \(matrix.map(CalibrationReport.number))")
        for (got, want) in zip(matrix, Self.truth) { #expect(abs(got - want) < 0.005, "\(matrix) against \(Self.truth)") }
        for (x, y) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
            let dx = (matrix[0] - Self.truth[0]) * x + (matrix[1] - Self.truth[1]) * y + matrix[2] - Self.truth[2]
            let dy = (matrix[3] - Self.truth[3]) * x + (matrix[4] - Self.truth[4]) * y + matrix[5] - Self.truth[5]
            #expect(abs(dx) < 0.005 && abs(dy) < 0.005, "corner \(x),\(y): off by \(dx), \(dy)")
        }

        // The printed udev rule, installed; the printed reload; udev's `change` of the panel.
        let ruleStart = try #require(json.firstRange(of: "\"udevRule\":\"")).upperBound
        let ruleEnd = try #require(json.firstRange(of: "\",\"udevRuleFile\"")).lowerBound
        let rule = String(json[ruleStart..<ruleEnd]).replacing("\\n", with: "\n").replacing("\\\"", with: "\"")
        try #require(rule.contains("ATTRS{name}==\"\(Self.panelName)\", ENV{LIBINPUT_CALIBRATION_MATRIX}="), "\(rule)")
        mkdir("/run/udev/rules.d", 0o755)
        let rulePath = "/run/udev/rules.d/" + CalibrationReport.udevRulePath.split(separator: "/").last!
        try TestEnvironment.writeFile(path: rulePath, rule)
        defer { unlink(rulePath) }
        // udevadm ignores every request when it finds itself in a chroot ("Running in chroot,
        // ignoring request"), as the tests run here; systemd's SYSTEMD_IGNORE_CHROOT=1 lifts
        // that, and the guest's udevd (outside the chroot) is the one the commands reach.
        let udevadm = ["SYSTEMD_IGNORE_CHROOT": "1"]
        let reload = try Subprocess.run("/bin/sh", ["-c", CalibrationReport.udevReload], environment: udevadm, in: directory.path,
                                        deadline: deadline(milliseconds: 20_000))
        try #require(reload.termination == .exited(0), "\(reload.stderr)")
        // udevd has processed the triggered `change` events once its queue is empty.
        let settle = try Subprocess.run("udevadm", ["settle", "--timeout=30"], environment: udevadm, in: directory.path,
                                        deadline: deadline(milliseconds: 40_000))
        try #require(settle.termination == .exited(0), "\(settle.stderr)")
        let info = try Subprocess.run("udevadm", ["info", "--query=property", "--name=" + panel.devnode], environment: udevadm, in: directory.path,
                                      deadline: deadline(milliseconds: 10_000))
        let triggered = try Subprocess.run("udevadm", ["trigger", "--dry-run", "--verbose", "--subsystem-match=input"],
                                           environment: udevadm, in: directory.path, deadline: deadline(milliseconds: 10_000))
        try #require(info.stdout.contains("LIBINPUT_CALIBRATION_MATRIX=\(matrixText(rule))"),
                     "\(info.stdout)\ntrigger would touch: \(triggered.stdout)\(triggered.stderr)\nrule:\n\(rule)")

        // libinput, as every compositor reads the panel: each target's skewed touch lands on it.
        let libinput = try LibinputEvents(node: panel.devnode, in: directory)
        defer { libinput.stop() }
        try #require(try libinput.lines(until: { $0.contains("DEVICE_ADDED") }) != nil, "libinput never listed the panel")
        for target in CalibrationTarget.allCases {
            try Self.touch(panel, target, id: id)
            id += 1
            let lines = try #require(try libinput.lines(until: { _ in false }, stopOn: "TOUCH_UP"), "no TOUCH_UP")
            let down = try #require(lines.first { $0.contains("TOUCH_DOWN") }, "\(lines)")
            // "… TOUCH_DOWN  +0.000s	0 (0) 12.50/12.50 (…mm)": percent of the screen.
            let pair = try #require(down.split(separator: " ").first { $0.contains("/") && !$0.contains("mm") }, "\(down)")
            let xy = pair.split(separator: "/").compactMap { Double($0) }
            try #require(xy.count == 2, "\(down)")
            print("calibrate: libinput puts the \(target) touch at \(xy[0]) % \(xy[1]) % (target \(target.point.x * 100) % \(target.point.y * 100) %)")
            #expect(abs(xy[0] - target.point.x * 100) < 0.5 && abs(xy[1] - target.point.y * 100) < 0.5, "\(target): \(down)")
        }
    }
}

extension CalibrateVMTests {
    /// The daemon grabs the panel (`grab: true`, as `passThrough` does): calibrate's own grab
    /// fails with EBUSY and it refuses, naming what to run, before showing any target; the
    /// daemon keeps the panel and recognizes the next tap.
    @Test func aPanelTheDaemonHoldsIsRefusedWithTheCommandsToRun() throws {
        let panel = try UinputDevice(try VMGuest.syntheticTouchscreen(), name: Self.panelName, udevDeadline: deadline(milliseconds: 20_000))
        defer { panel.destroy() }
        let daemon = try VMDaemon(config: """
            { screen: { width: 1000, height: 1000 },
              devices: [ { match: { name: "\(Self.panelName)" }, grab: true } ],
              views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
            """)
        let client = try daemon.connect()
        let run = try Subprocess.run(VMGuest.gestured, ["calibrate", "--config", daemon.configPath, "--display", "none"],
                                     in: daemon.directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(run.termination == .exited(1), "\(run.stderr)")
        #expect(run.stderr.contains("\(panel.sysname) (\(Self.panelName)): another program holds it exclusively (EVIOCGRAB: EBUSY)"),
                "\(run.stderr)")
        #expect(run.stderr.contains("stop the daemon for the measurement (`sudo systemctl stop gestured.socket gestured.service`), "
                                    + "run calibrate again, then `sudo systemctl start gestured.socket gestured.service`"), "\(run.stderr)")
        #expect(!run.stdout.contains("touch target"), "\(run.stdout)")
        try Touch.tap(on: panel, id: 1)
        let tap = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }), "stderr:\n\(daemon.log)")
        #expect(tap.last?.text.hasPrefix("gesture tap ended tap view=root device=\(panel.sysname) ") == true)
        try daemon.stop()
    }
}

/// A FIFO a child writes lines to, read here with a deadline per line.
final class LineFIFO {
    let path: String
    private var fd: FileDescriptor?
    private var pending: [UInt8] = []
    private var ended = false

    init(path: String) throws {
        self.path = path
        guard mkfifo(path, 0o600) == 0 else { throw SystemError(operation: "mkfifo", path: path, errno: .current) }
        fd = try FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK)
    }

    deinit { try? fd?.close() }

    /// The next line; nil once the writer has closed it (and everything was read) or after
    /// `milliseconds` without one.
    func line(within milliseconds: Int64) throws -> String? {
        let limit = deadline(milliseconds: milliseconds)
        var opened = false
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            guard !ended, let fd else { return nil }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else { return nil }
            var pollFD = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(min(left, 100)))
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd.rawValue, &buffer, buffer.count)
            if n > 0 { pending += buffer[..<n]; opened = true; continue }
            // A FIFO reads 0 before its writer opens it too: the end is a hang-up once the
            // writer has written.
            if n == 0 && pollFD.revents & Int16(POLLHUP) != 0 && opened { ended = true }
        }
    }
}

/// The matrix text of the first `ENV{LIBINPUT_CALIBRATION_MATRIX}="…"` of a rule.
private func matrixText(_ rule: String) -> String {
    guard let start = rule.firstRange(of: "LIBINPUT_CALIBRATION_MATRIX}=\"")?.upperBound else { return "?" }
    return String(rule[start...].prefix { $0 != "\"" })
}
