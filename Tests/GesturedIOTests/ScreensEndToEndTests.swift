import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Two panels in one daemon, and a reload that really reloads, against libumockdev's testbed
/// (`Testbed`, HotplugTests.swift): real libudev, libevdev, epoll and sockets, emulated devices.
/// No sleeping: every wait is a read with a deadline; the recordings leave seconds between the
/// moments a test acts on.
///
/// In HotplugTests' suite, which is serialized: two testbeds at once, each starting daemons and
/// emulated devices under load, made its hotplug cycles lose the race between a uevent and the
/// emulated node's ioctl socket (the daemon is then killed by libumockdev-preload).
extension HotplugTests {
    static let twoPanels = panels(front: "event0")

    /// Two screens: `front` takes the devices with sysname `front` and event2, `back` the rest.
    static func panels(front: String) -> String { """
        { screens: [
            { id: "front", width: 1000, height: 1000,
              devices: [{ match: { sysname: "\(front)" } }, { match: { sysname: "event2" } }],
              views: [{ id: "frontRoot", gestures: [{ id: "frontTap", type: "tap" }, { id: "frontDrag", type: "pan" }] }] },
            { id: "back", width: 1000, height: 1000, devices: "rest",
              views: [{ id: "backRoot", gestures: [{ id: "backDrag", type: "pan" }, { id: "backTap", type: "tap" }] }] },
        ] }
        """ }

    /// A tap on panel A and a pan on panel B at the same time are independent gestures of their
    /// screens; a third device plugged in lands on its rule's screen. `gestured replay` of the two
    /// recordings gives the same gestures (apart from times, which are the emulator's read times
    /// in the daemon), the same way every time. Nodes event0 and event1 are the replay's names
    /// for the first and second recording.
    @Test func tapOnOnePanelPanOnTheOtherAndAHotpluggedThird() throws {
        guard let bed = try Testbed(config: Self.twoPanels) else { return }
        let client = try bed.client()
        let tapEvents = "\(TestEnvironment.recordings)/synthetic-tap.events"
        let panEvents = "\(TestEnvironment.recordings)/synthetic-pan-hold.events"
        // The replay first: the daemon's lines are then read until it has made as many. The
        // replay ends its recordings (the pan recording ends with the finger still down) as
        // devices that go away; the daemon's devices stay, so those last lines are not compared.
        let config = bed.directory.path + "/c.json5"
        let replay = try Self.replay(config: config, in: bed.directory.path, tapEvents, panEvents)
        #expect(try Self.replay(config: config, in: bed.directory.path, tapEvents, panEvents) == replay)
        let expected = replay.filter { !$0.contains(" cancelled ") }
        #expect(expected.contains { $0.contains(" screen=front ") } && expected.contains { $0.contains(" screen=back ") }, "\(replay)")
        #expect(try bed.command("add event0 \(tapEvents)").hasPrefix("ok "))
        #expect(try bed.command("add event1 \(panEvents)").hasPrefix("ok "))
        var gestures: [String] = []
        let limit = deadline(milliseconds: 15_000)
        while gestures.count < expected.count, let line = try client.readLine(deadline: limit) {
            if line.hasPrefix("gesture ") { gestures.append(line) }
        }
        let tap = gestures.first { $0.hasPrefix("gesture tap ended") }
        #expect(tap?.hasPrefix("gesture tap ended frontTap view=frontRoot device=event0 screen=front ") == true, "\(bed.log)")
        let pan = gestures.first { $0.hasPrefix("gesture pan changed") }
        #expect(pan?.hasPrefix("gesture pan changed backDrag view=backRoot device=event1 screen=back ") == true, "\(bed.log)")
        #expect(expected.map(Self.withoutTimes) == gestures.map(Self.withoutTimes), "replay:\n\(replay)\ndaemon:\n\(gestures)")

        #expect(try bed.command("add event2 \(tapEvents)").hasPrefix("ok "))
        let third = try bed.line(from: client, startingWith: "gesture tap ended")
        #expect(third?.hasPrefix("gesture tap ended frontTap view=frontRoot device=event2 screen=front ") == true, "\(bed.log)")
        #expect(bed.log.contains("event2 (gestured synthetic touchscreen): using it, 10 slots on screen front"), "\(bed.log)")
        #expect(try bed.quit() == "ok exit exit status 0")
    }

    /// The gesture lines of `gestured replay` over recordings of the synthetic touchscreen.
    static func replay(config: String, in directory: String, _ recordings: String...) throws -> [String] {
        let run = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured",
                                     ["replay", "--config", config, "--description",
                                      "\(TestEnvironment.recordings)/synthetic-touchscreen.desc"] + recordings,
                                     in: directory, deadline: deadline(milliseconds: 30_000))
        #expect(run.termination == .exited(0), "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// A line without the fields that depend on when the daemon read the events: `time`,
    /// `seq` (device lines are numbered too) and velocities.
    static func withoutTimes(_ line: String) -> String {
        line.split(separator: " ").filter { !$0.hasPrefix("time=") && !$0.hasPrefix("seq=") && !$0.hasPrefix("velocity") }
            .joined(separator: " ")
    }

    /// A device moved to another screen by a reload: its next tap is the other screen's.
    @Test func reloadMovesADeviceToAnotherScreen() throws {
        guard let bed = try Testbed(config: Self.twoPanels) else { return }
        let events = try bed.directory.write("two-taps.events", ["# EVEMU 1.3", "E: 0.000000 0000 0000 0",
            Self.frame(1.5, down: true, x: 2048, y: 2048), Self.frame(1.55, down: false),
            Self.frame(4.5, down: true, x: 2048, y: 2048), Self.frame(4.55, down: false)].joined(separator: "\n") + "\n")
        let pid = try #require(Int32(try bed.command("pid").dropFirst(3)))
        let client = try bed.client()
        #expect(try bed.command("add event0 \(events)").hasPrefix("ok "))
        let first = try bed.line(from: client, startingWith: "gesture ")
        #expect(first?.hasPrefix("gesture tap ended frontTap view=frontRoot device=event0 screen=front ") == true, "\(bed.log)")
        try TestEnvironment.writeFile(path: bed.directory.path + "/c.json5",
                                      Self.panels(front: "event5"))
        kill(pid, SIGHUP)
        let second = try bed.line(from: client, startingWith: "gesture ")
        #expect(second?.hasPrefix("gesture tap ended backTap view=backRoot device=event0 screen=back ") == true, "\(bed.log)")
        #expect(bed.log.contains("event0 (gestured synthetic touchscreen): reloaded: screen front → back"), "\(bed.log)")
        #expect(try bed.quit() == "ok exit exit status 0")
    }

    static func reloadConfig(_ rule: String) -> String {
        """
        { screen: { width: 1000, height: 1000 }, devices: [{ match: { sysname: "event*" }, \(rule) }],
          views: [{ id: "root", gestures: [{ id: "drag", type: "pan" }, { id: "tap", type: "tap" }] }] }
        """
    }

    /// One finger's frame at `t` seconds in the synthetic touchscreen's units (0..4095).
    static func frame(_ t: Double, down: Bool? = nil, x: Int? = nil, y: Int? = nil) -> String {
        let micros = Int((t * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        let time = "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
        var lines = ["E: \(time) 0003 002f 0"]
        if down == true { lines.append("E: \(time) 0003 0039 1") }
        if down == false { lines.append("E: \(time) 0003 0039 -1") }
        if let x { lines.append("E: \(time) 0003 0035 \(x)") }
        if let y { lines.append("E: \(time) 0003 0036 \(y)") }
        if down == true { lines.append("E: \(time) 0001 014a 1") }
        if down == false { lines.append("E: \(time) 0001 014a 0") }
        lines.append("E: \(time) 0000 0000 0")
        return lines.joined(separator: "\n")
    }

    /// A pan that pauses at 1.7 s and resumes at 3.6 s; a second pan from 6.1 s held to 9.1 s;
    /// a tap at (1024, 3072) at 11.1 s. (umockdev 0.17 reads microseconds with a leading zero as
    /// octal: every fraction here starts with a non-zero digit or is zero.)
    static let reloadRecording: String = {
        var frames = ["# EVEMU 1.3", "E: 0.000000 0000 0000 0", frame(1.1, down: true, x: 400, y: 400)]
        for i in 1...6 { frames.append(frame(1.1 + Double(i) * 0.1, x: 400 + i * 40)) }
        for i in 1...6 { frames.append(frame(3.5 + Double(i) * 0.1, x: 640 + i * 40)) }
        frames.append(frame(4.2, down: false))
        frames.append(frame(6.1, down: true, x: 400, y: 2000))
        for i in 1...6 { frames.append(frame(6.1 + Double(i) * 0.1, x: 400 + i * 40)) }
        frames.append(frame(9.1, down: false))
        frames += [frame(11.1, down: true, x: 1024, y: 3072), frame(11.15, down: false)]
        return frames.joined(separator: "\n") + "\n"
    }()

    /// SIGHUP with an invalid file changes nothing (the pan in progress goes on); rotation 0 → 90
    /// cancels the touch in flight and rotates the next gesture; `ignore: true` lets the device go,
    /// and a file without it takes the device up again.
    @Test func reloadAppliesRotationAndIgnoreAndAnInvalidFileChangesNothing() throws {
        guard let bed = try Testbed(config: Self.reloadConfig("rotation: 0")) else { return }
        let configPath = bed.directory.path + "/c.json5"
        let events = try bed.directory.write("reload.events", Self.reloadRecording)
        let pidLine = try bed.command("pid")
        let pid = try #require(Int32(pidLine.dropFirst(3)), "\(pidLine)")
        let client = try bed.client()
        #expect(try bed.command("add event7 \(events)").hasPrefix("ok "))
        #expect(try bed.line(from: client, startingWith: "gesture pan began") != nil)

        // An invalid file: the pan resumes after the reload and ends normally.
        try TestEnvironment.writeFile(path: configPath, "{ views: [ { id: 'root' } }")
        kill(pid, SIGHUP)
        var first: [String] = []
        let limit = deadline(milliseconds: 15_000)
        while let line = try client.readLine(deadline: limit) {
            first.append(line.split(separator: " ").prefix(4).joined(separator: " "))
            if line.hasPrefix("gesture pan ended") || line.hasPrefix("gesture pan cancelled") { break }
        }
        #expect(first.last == "gesture pan ended drag", "\(first)\n\(bed.log)")
        #expect(bed.log.contains("reload failed; the previous configuration stays in force"), "\(bed.log)")

        // Rotation 90: the second pan, in flight, is cancelled; the tap after it is rotated.
        #expect(try bed.line(from: client, startingWith: "gesture pan began") != nil)
        try TestEnvironment.writeFile(path: configPath, Self.reloadConfig("rotation: 90"))
        kill(pid, SIGHUP)
        var second: [String] = []
        while let line = try client.readLine(deadline: deadline(milliseconds: 15_000)) {
            if line.hasPrefix("gesture pan changed") { continue }   // already on its way
            second.append(line)
            if line.hasPrefix("gesture tap ") { break }
        }
        #expect(second.first?.hasPrefix("gesture pan cancelled drag ") == true, "\(second)\n\(bed.log)")
        let geometry = DeviceGeometry(x: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
                                      y: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
                                      screen: Size(width: 1000, height: 1000), rotation: .quarter,
                                      calibration: DeviceGeometry.identityCalibration)
        let rotated = geometry.point(for: DevicePosition(x: 1024, y: 3072))
        let expected = "x=\(LineEncoder.fixed(rotated.x, decimals: 2)) y=\(LineEncoder.fixed(rotated.y, decimals: 2))"
        #expect(expected != "x=250.06 y=750.18" && expected != "x=250.00 y=750.00")   // it did rotate
        #expect(second.last?.hasPrefix("gesture tap ended tap view=root device=event7 ") == true, "\(second)")
        #expect(second.last?.contains(" \(expected) ") == true, "\(second), expected \(expected)")
        #expect(bed.log.contains("event7 (gestured synthetic touchscreen): reloaded: rotation 0 → 90; its touches in flight were cancelled"),
                "\(bed.log)")

        // ignore: true lets the device go.
        try TestEnvironment.writeFile(path: configPath, Self.reloadConfig("ignore: true"))
        kill(pid, SIGHUP)
        let removed = try bed.line(from: client, startingWith: "device ")
        #expect(removed?.hasPrefix("device removed event7 ") == true, "\(bed.log)")

        // Without the ignore the device, still there, is taken up again.
        try TestEnvironment.writeFile(path: configPath, Self.reloadConfig("rotation: 0"))
        kill(pid, SIGHUP)
        let added = try bed.line(from: client, startingWith: "device ")
        #expect(added?.hasPrefix("device added event7 ") == true, "\(bed.log)")
        #expect(try bed.quit() == "ok exit exit status 0")
    }
}
