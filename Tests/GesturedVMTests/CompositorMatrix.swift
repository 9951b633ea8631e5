import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// One compositor's run of the matrix: the panel, the daemon and the compositor.
struct Matrix {
    let kind: CompositorSession.Kind
    let panel: UinputDevice
    let monitor: UdevInputMonitor
    let directory: TestEnvironment.TemporaryDirectory
    var daemon: VMDaemon
    var client: LineClient
    var cloneSysname: String
    var session: CompositorSession
    var style: CancelStyle = .lift
    /// Tracking ids for the panel's touches.
    var nextID: Int32 = 1

    init(_ kind: CompositorSession.Kind) throws {
        self.kind = kind
        monitor = try UdevInputMonitor()
        panel = try VMGuest.makeTouchscreen()
        (daemon, client, cloneSysname) = try Self.startDaemon(CompositorVMTests.config(.lift), monitor: monitor)
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-compositor")
        session = try CompositorSession(kind, in: directory)
    }

    /// `gestured run` with `config`, its touch client, and its clone once udev has it.
    static func startDaemon(_ config: String, monitor: UdevInputMonitor) throws -> (VMDaemon, LineClient, String) {
        let daemon = try VMDaemon(config: config)
        let client = try daemon.connectForTouches()
        let line = try #require(daemon.log.split(separator: "\n").first { $0.contains("passThrough: created") }, "no clone:\n\(daemon.log)")
        let node = String(line.split(separator: "(").first { $0.hasPrefix("/dev/input/") }?.prefix { $0 != ")" } ?? "")
        let sysname = String(node.split(separator: "/").last ?? "")
        try #require(sysname.hasPrefix("event"), "\(daemon.log)")
        try monitor.waitForAdd(sysname: sysname, deadline: deadline(milliseconds: 20_000))
        return (daemon, client, sysname)
    }

    func finish() {
        try? session.stop()
        try? daemon.stop()
        panel.destroy()
    }

    mutating func report(_ line: String) {
        print("compositor matrix: " + line)
        if let results = VMGuest.results {
            let old = (try? readTextFile(path: results + "/compositor-matrix.txt")) ?? ""
            try? TestEnvironment.writeFile(path: results + "/compositor-matrix.txt", old + line + "\n")
        }
    }

    /// Check taps at the panel's center until one reaches the application whole (the compositor
    /// starting, mapping the window, taking up a new clone: a touch before that is lost);
    /// returns everything the application got meanwhile.
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

    mutating func waitForTheApplication() throws {
        _ = try tapUntilDelivered(within: 180_000)
    }

    mutating func tap(x: Int32 = 2048, y: Int32 = 2048) throws {
        try Touch.tap(on: panel, id: nextID, x: x, y: y)
        nextID += 1
    }

    /// Waits for a line from the daemon, within 10 s.
    func daemonLine(_ prefix: String) throws {
        _ = try #require(try client.lines(until: { $0.hasPrefix(prefix) }), "no \(prefix):\n\(daemon.log)")
    }

    /// The application's events until `done`, failing the test when they do not come.
    func events(_ what: String, until done: ([AppTouch]) -> Bool) throws -> [AppTouch] {
        let (events, finished) = try session.events(until: done)
        if !finished { Issue.record("\(kind.rawValue): \(what) never came; the application got \(events)") }
        return events
    }

    /// SIGHUP with `config`, done once the daemon has answered two pings after it.
    func reload(_ config: String) throws {
        _ = try daemon.directory.write("c.json5", config)
        #expect(kill(daemon.process.pid, SIGHUP) == 0)
        _ = try #require(try client.linesUntilPing())
        _ = try #require(try client.linesUntilPing())
    }

    mutating func reload(style: CancelStyle) throws {
        try reload(CompositorVMTests.config(style))
        #expect(daemon.log.contains("cancelStyle \(self.style.rawValue) → \(style.rawValue)"), "\(daemon.log)")
        self.style = style
    }

    /// A down at the center: the panel's kernel stamp of it (the daemon's touch line) and when
    /// the application's down was read; then its lift, awaited in the application.
    mutating func timedDown() throws -> (stamp: Instant, down: Instant) {
        _ = try #require(try client.linesUntilPing(), "\(daemon.log)")
        try panel.frame(Touch.down(id: nextID, x: 2048, y: 2048))
        nextID += 1
        let down = try events("a timed down") { $0.contains { $0.phase == .down } }
        let began = try #require(try client.lines(until: { $0.hasPrefix("touch began") })?.last, "\(daemon.log)")
        try panel.frame(Touch.up())
        _ = try events("a timed up") { $0.contains { $0.phase == .up } }
        let at = try #require(down.first { $0.phase == .down }?.receivedAt)
        return (try #require(Line.time(began.text)), at)
    }

    /// Plays `scenario` on the panel and returns what the application got, through the check tap.
    mutating func run(_ scenario: CompositorVMTests.Scenario) throws -> [AppTouch] {
        var seen: [AppTouch] = []
        let id = nextID
        nextID += 3
        _ = try #require(try client.linesUntilPing(), "\(daemon.log)")   // the earlier scenarios' lines
        switch scenario {
        case .tap:
            try tap()
            seen = try events("the tap") { AppTouch.completes(taps: 1, $0) }
        case .claimedSwipe:
            try panel.frame(Touch.down(slot: 0, id: id, x: 400, y: 1000) + Touch.down(slot: 1, id: id + 1, x: 400, y: 2000, first: false)
                            + Touch.down(slot: 2, id: id + 2, x: 400, y: 3000, first: false))
            for step in 1...6 {
                let x = Int32(400 + step * 300)
                try panel.frame(Touch.move(slot: 0, x: x, y: 1000) + Touch.move(slot: 1, x: x, y: 2000) + Touch.move(slot: 2, x: x, y: 3000))
            }
            try daemonLine("gesture swipe ended")
            try panel.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1, last: false) + Touch.up(slot: 2))
        case .stripTouch:
            try Touch.tap(on: panel, id: id, x: 3900, y: 100)
            try daemonLine("touch ended")
        case .heldThenFlushed:
            try panel.frame(Touch.down(id: id, x: 20, y: 2000))
            try daemonLine("touch began")
            try panel.frame(Touch.up())
            seen = try events("the held touch") { AppTouch.pressed(after: $0).isEmpty && !$0.isEmpty }
        case .claimedLongPress:
            try panel.frame(Touch.down(slot: 0, id: id, x: 1500, y: 1000) + Touch.down(slot: 1, id: id + 1, x: 1500, y: 2000, first: false)
                            + Touch.down(slot: 2, id: id + 2, x: 1500, y: 3000, first: false))
            seen = try events("the long press's touches") { $0.filter { $0.phase == .down }.count == 3 }
            try daemonLine("gesture longPress began")
            try panel.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1, last: false) + Touch.up(slot: 2))
            try daemonLine("gesture longPress ended")
        case .reloadCancels:
            try panel.frame(Touch.down(id: id, x: 3000, y: 3000))
            seen = try events("the corner's touch") { $0.contains { $0.phase == .down } }
            try reload(CompositorVMTests.config(style, cornerForwards: false))
            try panel.frame(Touch.up())
            try daemonLine("touch ended")
            try reload(CompositorVMTests.config(style))
        case .killed:
            try panel.frame(Touch.down(id: id, x: 2500, y: 1500))
            seen = try events("the touch before the kill") { $0.contains { $0.phase == .down } }
            daemon.process.send(signal: SIGKILL)
            _ = try daemon.process.wait(deadline: deadline(milliseconds: 10_000))
            // The guard ends the touch, then the clone goes; the panel is free again.
            try monitor.wait(action: "remove", sysname: cloneSysname, deadline: deadline(milliseconds: 20_000))
            try panel.frame(Touch.up())
            (daemon, client, cloneSysname) = try Self.startDaemon(CompositorVMTests.config(style), monitor: monitor)
            return seen + (try tapUntilDelivered(within: 60_000))
        }
        try tap()
        return seen + (try events("the check tap") { AppTouch.completes(taps: 1, $0) })
    }
}
