import FoundationEssentials
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Testing

/// Every recording, the synthetic ones and the real ones in Tests/Fixtures/evemu-devices, goes
/// through the kernel: a uinput device made from its description, the events written frame by
/// frame and read back from /dev/input/eventN with libevdev (as the daemon reads them). The
/// touch state after each frame read back must follow the recorded one, frame for frame.
///
/// The kernel legitimately drops events that change nothing (a repeated value, a frame left
/// empty), so states are compared, consecutive repeats merged. Axes are created without fuzz
/// here, since the kernel's fuzz filter rewrites small moves on purpose.
extension VMTests {
    struct Playback: CustomTestStringConvertible, Sendable {
        var events: String
        var description: String
        var testDescription: String { String(events.split(separator: "/").last ?? "") }
    }

    static var allRecordings: [Playback] {
        let own = ["synthetic-tap.events", "synthetic-double-tap.events", "synthetic-two-finger-tap.events"].map {
            Playback(events: TestEnvironment.recordings + "/" + $0,
                     description: TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        }
        return own + EvemuDevices.all.map { Playback(events: $0.events, description: $0.description) }
    }

    @Test(arguments: allRecordings)
    func aRecordingPlaysThroughTheKernel(_ playback: Playback) throws {
        var description = try #require(try EvemuRecording.parse(try readTextFile(path: playback.description), sysname: "").description)
        for code in description.axes.keys { description.axes[code]!.fuzz = 0 }
        let recorded = try EvemuRecording.parse(try readTextFile(path: playback.events), sysname: "").events
        let device = try UinputDevice(description, name: "gestured vm playback", udevDeadline: deadline(milliseconds: 20_000))
        let reader = try EvdevDevice(path: device.devnode)

        var expected = TouchState(description), seen = TouchState(description)
        // Both start from the device's initial state (a recording's leading empty frame is one
        // the kernel drops).
        var expectedStates = [expected], seenStates = [seen]
        var readBack: [RawEvent] = []
        var frames = 0
        for event in recorded {
            try device.write(type: event.type, code: event.code, value: event.value)
            guard expected.apply(event) else { continue }
            frames += 1
            if expectedStates.last != expected { expectedStates.append(expected) }
            // The kernel hands a frame to readers when its SYN_REPORT is written: it is there now.
            readBack.removeAll(keepingCapacity: true)
            let status = try reader.read(into: &readBack)
            try #require(status == .drained, "\(status) after frame \(frames)")
            for event in readBack where seen.apply(event) {
                if seenStates.last != seen { seenStates.append(seen) }
            }
        }
        try #require(frames > 0)
        #expect(seenStates.count == expectedStates.count, "\(frames) frames: \(seenStates.count) states read back, \(expectedStates.count) recorded")
        if let first = zip(seenStates, expectedStates).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("state \(first) differs: read back \(seenStates[first]), recorded \(expectedStates[first])")
        }
    }
}

/// What a device's frames leave behind: keys and axes that differ from their initial value,
/// and per slot the MT values that differ from theirs (tracking id -1, else 0). `EV_MSC` and
/// other event types are left out.
struct TouchState: Equatable, CustomStringConvertible {
    private var keys: [UInt16: Int32] = [:]
    private var axes: [UInt16: Int32] = [:]
    private var slots: [Int32: [UInt16: Int32]] = [:]
    private var slot: Int32 = 0
    private let initial: [UInt16: Int32]

    init(_ description: EvemuDescription) {
        initial = description.axes.mapValues(\.minimum)
    }

    static func == (a: TouchState, b: TouchState) -> Bool {
        a.keys == b.keys && a.axes == b.axes && a.slots == b.slots
    }

    /// Applies one event; true at the end of a frame (`SYN_REPORT`).
    mutating func apply(_ event: RawEvent) -> Bool {
        switch event.type {
        case EventCode.EV_SYN:
            return event.code == EventCode.SYN_REPORT
        case EventCode.EV_KEY:
            keys[event.code] = event.value == 0 ? nil : event.value
        case EventCode.EV_ABS where event.code == EventCode.ABS_MT_SLOT:
            slot = event.value
        case EventCode.EV_ABS where event.code >= EventCode.ABS_MT_TOUCH_MAJOR && event.code <= 0x3f:
            let rest: Int32 = event.code == EventCode.ABS_MT_TRACKING_ID ? -1 : 0
            slots[slot, default: [:]][event.code] = event.value == rest ? nil : event.value
            if slots[slot]?.isEmpty == true { slots[slot] = nil }
        case EventCode.EV_ABS:
            axes[event.code] = event.value == initial[event.code] ? nil : event.value
        default:
            break
        }
        return false
    }

    var description: String { "keys \(keys.sorted { $0.key < $1.key }) axes \(axes.sorted { $0.key < $1.key }) slots \(slots.sorted { $0.key < $1.key })" }
}

/// The names in a folder (FoundationEssentials' FileManager).
func listDirectory(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path)
}
