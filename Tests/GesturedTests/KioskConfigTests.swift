import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// The complete kiosk configuration of docs/KIOSK.md does what the chapter says: everything
/// outside the admin strip reaches the application at once, the strip's touches never do, and a
/// three-finger long press is cancelled in the application when it begins.
struct KioskConfigTests {
    static func configuration() throws -> Configuration {
        let text = try readTextFile(path: TestEnvironment.packageRoot + "/docs/KIOSK.md")
        let start = try #require(text.split(separator: "```json5\n", maxSplits: 1).last)
        let block = try #require(start.split(separator: "```", maxSplits: 1).first)
        let configuration = try ConfigLoader.parse(String(block), file: "KIOSK.md")
        return configuration
    }

    /// Frames of a 10-slot panel whose axes are the screen's points (0...1279 × 0...799).
    struct Kiosk {
        var pipeline: GesturePipeline
        let device: GesturePipeline.DeviceID
        var app: [String] = []
        var gestures: [String] = []
        var script = PanelScript()

        init() throws {
            let configuration = try KioskConfigTests.configuration()
            pipeline = try GesturePipeline(configuration: configuration, screen: configuration.screen!)
            let panel = DeviceDescription(sysname: "event0", name: "kiosk panel", mtX: AxisInfo(minimum: 0, maximum: 1279),
                                          mtY: AxisInfo(minimum: 0, maximum: 799), slotCount: 10, hasTrackingID: true)
            let properties = ["ID_INPUT_TOUCHSCREEN": "1"]
            let rule = configuration.devices.first { $0.matches(panel, properties: properties) }
            device = try pipeline.addDevice(panel, rule: rule)
        }

        mutating func frame(ms: Int64, _ contacts: [(slot: Int32, x: Int32?)], y: Int32 = 400) {
            let events = script.frame(at: Instant(microseconds: ms * 1000), contacts.map { c in
                c.x.map { .down(slot: c.slot, x: $0, y: y + 10 * c.slot) } ?? .up(slot: c.slot)
            })
            var output = Decisions()
            for e in events { pipeline.handle(e, from: device, into: &output) }
            record(output)
        }

        mutating func advance(ms: Int64) {
            var output = Decisions()
            while let d = pipeline.nextDeadline, d <= Instant(microseconds: ms * 1000) { pipeline.advance(to: d, into: &output) }
            record(output)
        }

        mutating func record(_ output: Decisions) {
            for case .gesture(let g) in output.outputs where g.state != .failed { gestures.append("\(g.name) \(g.state.rawValue)") }
            for f in output.forwarded {
                switch f.kind {
                case .down: app.append("down \(f.slot)")
                case .move: app.append("move \(f.slot)")
                case .cancel: app.append("cancel \(f.slot)")
                case .up: app.append("up \(f.slot)")
                }
            }
        }
    }

    @Test func aTapOnTheAppPassesThroughAtOnce() throws {
        var k = try Kiosk()
        #expect(k.pipeline.passesThrough(k.device))
        k.frame(ms: 0, [(0, 600)])
        #expect(k.app == ["down 0"])
        k.frame(ms: 50, [(0, nil)])
        #expect(k.app == ["down 0", "up 0"])
    }

    @Test func theAdminStripsTouchesNeverReachTheApplication() throws {
        var k = try Kiosk()
        k.frame(ms: 0, [(0, 1275)])
        k.frame(ms: 50, [(0, nil)])
        k.advance(ms: 5000)
        #expect(k.app == [])
    }

    @Test func aThreeFingerLongPressIsCancelledInTheApplicationWhenItBegins() throws {
        var k = try Kiosk()
        k.frame(ms: 0, [(0, 500), (1, 520), (2, 540)])
        #expect(k.app == ["down 0", "down 1", "down 2"])
        k.advance(ms: 2500)
        #expect(k.gestures == ["service began"])
        #expect(k.app == ["down 0", "down 1", "down 2", "cancel 0", "up 0", "cancel 1", "up 1", "cancel 2", "up 2"])
        k.frame(ms: 3000, [(0, nil), (1, nil), (2, nil)])
        #expect(k.app.count == 9)
    }
}
