import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

// What every check of the systemd guest uses: the report lines, commands, unit properties, the
// journal, the socket, taps on the emulated panel. No check sleeps: each waits for its event with
// a deadline (a journal line, a unit state, a file, a udev device).

let socketPath = "/run/gestured/gestured.sock"
let configPath = "/etc/gestured/gestured.json5"
let touchscreenName = "gestured vm touchscreen"
let cloneName = touchscreenName + " (gestured)"
/// Where `gestured-vm systemd-test` puts this program, the panel's description and the packages.
let data = "/usr/local/libexec/gestured-vm"

extension String {
    var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

@MainActor enum Tally {
    static var passed = 0, failed = 0
    /// When the previous check ended: each line says how long its check took (under TCG
    /// emulation, so for finding the slow steps, not as a measure of the daemon).
    static var last = MonotonicClock.now()
}

@MainActor func report(_ name: String, _ ok: Bool, _ detail: String) {
    if ok { Tally.passed += 1 } else { Tally.failed += 1 }
    let now = MonotonicClock.now()
    let seconds = LineEncoder.fixed(Double((now - Tally.last).microseconds) / 1e6, decimals: 1)
    Tally.last = now
    say("VM-SYSTEMD \(ok ? "PASS" : "FAIL") \(name) [\(seconds) s]: \(detail)")
}

func skip(_ name: String, _ why: String) { say("VM-SYSTEMD SKIP \(name): \(why)") }

@MainActor func finish() -> Never {
    say("VM-SYSTEMD summary: \(Tally.passed) passed, \(Tally.failed) failed")
    say("GESTURED-VM-EXIT \(Tally.failed)")
    exit(Tally.failed == 0 ? 0 : 1)
}

/// Runs a command to its end (at most `milliseconds`), or nil when it could not start.
func run(_ arguments: [String], environment: [String: String] = [:], milliseconds: Int64 = 30_000) -> Subprocess.Completed? {
    guard let directory = try? TestEnvironment.TemporaryDirectory(prefix: "gestured-vm-check") else { return nil }
    return try? Subprocess.run(arguments[0], Array(arguments.dropFirst()), environment: environment, in: directory.path,
                               deadline: deadline(milliseconds: milliseconds))
}

/// `apt-get` as an administrator runs it on a target without network: no questions, the
/// packages given as files.
func apt(_ arguments: [String]) -> Subprocess.Completed? {
    run(["apt-get", "-y", "-q", "--no-install-recommends"] + arguments,
        environment: ["DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], milliseconds: 300_000)
}

/// `dpkg` itself, which apt runs underneath (`--unpack`, `--configure`, `--remove`, `--purge`),
/// without apt's own start (its cache, under emulation tens of seconds a call).
func dpkg(_ arguments: [String]) -> Subprocess.Completed? {
    run(["dpkg"] + arguments, environment: ["DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
        milliseconds: 300_000)
}

func outcome(_ completed: Subprocess.Completed?) -> String {
    guard let completed else { return "not run" }
    let stderr = completed.stderr.trimmed
    return completed.termination.description + (stderr.isEmpty ? "" : " " + stderr)
}

func property(_ name: String, of unit: String = "gestured.service") -> String {
    (run(["systemctl", "show", "-p", name, "--value", unit])?.stdout ?? "").trimmed
}

/// Polls `condition` until it holds or `milliseconds` pass: for states systemd reaches on its
/// own (a unit a path unit started, a restart's new process).
func eventually(milliseconds: Int64 = 20_000, _ condition: () -> Bool) -> Bool {
    let limit = deadline(milliseconds: milliseconds)
    repeat {
        if condition() { return true }
    } while MonotonicClock.now() < limit
    return false
}

/// The unit's journal of this boot (the guest reboots once: BootChecks).
func journal(_ unit: String = "gestured.service") -> String {
    run(["journalctl", "-b", "-u", unit, "-o", "cat", "--no-pager"])?.stdout ?? ""
}

/// Whether the service's journal gets `text` before the deadline. journald takes in the
/// service's stderr on its own schedule, so a line the daemon wrote may not be readable yet:
/// ask again (each `journalctl --sync` and read takes a while; no sleeping) until it is there.
func journalContains(_ text: String, unit: String = "gestured.service", milliseconds: Int64 = 10_000) -> Bool {
    eventually(milliseconds: milliseconds) {
        _ = run(["journalctl", "--sync"])
        return journal(unit).contains(text)
    }
}

func connect() -> LineClient? {
    let limit = deadline(milliseconds: 20_000)
    while MonotonicClock.now() < limit {
        if let client = try? LineClient(path: socketPath, deadline: min(limit, deadline(milliseconds: 500))),
           (try? client.readLine(deadline: deadline(milliseconds: 10_000))) == "hello version=1 daemon=gestured" {
            return client
        }
    }
    return nil
}

/// Taps the middle of the screen and returns the next gesture line.
func tap(_ screen: UinputDevice, _ client: LineClient, id: Int32) -> String? {
    func frame(_ events: [(UInt16, UInt16, Int32)]) throws {
        try screen.frame(events.map { (type: $0.0, code: $0.1, value: $0.2) })
    }
    do {
        try frame([(3, 0x2f, 0), (3, 0x39, id), (3, 0x35, 2048), (3, 0x36, 2048), (1, 0x14a, 1), (3, 0, 2048), (3, 1, 2048)])
        try frame([(3, 0x2f, 0), (3, 0x39, -1), (1, 0x14a, 0)])
    } catch { return nil }
    let limit = deadline(milliseconds: 10_000)
    while let line = try? client.readLine(deadline: limit) {
        if line.hasPrefix("gesture ") { return line }
    }
    return nil
}

/// The uinput clones of the panel that udev lists.
func clones() -> [InputDeviceInfo] {
    ((try? UdevEnumerator.inputDevices()) ?? []).filter { $0.name == cloneName }
}

/// A line of /proc/PID/status (`Groups:`, `Uid:`) split into its values.
func status(_ pid: String, _ field: String) -> [String] {
    let text = (try? readTextFile(path: "/proc/\(pid)/status")) ?? ""
    return text.split(separator: "\n").first { $0.hasPrefix(field + ":") }?
        .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().map(String.init) ?? []
}

/// The gid of a group in /etc/group, or "?".
func gid(_ group: String) -> String {
    ((try? readTextFile(path: "/etc/group")) ?? "").split(separator: "\n")
        .first { $0.hasPrefix(group + ":") }?.split(separator: ":", omittingEmptySubsequences: false).dropFirst(2).first
        .map(String.init) ?? "?"
}

func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
}

/// The inode of the file at `path` (following links), or nil.
func inode(_ path: String) -> UInt? {
    var status = stat()
    return stat(path, &status) == 0 ? UInt(status.st_ino) : nil
}

/// Writes the configuration file as an administrator would.
@MainActor func configure(_ text: String, _ check: String) {
    do { try TestEnvironment.writeFile(path: configPath, text) } catch { report(check, false, "writing \(configPath): \(error)") }
}
