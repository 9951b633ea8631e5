import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

// The installed service under systemd: who it runs as, reload, the uinput grant both ways,
// restart after a crash, the watchdog, socket activation, a clear stop on an invalid
// configuration, and admin actions through gestured-action@.path.

/// A configuration whose only gesture is a tap named `name`, on the whole screen; `extra` goes
/// into the tap (an action) and `devices` is the top-level rule list.
func tapConfiguration(_ name: String, devices: String = "", extra: String = "") -> String {
    """
    // local edit: \(name)
    { \(devices.isEmpty ? "" : "devices: [ \(devices) ],")
      views: [ { id: "root", gestures: [ { id: "\(name)", type: "tap"\(extra.isEmpty ? "" : ", " + extra) } ] } ] }

    """
}

let passThroughRule = "{ match: { name: \"\(touchscreenName)\" }, passThrough: true }"

/// The service's process: a dynamic user with the input group and, unless `uinput`, without
/// gestured-uinput; `DeviceAllow=` with /dev/uinput exactly when `uinput`.
@MainActor func checkIdentity(uinput: Bool, _ name: String) {
    let pid = property("MainPID")
    let uid = status(pid, "Uid").first ?? "?"
    let groups = status(pid, "Groups")
    let allowed = property("DeviceAllow").split(separator: "\n").joined(separator: ", ")
    let dynamic = Int(uid).map { (61184...65519).contains($0) } ?? false
    let granted = groups.contains(gid("gestured-uinput")) && allowed.contains("/dev/uinput")
    let denied = !groups.contains(gid("gestured-uinput")) && !allowed.contains("/dev/uinput")
    report(name, dynamic && groups.contains(gid("input")) && (uinput ? granted : denied),
           "MainPID \(pid), uid \(uid), groups \(groups) (input \(gid("input")), gestured-uinput \(gid("gestured-uinput"))); "
           + "DeviceAllow=\(allowed)")
}

/// `systemctl reload` applies a new configuration to the running daemon. The SIGHUP and the
/// next tap race inside the daemon, so up to five taps, each awaited.
@MainActor func checkReload(_ screen: UinputDevice, _ client: LineClient, firstTap: Int32) {
    configure(tapConfiguration("reloaded"), "systemctl reload reloads")
    let reload = run(["systemctl", "reload", "gestured.service"])
    var line: String?
    for attempt in firstTap..<(firstTap + 5) {
        line = tap(screen, client, id: attempt)
        if line?.hasPrefix("gesture tap ended reloaded ") == true { break }
    }
    let reloaded = journalContains("configuration reloaded")
    report("systemctl reload reloads", reload?.termination == .exited(0) && line?.hasPrefix("gesture tap ended reloaded ") == true && reloaded,
           "systemctl reload: \(outcome(reload)); \(line ?? "no gesture line"); journal has \"configuration reloaded\": \(reloaded)")
}

/// Without passThrough the service has no access to /dev/uinput; a configuration that gains it
/// is read without grabbing and the daemon says what to run; after that the clone appears.
/// Returns the clone as udev lists it.
@MainActor func checkUinputGrant() -> InputDeviceInfo? {
    checkIdentity(uinput: false, "without passThrough: a dynamic user with the input group, no uinput")
    configure(tapConfiguration("reloaded", devices: passThroughRule), "passThrough without the grant")
    let reload = run(["systemctl", "reload", "gestured.service"])
    let advice = "passThrough: cannot open /dev/uinput: permission denied"
    let told = journalContains(advice) && journal().contains("run `systemctl daemon-reload && systemctl restart gestured`")
    report("passThrough without the grant: read without grabbing, and the log says what to run",
           reload?.termination == .exited(0) && told && clones().isEmpty,
           "journal has the advice: \(told); clones: \(clones().map(\.sysname))\(told ? "" : "; journal:\n" + journal())")

    let daemonReload = run(["systemctl", "daemon-reload"]), restart = run(["systemctl", "restart", "gestured.service"])
    checkIdentity(uinput: true, "after daemon-reload with passThrough: the generator grants uinput")
    let created = journalContains("passThrough: created \"\(cloneName)\"")
    var found: [InputDeviceInfo] = []
    let one = eventually { found = clones(); return found.count == 1 }
    let node = run(["stat", "-c", "%G %a", "/dev/uinput"])?.stdout.trimmed ?? "?"
    report("passThrough: the service creates the clone", daemonReload?.termination == .exited(0) && restart?.termination == .exited(0)
           && created && one,
           "restart: \(outcome(restart)); journal has the clone: \(created); udev lists \(found.map { "\($0.sysname) \($0.name)" }); "
           + "/dev/uinput group and mode: \(node)\(created ? "" : "; journal:\n" + journal())")
    return found.first
}

/// The clone's guard (`gestured clone-guard`, CloneGuard) runs beside the daemon, in the
/// service's cgroup and sandbox.
@MainActor func checkGuardRuns() {
    let procs = (try? readTextFile(path: "/sys/fs/cgroup/system.slice/gestured.service/cgroup.procs")) ?? ""
    let guards = procs.split(separator: "\n").filter { pid in
        ((try? readTextFile(path: "/proc/\(pid)/cmdline")) ?? "").contains("clone-guard")
    }
    report("passThrough: the clone's guard runs in the service", guards.count == 1,
           "processes of gestured.service: \(procs.split(separator: "\n").joined(separator: " ")); guards: \(guards)")
}

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

/// Restart=on-failure: SIGKILL is a failure; systemd starts it again, it serves again, and the
/// restarted daemon clones the panel again (the kernel removed the killed one's clone). A finger
/// down at the kill is lifted on the clone by its guard before the clone goes (the default
/// cancelStyle, "lift"), so the application is left holding nothing.
@MainActor func checkCrashRestart(_ screen: UinputDevice, _ client: LineClient, firstClone: InputDeviceInfo?) {
    let liftCheck = "passThrough: after SIGKILL the guard lifts the finger on the clone"
    let trackingID = UInt16(0x39)
    func frame(_ events: [(UInt16, UInt16, Int32)]) {
        try? screen.frame(events.map { (type: $0.0, code: $0.1, value: $0.2) })
    }
    let reader = firstClone.flatMap { try? EvdevDevice(path: $0.devnode) }
    var fingerDown = false
    if let reader {
        frame([(3, 0x2f, 0), (3, 0x39, 900), (3, 0x35, 1000), (3, 0x36, 1000), (1, 0x14a, 1)])
        let down = readClone(reader) { $0.contains { $0.code == trackingID && $0.value >= 0 } }
        fingerDown = down.events.contains { $0.code == trackingID && $0.value >= 0 }
        if !fingerDown { report(liftCheck, false, "the finger never reached the clone: \(down.events)") }
    }
    let mainPID = property("MainPID")
    let restartsBefore = Int(property("NRestarts")) ?? -1
    kill(pid_t(mainPID) ?? 0, SIGKILL)
    if let reader {
        if fingerDown {
            let end = readClone(reader) { _ in false }
            report(liftCheck, end.gone && end.events.contains { $0.code == trackingID && $0.value == -1 },
                   "the clone went: \(end.gone); it showed: \(end.events.map { "\($0.type) \($0.code) \($0.value)" })")
        }
        reader.close()
    } else {
        report(liftCheck, false, "cannot open the clone \(firstClone?.devnode ?? "(none)")")
    }
    frame([(3, 0x2f, 0), (3, 0x39, -1), (1, 0x14a, 0)])
    let closed = (try? client.waitForEndOfFile(deadline: deadline(milliseconds: 10_000))) ?? false
    let again = connect()
    let restartsAfter = Int(property("NRestarts")) ?? -1
    report("Restart=on-failure after SIGKILL", closed && again != nil && restartsAfter == restartsBefore + 1 && property("MainPID") != mainPID,
           "connection closed: \(closed), served again: \(again != nil), NRestarts \(restartsBefore) → \(restartsAfter)")
    var found: [InputDeviceInfo] = []
    let one = eventually { found = clones(); return found.count == 1 && found.first?.syspath != firstClone?.syspath }
    report("passThrough: after SIGKILL the restarted service clones the panel again", firstClone != nil && one,
           "clone before: \(firstClone?.syspath ?? "none"); clones now: \(found.map(\.syspath))")
}

/// With WatchdogSec=2s (a runtime drop-in; the unit's 30 s would make a slow test), a daemon
/// stopped with SIGSTOP sends no WATCHDOG=1, so systemd aborts it and Restart= brings it back.
/// TimeoutAbortSec=2s: a stopped process never handles the SIGABRT, so SIGKILL follows.
@MainActor func checkWatchdog() {
    guard property("WatchdogUSec") != "0" && !property("WatchdogUSec").isEmpty else {
        report("the watchdog restarts a stopped daemon", false, "no WatchdogSec in the unit")
        return
    }
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
}

/// With the service stopped and only the socket listening, the first client starts the
/// service, which adopts the socket and greets it.
@MainActor func checkSocketActivation() {
    _ = run(["systemctl", "stop", "gestured.service", "gestured.socket"])
    let listening = run(["systemctl", "start", "gestured.socket"])
    let idle = property("ActiveState")
    let greeted = connect()
    let active = property("ActiveState")
    report("socket activation starts the service",
           listening?.termination == .exited(0) && idle == "inactive" && greeted != nil && active == "active",
           "socket: \(outcome(listening)); service before the client: \(idle), after: \(active); hello: \(greeted != nil)")
}

/// An invalid configuration stops the service with exit status 78 and no restart loop, with
/// the error (file, key path, line:column) in `systemctl status`; writing the file again
/// starts it through gestured.path.
@MainActor func checkInvalidConfiguration() {
    configure("{ views: [ { id: \"root\", gestures: [ { id: \"t\", type: \"tapp\" } ] } ] }\n", "an invalid configuration stops the service clearly")
    let error = run(["gestured", "check-config", configPath])?.stderr.split(separator: "\n").first.map(String.init) ?? "?"
    let restartsBefore = property("NRestarts")
    let restart = run(["systemctl", "restart", "gestured.service"])
    // Right after the exit systemd has decided: "auto-restart" would be a restart on its way.
    let state = "\(property("ActiveState"))/\(property("SubState")) \(property("Result")) status \(property("ExecMainStatus"))"
    let statusText = property("StatusText")
    let shown = run(["systemctl", "status", "--no-pager", "--lines=0", "gestured.service"])?.stdout ?? ""
    let expected = "invalid configuration, not started: " + error
    report("an invalid configuration stops the service with 78 and no restart",
           restart?.termination != .exited(0) && state == "failed/failed exit-code status 78" && property("NRestarts") == restartsBefore,
           "systemctl restart: \(outcome(restart)); \(state); NRestarts \(restartsBefore) → \(property("NRestarts"))")
    report("systemctl status shows the error with file, key path and line:column",
           error.hasPrefix(configPath + ":1:") && error.contains("views[0].gestures[0].type") && statusText == expected
           && shown.contains("Status: \"\(expected)\""),
           "StatusText=\(statusText)\n\(shown)")
    report("the journal has the error", journalContains(error), error)
    // A client must not start it into the same error again: the socket stopped with it.
    let socketStopped = eventually { property("ActiveState", of: "gestured.socket") == "inactive" }
    let refused = (try? LineClient(path: socketPath, deadline: deadline(milliseconds: 2_000))) == nil
    let invocation = property("InvocationID")
    report("the socket stops with it, so clients cannot restart it into the error",
           socketStopped && refused && !exists(socketPath) && property("InvocationID") == invocation && property("SubState") == "failed",
           "gestured.socket \(property("ActiveState", of: "gestured.socket")); \(socketPath) \(exists(socketPath) ? "exists" : "gone"); "
           + "a client connects: \(!refused); gestured.service \(property("ActiveState"))/\(property("SubState"))")

    let restartsFailed = property("NRestarts")
    configure(tapConfiguration("fixed"), "fixing the file starts the service")
    let started = eventually { property("ActiveState") == "active" && property("ActiveState", of: "gestured.socket") == "active" }
    let client = connect()
    report("fixing the file starts the service and its socket (gestured.path)",
           started && client != nil && property("NRestarts") == restartsFailed && property("InvocationID") != invocation,
           "gestured.service \(property("ActiveState")), gestured.socket \(property("ActiveState", of: "gestured.socket")); hello: \(client != nil); "
           + "gestured.path \(property("ActiveState", of: "gestured.path"))")
}

/// An action cannot start a privileged unit itself (`systemctl start` as the service's dynamic
/// user is refused), but it can ask gestured-action@.path to: `touch /run/gestured/actions/UNIT`.
@MainActor func checkAdminAction(_ screen: UinputDevice, firstTap: Int32) {
    let marker = "/run/kiosk-admin-ran"
    let unit = "[Unit]\nDescription=kiosk admin menu (test)\n[Service]\nType=oneshot\nExecStart=/usr/bin/touch \(marker)\n"
    do { try TestEnvironment.writeFile(path: "/etc/systemd/system/kiosk-admin.service", unit) } catch {
        report("an action starts a privileged unit through gestured-action@.path", false, "\(error)"); return
    }
    _ = run(["systemctl", "daemon-reload"])

    configure(tapConfiguration("direct", extra: "action: { on: \"ended\", run: [\"/bin/systemctl\", \"start\", \"kiosk-admin\"] }"),
              "an action cannot run systemctl start")
    _ = run(["systemctl", "reload", "gestured.service"])
    var client = connect()
    var line = client.flatMap { tap(screen, $0, id: firstTap) }
    let refused = eventually {
        _ = run(["journalctl", "--sync"])
        return journal().split(separator: "\n").contains { $0.contains("action direct (pid ") && $0.contains("): exit status ") && !$0.hasSuffix(": exit status 0") }
    }
    report("under the sandbox an action's own `systemctl start` is refused", line != nil && refused && !exists(marker),
           "\(line ?? "no gesture line"); \(marker) \(exists(marker) ? "exists" : "absent"); journal:\n"
           + journal().split(separator: "\n").filter { $0.contains("action direct") }.suffix(4).joined(separator: "\n"))

    let enable = run(["systemctl", "enable", "--now", "gestured-action@kiosk-admin.path"])
    configure(tapConfiguration("admin", extra: "action: { on: \"ended\", run: [\"/usr/bin/touch\", \"/run/gestured/actions/kiosk-admin\"] }"),
              "an action starts a privileged unit through gestured-action@.path")
    _ = run(["systemctl", "reload", "gestured.service"])
    client = connect()
    line = client.flatMap { tap(screen, $0, id: firstTap + 1) }
    let ran = TestEnvironment.waitForFile(marker, deadline: deadline(milliseconds: 20_000))
    let owner = run(["stat", "-c", "%u", marker])?.stdout.trimmed ?? "?"
    let consumed = eventually { !exists("/run/gestured/actions/kiosk-admin") }
    let directory = run(["stat", "-c", "uid %u, mode %a", "/run/gestured/actions"])?.stdout.trimmed ?? "?"
    report("an action starts a privileged unit through gestured-action@.path",
           enable?.termination == .exited(0) && line != nil && ran && owner == "0" && consumed,
           "enable: \(outcome(enable)); \(line ?? "no gesture line"); kiosk-admin ran as uid \(owner): \(ran); request consumed: \(consumed); "
           + "/run/gestured/actions: \(directory)")
    // The administrator's own units are not the package's: gone before the package is.
    _ = run(["systemctl", "disable", "--now", "gestured-action@kiosk-admin.path"])
    _ = run(["rm", "-f", "/etc/systemd/system/kiosk-admin.service", marker])
    _ = run(["systemctl", "daemon-reload"])
}
