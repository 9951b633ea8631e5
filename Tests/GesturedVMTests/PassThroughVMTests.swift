import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Pass-through (docs/KIOSK.md) against a real kernel: the daemon's uinput clone of the
/// touchscreen, read as an application would (evdev, and `libinput debug-events`).
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct PassThroughVMTests {
    /// A panel that passes through, an admin corner the application never sees, a three-finger
    /// swipe that cancels, and a left-edge pan that holds its touches until it fails.
    static let config = config(cancelStyle: "lift")

    static func config(cancelStyle: String) -> String { """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, passThrough: true, cancelStyle: "\(cancelStyle)" } ],
          views: [ { id: "root", gestures: [
              { id: "swipe", type: "swipe", direction: ["right"], numberOfTouchesRequired: 3 },
              { id: "edge", type: "screenEdgePan", edges: ["left"], delaysTouchesBegan: true } ],
            subviews: [ { id: "admin", frame: [900, 0, 100, 100], forwardsTouches: false } ] } ] }
        """
    }

    /// The daemon on `screen`, and its clone once udev has processed it.
    struct Setup {
        let daemon: VMDaemon
        let client: LineClient
        let cloneNode: String
        let monitor: UdevInputMonitor
        var cloneSysname: String { String(cloneNode.split(separator: "/").last ?? "") }
    }

    static func start(config: String = Self.config) throws -> Setup {
        let monitor = try UdevInputMonitor()
        let daemon = try VMDaemon(config: config)
        let client = try daemon.connectForTouches()
        // "passThrough: created \"NAME (gestured)\" (/dev/input/eventN); ..."
        let log = daemon.log
        let line = try #require(log.split(separator: "\n").first { $0.contains("passThrough: created") }, "no clone:\n\(log)")
        let node = String(line.split(separator: "(").first { $0.hasPrefix("/dev/input/") }?.prefix { $0 != ")" } ?? "")
        try #require(node.hasPrefix("/dev/input/event"), "\(log)")
        try monitor.waitForAdd(sysname: String(node.split(separator: "/").last!), deadline: deadline(milliseconds: 20_000))
        return Setup(daemon: daemon, client: client, cloneNode: node, monitor: monitor)
    }

    /// Reads the clone until a frame in which no touch is down any more (`BTN_TOUCH 0`).
    static func readUntilAllUp(_ clone: EvdevDevice) throws -> [RawEvent] {
        var events: [RawEvent] = []
        let limit = deadline(milliseconds: 10_000)
        while !events.contains(where: { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOUCH && $0.value == 0 }) {
            let left = Int32(max(0, (limit - MonotonicClock.now()).microseconds / 1000))
            guard left > 0, try VMTests.waitReadable(clone, milliseconds: left) else { break }
            _ = try clone.read(into: &events)
        }
        return events
    }

    static func values(_ events: [RawEvent], _ code: UInt16) -> [Int32] {
        events.filter { $0.type == EventCode.EV_ABS && $0.code == code }.map(\.value)
    }

    /// The clone copies the panel; a tap comes through at the same position; a tap in a view
    /// that does not forward touches never arrives; an edge-pan touch held back
    /// (`delaysTouchesBegan`) arrives when the edge pan fails.
    @Test func theCloneCopiesThePanelAndGetsTheTouchesNoGestureClaims() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start()
        let clone = try EvdevDevice(path: setup.cloneNode)
        let real = try EvdevDevice(path: screen.devnode)
        let (a, b) = (real.description(sysname: "real"), clone.description(sysname: "clone"))
        #expect(b.name == VMGuest.touchscreenName + " (gestured)")
        #expect(b.slotCount == a.slotCount && b.mtX == a.mtX && b.mtY == a.mtY && b.isDirect, "\(a) vs \(b)")
        real.close()
        let devices = try Subprocess.run(VMGuest.gestured, ["devices", "--config", setup.daemon.configPath],
                                         in: setup.daemon.directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(devices.stdout.contains("\(setup.cloneSysname) \"\(VMGuest.touchscreenName) (gestured)\" touchscreen: "
                                        + "not used (a pass-through clone made by gestured"), "\(devices.stdout)")

        try Touch.tap(on: screen, id: 1, x: 3900, y: 100)   // the admin corner: never forwarded
        try Touch.tap(on: screen, id: 2, x: 1000, y: 3000)
        let events = try Self.readUntilAllUp(clone)
        #expect(Self.values(events, EventCode.ABS_MT_POSITION_X) == [1000], "\(events)")
        #expect(Self.values(events, EventCode.ABS_MT_POSITION_Y) == [3000])
        #expect(Self.values(events, EventCode.ABS_MT_TRACKING_ID).count == 2)
        #expect(Self.values(events, EventCode.ABS_MT_TRACKING_ID).last == -1)

        // At the left edge: held while the edge pan may begin, flushed when the lift fails it.
        try screen.frame(Touch.down(id: 3, x: 20, y: 2000))
        try #require(try setup.client.lines(until: { $0.hasPrefix("touch began") }) != nil)
        var early: [RawEvent] = []
        _ = try clone.read(into: &early)
        #expect(early.isEmpty, "a held touch reached the application: \(early)")
        try screen.frame(Touch.up())
        let flushed = try Self.readUntilAllUp(clone)
        #expect(Self.values(flushed, EventCode.ABS_MT_POSITION_X) == [20], "\(flushed)")
        #expect(Self.values(flushed, EventCode.ABS_MT_TRACKING_ID).last == -1)
        try setup.daemon.stop()
        withExtendedLifetime(setup.monitor) {}
    }

    /// `libinput debug-events` on the clone with `cancelStyle: "palm"`: a tap is TOUCH_DOWN and
    /// TOUCH_UP at the panel's position; a recognized three-finger swipe is TOUCH_CANCEL and no
    /// TOUCH_UP; the next touch in a cancelled slot arrives (TESTING.md §5).
    @Test func libinputSeesTapsAsTapsAndARecognizedSwipeAsCancelled() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start(config: Self.config(cancelStyle: "palm"))
        let libinput = try LibinputEvents(node: setup.cloneNode, in: setup.daemon.directory)
        try #require(try libinput.lines(until: { $0.contains("DEVICE_ADDED") }) != nil, "libinput never listed the clone")

        try Touch.tap(on: screen, id: 1, x: 2048, y: 2048)
        let tap = try #require(try libinput.lines(until: { _ in false }, stopOn: "TOUCH_UP"), "no TOUCH_UP")
        #expect(tap.contains { $0.contains("TOUCH_DOWN") }, "\(tap)")

        try screen.frame(Touch.down(slot: 0, id: 2, x: 400, y: 1000) + Touch.down(slot: 1, id: 3, x: 400, y: 2000, first: false)
                         + Touch.down(slot: 2, id: 4, x: 400, y: 3000, first: false))
        for step in 1...6 {
            let x = Int32(400 + step * 300)
            try screen.frame(Touch.move(slot: 0, x: x, y: 1000) + Touch.move(slot: 1, x: x, y: 2000) + Touch.move(slot: 2, x: x, y: 3000))
        }
        try #require(try setup.client.lines(until: { $0.hasPrefix("gesture swipe ended") }) != nil, "no swipe:\n\(setup.daemon.log)")
        try screen.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1, last: false) + Touch.up(slot: 2))
        // The next touch, in the slot whose last touch was cancelled.
        try Touch.tap(on: screen, id: 5, x: 2048, y: 2048)
        let swipe = try #require(try libinput.lines(until: { _ in false }, stopOn: "TOUCH_UP"), "the touch after the cancel never arrived")
        #expect(swipe.filter { $0.contains("TOUCH_DOWN") }.count == 4, "\(swipe)")
        #expect(swipe.filter { $0.contains("TOUCH_CANCEL") }.count >= 1, "\(swipe)")
        #expect(swipe.filter { $0.contains("TOUCH_UP") }.count == 1, "only the last tap lifts: \(swipe)")
        try setup.daemon.stop()
        libinput.stop()
    }

    /// SIGKILL: the kernel ends the grab and destroys the clone, so the panel works again for
    /// everyone else.
    @Test func killingTheDaemonGivesThePanelBackAndRemovesTheClone() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start()
        let reader = try EvdevDevice(path: screen.devnode)
        try Touch.tap(on: screen, id: 1)
        _ = try #require(try setup.client.lines(until: { $0.hasPrefix("touch ended") }), "stderr:\n\(setup.daemon.log)")
        var events: [RawEvent] = []
        _ = try reader.read(into: &events)
        #expect(events.isEmpty, "the panel is not grabbed: \(events.count) events")
        setup.daemon.process.send(signal: SIGKILL)
        _ = try setup.daemon.process.wait(deadline: deadline(milliseconds: 10_000))
        try setup.monitor.wait(action: "remove", sysname: setup.cloneSysname, deadline: deadline(milliseconds: 20_000))
        try Touch.tap(on: screen, id: 2)
        try #require(try VMTests.waitReadable(reader, milliseconds: 5000), "the panel stayed grabbed after SIGKILL")
        _ = try reader.read(into: &events)
        #expect(events.contains { $0.code == EventCode.ABS_MT_TRACKING_ID && $0.value == 2 })
    }

    /// A control request can decide what the application gets: disabling the view whose edge pan
    /// holds a touch (`delaysTouchesBegan`) fails the edge pan, and the held touch reaches the
    /// clone at once, with no further event from the panel.
    @Test func aControlRequestThatFailsAHoldingGestureDeliversTheHeldTouch() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start()
        let clone = try EvdevDevice(path: setup.cloneNode)
        try screen.frame(Touch.down(id: 1, x: 20, y: 2000))
        try #require(try setup.client.lines(until: { $0.hasPrefix("touch began") }) != nil)
        var early: [RawEvent] = []
        _ = try clone.read(into: &early)
        #expect(early.isEmpty, "a held touch reached the application: \(early)")
        try setup.client.send(line: "disable root")
        try #require(try setup.client.lines(until: { $0.hasPrefix("ok command=disable") }) != nil, "\(setup.daemon.log)")
        let flushed = try Self.read(clone) { Self.values($0, EventCode.ABS_MT_TRACKING_ID).contains { $0 >= 0 } }
        #expect(Self.values(flushed, EventCode.ABS_MT_POSITION_X) == [20], "\(flushed)")
        try screen.frame(Touch.up())
        try setup.daemon.stop()
        withExtendedLifetime(setup.monitor) {}
    }

    /// SIGKILL or SIGTERM with a finger down: the clone's guard (`CloneGuard`) ends the touch in
    /// the clone's `cancelStyle` before the clone goes, so the application (libinput on the
    /// clone) gets `TOUCH_UP` (`"lift"`) or `TOUCH_CANCEL` (`"palm"`) before `DEVICE_REMOVED`,
    /// and nothing for the clone's other, idle slots: nothing is left pressed. (Without the
    /// guard, evdev drops what a reader has not read when the device goes, and libinput's own
    /// cancel on removal is all an application saw, which Debian 12's Wayland compositors drop:
    /// docs/KIOSK.md.)
    @Test(arguments: [(SIGKILL, CancelStyle.lift), (SIGKILL, .palm), (SIGTERM, .lift), (SIGTERM, .palm)])
    func stoppingTheDaemonMidTouchEndsTheTouchInTheApplication(signal: Int32, style: CancelStyle) throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start(config: Self.config(cancelStyle: style.rawValue))
        let libinput = try LibinputEvents(node: setup.cloneNode, in: setup.daemon.directory)
        try #require(try libinput.lines(until: { $0.contains("DEVICE_ADDED") }) != nil, "libinput never listed the clone")
        try screen.frame(Touch.down(id: 1, x: 2048, y: 2048))
        try #require(try libinput.lines(until: { $0.contains("TOUCH_DOWN") }) != nil, "no TOUCH_DOWN")
        setup.daemon.process.send(signal: signal)
        _ = try setup.daemon.process.wait(deadline: deadline(milliseconds: 10_000))
        let end = try #require(try libinput.lines(until: { $0.contains("DEVICE_REMOVED") }), "libinput never saw the clone go")
        let (ended, other) = style == .lift ? ("TOUCH_UP", "TOUCH_CANCEL") : ("TOUCH_CANCEL", "TOUCH_UP")
        #expect(end.filter { $0.contains(ended) }.count == 1, "\(end)")
        #expect(end.filter { $0.contains(other) || $0.contains("TOUCH_DOWN") }.isEmpty, "\(end)")
        libinput.stop()
        try screen.frame(Touch.up())
    }

    /// Unplugging the panel removes its clone; the daemon serves on.
    @Test func removingThePanelRemovesTheClone() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start()
        screen.destroy()
        try setup.monitor.wait(action: "remove", sysname: setup.cloneSysname, deadline: deadline(milliseconds: 20_000))
        #expect(try setup.client.linesUntilPing()?.contains { $0.hasPrefix("device removed") } == true)
        try setup.daemon.stop()
    }

    /// Reads the clone until `done` holds for what was read (within 10 s).
    static func read(_ clone: EvdevDevice, until done: ([RawEvent]) -> Bool) throws -> [RawEvent] {
        var events: [RawEvent] = []
        let limit = deadline(milliseconds: 10_000)
        while !done(events) {
            let left = Int32(max(0, (limit - MonotonicClock.now()).microseconds / 1000))
            guard left > 0, try VMTests.waitReadable(clone, milliseconds: left) else { break }
            _ = try clone.read(into: &events)
        }
        return events
    }

    /// SIGHUP with `config` written, done once the daemon has answered two pings after it (a
    /// signal and a request that are both ready are handled in one loop iteration).
    static func reload(_ setup: Setup, _ config: String) throws {
        _ = try setup.daemon.directory.write("c.json5", config)
        #expect(kill(setup.daemon.process.pid, SIGHUP) == 0)
        _ = try #require(try setup.client.linesUntilPing())
        _ = try #require(try setup.client.linesUntilPing())
        #expect(setup.daemon.log.contains("configuration reloaded from"), "\(setup.daemon.log)")
    }

    /// A reload cancels in the application only the touches whose rules changed: a view that
    /// stops forwarding cancels its touch, the other touch goes on to its lift; a rotation change
    /// (the panel re-added, its clone kept) cancels the panel's touches, and the clone serves on.
    @Test func aReloadCancelsOnlyTheTouchesWhoseRulesChanged() throws {
        func config(cornerForwards: Bool, rotation: Int = 0) -> String {
            """
            { screen: { width: 1000, height: 1000 },
              devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, passThrough: true, rotation: \(rotation),
                           cancelStyle: "palm" } ],
              views: [ { id: "root", subviews: [ { id: "corner", frame: [0, 0, 500, 500], forwardsTouches: \(cornerForwards) } ] } ] }
            """
        }
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start(config: config(cornerForwards: true))
        let clone = try EvdevDevice(path: setup.cloneNode)
        func downs(_ events: [RawEvent]) -> Int { Self.values(events, EventCode.ABS_MT_TRACKING_ID).filter { $0 >= 0 }.count }
        func lifts(_ events: [RawEvent]) -> Int { Self.values(events, EventCode.ABS_MT_TRACKING_ID).filter { $0 == -1 }.count }
        let palm = Int32(2)   // MT_TOOL_PALM

        try screen.frame(Touch.down(slot: 0, id: 1, x: 400, y: 400) + Touch.down(slot: 1, id: 2, x: 3000, y: 3000, first: false))
        #expect(downs(try Self.read(clone) { downs($0) == 2 }) == 2)

        try Self.reload(setup, config(cornerForwards: false))
        let cancelled = try Self.read(clone) { lifts($0) == 1 }
        #expect(Self.values(cancelled, EventCode.ABS_MT_TOOL_TYPE).contains(palm), "\(cancelled)")
        #expect(lifts(cancelled) == 1 && downs(cancelled) == 0, "\(cancelled)")

        try screen.frame(Touch.move(slot: 1, x: 3100, y: 3000))
        try screen.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1))
        let rest = try Self.readUntilAllUp(clone)
        #expect(Self.values(rest, EventCode.ABS_MT_POSITION_X) == [3100], "the kept touch moves on: \(rest)")
        #expect(lifts(rest) == 1 && !Self.values(rest, EventCode.ABS_MT_TOOL_TYPE).contains(palm), "and lifts: \(rest)")

        try screen.frame(Touch.down(slot: 0, id: 3, x: 3000, y: 3000))
        #expect(downs(try Self.read(clone) { downs($0) == 1 }) == 1)
        try Self.reload(setup, config(cornerForwards: false, rotation: 90))
        let readded = try Self.readUntilAllUp(clone)
        #expect(Self.values(readded, EventCode.ABS_MT_TOOL_TYPE).contains(palm) && lifts(readded) == 1, "\(readded)")
        #expect(setup.daemon.log.contains("reloaded: rotation 0 → 90"), "\(setup.daemon.log)")
        try screen.frame(Touch.up())
        try Touch.tap(on: screen, id: 4, x: 3000, y: 3000)
        let after = try Self.readUntilAllUp(clone)
        #expect(downs(after) == 1 && lifts(after) == 1, "the clone serves on after the re-add: \(after)")
        try setup.daemon.stop()
        withExtendedLifetime(setup.monitor) {}
    }

    /// Forwarding latency: the kernel's stamp of a touch's down on the panel (the daemon's
    /// touch line `time`) to the kernel's stamp of the same down on the clone, for 40 taps.
    @Test func forwardingLatency() throws {
        let taps = 40
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start()
        let clone = try EvdevDevice(path: setup.cloneNode)
        #expect(clone.setMonotonicClock())
        var latencies: [Int64] = []
        for tap in 0..<taps {
            try Touch.tap(on: screen, id: Int32(tap + 1), x: 1024 + Int32(tap % 4) * 512, y: 2048)
            let began = try #require(try setup.client.lines(until: { $0.hasPrefix("touch began") })?.last, "stderr:\n\(setup.daemon.log)")
            let events = try Self.readUntilAllUp(clone)
            let down = try #require(events.first { $0.code == EventCode.ABS_MT_TRACKING_ID && $0.value >= 0 })
            let real = try #require(Line.time(began.text))
            latencies.append((down.time - real).microseconds)
        }
        let sorted = latencies.sorted()
        #expect(sorted.first.map { $0 >= 0 } == true)
        let report = "pass-through latency panel kernel stamp → clone kernel stamp over \(taps) downs (TCG guest): "
            + "median=\(VMTests.milliseconds(percentile(sorted, 0.5))) ms p99=\(VMTests.milliseconds(percentile(sorted, 0.99))) ms"
        VMTests.keep(latencyReport: report)
        try setup.daemon.stop()
    }
}

/// `libinput debug-events --device NODE` (line-buffered through `stdbuf`), its output through a
/// FIFO the test polls: libinput as the application behind the clone.
final class LibinputEvents {
    let process: Subprocess
    let fifo: FileDescriptor
    private var pending = ""

    /// - Parameter options: more of debug-events' options (`--show-keycodes`).
    init(node: String, in directory: TestEnvironment.TemporaryDirectory, options: [String] = []) throws {
        let path = directory.path + "/libinput.fifo"
        guard mkfifo(path, 0o600) == 0 else { throw SystemError(operation: "mkfifo", path: path, errno: .current) }
        fifo = try FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK)
        process = try Subprocess("/usr/bin/stdbuf", ["-oL", "libinput", "debug-events"] + options + ["--device", node],
                                 stdout: .file(path), stderr: .file(directory.path + "/libinput.stderr"))
    }

    /// Lines until one contains `stopOn` (or satisfies `until`), within 10 s; nil on timeout.
    func lines(until: (String) -> Bool, stopOn: String? = nil) throws -> [String]? {
        let limit = deadline(milliseconds: 10_000)
        var lines: [String] = []
        while true {
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending = String(pending[pending.index(after: newline)...])
                lines.append(line)
                if until(line) || stopOn.map({ line.contains($0) }) == true { return lines }
            }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else { return nil }
            var pollFD = pollfd(fd: fifo.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(left))
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fifo.rawValue, &buffer, buffer.count)
            if n > 0 { pending += String(decoding: buffer[..<n], as: UTF8.self) }
            if n == 0 && pollFD.revents & Int16(POLLHUP) != 0 { return nil }   // libinput exited
        }
    }

    func stop() {
        process.send(signal: SIGINT)
        _ = try? process.wait(deadline: deadline(milliseconds: 5000))
        try? fifo.close()
    }
}
