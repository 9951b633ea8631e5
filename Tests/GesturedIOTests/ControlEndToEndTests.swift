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
    /// control request gets an error line and changes nothing: the tap is the button's. Another
    /// uid that the config's `control.uids` lists is obeyed (covered by the unit test of
    /// `ControlPolicy.allows`; here the refusal, which is what protects a kiosk).
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
            "error command=hide message=\"not authorized to control (uid 65534): only root, the daemon's user and the config's control uids and groups may\"",
            "ok command=ping",
        ])
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: watcher, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended buttonTap view=button "), "\(tap)")
        try daemon.stop(readingRestOf: [watcher])
        #expect(daemon.log.contains("hide refused, not authorized to control"), "\(daemon.log)")
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
}
