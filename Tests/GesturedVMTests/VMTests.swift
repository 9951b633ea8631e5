import CEvdev
import CLinux
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The daemon against a real kernel and a real udevd, in the QEMU guest of `make test-vm`
/// (docs/VM-TESTS.md): uinput devices, evdev's own buffers, clocks, grabs and removal.
///
/// Serialized: the daemon opens every touchscreen udev knows, so two tests at once would see
/// each other's devices. Each test removes its devices (UinputDevice's deinit) before the next.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct VMTests {
    static let tapConfig = """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(VMGuest.touchscreenName)" } } ],
          views: [ { id: "root", gestures: [
            { id: "tap", type: "tap" },
            { id: "twoFingerTap", type: "tap", numberOfTouchesRequired: 2 } ] } ] }
        """

    static let panConfig = """
        { screen: { width: 1000, height: 1000 },
          views: [ { id: "root", gestures: [
            { id: "tap", type: "tap" },
            { id: "pan", type: "pan" } ] } ] }
        """

    /// The daemon finds the uinput touchscreen through udev and leaves the uinput keyboard
    /// alone; a recorded tap reaches a client as the line the virtual-clock replay prints; the
    /// `time` of every line is the kernel's CLOCK_MONOTONIC stamp of its frame, so it lies
    /// between the moment before the recording was played and the moment the line arrived.
    @Test func findsTheTouchscreenThroughUdevAndATapArrivesWithKernelTimes() throws {
        let keyboard = try UinputDevice(VMGuest.keyboard(), udevDeadline: deadline(milliseconds: 20_000))
        let screen = try VMGuest.makeTouchscreen()
        let udev = try UdevEnumerator.inputDevices()
        let keyboardInfo = try #require(udev.first { $0.sysname == keyboard.sysname })
        let screenInfo = try #require(udev.first { $0.sysname == screen.sysname })
        try #require(keyboardInfo.properties["ID_INPUT_KEYBOARD"] == "1" && !keyboardInfo.isTouchscreen, "\(keyboardInfo)")
        try #require(screenInfo.isTouchscreen && screenInfo.isInitialized, "\(screenInfo)")

        let daemon = try VMDaemon(config: Self.tapConfig)
        let client = try daemon.connectForTouches()
        #expect(daemon.log.contains("<6>\(screen.sysname) (\(VMGuest.touchscreenName)): using it, 10 slots"), "\(daemon.log)")
        #expect(!daemon.log.contains(keyboard.sysname), "the keyboard was considered:\n\(daemon.log)")

        let recording = TestEnvironment.recordings + "/synthetic-tap.events"
        let before = MonotonicClock.now()
        try screen.play(try VMGuest.recording("synthetic-tap.events").events, skipIdleStart: true)
        let lines = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }), "stderr:\n\(daemon.log)")
        #expect(lines.map { $0.text.split(separator: " ").prefix(2).joined(separator: " ") }
                == ["touch began", "touch ended", "gesture tap"], "\(lines.map(\.text))")
        for line in lines {
            #expect(Line.field("device", in: line.text) == screen.sysname, "\(line.text)")
            let time = try #require(Line.time(line.text), "\(line.text)")
            #expect(before <= time && time <= line.receivedAt,
                    "time=\(time) is not within [\(before), \(line.receivedAt)] of CLOCK_MONOTONIC: \(line.text)")
        }
        let expected = try daemon.replay(recording, description: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        #expect(lines.last.map { Line.comparable($0.text) } == expected.first.map(Line.comparable), "replay: \(expected)")
        #expect(lines.last?.text.contains(" x=500.") == true && lines.last?.text.contains(" y=500.") == true)
        try daemon.stop()
        withExtendedLifetime(keyboard) {}
    }

    /// Recorded two-finger taps (the synthetic one, and a real Wacom ISDv4's from
    /// Tests/Fixtures/evemu-devices), played by `gestured-inject` (the test tool: it creates the
    /// device, waits for SIGUSR1 while the daemon starts on it, plays, and holds the device until
    /// SIGTERM), arrive as the lines
    /// `gestured replay` prints for them.
    @Test(arguments: ["synthetic-two-finger-tap.events", "Wacom ISDv4 E6 Finger.2fg-tap.events"])
    func aRecordedTwoFingerTapArrivesAsReplayed(recordingName: String) throws {
        let own = recordingName.hasPrefix("synthetic")
        let folder = own ? TestEnvironment.recordings : EvemuDevices.directory
        let recording = folder + "/" + recordingName
        let descriptionPath = own ? TestEnvironment.recordings + "/synthetic-touchscreen.desc"
                                  : folder + "/Wacom ISDv4 E6 Finger.desc"
        let work = try TestEnvironment.TemporaryDirectory(prefix: "gestured-vm-inject")
        let injector = try Subprocess(VMGuest.inject, [
            "--description", descriptionPath, "--name", VMGuest.touchscreenName, "--skip-idle-start",
            "--node-file", work.path + "/node", "--wait-signal", "--hold", recording,
        ], stdout: .file(work.path + "/stdout"), stderr: .file(work.path + "/stderr"))
        let injectorErrors = { (try? readTextFile(path: work.path + "/stderr")) ?? "" }
        try #require(TestEnvironment.waitForFile(work.path + "/node", deadline: deadline(milliseconds: 20_000)),
                     "gestured-inject made no device: \(injectorErrors())")
        let node = try readTextFile(path: work.path + "/node").split(separator: "\n").first.map(String.init) ?? ""
        let sysname = String(node.split(separator: "/").last ?? "")

        let daemon = try VMDaemon(config: Self.tapConfig)
        let expected = try daemon.replay(recording, description: descriptionPath)
        try #require(expected.count == 1 && expected[0].hasPrefix("gesture tap ended twoFingerTap "), "\(expected)")
        let client = try daemon.connect()
        #expect(daemon.log.contains("\(sysname) (\(VMGuest.touchscreenName)): using it"), "\(daemon.log)")
        injector.send(signal: SIGUSR1)
        let lines = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }), "stderr:\n\(daemon.log)")
        let rest = try #require(try client.linesUntilPing())
        #expect((lines.map(\.text) + rest).map(Line.comparable) == expected.map(Line.comparable))
        #expect(lines.last.flatMap { Line.field("device", in: $0.text) } == sysname)
        injector.send(signal: SIGTERM)   // --hold: the device stays until now
        let (termination, _) = try #require(try injector.wait(deadline: deadline(milliseconds: 20_000)))
        #expect(termination == .exited(0), "\(injectorErrors())")
        #expect(try readTextFile(path: work.path + "/stdout").contains("played "))
        try daemon.stop()
    }

    /// Removing the device in the middle of a pan: the touch and the pan end `cancelled`, every
    /// client gets `device removed`, and the daemon goes on serving.
    @Test func removingTheDeviceMidGestureCancelsAndTheDaemonServesOn() throws {
        let screen = try VMGuest.makeTouchscreen()
        let sysname = screen.sysname
        let daemon = try VMDaemon(config: Self.panConfig)
        let client = try daemon.connectForTouches()
        try screen.frame(Touch.down(id: 1, x: 1000, y: 2000))
        for step in 1...8 { try screen.frame(Touch.move(x: 1000 + Int32(step) * 60, y: 2000)) }
        let began = try #require(try client.lines(until: { $0.hasPrefix("gesture pan began ") }), "stderr:\n\(daemon.log)")
        #expect(began.first?.text.hasPrefix("touch began ") == true)
        screen.destroy()
        let after = try #require(try client.lines(until: { $0.hasPrefix("device removed ") }), "stderr:\n\(daemon.log)")
        let kinds = after.map { $0.text.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(kinds.contains("touch cancelled 1"), "\(after.map(\.text))")
        #expect(kinds.contains("gesture pan cancelled"), "\(after.map(\.text))")
        #expect(!kinds.contains("gesture pan ended"))
        #expect(after.last?.text.hasPrefix("device removed \(sysname) name=\"\(VMGuest.touchscreenName)\"") == true, "\(after.map(\.text))")
        #expect(try client.linesUntilPing() == [])
        let second = try daemon.connect()
        #expect(try second.linesUntilPing() == [])
        try daemon.stop()
    }

    /// Hotplug through udevd's monitor: a touchscreen created after the daemon started is used,
    /// its removal mid-gesture cancels, and the same device created again is used again.
    @Test func aTouchscreenPluggedInLaterIsUsedRemovedAndUsedAgain() throws {
        let daemon = try VMDaemon(config: Self.panConfig)
        let client = try daemon.connectForTouches()
        for round in 1...2 {
            let screen = try VMGuest.makeTouchscreen()
            let added = try #require(try client.lines(until: { $0.hasPrefix("device added ") }, within: 5000),
                                     "round \(round): no device added line for \(screen.sysname); stderr:\n\(daemon.log)")
            #expect(added.last?.text.hasPrefix("device added \(screen.sysname) name=\"\(VMGuest.touchscreenName)\"") == true)
            try Touch.tap(on: screen, id: Int32(round * 10))
            let tap = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }))
            #expect(tap.last?.text.hasPrefix("gesture tap ended tap view=root device=\(screen.sysname) ") == true)
            if round == 1 {
                try screen.frame(Touch.down(id: 99, x: 1000, y: 2000))
                for step in 1...8 { try screen.frame(Touch.move(x: 1000 + Int32(step) * 60, y: 2000)) }
                _ = try #require(try client.lines(until: { $0.hasPrefix("gesture pan began ") }))
            }
            screen.destroy()
            let removed = try #require(try client.lines(until: { $0.hasPrefix("device removed ") }))
            if round == 1 { #expect(removed.contains { $0.text.hasPrefix("gesture pan cancelled ") }) }
        }
        #expect(try client.linesUntilPing() == [])
        try daemon.stop()
    }

    /// A real `SYN_DROPPED`: the daemon is stopped (SIGSTOP) in the middle of a pan while a
    /// thousand frames fill and overflow its evdev buffer, and the finger lifts. Continued, it
    /// resynchronizes: the pan ends `cancelled` (never `ended`), the touch, which lifted inside
    /// the gap, ends, and no touch stays down (the next tap is one touch and recognized as a tap).
    @Test func aKernelBufferOverflowResyncsAndCancels() throws {
        let screen = try VMGuest.makeTouchscreen()
        let daemon = try VMDaemon(config: Self.panConfig)
        let client = try daemon.connectForTouches()
        try screen.frame(Touch.down(id: 1, x: 1000, y: 2000))
        for step in 1...8 { try screen.frame(Touch.move(x: 1000 + Int32(step) * 60, y: 2000)) }
        _ = try #require(try client.lines(until: { $0.hasPrefix("gesture pan began ") }), "stderr:\n\(daemon.log)")

        daemon.process.send(signal: SIGSTOP)
        // Wait until it is stopped: we are its parent, so waitid reports the stop.
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(daemon.process.pid), &info, WSTOPPED) == 0)
        for step in 0..<1000 {
            try screen.frame(Touch.move(x: 1500 + Int32(step % 200) * 5, y: 2000 + Int32(step % 7)))
        }
        try screen.frame(Touch.up())
        daemon.process.send(signal: SIGCONT)

        let resynced = try #require(try client.lines(until: { $0.hasPrefix("gesture pan cancelled ") }),
                                    "no pan cancelled; stderr:\n\(daemon.log)")
        let kinds = resynced.map { $0.text.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(!kinds.contains("gesture pan ended"), "\(resynced.map(\.text))")
        let after = try #require(try client.linesUntilPing())
        #expect(after.contains { $0.hasPrefix("touch ended 1 ") }, "the touch that lifted in the gap did not end: \(after)")
        #expect(after.filter { $0.hasPrefix("touch began") || $0.hasPrefix("gesture pan") } == [],
                "a touch or pan after the resync, with no finger down")
        // The daemon logs the drop after sending the lines of that read, and before it answers
        // the ping: only now is the log line certainly written.
        #expect(daemon.log.contains("\(screen.sysname): events dropped by the kernel (SYN_DROPPED)"), "\(daemon.log)")

        try Touch.tap(on: screen, id: 2)
        let next = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }))
        #expect(next.map { $0.text.split(separator: " ").prefix(3).joined(separator: " ") }
                == ["touch began 2", "touch ended 2", "gesture tap ended"], "\(next.map(\.text))")
        #expect(next.last.flatMap { Line.field("touches", in: $0.text) } == "1")
        try daemon.stop()
    }

    /// `grab: true`: while the daemon runs, another reader of the node gets nothing; once the
    /// daemon has stopped (and released it), the same reader gets the events, which shows it
    /// was listening all along.
    @Test func aGrabbedDeviceSendsNothingToOtherReaders() throws {
        let screen = try VMGuest.makeTouchscreen()
        let daemon = try VMDaemon(config: """
            { screen: { width: 1000, height: 1000 },
              devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, grab: true } ],
              views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
            """)
        let client = try daemon.connect()
        #expect(!daemon.log.contains("grab failed"), "\(daemon.log)")
        let reader = try EvdevDevice(path: screen.devnode)
        try Touch.tap(on: screen, id: 1)
        _ = try #require(try client.lines(until: { $0.hasPrefix("gesture tap ended ") }), "stderr:\n\(daemon.log)")
        var events: [RawEvent] = []
        _ = try reader.read(into: &events)
        #expect(events.isEmpty, "a second reader got \(events.count) events of a grabbed device")
        try daemon.stop()

        try Touch.tap(on: screen, id: 2)
        try #require(try Self.waitReadable(reader, milliseconds: 5000), "the reader got nothing after the daemon stopped")
        _ = try reader.read(into: &events)
        #expect(events.contains { $0.type == EventCode.EV_ABS && $0.code == EventCode.ABS_MT_TRACKING_ID && $0.value == 2 })
    }

    /// Another process holds the grab first: the daemon says `EVIOCGRAB` failed with EBUSY
    /// (errno 16), keeps running, reads the device shared, and recognizes a tap once the other
    /// process lets go.
    @Test func aGrabHeldElsewhereIsReportedAsBusyAndTheDaemonRuns() throws {
        let screen = try VMGuest.makeTouchscreen()
        let holder = try EvdevDevice(path: screen.devnode)
        try holder.grab(true)
        let daemon = try VMDaemon(config: """
            { screen: { width: 1000, height: 1000 },
              devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, grab: true } ],
              views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
            """)
        let client = try daemon.connect()
        #expect(daemon.log.contains("<3>\(screen.sysname) (\(VMGuest.touchscreenName)): cannot grab: another program holds it exclusively (EVIOCGRAB: EBUSY); gestured receives none of its events until that program lets go"),
                "\(daemon.log)")
        #expect(try client.linesUntilPing() == [])
        try holder.grab(false)
        try Touch.tap(on: screen, id: 1)
        let tap = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }), "stderr:\n\(daemon.log)")
        #expect(tap.last?.text.hasPrefix("gesture tap ended tap view=root device=\(screen.sysname) ") == true)
        try daemon.stop()
        holder.close()
    }

    /// Latency for a burst of 40 taps played with their timing (30 ms down, 100 ms apart): for
    /// every touch and gesture line, the client's receive time minus the line's `time` (the
    /// kernel's stamp of the frame). Printed as p50/p99, and written to the results folder;
    /// not judged against a threshold (the benchmark issue uses the figure). Under TCG
    /// emulation, so it is an upper bound of what hardware does.
    @Test func latencyOfABurstOfTaps() throws {
        let taps = 40
        var text = "# EVEMU 1.3\n"
        for tap in 0..<taps {
            let down = Self.stamp(Int64(tap) * 100_000), up = Self.stamp(Int64(tap) * 100_000 + 30_000)
            let x = 1024 + (tap % 4) * 512
            text += "E: \(down) 0003 002f 0\nE: \(down) 0003 0039 \(tap + 1)\nE: \(down) 0003 0035 \(x)\n"
                + "E: \(down) 0003 0036 2048\nE: \(down) 0001 014a 1\nE: \(down) 0000 0000 0\n"
                + "E: \(up) 0003 0039 -1\nE: \(up) 0001 014a 0\nE: \(up) 0000 0000 0\n"
        }
        let events = try EvemuRecording.parse(text, sysname: "").events
        let screen = try VMGuest.makeTouchscreen()
        let daemon = try VMDaemon(config: Self.tapConfig)
        let client = try daemon.connectForTouches()
        let player = BackgroundThread { try screen.play(events) }
        var latencies: [Int64] = []
        var gestures = 0
        while gestures < taps {
            guard let line = try client.readLine(deadline: deadline(milliseconds: 10_000)) else { break }
            guard let time = Line.time(line) else { continue }
            latencies.append((client.lastReceive - time).microseconds)
            if line.hasPrefix("gesture tap ended tap ") { gestures += 1 }
        }
        try player.join()
        #expect(gestures == taps, "stderr:\n\(daemon.log)")
        #expect(latencies.count == taps * 3)
        let sorted = latencies.sorted()
        #expect(sorted.first.map { $0 >= 0 } == true, "a line stamped after it was received: not CLOCK_MONOTONIC?")
        let report = "latency kernel timestamp → client receipt over \(sorted.count) lines (\(taps) taps, TCG guest): "
            + "p50=\(Self.milliseconds(percentile(sorted, 0.5))) ms p99=\(Self.milliseconds(percentile(sorted, 0.99))) ms "
            + "max=\(Self.milliseconds(sorted.last ?? 0)) ms"
        Self.keep(latencyReport: report)
        try daemon.stop()
    }

    /// Prints a latency report and adds it to the results folder's latency.txt, which
    /// `gestured-vm` prints after the run (every suite's reports, in the order they came).
    static func keep(latencyReport report: String) {
        print(report)
        guard let results = VMGuest.results else { return }
        let old = (try? readTextFile(path: results + "/latency.txt")) ?? ""
        try? TestEnvironment.writeFile(path: results + "/latency.txt", old + report + "\n")
    }

    /// Microseconds as milliseconds with two decimals.
    static func milliseconds(_ microseconds: Int64) -> String {
        let hundredths = (microseconds + 5) / 10
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100)." + String(repeating: "0", count: 2 - fraction.count) + fraction
    }

    /// An evemu timestamp, `seconds.microseconds`.
    static func stamp(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    static func waitReadable(_ device: EvdevDevice, milliseconds: Int32) throws -> Bool {
        var pollFD = pollfd(fd: device.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollFD, 1, milliseconds)
        if ready < 0 { throw SystemError(operation: "poll", path: device.path, errno: .current) }
        return ready == 1
    }
}
