import GesturedCore
import GesturedSynthetic
import Glibc

/// A generated evemu-style event stream: raw events with the end of each frame marked.
public struct FrameStream: Sendable {
    public struct Frame: Sendable {
        /// The frame's events, `SYN_REPORT` last: `events[range]`.
        public var range: Range<Int>
        /// Only moves of touches already down: the steady state.
        public var isSteady: Bool
    }

    public private(set) var events: [RawEvent] = []

    public init() {}
    public private(set) var frames: [Frame] = []
    /// 120 Hz, a typical touch panel report rate.
    public static let frameInterval: Int64 = 8_333

    private var time: Int64 = 1_000_000
    private var nextTrackingID: Int32 = 1
    private var down: [Point?] = Array(repeating: nil, count: 10)
    /// The slot the last ABS_MT_SLOT selected: like the kernel, the stream names a slot only
    /// when it changes.
    private var currentSlot = 0

    /// One frame's changes, by slot: a point to put or move a finger there, nil to lift it.
    public mutating func frame(_ changes: [(slot: Int, point: Point?)]) {
        let start = events.count
        var steady = true
        for (slot, point) in changes {
            if slot != currentSlot {
                emit(EventCode.EV_ABS, EventCode.ABS_MT_SLOT, Int32(slot))
                currentSlot = slot
            }
            switch (down[slot], point) {
            case (nil, let p?):
                steady = false
                emit(EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, nextTrackingID); nextTrackingID += 1
                position(p)
            case (_?, let p?):
                position(p)
            case (_?, nil):
                steady = false
                emit(EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, -1)
            case (nil, nil):
                break
            }
            down[slot] = point
        }
        emit(EventCode.EV_SYN, EventCode.SYN_REPORT, 0)
        frames.append(Frame(range: start..<events.count, isSteady: steady))
        time += Self.frameInterval
    }

    /// Lets time pass with no frame (deadlines fire on the next one).
    public mutating func pause(microseconds: Int64) { time += microseconds }

    private mutating func position(_ p: Point) {
        emit(EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X, Int32((p.x / Scenario.screen.width * 4095).rounded()))
        emit(EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y, Int32((p.y / Scenario.screen.height * 4095).rounded()))
    }

    private mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(RawEvent(time: Instant(microseconds: time), type: type, code: code, value: value))
    }

    /// The evemu `E:` lines of the stream (for `gestured replay` and umockdev), appended to `out`.
    public func evemuLines(into out: inout [UInt8]) {
        func digits(_ n: Int64, width: Int) {
            var text = Array(String(n).utf8)
            while text.count < width { text.insert(UInt8(ascii: "0"), at: 0) }
            out.append(contentsOf: text)
        }
        func hex4(_ v: UInt16) {
            let hex = Array("0123456789abcdef".utf8)
            for shift in [12, 8, 4, 0] { out.append(hex[Int(v >> UInt16(shift)) & 0xf]) }
        }
        for e in events {
            out.append(contentsOf: "E: ".utf8)
            digits(e.time.microseconds / 1_000_000, width: 1)
            out.append(UInt8(ascii: "."))
            digits(e.time.microseconds % 1_000_000, width: 6)
            out.append(UInt8(ascii: " ")); hex4(e.type)
            out.append(UInt8(ascii: " ")); hex4(e.code)
            out.append(UInt8(ascii: " ")); digits(Int64(e.value), width: 1)
            out.append(UInt8(ascii: "\n"))
        }
    }
}

extension FrameStream {
    /// About `frames` frames of `gesture`, repeated from the start as often as it takes.
    public static func generate(_ gesture: Scenario.Gesture, frames count: Int) -> FrameStream {
        var s = FrameStream()
        var random = SplitMix64(seed: 0x6765_7374_7572_6564)
        let center = Point(x: Scenario.screen.width * 0.43, y: Scenario.screen.height * 0.47)
        while s.frames.count < count {
            switch gesture {
            case .tap:
                // Down, two frames of jitter within the slop, up; the next tap after the double-tap
                // interval, so each is a single tap once the double tap gives up.
                let p = Point(x: center.x + random.uniform(-200, 200), y: center.y + random.uniform(-150, 150))
                s.frame([(0, p)])
                s.frame([(0, p + Vector(dx: 1, dy: 0.5))])
                s.frame([(0, p + Vector(dx: 1.5, dy: 1))])
                s.frame([(0, nil)])
                s.pause(microseconds: 400_000)
            case .pan:
                // A long drag along a Lissajous curve.
                s.frame([(0, center)])
                for i in 1...240 {
                    let t = Double(i) / 40
                    s.frame([(0, center + Vector(dx: 300 * sin(t), dy: 200 * sin(1.3 * t)))])
                }
                s.frame([(0, nil)])
                s.pause(microseconds: 400_000)
            case .pinchRotate:
                // Two fingers spreading and closing while turning.
                let fingers = { (i: Int) -> [(slot: Int, point: Point?)] in
                    let t = Double(i) / 30
                    let r = 120 + 80 * sin(t), a = 0.6 * t
                    let v = Vector(dx: r * cos(a), dy: r * sin(a))
                    return [(0, center - v), (1, center + v)]
                }
                s.frame(fingers(0))
                for i in 1...240 { s.frame(fingers(i)) }
                s.frame([(0, nil), (1, nil)])
                s.pause(microseconds: 400_000)
            case .swipe5:
                // Five fingers flicking right, fast.
                let start = (0..<5).map { Point(x: 200, y: 150 + Double($0) * 110) }
                s.frame(start.enumerated().map { ($0.offset, $0.element) })
                for i in 1...30 {
                    s.frame(start.enumerated().map { ($0.offset, $0.element + Vector(dx: Double(i) * 25, dy: 0)) })
                }
                s.frame((0..<5).map { ($0, nil) })
                s.pause(microseconds: 400_000)
            case .chaos10:
                // Ten fingers wandering at random; every 60 frames one lifts and lands elsewhere.
                var points = (0..<10).map { _ in
                    Point(x: random.uniform(100, 1180), y: random.uniform(100, 700))
                }
                s.frame(points.enumerated().map { ($0.offset, $0.element) })
                for i in 1...240 {
                    if i % 60 == 0 {
                        let slot = Int(random.next() % 10)
                        s.frame([(slot, nil)])
                        points[slot] = Point(x: random.uniform(100, 1180), y: random.uniform(100, 700))
                        s.frame([(slot, points[slot])])
                        continue
                    }
                    for k in points.indices {
                        points[k].x = min(1270, max(10, points[k].x + random.uniform(-6, 6)))
                        points[k].y = min(790, max(10, points[k].y + random.uniform(-6, 6)))
                    }
                    s.frame(points.enumerated().map { ($0.offset, $0.element) })
                }
                s.frame((0..<10).map { ($0, nil) })
                s.pause(microseconds: 400_000)
            }
        }
        return s
    }
}
