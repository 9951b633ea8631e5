import GesturedIO
import GesturedTestSupport
import Glibc

/// The idle figure with every kiosk feature configured and in force (issue 35): idle
/// thresholds, the power source and its wake action, an unlock gesture, and the daemon told
/// `screen off` and `lock 3600` before the count. The lock's end and the idle thresholds are
/// deadlines far beyond the 10 s counted, so an idle daemon must still never wake.
enum KioskIdleBenchmark {
    /// The kiosk keys added to the 256-view configuration of the plain idle figure.
    static let kioskKeys = """
        idle: [60, 300, 3600],
          power: { source: "socket", wakeTouch: "claim", wakeAction: { run: ["/bin/true"], timeout: 5 } },
          lock: { unlockGesture: { id: "unlock", type: "longPress", minimumPressDuration: 3 },
                  unlockFrame: { x: 0, y: 0, width: 120, height: 120 } },
        """

    static func run(_ gestured: String, scratch: String, log: (String) -> Void) throws -> Figure {
        let config = scratch + "/kiosk-256-views.json5"
        var text = DaemonBenchmarks.configurationText(views: 256)
        text.insert(contentsOf: "\n  " + kioskKeys + "\n  ", at: text.index(after: text.startIndex))
        try TestEnvironment.writeFile(path: config, text)
        let socket = scratch + "/kiosk-idle.sock"
        let daemon = try Subprocess(gestured, ["run", "--socket", socket, "--config", config], stdout: .discard, stderr: .discard)
        defer {
            daemon.send(signal: SIGTERM)
            _ = try? daemon.wait(deadline: deadline(milliseconds: 5_000))
        }
        let clients = try DaemonBenchmarks.connectClients(8, socket: socket)
        // The daemon's own user may control it: the screen off (the next touch would be a
        // claimed wake) and locked for an hour.
        for request in ["screen off", "lock 3600"] {
            try clients[0].send(line: request)
            let answer = try clients[0].readLine(deadline: deadline(milliseconds: 5_000)) ?? ""
            guard answer.hasPrefix("ok ") else { throw BenchError("\(request): \(answer)") }
        }
        let before = DaemonBenchmarks.status(daemon.pid)
        log("  idle, every kiosk feature configured, screen off and locked: 10 s with 8 clients…")
        usleep(10_000_000)   // the measurement window itself: the figure is wake-ups in these 10 s
        let after = DaemonBenchmarks.status(daemon.pid)
        var wakeups = Figure(name: "idle wake-ups in 10 s, kiosk policy configured (voluntary context switches)", unit: "switches",
                             samples: [Double(after["voluntary_ctxt_switches"]! - before["voluntary_ctxt_switches"]!)])
        wakeups.target = "0"; wakeups.met = wakeups.median == 0
        wakeups.note = "idle [60, 300, 3600], power + wakeAction, unlockGesture; screen off, lock 3600"
        log("  idle with the kiosk policy: \(Int(wakeups.median)) wake-ups")
        withExtendedLifetime(clients) {}   // connected through the window
        return wakeups
    }
}
