// gestured-vm-systemd-check: the checks of the systemd guest (`make test-vm-systemd`,
// docs/VM-TESTS.md). Runs as a oneshot unit in a Debian image booted with systemd as PID 1, with
// gestured installed by `make install` and its units as the repository has them. Test program,
// never installed on a real system.
//
// It prints one line per check, "VM-SYSTEMD PASS|FAIL|SKIP name: detail", then
// "VM-SYSTEMD summary: N passed, N failed" and "GESTURED-VM-EXIT <failed>" (the marker the host
// judges the run by; the host prints the closing "N passed, N failed" itself).
// A SKIP is a check whose subject the units do not have (READY=1 with a unit that is not
// Type=notify), named as such.
import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

let socketPath = "/run/gestured/gestured.sock"
let touchscreenName = "gestured vm touchscreen"
let data = "/usr/local/libexec/gestured-vm"
var passed = 0, failed = 0

extension String {
    var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

@MainActor func report(_ name: String, _ ok: Bool, _ detail: String) {
    if ok { passed += 1 } else { failed += 1 }
    say("VM-SYSTEMD \(ok ? "PASS" : "FAIL") \(name): \(detail)")
}

func skip(_ name: String, _ why: String) { say("VM-SYSTEMD SKIP \(name): \(why)") }

func run(_ arguments: [String]) -> Subprocess.Completed? {
    guard let directory = try? TestEnvironment.TemporaryDirectory(prefix: "gestured-vm-check") else { return nil }
    return try? Subprocess.run(arguments[0], Array(arguments.dropFirst()), in: directory.path,
                               deadline: deadline(milliseconds: 30_000))
}

func property(_ name: String, of unit: String = "gestured.service") -> String {
    (run(["systemctl", "show", "-p", name, "--value", unit])?.stdout ?? "")
        .trimmed
}

func journal() -> String { run(["journalctl", "-u", "gestured.service", "-o", "cat", "--no-pager"])?.stdout ?? "" }

/// Whether the service's journal gets `text` before the deadline. journald takes in the
/// service's stderr on its own schedule, so a line the daemon wrote may not be readable yet:
/// ask again (each `journalctl --sync` and read takes a while; no sleeping) until it is there.
func journalContains(_ text: String, milliseconds: Int64 = 10_000) -> Bool {
    let limit = deadline(milliseconds: milliseconds)
    repeat {
        _ = run(["journalctl", "--sync"])
        if journal().contains(text) { return true }
    } while MonotonicClock.now() < limit
    return false
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

@MainActor func finish() -> Never {
    say("VM-SYSTEMD summary: \(passed) passed, \(failed) failed")
    say("GESTURED-VM-EXIT \(failed)")
    exit(failed == 0 ? 0 : 1)
}

// The device exists before the service starts: the daemon enumerates at start.
let description: EvemuDescription
let screen: UinputDevice
do {
    description = try EvemuRecording.parse(try readTextFile(path: data + "/synthetic-touchscreen.desc"), sysname: "").description!
    screen = try UinputDevice(description, name: touchscreenName, udevDeadline: deadline(milliseconds: 20_000))
    report("uinput touchscreen through udevd", true, "\(screen.devnode)")
} catch {
    report("uinput touchscreen through udevd", false, "\(error)")
    finish()
}


// A known configuration in place of the installed example: one full-screen view that taps.
do {
    try TestEnvironment.writeFile(path: "/etc/gestured/gestured.json5", """
        { views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
        """)
} catch { report("write /etc/gestured/gestured.json5", false, "\(error)") }

let start = run(["systemctl", "start", "gestured.service"])
report("systemctl start gestured", start?.termination == .exited(0), "\(start?.termination.description ?? "not run") \(start?.stderr ?? "")")
guard let client = connect() else {
    report("the service serves \(socketPath)", false, "no hello; journal:\n\(journal())")
    finish()
}
report("the service serves \(socketPath)", true, "hello received")

let mainPID = property("MainPID")
let user = property("User")
let status = (try? readTextFile(path: "/proc/\(mainPID)/status")) ?? ""
let uid = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.map(String.init) ?? "?"
if property("DynamicUser") == "yes" {
    // A dynamic user is resolvable only through nss-systemd, which minbase lacks: check its uid
    // is in systemd's dynamic range (never root) and that it has the input group.
    let groups = status.split(separator: "\n").first { $0.hasPrefix("Groups:") }?
        .split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().map(String.init) ?? []
    let inputGID = ((try? readTextFile(path: "/etc/group")) ?? "").split(separator: "\n")
        .first { $0.hasPrefix("input:") }?.split(separator: ":").dropFirst(2).first.map(String.init) ?? "?"
    let dynamic = Int(uid).map { (61184...65519).contains($0) } ?? false
    report("runs as the unit's dynamic user with the input group", dynamic && groups.contains(inputGID),
           "MainPID \(mainPID), uid \(uid), groups \(groups), input is \(inputGID), User=\(user)")
} else {
    let expectedUID = user.isEmpty ? "0" : (run(["id", "-u", user])?.stdout.trimmed ?? "?")
    report("runs as the unit's user", uid == expectedUID, "MainPID \(mainPID), uid \(uid), User=\(user.isEmpty ? "(none: root)" : user)")
}

let opened = journalContains("\(screen.sysname) (\(touchscreenName)): using it")
report("reads /dev/input", opened, opened ? "\(screen.sysname) opened" : "journal:\n\(journal())")
let first = tap(screen, client, id: 1)
report("a tap reaches a client", first?.hasPrefix("gesture tap ended tap view=root device=\(screen.sysname) ") == true, first ?? "no gesture line")

if property("Type") == "notify" {
    let state = property("ActiveState")
    report("READY=1 (Type=notify, active)", state == "active", "ActiveState=\(state)")
} else {
    skip("READY=1", "the unit is Type=\(property("Type")), not notify (the systemd service issue)")
}

// Reload: a configuration whose only tap is named "reloaded", then `systemctl reload`. The
// SIGHUP and the next tap race inside the daemon, so up to five taps, each awaited.
do {
    try TestEnvironment.writeFile(path: "/etc/gestured/gestured.json5", """
        { views: [ { id: "root", gestures: [ { id: "reloaded", type: "tap" } ] } ] }
        """)
    let reload = run(["systemctl", "reload", "gestured.service"])
    var line: String?
    for attempt in 2...6 {
        line = tap(screen, client, id: Int32(attempt))
        if line?.hasPrefix("gesture tap ended reloaded ") == true { break }
    }
    let reloaded = journalContains("configuration reloaded")
    report("systemctl reload reloads", reload?.termination == .exited(0) && line?.hasPrefix("gesture tap ended reloaded ") == true && reloaded,
           "systemctl reload: \(reload?.termination.description ?? "not run") \(reload?.stderr.trimmed ?? ""); "
           + "\(line ?? "no gesture line"); journal has \"configuration reloaded\": \(reloaded)")
} catch {
    report("systemctl reload reloads", false, "\(error)")
}


/// The syspath and node of the clone the service made (checked again after the restart below).
var firstClone: String?
var firstCloneNode: String?

// Pass-through: the installed service may open /dev/uinput (DeviceAllow=, the gestured-uinput
// group of 60-gestured-uinput.rules) and creates the panel's clone, which udev then lists.
do {
    try TestEnvironment.writeFile(path: "/etc/gestured/gestured.json5", """
        { devices: [ { match: { name: "\(touchscreenName)" }, passThrough: true } ],
          views: [ { id: "root", gestures: [ { id: "reloaded", type: "tap" } ] } ] }
        """)
    let reload = run(["systemctl", "reload", "gestured.service"])
    let created = journalContains("passThrough: created \"\(touchscreenName) (gestured)\"")
    let clone = (try? UdevEnumerator.inputDevices())?.first { $0.name == touchscreenName + " (gestured)" }
    firstClone = clone?.syspath
    firstCloneNode = clone?.devnode
    let node = run(["stat", "-c", "%G %a", "/dev/uinput"])?.stdout.trimmed ?? "?"
    report("passThrough: the service creates the clone", reload?.termination == .exited(0) && created && clone != nil,
           "journal has the clone: \(created); udev lists it: \(clone.map { "\($0.sysname) \($0.name)" } ?? "no"); "
           + "/dev/uinput group and mode: \(node)\(created ? "" : "; journal:\n" + journal())")
} catch {
    report("passThrough: the service creates the clone", false, "\(error)")
}

// The clone's guard (CloneGuard) runs beside the daemon, in the service's cgroup and sandbox.
let cgroupProcs = (try? readTextFile(path: "/sys/fs/cgroup/system.slice/gestured.service/cgroup.procs")) ?? ""
let guardPIDs = cgroupProcs.split(separator: "\n").filter { pid in
    ((try? readTextFile(path: "/proc/\(pid)/cmdline")) ?? "").contains("clone-guard")
}
report("passThrough: the clone's guard runs in the service", guardPIDs.count == 1,
       "processes of gestured.service: \(cgroupProcs.split(separator: "\n").joined(separator: " ")); guards: \(guardPIDs)")

/// Reads `reader` until `done` holds for what was read, the device goes, or 10 s pass.
func readClone(_ reader: EvdevDevice, until done: ([RawEvent]) -> Bool) -> (events: [RawEvent], gone: Bool) {
    var events: [RawEvent] = []
    let limit = deadline(milliseconds: 10_000)
    while !done(events) {
        let left = (limit - MonotonicClock.now()).microseconds / 1000
        guard left > 0 else { break }
        var pollFD = pollfd(fd: reader.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&pollFD, 1, Int32(left))
        guard let status = try? reader.read(into: &events) else { return (events, true) }
        if status == .gone { return (events, true) }
    }
    return (events, false)
}

// A finger down when the daemon is killed: the guard lifts it on the clone before the clone goes
// (the default cancelStyle, "lift"), so the application is left holding nothing.
let fingerReader = firstCloneNode.flatMap { try? EvdevDevice(path: $0) }
let lift = Int32(-1), trackingID = UInt16(0x39)
if let fingerReader {
    try? screen.frame([(3, 0x2f, 0), (3, 0x39, 900), (3, 0x35, 1000), (3, 0x36, 1000), (1, 0x14a, 1)].map { (type: $0.0, code: $0.1, value: $0.2) })
    let down = readClone(fingerReader) { $0.contains { $0.code == trackingID && $0.value >= 0 } }
    if !down.events.contains(where: { $0.code == trackingID && $0.value >= 0 }) {
        report("passThrough: after SIGKILL the guard lifts the finger on the clone", false, "the finger never reached the clone: \(down.events)")
    }
}

// Restart=on-failure: SIGKILL is a failure; systemd starts it again and it serves again.
let restartsBefore = Int(property("NRestarts")) ?? -1
kill(pid_t(mainPID) ?? 0, SIGKILL)
if let fingerReader {
    let end = readClone(fingerReader) { _ in false }
    report("passThrough: after SIGKILL the guard lifts the finger on the clone",
           end.gone && end.events.contains { $0.code == trackingID && $0.value == lift },
           "the clone went: \(end.gone); it showed: \(end.events.map { "\($0.type) \($0.code) \($0.value)" })")
    fingerReader.close()
} else {
    report("passThrough: after SIGKILL the guard lifts the finger on the clone", false, "cannot open the clone \(firstCloneNode ?? "(none)")")
}
try? screen.frame([(3, 0x2f, 0), (3, 0x39, -1), (1, 0x14a, 0)].map { (type: $0.0, code: $0.1, value: $0.2) })
let closed = (try? client.waitForEndOfFile(deadline: deadline(milliseconds: 10_000))) ?? false
let again = connect()
let restartsAfter = Int(property("NRestarts")) ?? -1
report("Restart=on-failure after SIGKILL", closed && again != nil && restartsAfter == restartsBefore + 1 && property("MainPID") != mainPID,
       "connection closed: \(closed), served again: \(again != nil), NRestarts \(restartsBefore) → \(restartsAfter)")

// Fail-safe: the killed daemon's clone went with it (the kernel destroys a uinput device when its
// last descriptor closes: the guard's, once it has ended the touches); the restarted daemon,
// serving again, has grabbed the panel and made a new one.
let clones = ((try? UdevEnumerator.inputDevices()) ?? []).filter { $0.name == touchscreenName + " (gestured)" }
report("passThrough: after SIGKILL the restarted service clones the panel again",
       firstClone != nil && clones.count == 1 && clones.first?.syspath != firstClone,
       "clone before: \(firstClone ?? "none"); clones now: \(clones.map(\.syspath))")

// The watchdog: with WatchdogSec=2s (a runtime drop-in; the unit's 30 s would make a slow test),
// a daemon stopped with SIGSTOP sends no WATCHDOG=1, so systemd aborts it and Restart= brings it
// back. TimeoutAbortSec=2s: a stopped process never handles the SIGABRT, so SIGKILL follows.
if property("WatchdogUSec") != "0" && !property("WatchdogUSec").isEmpty {
    let dropIn = "/run/systemd/system/gestured.service.d"
    _ = run(["mkdir", "-p", dropIn])
    do { try TestEnvironment.writeFile(path: dropIn + "/watchdog.conf", "[Service]\nWatchdogSec=2s\nTimeoutAbortSec=2s\n") } catch {
        report("the watchdog restarts a stopped daemon", false, "\(error)")
    }
    _ = run(["systemctl", "daemon-reload"])
    _ = run(["systemctl", "restart", "gestured.service"])
    let watched = connect()
    let stoppedPID = property("MainPID")
    let before = Int(property("NRestarts")) ?? -1
    kill(pid_t(stoppedPID) ?? 0, SIGSTOP)
    let dropped = (try? watched?.waitForEndOfFile(deadline: deadline(milliseconds: 30_000))) ?? false
    let back = connect()
    let after = Int(property("NRestarts")) ?? -1
    let timedOut = journalContains("Watchdog timeout")
    report("the watchdog restarts a stopped daemon",
           dropped && back != nil && after == before + 1 && property("MainPID") != stoppedPID && timedOut,
           "WatchdogUSec=\(property("WatchdogUSec")), connection closed: \(dropped), served again: \(back != nil), "
           + "NRestarts \(before) → \(after), journal has \"Watchdog timeout\": \(timedOut)")
    _ = run(["rm", "-rf", dropIn])
    _ = run(["systemctl", "daemon-reload"])
} else {
    report("the watchdog restarts a stopped daemon", false, "no WatchdogSec in the unit")
}

// Socket activation: with the service stopped and only the socket listening, the first client
// starts the service, which adopts the socket and greets it.
if FileManager.default.fileExists(atPath: "/usr/local/lib/systemd/system/gestured.socket") {
    _ = run(["systemctl", "stop", "gestured.service", "gestured.socket"])
    let listening = run(["systemctl", "start", "gestured.socket"])
    let idle = property("ActiveState")
    let greeted = connect()
    let active = property("ActiveState")
    let adopted = journalContains("adopted") || journalContains("socket activation") || journalContains("passed")
    report("socket activation starts the service",
           listening?.termination == .exited(0) && idle == "inactive" && greeted != nil && active == "active",
           "socket: \(listening?.termination.description ?? "not run"); service before the client: \(idle), "
           + "after: \(active); hello: \(greeted != nil); journal mentions the passed socket: \(adopted)")
} else {
    report("socket activation starts the service", false, "no gestured.socket among the installed units")
}

finish()
