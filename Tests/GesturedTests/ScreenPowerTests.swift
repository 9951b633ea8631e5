@testable import gestured
import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `ScreenPower`: a screen's `dpms` read with one `pread` on a descriptor kept open when a
/// sequence may begin (no touch down on its screen), never while one is down and never without
/// a read of the panel; what it says decides whether the sequence is claimed. A real file in a
/// directory standing for /sys.
@Suite struct ScreenPowerTests {
    final class Recorder: BatchCarrying {
        var lines: [String] = []
        func carryOut(_ batch: Batch, requester: ClientID?) {
            for output in batch.outputs {
                switch output {
                case .kiosk(let k): lines.append(k.name)
                case .gesture(let g): lines.append("\(g.name) \(g.state.rawValue)")
                case .touch: break
                }
            }
        }
    }

    static let panel = DeviceDescription(sysname: "event3", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                         mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)

    struct Bed {
        let directory: TestEnvironment.TemporaryDirectory
        let dpms: String
        let power: ScreenPower
        let live: LivePipeline
        let recorder: Recorder
        let device: GesturePipeline.DeviceID

        init(source: String = "drm", write initial: String? = "Off\n") throws {
            directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-power")
            let connector = directory.path + "/class/drm/card1-HDMI-A-1"
            for dir in [directory.path + "/class", directory.path + "/class/drm", connector] { mkdir(dir, 0o755) }
            dpms = connector + "/dpms"
            if let initial { try TestEnvironment.writeFile(path: dpms, initial) }
            let configuration = try ConfigLoader.parse("""
                { screen: { width: 1000, height: 1000 }, power: { source: "\(source)", connector: "card1-HDMI-A-1" },
                  views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
                """, file: "power.json5")
            power = ScreenPower(configuration: configuration, sys: directory.path)
            recorder = Recorder()
            live = LivePipeline(try GesturePipeline(configuration: configuration, sizes: [Size(width: 1000, height: 1000)]),
                                shell: recorder)
            let admitted = try DeviceAdmission.admit(ScreenPowerTests.panel, properties: ["ID_INPUT_TOUCHSCREEN": "1"],
                                                     configuration: configuration).get()
            device = try live.add(ScreenPowerTests.panel, admitted)
        }

        /// A read of the panel, as DeviceHub does it: the attribute first, what it says going
        /// into the read's step.
        func read(_ id: Int32, at ms: Int64) {
            live.read(DaemonLoopTests.contact(id, at: Instant(microseconds: ms * 1000)), from: device,
                      screenOff: power.beforeRead(of: device, live: live))
        }
    }

    @Test func aSequenceThatBeginsWhileDpmsSaysOffIsClaimedAndTheNextIsNot() throws {
        let bed = try Bed()
        bed.read(1, at: 0)          // dpms read: Off, so the sequence is claimed
        bed.read(-1, at: 50)        // a finger is down: not read
        #expect(bed.power.reads == 1)
        try TestEnvironment.writeFile(path: bed.dpms, "On\n")   // the wake hook turned the output on
        bed.read(2, at: 1000)
        bed.read(-1, at: 1050)
        #expect(bed.power.reads == 2)
        #expect(bed.recorder.lines == ["wake", "tap ended"])
        #expect(bed.live.pipeline.screensOff == [false])
    }

    /// The wake sets the screen on, but dpms is the truth: still Off at the next sequence (the
    /// output did not come on), that one is claimed as well.
    @Test func dpmsIsReadAgainAtEverySequence() throws {
        let bed = try Bed()
        bed.read(1, at: 0); bed.read(-1, at: 50)
        bed.read(2, at: 1000); bed.read(-1, at: 1050)
        #expect(bed.recorder.lines == ["wake", "wake"])
        #expect(bed.power.reads == 2)
    }

    /// What the attribute cannot say changes nothing: an unknown text, or an attribute that
    /// could not be opened (the socket's word stands).
    @Test func anUnreadableOrUnknownAttributeChangesNothing() throws {
        let bed = try Bed(write: "Flickering\n")
        bed.read(1, at: 0); bed.read(-1, at: 50)
        #expect(bed.recorder.lines == ["tap ended"])
        #expect(bed.power.reads == 1)
        let missing = try Bed(write: nil)
        missing.read(1, at: 0); missing.read(-1, at: 50)
        #expect(missing.power.reads == 0)
        #expect(missing.recorder.lines == ["tap ended"])
    }

    @Test func theSocketSourceReadsNothing() throws {
        let bed = try Bed(source: "socket")
        bed.read(1, at: 0); bed.read(-1, at: 50)
        #expect(bed.power.reads == 0)
        #expect(bed.recorder.lines == ["tap ended"])
    }
}
