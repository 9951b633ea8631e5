import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

// KIOSK.md's idle recipe from the kiosk user's side, against the installed service: a non-root
// member of the `gestured` group (`usermod -aG gestured`, as the guide says), granted only the
// `screen` right, runs `gestured ctl` and `gestured listen --exec` without --socket and with a
// per-user runtime directory that has no socket (security review 3, finding 6: they used to look
// only there); `lock` is refused naming its right (finding 5); `listen --exec` goes on after
// `systemctl restart` (issue 45). The user is `nobody` rather than a new one, so the purge check
// still finds the file system as it was (usermod's backups are sysusers' own); its membership is
// taken back at the end.

let kioskUID = "65534"
let kioskDirectory = "/run/kiosk-check"

/// Runs `arguments` as the kiosk user, with a minimal environment whose runtime directory has
/// no socket.
func asKioskUser(_ arguments: [String], milliseconds: Int64 = 30_000) -> Subprocess.Completed? {
    run(["/usr/sbin/runuser", "-u", "nobody", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin",
         "XDG_RUNTIME_DIR=/run/user/\(kioskUID)"] + arguments, milliseconds: milliseconds)
}

/// Taps until the hook has written `count` lines (the listener may not be connected yet, or
/// connected again, when a tap comes: up to five taps, each awaited by a root client).
@MainActor func tapUntilHookRan(_ screen: UinputDevice, count: Int, firstTap: Int32) -> (taps: Int, lines: [String]) {
    let output = kioskDirectory + "/hook.out"
    func lines() -> [String] { ((try? readTextFile(path: output)) ?? "").split(separator: "\n").map(String.init) }
    guard let client = connect() else { return (0, lines()) }
    for attempt in 0..<5 {
        _ = tap(screen, client, id: firstTap + Int32(attempt))
        if eventually(milliseconds: 3000, { lines().count >= count }) { return (attempt + 1, lines()) }
    }
    return (5, lines())
}

@MainActor func checkKioskUser(_ screen: UinputDevice, firstTap: Int32) {
    let joined = run(["usermod", "-aG", "gestured", "nobody"])
    _ = run(["mkdir", "-p", kioskDirectory])
    _ = run(["chown", "nobody", kioskDirectory])
    let hook = kioskDirectory + "/kiosk-hook"
    do { try TestEnvironment.writeFile(path: hook, "#!/bin/sh\necho \"$GESTURE_NAME $KIOSK_EVENT\" >> \(kioskDirectory)/hook.out\n") } catch {
        report("the kiosk user's hook", false, "\(error)"); return
    }
    _ = run(["chmod", "755", hook])
    configure("""
        // local edit: the kiosk user's hook may report the screen's power, nothing more
        { permissions: { screen: { uids: [\(kioskUID)] } },
          views: [ { id: "root", gestures: [ { id: "kiosk", type: "tap" } ] } ] }

        """, "the kiosk user's rights")
    let reload = run(["systemctl", "reload", "gestured.service"])
    _ = journalContains("configuration reloaded")

    let off = asKioskUser(["gestured", "ctl", "screen", "off"])
    let lock = asKioskUser(["gestured", "ctl", "lock", "30"])
    let on = asKioskUser(["gestured", "ctl", "screen", "on"])
    report("the kiosk user's `gestured ctl` finds the service's socket; screen only",
           joined?.termination == .exited(0) && reload?.termination == .exited(0)
               && off?.termination == .exited(0) && off?.stdout == "ok command=screen\n"
               && lock?.termination == .exited(1) && lock?.stdout.contains("lock needs the lock right") == true
               && on?.termination == .exited(0),
           "usermod: \(outcome(joined)); reload: \(outcome(reload)); screen off: \(outcome(off)) \(off?.stdout.trimmed ?? ""); "
           + "lock 30: \(outcome(lock)) \(lock?.stdout.trimmed ?? ""); screen on: \(outcome(on)) \((on?.stderr ?? "").trimmed)")

    // `gestured listen --exec` as the kiosk user's autostart runs it.
    let listen: Subprocess
    do {
        listen = try Subprocess("/usr/sbin/runuser", ["-u", "nobody", "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin",
                                                      "XDG_RUNTIME_DIR=/run/user/\(kioskUID)", "gestured", "listen", "--exec", hook],
                                stdout: .discard, stderr: .file(kioskDirectory + "/listen.err"))
    } catch {
        report("the kiosk user's `gestured listen --exec` runs its hook", false, "\(error)"); return
    }
    defer { listen.killGroup(SIGKILL); _ = try? listen.wait(deadline: deadline(milliseconds: 5000)) }
    func listenLog() -> String { (try? readTextFile(path: kioskDirectory + "/listen.err")) ?? "" }
    let before = tapUntilHookRan(screen, count: 1, firstTap: firstTap)
    report("the kiosk user's `gestured listen --exec` runs its hook", before.lines.first == "kiosk ",
           "\(before.taps) tap(s); hook: \(before.lines); listen's stderr: \(listenLog().trimmed)")

    let restart = run(["systemctl", "restart", "gestured.service"])
    let after = tapUntilHookRan(screen, count: before.lines.count + 1, firstTap: firstTap + 5)
    report("after `systemctl restart gestured` the hook still runs",
           restart?.termination == .exited(0) && after.lines.count == before.lines.count + 1 && after.lines.last == "kiosk "
               && listenLog().contains("lost the daemon at /run/gestured/gestured.sock"),
           "restart: \(outcome(restart)); \(after.taps) tap(s); hook: \(after.lines); listen's stderr: \(listenLog().trimmed)")
    _ = run(["gpasswd", "-d", "nobody", "gestured"])
    _ = run(["rm", "-rf", kioskDirectory])
}
