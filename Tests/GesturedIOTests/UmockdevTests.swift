import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Testing

/// The real libudev and libevdev path, against devices emulated by umockdev.
///
/// How: a test writes the `.umockdev`/`.ioctl` files for a device description
/// (`UmockdevDevice.files`), then runs `timeout -s KILL 20 umockdev-run -d … -i … -e … --
/// gestured-testtool iocheck /dev/input/event7 --events N` as a subprocess. The tool (built with
/// the tests, next to the test bundle) enumerates udev through `UdevEnumerator`, opens the node
/// with `EvdevDevice`, and prints the description and every event it reads, which the test
/// compares with the description and the replayed recording. The test process itself never
/// runs under the umockdev preload library.
@Suite(.serialized) struct UmockdevTests {
    struct Output {
        var udev: [String] = []
        var properties: Set<String> = []
        var device = ""
        var clock = ""
        var statuses: [String] = []
        var events: [RawEvent] = []
    }

    static let node = "/dev/input/event7"

    static func run(description: EvemuDescription, events: String, count: Int,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Output? {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps` (or `make test`)", sourceLocation: sourceLocation)
            return nil
        }
        let tool = TestEnvironment.buildDirectory + "/gestured-testtool"
        guard (try? readFile(path: tool, limit: 1 << 30)) != nil else {
            Issue.record("\(tool) is missing: build with `swift build --build-tests`", sourceLocation: sourceLocation)
            return nil
        }
        let directory = try TestEnvironment.TemporaryDirectory()
        let files = UmockdevDevice.files(for: description, node: node)
        let umockdev = try directory.write("device.umockdev", files.umockdev)
        let ioctl = try directory.write("device.ioctl", files.ioctl)
        let eventsFile = try directory.write("device.events", events)
        let result = try Subprocess.run(
            "timeout", ["-s", "KILL", "20", umockdevRun, "-d", umockdev, "-i", "\(node)=\(ioctl)",
                        "-e", "\(node)=\(eventsFile)", "--", tool, "iocheck", node,
                        "--events", String(count), "--timeout-ms", "8000"],
            in: directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(result.termination == .exited(0), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        var output = Output()
        var eventLines = ""
        for line in result.stdout.split(separator: "\n") {
            if line.hasPrefix("udev ") { output.udev.append(String(line)) }
            else if line.hasPrefix("property ") { output.properties.insert(String(line.dropFirst(9))) }
            else if line.hasPrefix("device ") { output.device = String(line) }
            else if line.hasPrefix("clock ") { output.clock = String(line) }
            else if line.hasPrefix("status ") || line == "timeout" { output.statuses.append(String(line)) }
            else if line.hasPrefix("E: ") { eventLines += line + "\n" }
        }
        output.events = try EvemuRecording.parse(eventLines, sysname: "event7").events
        return output
    }

    static func synthetic() throws -> EvemuDescription {
        let text = try readTextFile(path: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        return try #require(try EvemuRecording.parse(text, sysname: "event7").description)
    }

    @Test func syntheticTouchscreenThroughUdevAndLibevdev() throws {
        let description = try Self.synthetic()
        let events = try readTextFile(path: TestEnvironment.recordings + "/synthetic-tap.events")
        let recording = try EvemuRecording.parse(events, sysname: "event7")
        guard let output = try Self.run(description: description, events: events, count: recording.events.count) else { return }

        #expect(output.udev == ["udev sysname=event7 devnode=/dev/input/event7 initialized=0 "
                                + "name=\"gestured synthetic touchscreen\" syspath=/sys/devices/virtual/input/input7/event7"])
        #expect(output.properties.isSuperset(of: ["event7 ID_INPUT=1", "event7 ID_INPUT_TOUCHSCREEN=1",
                                                 "event7 DEVNAME=/dev/input/event7"]))
        #expect(output.device == "device sysname=event7 name=\"gestured synthetic touchscreen\" bus=6 vendor=1 "
                + "product=1 slots=10 tracking=1 direct=1 x=0..4095/16 y=0..4095/16 mtx=0..4095/16 mty=0..4095/16")
        // umockdev does not emulate EVIOCSCLOCKID.
        #expect(output.clock == "clock monotonic=0")
        // Every replayed event, with the recording's own timestamps (umockdev keeps them).
        #expect(output.events == recording.events)
        #expect(output.statuses.isEmpty)
    }

    /// A replayed `SYN_DROPPED` makes libevdev resynchronize from the (emulated) ioctls: the
    /// touch that was down is ended by synthesized events, after the SYN_DROPPED marker.
    @Test func synDroppedIsReportedAndResynced() throws {
        // Fractions without leading zeros: umockdev 0.17 reads the microseconds with strtol
        // base 0, so "0.050000" would be octal.
        let events = """
            E: 1.100000 0003 002f 0
            E: 1.100000 0003 0039 1
            E: 1.100000 0003 0035 100
            E: 1.100000 0003 0036 200
            E: 1.100000 0001 014a 1
            E: 1.100000 0000 0000 0
            E: 1.200000 0000 0003 0
            E: 1.200000 0003 0035 300
            E: 1.200000 0000 0000 0

            """
        guard let output = try Self.run(description: try Self.synthetic(), events: events, count: 12) else { return }
        let kinds = output.events.map { [Int($0.type), Int($0.code), Int($0.value)] }
        #expect(kinds.prefix(7) == [[3, 0x2f, 0], [3, 0x39, 1], [3, 0x35, 100], [3, 0x36, 200], [1, 0x14a, 1],
                                    [0, 0, 0], [0, 3, 0]])
        // The resynchronized state (libevdev ends touches in a frame of their own, then the rest),
        // up to the SYN_REPORT after BTN_TOUCH's release. umockdev writes events one by one: the
        // frame after the drop may be read with the resync or after it, as normal events.
        let after = Array(output.events.dropFirst(7))
        let synced = after.map { [Int($0.type), Int($0.code), Int($0.value)] }
        #expect(synced.contains([3, 0x39, -1]), "\(synced)")   // the slot's touch ended
        let release = try #require(synced.firstIndex(of: [1, 0x14a, 0]), "BTN_TOUCH not released: \(synced)")
        let end = try #require(synced[release...].firstIndex(of: [0, 0, 0]), "not closed by SYN_REPORT: \(synced)")
        #expect(output.statuses == ["status resynced"])
        // Stamped with the drop's kernel time, not libevdev's stale last time: never backwards.
        #expect(after[...end].allSatisfy { $0.time == Instant(microseconds: 1_200_000) }, "\(after[...end].map(\.time))")
    }

    /// Real recordings: each device as libevdev sees it, and its events replayed.
    @Test(arguments: [
        ("Wacom ISDv4 E6 Finger", "Wacom ISDv4 E6 Finger.single-tap-center.events", 2, true),
        ("eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller",
         "eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap.events", 10, false),
        ("Wacom Bamboo 16FG 4x5 Finger", "Wacom Bamboo 16FG 4x5 Finger double-tap.events", 16, false),
    ])
    func realDevice(name: String, eventsFile: String, slots: Int, direct: Bool) throws {
        let fixtures = EvemuDevices.directory
        let descText = try EvemuDevices.read("\(fixtures)/\(name).desc")
        let description = try #require(try EvemuRecording.parse(descText, sysname: "event7").description)
        let events = try EvemuDevices.read("\(fixtures)/\(eventsFile)")
        let recording = try EvemuRecording.parse(events, sysname: "event7")
        guard let output = try Self.run(description: description, events: events, count: recording.events.count) else { return }
        #expect(output.device.contains("name=\"\(name)\""))
        #expect(output.device.contains(" slots=\(slots) "))
        #expect(output.device.contains(" direct=\(direct ? 1 : 0) "))
        #expect(output.properties.contains("event7 \(direct ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD")=1"))
        // Compare without timestamps (umockdev misreads fractions with leading zeros).
        #expect(output.events.map { [$0.type, $0.code] } == recording.events.map { [$0.type, $0.code] })
        #expect(output.events.map(\.value) == recording.events.map(\.value))
    }
}
