import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Runtime control over the socket, end to end: a kiosk app hides a view and is obeyed; a peer
/// the configuration does not allow is refused and changes nothing. The synthetic tap, played
/// once the requests are answered, lands at the screen's centre: on `button` unless it is hidden.
@Suite struct ControlEndToEndTests {
    static func config(extra: String = "") -> String {
        """
        { screen: {width: 1000, height: 1000}, \(extra)
          views: [{ id: "root", gestures: [{id: "rootTap", type: "tap"}], subviews: [
            { id: "button", frame: [400, 400, 200, 200], gestures: [{id: "buttonTap", type: "tap"}] }] }],
          layouts: { plain: { button: { isHidden: true } } } }
        """
    }

    /// Root (this test runs as root) hides the button: the touch hit-tests to root and the tap
    /// is root's. Without the hide, it would be the button's (the next test shows it).
    @Test(arguments: ["hide button", "disable button", "layout plain", "frame button 0 0 10 10"])
    func aHiddenViewStopsReceivingTouches(request: String) throws {
        guard let daemon = try RunningDaemon(config: Self.config()) else { return }
        let client = try daemon.connect()
        try client.send(line: "subscribe touches")
        try client.send(line: request)
        let command = String(request.split(separator: " ")[0])
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=subscribe")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=\(command)")
        try daemon.play()
        let touch = try #require(try daemon.firstLine(from: client, startingWith: "touch began"))
        #expect(touch.contains(" view=root "), "\(touch)")
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended rootTap view=root "), "\(tap)")
        try daemon.stop(readingRestOf: [client])
        let logged = request.split(separator: " ").prefix(2).joined(separator: " ")
        #expect(daemon.log.contains("(uid 0): \(logged)"), "\(daemon.log)")
    }

    /// Nobody (uid 65534) may connect (the config's socket mode is 0666) and listen, but its
    /// control request gets an error line naming the right it lacks and changes nothing: the tap
    /// is the button's. Another uid that the config's `control.uids` lists is obeyed (covered by
    /// the rights table, ControlRequestTests; here the refusal, which is what protects a kiosk).
    @Test func anUnauthorizedPeerIsRefused() throws {
        guard let setpriv = TestEnvironment.which("setpriv") else { Issue.record("setpriv is missing"); return }
        guard let daemon = try RunningDaemon(config: Self.config(extra: #"socket: { mode: "0666" },"#)) else { return }
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let watcher = try daemon.connect()
        #expect(try watcher.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        var status = stat()
        #expect(stat(daemon.socket, &status) == 0 && status.st_mode & 0o777 == 0o666, "socket mode from the config")
        let refused = try Subprocess.run(setpriv, ["--reuid", "65534", "--regid", "65534", "--clear-groups",
                                                   TestEnvironment.buildDirectory + "/gestured-testtool", "request",
                                                   daemon.socket, "hide button", "ping"],
                                         in: daemon.directory.path, deadline: deadline(milliseconds: 10_000))
        #expect(refused.termination == .exited(0), "\(refused.stderr)")
        let lines = refused.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "hello version=1 daemon=gestured",
            "error command=hide message=\"hide needs the views right, which uid 65534 does not hold: root, the daemon's user and the configuration's control or permissions.views uids and groups hold it\"",
            "ok command=ping",
        ])
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: watcher, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended buttonTap view=button "), "\(tap)")
        try daemon.stop(readingRestOf: [watcher])
        #expect(daemon.log.contains("hide button refused, no views right"), "\(daemon.log)")
    }

    /// Unknown views, layouts and devices are refused with a reason.
    @Test func unknownTargetsAreRefused() throws {
        guard let daemon = try RunningDaemon(config: Self.config()) else { return }
        let client = try daemon.connect()
        for request in ["hide nothing", "layout dusk", "rotate event99 90", "rotate event* 90"] { try client.send(line: request) }
        var lines: [String] = []
        for _ in 0..<5 { lines.append(try client.readLine(deadline: deadline(milliseconds: 5000)) ?? "(none)") }
        #expect(lines == [
            "hello version=1 daemon=gestured",
            "error command=hide message=\"no view 'nothing'\"",
            "error command=layout message=\"no layout 'dusk' (plain)\"",
            "error command=rotate message=\"no device matches 'event99'\"",
            "ok command=rotate",
        ])
        try daemon.stop(readingRestOf: [client])
    }

    /// Runs `gestured-testtool request` as nobody (uid 65534, no groups) against the daemon's
    /// socket: the lines it read, hello first.
    static func requestAsNobody(_ daemon: RunningDaemon, _ requests: [String]) throws -> [String] {
        guard let setpriv = TestEnvironment.which("setpriv") else { Issue.record("setpriv is missing"); return [] }
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let run = try Subprocess.run(setpriv, ["--reuid", "65534", "--regid", "65534", "--clear-groups",
                                               TestEnvironment.buildDirectory + "/gestured-testtool", "request", daemon.socket]
                                         + requests,
                                     in: daemon.directory.path, deadline: deadline(milliseconds: 10_000))
        #expect(run.termination == .exited(0), "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    static func refusal(_ command: String, _ right: String) -> String {
        "error command=\(command.split(separator: " ")[0]) message=\"\(command) needs the \(right) right, which uid 65534 does not hold: "
            + "root, the daemon's user and the configuration's control or permissions.\(right) uids and groups hold it\""
    }

    /// Rights per verb (security review 3, finding 5): a peer granted only `screen` (KIOSK.md's
    /// hook) may say the screen is off, but may not lock the panels, rotate them, change the
    /// views or read touch positions; each refusal names the right.
    @Test func aPeerWithTheScreenRightMaySendOnlyScreen() throws {
        let config = Self.config(extra: #"socket: { mode: "0666" }, permissions: { screen: { uids: [65534] } },"#)
        guard let daemon = try RunningDaemon(config: config) else { return }
        let lines = try Self.requestAsNobody(daemon, ["screen off", "lock 30", "unlock", "rotate event7 90", "hide button",
                                                      "subscribe touches", "subscribe trace", "subscribe failed", "screen on"])
        #expect(lines == [
            "hello version=1 daemon=gestured",
            "ok command=screen",
            Self.refusal("lock", "lock"),
            Self.refusal("unlock", "lock"),
            Self.refusal("rotate", "views"),
            Self.refusal("hide", "views"),
            Self.refusal("subscribe touches", "touches"),
            Self.refusal("subscribe trace", "touches"),
            "ok command=subscribe",
            "ok command=screen",
        ])
        try daemon.stop(readingRestOf: [])
        #expect(daemon.log.contains("(uid 65534): screen off"), "\(daemon.log)")
        #expect(daemon.log.contains("lock 30 refused, no lock right"), "\(daemon.log)")
        #expect(!daemon.log.contains("(uid 65534): lock"), "\(daemon.log)")
    }

    /// Touch positions are the `touches` right's (finding 5): with no `permissions` at all, a peer
    /// that may connect gets its gesture lines but not touches or traces. (Before rights per
    /// verb, anyone who could connect subscribed to both.) Root still may.
    @Test func touchesNeedTheirRight() throws {
        guard let daemon = try RunningDaemon(config: Self.config(extra: #"socket: { mode: "0666" },"#)) else { return }
        let lines = try Self.requestAsNobody(daemon, ["subscribe touches", "subscribe trace", "unsubscribe touches", "ping"])
        #expect(lines == ["hello version=1 daemon=gestured", Self.refusal("subscribe touches", "touches"),
                          Self.refusal("subscribe trace", "touches"), "ok command=unsubscribe", "ok command=ping"])
        let root = try daemon.connect()
        try root.send(line: "subscribe touches")
        #expect(try root.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try root.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=subscribe")
        try daemon.stop(readingRestOf: [root])
        #expect(daemon.log.contains("subscribe touches refused, no touches right"), "\(daemon.log)")
    }

    /// Clients find the socket without `--socket` as any user (finding 6): `$GESTURED_SOCKET`
    /// first, then the service's /run/gestured/gestured.sock when it exists, then
    /// `$XDG_RUNTIME_DIR/gestured.sock`; a client that reaches none names every path it tried.
    /// (Before, a non-root client looked only at `$XDG_RUNTIME_DIR/gestured.sock`.) The order
    /// itself is SocketLocationTests'; the system socket as a non-root user is the systemd
    /// guest's (Tests/VMSystemd, the kiosk user's hook).
    @Test func clientsFindTheSocketAsAnyUser() throws {
        guard let setpriv = TestEnvironment.which("setpriv") else { Issue.record("setpriv is missing"); return }
        guard let daemon = try RunningDaemon(config: Self.config(extra: #"socket: { mode: "0666" },"#)) else { return }
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        _ = try daemon.connect()
        func ctl(_ environment: [String], _ request: String) throws -> Subprocess.Completed {
            try Subprocess.run(setpriv, ["--reuid", "65534", "--regid", "65534", "--clear-groups", "/usr/bin/env", "-i"]
                                   + environment + [TestEnvironment.buildDirectory + "/gestured", "ctl", request],
                               in: daemon.directory.path, deadline: deadline(milliseconds: 10_000))
        }
        let found = try ctl(["GESTURED_SOCKET=\(daemon.socket)", "XDG_RUNTIME_DIR=/nonexistent"], "ping")
        #expect(found.termination == .exited(0) && found.stdout == "ok command=ping\n", "\(found.stderr)")
        let lost = try ctl(["XDG_RUNTIME_DIR=/nonexistent/run"], "ping")
        #expect(lost.termination == .exited(1))
        #expect(lost.stderr.contains("cannot reach the daemon: /run/gestured/gestured.sock"), "\(lost.stderr)")
        // Where this machine runs no service, the per-user path is tried after it.
        if access(SocketLocation.system, F_OK) != 0 {
            #expect(lost.stderr.contains("/nonexistent/run/gestured.sock ($XDG_RUNTIME_DIR): connect: "), "\(lost.stderr)")
        }
        try daemon.stop(readingRestOf: [])
    }

    /// A reload applies `permissions`: nobody's `screen off` is refused, the file grants it the
    /// `screen` right, SIGHUP, and the same request is obeyed.
    @Test func aReloadAppliesPermissions() throws {
        guard let daemon = try RunningDaemon(config: Self.config(extra: #"socket: { mode: "0666" },"#)) else { return }
        let watcher = try daemon.connect()
        #expect(try watcher.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try Self.requestAsNobody(daemon, ["screen off"]).last == Self.refusal("screen", "screen"))
        _ = try daemon.directory.write("c.json5", Self.config(extra: #"socket: { mode: "0666" }, permissions: { screen: { uids: [65534] } },"#))
        #expect(kill(try daemon.pid(), SIGHUP) == 0)
        // The signal is pending before the ping; the loop handles it no later than the ping's batch.
        try watcher.send(line: "ping")
        #expect(try watcher.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=ping")
        #expect(try Self.requestAsNobody(daemon, ["screen off"]).last == "ok command=screen")
        try daemon.stop(readingRestOf: [watcher])
        #expect(daemon.log.contains("configuration reloaded from"), "\(daemon.log)")
    }
}
