import GesturedConfig
import GesturedCore
import GesturedEvemu
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// A recording ends as a device that goes away: what is still running is cancelled at the
/// last event, so every `began` has its `ended` or `cancelled`.
@Suite struct ReplayEndTests {
    static func device() throws -> DeviceDescription {
        let text = try EvemuDevices.read(TestEnvironment.recordings + "/synthetic-touchscreen.desc")
        return try #require(try EvemuRecording.parse(text, sysname: "event0").description).deviceDescription(sysname: "event0")
    }

    /// Evemu events on the synthetic touchscreen, one frame at a time.
    struct Script {
        var events: [RawEvent] = []
        mutating func frame(at ms: Int64, _ slots: [(slot: Int32, id: Int32?, x: Int32?, y: Int32?)]) {
            let t = Instant(microseconds: ms * 1000)
            for s in slots {
                events.append(RawEvent(time: t, type: 3, code: 0x2f, value: s.slot))
                if let id = s.id { events.append(RawEvent(time: t, type: 3, code: 0x39, value: id)) }
                if let x = s.x { events.append(RawEvent(time: t, type: 3, code: 0x35, value: x)) }
                if let y = s.y { events.append(RawEvent(time: t, type: 3, code: 0x36, value: y)) }
            }
            events.append(RawEvent(time: t, type: 0, code: 0, value: 0))
        }
    }

    static let configuration = ConfigLoader.defaultConfiguration()

    static func replay(_ events: [RawEvent], device: DeviceDescription) throws -> [String] {
        var lines: [String] = []
        try Replay.run(device: device, events: events, configuration: configuration) {
            lines.append($0)
        }
        return lines.map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
    }

    @Test func aPanCutOffWithTheFingerDownIsCancelledAtTheLastEvent() throws {
        var s = Script()
        s.frame(at: 0, [(0, 1, 1000, 2048)])
        for i in 1...20 { s.frame(at: Int64(i) * 10, [(0, nil, 1000 + Int32(i) * 20, nil)]) }
        let lines = try Self.replay(s.events, device: Self.device())
        #expect(lines.contains("gesture pan began pan"), "\(lines)")
        #expect(lines.last == "gesture pan cancelled pan", "\(lines)")
    }

    @Test func aLongPressHeldToTheEndIsCancelledAtTheLastEvent() throws {
        var s = Script()
        s.frame(at: 0, [(0, 1, 2048, 2048)])
        s.frame(at: 1000, [(0, nil, 2050, nil)])
        let lines = try Self.replay(s.events, device: Self.device())
        #expect(lines.first == "gesture longPress began longPress", "\(lines)")
        #expect(lines.last == "gesture longPress cancelled longPress", "\(lines)")
    }

    /// 400 seeded random streams of up to three fingers, each cut at a random frame, fingers
    /// still down or not: in every one, each gesture that began ends or is cancelled once.
    @Test func everyBeganEndsInRandomStreamsCutAnywhere() throws {
        var open = 0, cut = 0
        let device = try Self.device()
        for seed in 0..<400 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            func uniform(_ n: Int) -> Int32 { Int32(rng.next() % UInt64(n)) }
            var s = Script()
            var live: [Int32: (Int32, Int32)] = [:]
            var nextID: Int32 = 1
            let frames = 20 + Int(uniform(100))
            for f in 0..<frames {
                var changes: [(slot: Int32, id: Int32?, x: Int32?, y: Int32?)] = []
                for slot in live.keys.sorted() {
                    switch uniform(20) {
                    case 0: changes.append((slot, -1, nil, nil)); live[slot] = nil
                    case 1...12:
                        let (x, y) = live[slot]!
                        let p = (min(4095, max(0, x + uniform(161) - 80)), min(4095, max(0, y + uniform(161) - 80)))
                        live[slot] = p
                        changes.append((slot, nil, p.0, p.1))
                    default: break
                    }
                }
                if live.count < 3, uniform(6) == 0, let slot = (0..<3).first(where: { live[$0] == nil }) {
                    let p = (uniform(4096), uniform(4096))
                    live[slot] = p
                    changes.append((slot, nextID, p.0, p.1)); nextID += 1
                }
                s.frame(at: Int64(f) * 12 + (uniform(15) == 0 ? 600 : 0), changes)
            }
            if !live.isEmpty { cut += 1 }
            var running: [String: Int] = [:]
            for line in try Self.replay(s.events, device: device) {
                let f = line.split(separator: " ")
                let (state, name) = (String(f[2]), String(f[3]))
                switch state {
                case "began": running[name, default: 0] += 1
                case "ended", "cancelled": if running[name, default: 0] > 0 { running[name]! -= 1 }
                default: break
                }
            }
            let left = running.filter { $0.value > 0 }
            if !left.isEmpty { open += 1 }
            #expect(left.isEmpty, "seed \(seed): never ended: \(left)")
        }
        #expect(open == 0)
        #expect(cut > 100, "the streams should often end with fingers down")
    }
}
