import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Testing

/// `gestured devices` under umockdev-run, against an emulated touchscreen, touchpad, keyboard
/// and a touchscreen whose X axis is unusable (min == max), with a config whose rules add the
/// touchpad and apply to the touchscreen.
@Suite struct DevicesCommandTests {
    static let rules = """
        { devices: [ { match: { type: "touchpad" }, add: true },
                     { match: { name: "gestured synthetic t*", vendor: 1 }, rotation: 90 } ] }
        """

    static func devices(_ extraArguments: [String], config configText: String = rules) throws -> Subprocess.Completed? {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps`"); return nil
        }
        let gestured = TestEnvironment.buildDirectory + "/gestured"
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-devices")
        let descText = try readTextFile(path: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        let touchscreen = try #require(try EvemuRecording.parse(descText, sysname: "").description)
        var touchpad = touchscreen
        touchpad.name = "gestured synthetic touchpad"
        touchpad.properties = [0, 0, 0, 0, 0, 0, 0, 0]
        var keyboard = EvemuDescription(name: "gestured synthetic keyboard", bustype: 0x11, vendor: 1, product: 1)
        keyboard.bits = [0: [0x03], 1: [0xfe, 0xff, 0xff, 0xff]]   // EV_SYN, EV_KEY; KEY_ESC…KEY_31
        var broken = touchscreen
        broken.name = "gestured broken touchscreen"
        broken.axes[EventCode.ABS_MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 0)
        broken.axes[EventCode.ABS_X] = AxisInfo(minimum: 0, maximum: 0)
        let config = try directory.write("c.json5", configText)
        var arguments = ["-s", "KILL", "20", umockdevRun]
        for (index, (description, properties)) in [
            (touchscreen, nil), (touchpad, nil), (keyboard, ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"]),
            (broken, nil),
        ].enumerated() {
            let node = "/dev/input/event\(index + 7)"
            let files = UmockdevDevice.files(for: description, node: node, properties: properties)
            arguments += ["-d", try directory.write("d\(index).umockdev", files.umockdev),
                          "-i", "\(node)=" + (try directory.write("d\(index).ioctl", files.ioctl))]
        }
        arguments += ["--", gestured, "devices", "--config", config] + extraArguments
        return try Subprocess.run("timeout", arguments, in: directory.path, deadline: deadline(milliseconds: 30_000))
    }

    @Test func listsEveryDeviceWithTypeAxesAndRule() throws {
        guard let result = try Self.devices([]) else { return }
        #expect(result.termination == .exited(0), "stderr: \(result.stderr)")
        let blocks = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(blocks == [
            "event7 \"gestured synthetic touchscreen\" touchscreen: used (devices[1])",
            "event8 \"gestured synthetic touchpad\" touchpad: used (devices[0])",
            "event9 \"gestured synthetic keyboard\" other: not used (other; a rule with add: true would use it)",
            "event10 \"gestured broken touchscreen\" touchscreen: not used (unusable: axis ABS_MT_POSITION_X has an unusable range 0..0 (minimum must be below maximum))",
        ], "\(result.stdout)")
        #expect(result.stdout.contains("  multitouch protocol B, 10 slots\n"))
        #expect(result.stdout.contains("  x 0..4095 (16 units/mm), y 0..4095 (16 units/mm), mt-x 0..4095 (16 units/mm), mt-y 0..4095 (16 units/mm)\n"))
        #expect(result.stdout.contains("  rule: devices[1]\n"))
        // Which configuration: the one given (CONTRACT.md §6), and no screen assumed.
        #expect(result.stderr.split(separator: "\n").contains { $0.hasPrefix("config: /") && $0.hasSuffix("/c.json5") }, "\(result.stderr)")
    }

    @Test func jsonHasOneObjectPerDevice() throws {
        guard let result = try Self.devices(["--json"]) else { return }
        #expect(result.termination == .exited(0), "stderr: \(result.stderr)")
        let objects = result.stdout.split(separator: "\n")
        #expect(objects.count == 4, "\(result.stdout)")
        #expect(objects.first?.hasPrefix("[{\"sysname\":\"event7\",\"devnode\":\"/dev/input/event7\",\"name\":\"gestured synthetic touchscreen\",\"type\":\"touchscreen\"") == true)
        #expect(objects.first?.contains("\"slots\":10,\"axes\":{\"x\":{\"minimum\":0,\"maximum\":4095,\"resolution\":16}") == true, "\(result.stdout)")
        #expect(objects.first?.contains("\"usable\":true,\"rule\":1,\"decision\":\"used (devices[1])\"}") == true)
        #expect(objects.last?.contains("\"usable\":false,\"rule\":null,") == true, "\(result.stdout)")
        #expect(objects.last?.hasSuffix("}]") == true)
        #expect(objects[2].contains("\"type\":\"other\"") && objects[2].contains("\"slots\":0,\"axes\":{}"))
    }

    /// With `screens`, each device's screen: the one whose devices match it, none for a device
    /// no screen takes (then it is not used).
    @Test func showsEachDevicesScreen() throws {
        guard let result = try Self.devices([], config: """
            { devices: [ { match: { type: "touchpad" }, add: true } ],
              screens: [ { id: "front", devices: [ { match: { name: "gestured synthetic touchscreen" } } ] },
                         { id: "back", devices: [ { match: { type: "touchpad" } } ] } ] }
            """) else { return }
        #expect(result.termination == .exited(0), "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") || $0.hasPrefix("  screen: ") }
        #expect(lines == [
            "event7 \"gestured synthetic touchscreen\" touchscreen: used (touchscreen)", "  screen: front",
            "event8 \"gestured synthetic touchpad\" touchpad: used (devices[0])", "  screen: back",
            "event9 \"gestured synthetic keyboard\" other: not used (other; a rule with add: true would use it)", "  screen: none",
            "event10 \"gestured broken touchscreen\" touchscreen: not used (no screen takes it: no screen's devices match it and none says devices: \"rest\")",
            "  screen: none",
        ], "\(result.stdout)")
        guard let json = try Self.devices(["--json"], config: """
            { screens: [ { id: "front", devices: [ { match: { sysname: "event7" } } ] } ] }
            """) else { return }
        let objects = json.stdout.split(separator: "\n")
        #expect(objects.first?.hasSuffix(",\"decision\":\"used (touchscreen)\",\"screen\":\"front\"},") == true, "\(json.stdout)")
        #expect(objects.last?.hasSuffix(",\"screen\":null}]") == true, "\(json.stdout)")
    }

    /// A device under a `passThrough` rule: whether it can be cloned, and the gestures that need
    /// more touches than it reports (here `maximumTouches: 2`); the touchpad, without
    /// `INPUT_PROP_DIRECT`, cannot pass through.
    @Test func saysWhetherAPassThroughDeviceCanBeClonedAndWhichGesturesItNeverRecognizes() throws {
        guard let result = try Self.devices([], config: """
            { devices: [ { match: { type: "touchpad" }, add: true, passThrough: true },
                         { match: { name: "gestured synthetic t*" }, passThrough: true, maximumTouches: 2 } ],
              views: [ { id: "root", gestures: [ { id: "two", type: "pan", minimumNumberOfTouches: 2 },
                                                 { id: "three", type: "swipe", numberOfTouchesRequired: 3 } ] } ] }
            """) else { return }
        #expect(result.termination == .exited(0), "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("  passThrough: ") } == [
            "  passThrough: cloned as \"gestured synthetic touchscreen (gestured)\", 2 touches; never recognized here (more touches than that): three (3)",
            "  passThrough: cannot be cloned: it is not a direct-touch device (no INPUT_PROP_DIRECT: a touchpad or a tablet), "
                + "so its clone would be one too, which compositors use as a pointer, not as touches; read without grabbing",
        ], "\(result.stdout)")
        guard let json = try Self.devices(["--json"], config: """
            { devices: [ { match: { name: "gestured synthetic t*" }, passThrough: true } ] }
            """) else { return }
        #expect(json.stdout.split(separator: "\n").first?.contains(#""passThrough":"cloned as \"gestured synthetic touchscreen (gestured)\", 10 touches""#) == true,
                "\(json.stdout)")
        #expect(json.stdout.split(separator: "\n").dropFirst().allSatisfy { !$0.contains("passThrough") }, "only the rule's devices")
    }
}
