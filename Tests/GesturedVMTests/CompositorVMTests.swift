import GesturedCore
import GesturedDoctor
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
        // The swipe recognizes in its first move frame (300 units a frame on this panel): the
        // forwarder decides before it writes a frame's moves, so that frame's moves reach the
        // gesture, not the application (a claimed touch gets its end, not that move first).
        case .claimedSwipe: return ["down 0", "down 1", "down 2"] + ends([0, 1, 2]) + tap
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
        // Input actions on each compositor once: Debian 13's Wayland ones and Xorg (Debian 12's
        // cage, sway and weston were run by hand: docs/VM-TESTS.md).
        if DebianRelease.current == 13 || kind == .xorg { try matrix.runInputActions() }
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
