import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Issue 35's guest proofs (docs/KIOSK.md, "Kiosk policy"): a real compositor with `wev` as
/// the application, and the daemon's kiosk policy in front of it. On a pass-through panel: a
/// tap while the screen is off reaches `wev` as nothing and a client reads `wake`, the next
/// tap reaches it whole; a tap while locked reaches nothing, one after `unlock` does; an `idle`
/// line after the threshold, `active` at the next touch; the browser recipe's pinch and edge
/// swipe claimed, a one-finger tap passed. Then, the panel no longer passed through (the
/// compositor reads it itself): the wake tap is kept from `wev` by the daemon's grab.
///
/// Claimed taps land off the panel's center; every check tap at its center, and the
/// application's events up to the check tap must be that tap alone.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct KioskVMTests {
    /// The compositors these proofs run on, of those the guest's Debian release has: cage
    /// (Debian 12 and 13) and labwc (Debian 13, `make test-vm-trixie`).
    static var kinds: [CompositorSession.Kind] { CompositorSession.Kind.inThisGuest.filter { [.cage, .labwc].contains($0) } }

    /// A tap on the whole screen, idle after 1 s, the panel passed through or read by the
    /// compositor itself.
    static func config(passThrough: Bool) -> String {
        """
        { screen: { width: 1000, height: 1000 }, idle: [1],
          devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, passThrough: \(passThrough) } ],
          views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
        """
    }

    /// The shipped browser recipe, its rule pointed at the guest's panel.
    static func browserConfig() throws -> String {
        let text = try readTextFile(path: TestEnvironment.packageRoot + "/config/kiosk-browser.json5")
        return text.replacing(#"match: { type: "touchscreen" }"#, with: #"match: { name: "\#(VMGuest.touchscreenName)" }"#)
    }

    @Test(arguments: kinds)
    func theKioskPolicyBeforeTheApplication(on kind: CompositorSession.Kind) throws {
        var k = try KioskSession(kind, config: Self.config(passThrough: true))
        defer { k.finish() }
        _ = try k.tapUntilDelivered(within: 180_000)

        // The wake: nothing reaches wev, a client reads `wake`; the next tap is whole.
        try k.request("screen off")
        try k.tap(x: 1000, y: 1000)
        try k.daemonLine("wake ")
        #expect(try k.checkTap() == ["down 0", "up 0"], "the wake tap reached \(kind.rawValue)")

        // The lock: nothing while locked; after unlock the tap is whole.
        try k.request("lock 60")
        try k.tap(x: 1000, y: 3000)
        _ = try k.client.linesUntilPing()
        try k.request("unlock")
        #expect(try k.checkTap() == ["down 0", "up 0"], "a tap while locked reached \(kind.rawValue)")

        // Idle after 1 s without a touch, active at the next (which reaches wev whole).
        try k.daemonLine("idle seconds=1", within: 10_000)
        #expect(try k.checkTap() == ["down 0", "up 0"])
        try k.daemonLine("active ")

        // The browser recipe: a pinch is taken from the application, an edge swipe never reaches
        // it, a one-finger tap passes.
        try k.reload(try Self.browserConfig())
        let id = k.nextID
        k.nextID += 2
        try k.panel.frame(Touch.down(slot: 0, id: id, x: 1500, y: 2048) + Touch.down(slot: 1, id: id + 1, x: 2600, y: 2048, first: false))
        for step: Int32 in 1...6 {
            try k.panel.frame(Touch.move(slot: 0, x: 1500 - 4 * step, y: 2048) + Touch.move(slot: 1, x: 2600 + 4 * step, y: 2048))
        }
        try k.daemonLine("gesture pinch began noZoom")
        try k.panel.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1))
        try k.daemonLine("gesture pinch ended noZoom")
        try Touch.tap(on: k.panel, id: k.nextID, x: 20, y: 2048)   // the left edge strip
        k.nextID += 1
        _ = try k.client.linesUntilPing()
        try k.tap()
        let pinch = try k.session.events { AppTouch.completes(taps: 1, $0) }
        let words = AppTouch.words(pinch.events)
        #expect(words.prefix(2) == ["down 0", "down 1"] && Set(words.dropFirst(2).dropLast(2)).isSubset(of: ["moves", "up 0", "up 1"])
                && words.filter({ $0.hasPrefix("up ") }).count == 3 && words.suffix(2) == ["down 0", "up 0"],
                "\(kind.rawValue): the pinch, the edge swipe and the tap gave \(words)")
        #expect(AppTouch.pressed(after: pinch.events).isEmpty)

        // Without pass-through the compositor reads the panel itself: the daemon grabs it from
        // `screen off` to the wake tap's lift.
        try k.reload(Self.config(passThrough: false))
        _ = try k.tapUntilDelivered(within: 60_000)
        try k.request("screen off")
        try k.tap(x: 1000, y: 1000)
        try k.daemonLine("wake ")
        #expect(try k.checkTap() == ["down 0", "up 0"], "the wake tap reached \(kind.rawValue) through the panel")
        #expect(k.daemon.log.contains("grabbed (EVIOCGRAB) until the claimed sequence ends"), "\(k.daemon.log)")
        #expect(k.daemon.log.contains("let go after the claimed sequence"), "\(k.daemon.log)")
    }
}

/// The panel, the daemon (a client subscribed to touches) and the compositor with wev.
struct KioskSession {
    let kind: CompositorSession.Kind
    let panel: UinputDevice
    let monitor: UdevInputMonitor
    let directory: TestEnvironment.TemporaryDirectory
    let daemon: VMDaemon
    let client: LineClient
    var session: CompositorSession
    var nextID: Int32 = 1

    init(_ kind: CompositorSession.Kind, config: String) throws {
        self.kind = kind
        monitor = try UdevInputMonitor()
        panel = try VMGuest.makeTouchscreen()
        (daemon, client, _) = try Matrix.startDaemon(config, monitor: monitor)
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-kiosk")
        session = try CompositorSession(kind, in: directory)
    }

    func finish() {
        try? session.stop()
        try? daemon.stop()
        panel.destroy()
    }

    mutating func tap(x: Int32 = 2048, y: Int32 = 2048) throws {
        try Touch.tap(on: panel, id: nextID, x: x, y: y)
        nextID += 1
    }

    /// Check taps at the center until one reaches the application whole (it starting, or taking
    /// up a new device); returns what it got meanwhile.
    mutating func tapUntilDelivered(within milliseconds: Int64) throws -> [AppTouch] {
        let limit = deadline(milliseconds: milliseconds)
        var seen: [AppTouch] = []
        while MonotonicClock.now() < limit {
            try tap()
            let (events, done) = try session.events(within: 2000) { AppTouch.completes(taps: 1, seen + $0) }
            seen += events
            if done { return seen }
        }
        Issue.record("no tap reached \(kind.rawValue)'s application in \(milliseconds) ms; got \(seen); runner:\n\(session.log)")
        throw VMFailure()
    }

    /// After the daemon has read everything so far, a tap at the center: what the application
    /// got up to that tap's end, as words.
    mutating func checkTap() throws -> [String] {
        _ = try client.linesUntilPing()
        try tap()
        let (events, done) = try session.events { AppTouch.completes(taps: 1, $0) }
        if !done { Issue.record("\(kind.rawValue): the check tap never came; got \(events)") }
        return AppTouch.words(events)
    }

    /// A control request, answered `ok`.
    func request(_ line: String) throws {
        try client.send(line: line)
        let lines = try #require(try client.lines(until: { $0.hasPrefix("ok command=") || $0.hasPrefix("error ") }), "\(line): no answer")
        try #require(lines.last?.text.hasPrefix("ok command=") == true, "\(line): \(lines.last?.text ?? "")")
    }

    /// Waits for a line from the daemon beginning with `prefix`.
    func daemonLine(_ prefix: String, within milliseconds: Int64 = 10_000) throws {
        _ = try #require(try client.lines(until: { $0.hasPrefix(prefix) }, within: milliseconds), "no \(prefix):\n\(daemon.log)")
    }

    /// SIGHUP with `config`, done once the daemon has answered two pings after it.
    func reload(_ config: String) throws {
        _ = try daemon.directory.write("c.json5", config)
        #expect(kill(daemon.process.pid, SIGHUP) == 0)
        _ = try #require(try client.linesUntilPing())
        _ = try #require(try client.linesUntilPing())
    }
}
