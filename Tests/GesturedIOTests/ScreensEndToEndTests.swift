import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Two panels in one daemon, and a reload that really reloads, against libumockdev's testbed
/// (`Testbed`, HotplugTests.swift): real libudev, libevdev, epoll and sockets, emulated devices.
/// No sleeping: every wait is a read with a deadline; the recordings leave seconds between the
/// moments a test acts on.
@Suite(.serialized) struct ScreensEndToEndTests {
    static let twoPanels = """
        { screens: [
            { id: "front", width: 1000, height: 1000,
              devices: [{ match: { sysname: "event7" } }, { match: { sysname: "event9" } }],
              views: [{ id: "frontRoot", gestures: [{ id: "frontTap", type: "tap" }, { id: "frontDrag", type: "pan" }] }] },
            { id: "back", width: 1000, height: 1000, devices: "rest",
              views: [{ id: "backRoot", gestures: [{ id: "backDrag", type: "pan" }, { id: "backTap", type: "tap" }] }] },
        ] }
        """

    /// A tap on panel A and a pan on panel B at the same time are independent gestures of their
    /// screens; a third device plugged in lands on its rule's screen.
    @Test func tapOnOnePanelPanOnTheOtherAndAHotpluggedThird() throws {
        guard let bed = try Testbed(config: Self.twoPanels) else { return }
        let client = try bed.client()
        #expect(try bed.command("add event7 \(TestEnvironment.recordings)/synthetic-tap.events").hasPrefix("ok "))
        #expect(try bed.command("add event8 \(TestEnvironment.recordings)/synthetic-pan-hold.events").hasPrefix("ok "))
        var tap: String?, pan: String?
        let limit = deadline(milliseconds: 15_000)
        while tap == nil || pan == nil, let line = try client.readLine(deadline: limit) {
            if line.hasPrefix("gesture tap ended") { tap = line }
            if line.hasPrefix("gesture pan changed") { pan = line }
            #expect(!line.contains("frontDrag") && !line.contains("backTap"), "\(line)")
        }
        #expect(tap?.hasPrefix("gesture tap ended frontTap view=frontRoot device=event7 screen=front ") == true, "\(bed.log)")
        #expect(pan?.hasPrefix("gesture pan changed backDrag view=backRoot device=event8 screen=back ") == true, "\(bed.log)")
        #expect(try bed.command("add event9 \(TestEnvironment.recordings)/synthetic-tap.events").hasPrefix("ok "))
        let third = try bed.line(from: client, startingWith: "gesture tap ended")
        #expect(third?.hasPrefix("gesture tap ended frontTap view=frontRoot device=event9 screen=front ") == true, "\(bed.log)")
        #expect(bed.log.contains("event9 (gestured synthetic touchscreen): using it, 10 slots on screen front"), "\(bed.log)")
        #expect(try bed.quit() == "ok exit exit status 0")
    }

    static func config(_ rule: String) -> String {
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

    /// A pan that pauses at 1.3 s and resumes at 3.5 s; a second pan from 6 s held to 9 s; a
    /// tap at (1024, 3072) at 11 s.
    static let reloadRecording: String = {
        var frames = ["# EVEMU 1.3", "E: 0.000000 0000 0000 0", frame(1.0, down: true, x: 400, y: 400)]
        for i in 1...6 { frames.append(frame(1.0 + Double(i) * 0.05, x: 400 + i * 40)) }
        for i in 1...6 { frames.append(frame(3.5 + Double(i) * 0.05, x: 640 + i * 40)) }
        frames.append(frame(3.9, down: false))
        frames.append(frame(6.0, down: true, x: 400, y: 2000))
        for i in 1...6 { frames.append(frame(6.0 + Double(i) * 0.05, x: 400 + i * 40)) }
        frames.append(frame(9.0, down: false))
        frames += [frame(11.0, down: true, x: 1024, y: 3072), frame(11.05, down: false)]
        return frames.joined(separator: "\n") + "\n"
    }()

    /// SIGHUP with an invalid file changes nothing (the pan in progress goes on); rotation 0 → 90
    /// cancels the touch in flight and rotates the next gesture; `ignore: true` lets the device go.
    @Test func reloadAppliesRotationAndIgnoreAndAnInvalidFileChangesNothing() throws {
        guard let bed = try Testbed(config: Self.config("rotation: 0")) else { return }
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
        try TestEnvironment.writeFile(path: configPath, Self.config("rotation: 90"))
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
        try TestEnvironment.writeFile(path: configPath, Self.config("ignore: true"))
        kill(pid, SIGHUP)
        let removed = try bed.line(from: client, startingWith: "device ")
        #expect(removed?.hasPrefix("device removed event7 ") == true, "\(bed.log)")
        #expect(try bed.quit() == "ok exit exit status 0")
    }
}
