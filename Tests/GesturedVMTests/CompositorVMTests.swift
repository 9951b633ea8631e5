import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The compositor matrix (CONTRACT.md §5, docs/KIOSK.md): the compositors of the guest's Debian
/// release (`CompositorSession.Kind.matrix`: Debian 12's cage, sway, weston and Xorg; Debian 13's
/// cage, sway, weston and labwc), each started once with an application on the clone of a pass-through panel (wev on
/// Wayland, `xinput test-xi2` on X), and for each `cancelStyle` (switched by a reload) the exact
/// touch events the application receives in every scenario, each followed by a check tap at the
/// panel's center. What each compositor does with a cancelled touch is GesturedCore's CancelPassing
/// table, the one `gestured doctor` judges by, for the package and version installed in the
/// guest: the expectations below come from it, so this test fails when the table is wrong.
/// Every scenario ends with nothing pressed in the application, except where a compositor drops
/// libinput's cancel (`"palm"` on Debian 12's Wayland compositors): there the claimed touches
/// stay pressed, which is what the expectations record (docs/KIOSK.md).
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct CompositorVMTests {
    /// A three-finger swipe and a three-finger long press that claim, an edge pan that holds its
    /// touches (`delaysTouchesBegan`), a strip the application never gets, and a corner whose
    /// `forwardsTouches` a reload turns off.
    static func config(_ style: CancelStyle, cornerForwards: Bool = true) -> String {
        """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, passThrough: true, cancelStyle: "\(style.rawValue)" } ],
          views: [ { id: "root", gestures: [
              { id: "swipe", type: "swipe", direction: ["right"], numberOfTouchesRequired: 3 },
              { id: "hold", type: "longPress", numberOfTouchesRequired: 3, minimumPressDuration: 0.3 },
              { id: "edge", type: "screenEdgePan", edges: ["left"], delaysTouchesBegan: true } ],
            subviews: [ { id: "strip", frame: [900, 0, 100, 100], forwardsTouches: false },
                        { id: "corner", frame: [600, 600, 300, 300], forwardsTouches: \(cornerForwards) } ] } ] }
        """
    }

    enum Scenario: String, CaseIterable {
        case tap, claimedSwipe, stripTouch, heldThenFlushed, claimedLongPress, reloadCancels, killed
    }

    /// How a claimed touch ends in the application under `style`, by the measured table: an up
    /// for "lift"; for "palm", `wl_touch.cancel` where the compositor passes libinput's cancel on,
    /// an up where the protocol turns it into one (X), else nothing (the touch stays pressed).
    enum Ending { case up, cancel, nothing }

    static func ending(_ style: CancelStyle, _ entry: CancelPassing.Entry) -> Ending {
        if style == .lift { return .up }
        if entry.passesCancel { return .cancel }
        return entry.fitting.contains(.palm) ? .up : .nothing
    }

    /// What the application receives in `scenario` and the check tap after it, as the words of
    /// `AppTouch.words`, for a compositor whose claimed touches end as `ending` says. Measured in
    /// the kernel guests, and what the daemon asks for: a claimed touch ends with an up (or a
    /// cancel), except that a compositor that drops libinput's cancel (`"palm"` on Debian 12's
    /// Wayland compositors) gives the application nothing for it, and the next touches reuse ids
    /// it still holds pressed (the check tap's `down 0` while 0 is down).
    static func expected(_ scenario: Scenario, _ ending: Ending) -> [String] {
        let tap = ["down 0", "up 0"]
        func ends(_ ids: [Int]) -> [String] {
            switch ending {
            case .up: return ids.map { "up \($0)" }
            // One wl_touch.cancel per cancelled touch: sway 1.10 sends one for each of
            // libinput's TOUCH_CANCELs (wev prints each), measured in Debian 13's guest.
            case .cancel: return ids.map { _ in "cancel" }
            case .nothing: return []
            }
        }
        switch scenario {
        case .tap, .heldThenFlushed: return tap + tap
        case .claimedSwipe: return ["down 0", "down 1", "down 2", "moves"] + ends([0, 1, 2]) + tap
        case .stripTouch: return tap
        case .claimedLongPress: return ["down 0", "down 1", "down 2"] + ends([0, 1, 2]) + tap
        case .reloadCancels, .killed: return ["down 0"] + ends([0]) + tap
        }
    }

    @Test(arguments: CompositorSession.Kind.inThisGuest)
    func theApplicationGetsExactlyTheseTouches(on kind: CompositorSession.Kind) throws {
        let started = MonotonicClock.now()
        let (installed, entry) = DebianRelease.measured(kind)
        var matrix = try Matrix(kind)
        defer { matrix.finish() }
        matrix.report("\(kind.rawValue): \(installed), " + (entry.map { "measured: \($0.measurement)" } ?? "not in the measured table"))
        if entry == nil {
            Issue.record("\(installed) is not in GesturedCore's CancelPassing table: add its row from this run's lines")
        }
        try matrix.waitForTheApplication()
        let ready = MonotonicClock.now()
        var pressed: Set<Int> = []
        for style in [CancelStyle.lift, .palm] {
            if style != matrix.style { try matrix.reload(style: style) }
            for scenario in Scenario.allCases {
                let seen = try matrix.run(scenario)
                let words = AppTouch.words(seen)
                pressed = AppTouch.pressed(after: seen, from: pressed)
                matrix.report("\(kind.rawValue) \(style.rawValue) \(scenario.rawValue): \(words.joined(separator: ", "))"
                              + (pressed.isEmpty ? "" : "; still pressed: \(pressed.sorted())"))
                guard let entry else { continue }
                let name = "\(kind.rawValue), cancelStyle \(style.rawValue), \(scenario.rawValue)"
                #expect(words == Self.expected(scenario, Self.ending(style, entry)), "\(name)")
                if Self.ending(style, entry) == .nothing {
                    // From the first claim on, its touches 1 and 2 stay pressed for good (the
                    // check taps reuse and release 0).
                    #expect(pressed == (scenario == .tap ? [] : [1, 2]), "\(name)")
                } else {
                    #expect(pressed.isEmpty, "\(name): the application still holds \(pressed.sorted())")
                }
            }
        }
        let done = MonotonicClock.now()
        matrix.report("\(kind.rawValue): \(VMTests.milliseconds((ready - started).microseconds)) ms to start, "
                      + "\(VMTests.milliseconds((done - ready).microseconds)) ms for the scenarios")
        try matrix.reload(style: .lift)
        var latencies: [Int64] = []
        for _ in 0..<Self.latencyTaps {
            let (stamp, down) = try matrix.timedDown()
            latencies.append((down - stamp).microseconds)
        }
        Self.reportLatency(latencies, application: "\(kind.rawValue) (\(kind.isWayland ? "wev" : "xinput test-xi2"))")
    }

    /// Taps whose latency is measured per application.
    static let latencyTaps = 30

    /// The same latency with `libinput debug-events` on the clone as the application, in the same
    /// run: the figure the compositors' are read beside.
    @Test func libinputAsTheApplicationForTheLatency() throws {
        let monitor = try UdevInputMonitor()
        let panel = try VMGuest.makeTouchscreen()
        defer { panel.destroy() }
        let (daemon, client, clone) = try Matrix.startDaemon(Self.config(.lift), monitor: monitor)
        let libinput = try LibinputEvents(node: "/dev/input/" + clone, in: daemon.directory)
        defer { libinput.stop() }
        try #require(try libinput.lines(until: { $0.contains("DEVICE_ADDED") }) != nil, "libinput never listed the clone")
        var latencies: [Int64] = []
        for n in 0..<Self.latencyTaps {
            try panel.frame(Touch.down(id: Int32(n + 1), x: 2048, y: 2048))
            _ = try #require(try libinput.lines(until: { $0.contains("TOUCH_DOWN") }), "no TOUCH_DOWN")
            let received = MonotonicClock.now()
            let began = try #require(try client.lines(until: { $0.hasPrefix("touch began") })?.last, "\(daemon.log)")
            latencies.append((received - (try #require(Line.time(began.text)))).microseconds)
            try panel.frame(Touch.up())
            _ = try #require(try libinput.lines(until: { $0.contains("TOUCH_UP") }), "no TOUCH_UP")
        }
        Self.reportLatency(latencies, application: "libinput debug-events")
        try daemon.stop()
    }

    /// Prints and keeps (latency.txt) median and p99 of `latencies` (µs).
    static func reportLatency(_ latencies: [Int64], application: String) {
        let sorted = latencies.sorted()
        #expect(sorted.count == latencyTaps && sorted.first.map { $0 >= 0 } == true, "\(sorted)")
        let report = "pass-through latency panel kernel stamp → down read from \(application) over \(sorted.count) taps (TCG guest): "
            + "median=\(VMTests.milliseconds(percentile(sorted, 0.5))) ms p99=\(VMTests.milliseconds(percentile(sorted, 0.99))) ms"
        VMTests.keep(latencyReport: report)
    }
}

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
