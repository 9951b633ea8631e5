import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The line encoder writes through a raw cursor into room it reserves itself; these tests hold it
/// byte for byte to the plain encoder it replaced (`ReferenceLineEncoder`), over random events
/// whose strings need every kind of quoting and whose numbers cover every edge of `fixed`.
struct LineEncoderDifferentialTests {
    /// Strings a config or a device could carry: plain ids, empty, spaces, `=`, quotes,
    /// backslashes, every control character, DEL, non-ASCII (also combining marks), long ones.
    static func randomString(_ rng: inout SplitMix64) -> String {
        let pieces = ["a", "view-1", "event5", " ", "=", "\"", "\\", "\n", "\t", "\r", "\u{7f}", "é", "\u{301}", "日本",
                      "🙂", "x_y.z", String(repeating: "long", count: 40)]
        var s = ""
        for _ in 0..<Int(rng.next() % 5) {
            if rng.next() % 4 == 0 {
                s.unicodeScalars.append(Unicode.Scalar(UInt8(rng.next() % 0x20)))
            } else {
                s += pieces[Int(rng.next() % UInt64(pieces.count))]
            }
        }
        return s
    }

    /// A device name: any string that fits (escapes and all), else a plain one.
    static func randomDevice(_ rng: inout SplitMix64) -> DeviceName {
        DeviceName(randomString(&rng)) ?? "event0"
    }

    static func randomDouble(_ rng: inout SplitMix64) -> Double {
        switch rng.next() % 12 {
        case 0: [0.0, -0.0, .nan, .infinity, -.infinity, 1e300, -1e300, 9e18, 8.99e15, 0.005, -0.005, 0.0049999][Int(rng.next() % 12)]
        case 1: Double(Int64(bitPattern: rng.next()) % 1_000_000)
        case 2: rng.uniform(-1e-3, 1e-3)
        case 3: rng.uniform(-1e12, 1e12)
        default: rng.uniform(-5000, 5000)
        }
    }

    static func randomValues(_ rng: inout SplitMix64) -> GestureValues {
        let v = Vector(dx: randomDouble(&rng), dy: randomDouble(&rng))
        let w = Vector(dx: randomDouble(&rng), dy: randomDouble(&rng))
        return switch rng.next() % 9 {
        case 0: .none
        case 1: .tap(taps: Int(Int64(bitPattern: rng.next()) % 1000))
        case 2: .swipe(direction: SwipeDirection.allCases[Int(rng.next() % 4)])
        case 3: .pan(translation: v, velocity: w)
        case 4: .screenEdgePan(translation: v, velocity: w, edge: ScreenEdge.allCases[Int(rng.next() % 4)])
        case 5: .pinch(scale: randomDouble(&rng), velocity: randomDouble(&rng))
        case 6: .rotation(rotation: randomDouble(&rng), velocity: randomDouble(&rng))
        case 7: .stroke(template: Int(rng.next() % 2), score: randomDouble(&rng))
        default: .longPress(duration: Interval(microseconds: Int64(bitPattern: rng.next()) % 10_000_000_000))
        }
    }

    static let states: [GestureState] = [.began, .changed, .ended, .cancelled, .failed]
    static let phases: [TouchPhase] = [.began, .moved, .ended, .cancelled]

    static func randomInstant(_ rng: inout SplitMix64) -> Instant {
        Instant(microseconds: rng.next() % 3 == 0 ? Int64(bitPattern: rng.next()) : Int64(rng.next() % 10_000_000_000_000))
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func gestureAndTouchLinesMatchTheReference(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // One buffer for all lines, as the daemon and replay use it: a line lands after others.
        var fast: [UInt8] = [], reference: [UInt8] = []
        for i in 0..<3000 {
            let (fastStart, referenceStart) = (fast.count, reference.count)
            let format: LineFormat = rng.next() % 2 == 0 ? .text : .json
            let seq = rng.next() % 3 == 0 ? rng.next() >> 1 : UInt64(i)
            if rng.next() % 3 == 0 {
                let update = TouchUpdate(id: TouchID(rng.next() % 5 == 0 ? rng.next() >> 1 : rng.next() % 100),
                                         phase: Self.phases[Int(rng.next() % 4)],
                                         location: Point(x: Self.randomDouble(&rng), y: Self.randomDouble(&rng)),
                                         device: Self.randomDevice(&rng), slot: Int(rng.next() % 64))
                let t = TouchEvent(update: update, view: rng.next() % 4 == 0 ? nil : Self.randomString(&rng),
                                   time: Self.randomInstant(&rng))
                LineEncoder.touch(t, seq: seq, format: format, into: &fast)
                ReferenceLineEncoder.touch(t, seq: seq, format: format, into: &reference)
            } else {
                let e = GestureEvent(type: Self.randomString(&rng), state: Self.states[Int(rng.next() % 5)],
                                     name: Self.randomString(&rng), view: Self.randomString(&rng),
                                     time: Self.randomInstant(&rng),
                                     sample: GestureSample(touches: Int(rng.next() % 11),
                                                           location: Point(x: Self.randomDouble(&rng), y: Self.randomDouble(&rng)),
                                                           device: Self.randomDevice(&rng), values: Self.randomValues(&rng)),
                                     viewLocation: Point(x: Self.randomDouble(&rng), y: Self.randomDouble(&rng)),
                                     templates: [Self.randomString(&rng), Self.randomString(&rng)])
                LineEncoder.gesture(e, seq: seq, format: format, into: &fast)
                ReferenceLineEncoder.gesture(e, seq: seq, format: format, into: &reference)
            }
            let (line, expected) = (fast[fastStart...], reference[referenceStart...])
            if line != expected {
                Issue.record("line \(i) differs:\n\(String(decoding: line, as: UTF8.self))\(String(decoding: expected, as: UTF8.self))")
                return
            }
        }
        #expect(fast == reference && fast.count > 100_000)
    }

    @Test func rareLinesMatchTheReference() {
        var rng = SplitMix64(seed: 7)
        for format in LineFormat.allCases {
            #expect(LineEncoder.hello(format: format) == ReferenceLineEncoder.hello(format: format))
            var histogram = LatencyHistogram()
            for _ in 0..<100 { histogram.record(Interval(microseconds: Int64(rng.next() % 5000))) }
            #expect(LineEncoder.stats(histogram, format: format) == ReferenceLineEncoder.stats(histogram, format: format))
            for _ in 0..<300 {
                let (a, b) = (Self.randomString(&rng), Self.randomString(&rng))
                let seq = rng.next() >> 1
                #expect(LineEncoder.device(added: seq % 2 == 0, sysname: a, name: b, seq: seq, format: format) ==
                        ReferenceLineEncoder.device(added: seq % 2 == 0, sysname: a, name: b, seq: seq, format: format))
                #expect(LineEncoder.ok(command: a, format: format) == ReferenceLineEncoder.ok(command: a, format: format))
                #expect(LineEncoder.error(command: a, message: b, format: format) ==
                        ReferenceLineEncoder.error(command: a, message: b, format: format))
                #expect(LineEncoder.textString(a) == ReferenceLineEncoder.textString(a))
                #expect(LineEncoder.jsonString(a) == ReferenceLineEncoder.jsonString(a))
            }
        }
        for _ in 0..<5000 {
            let value = Self.randomDouble(&rng)
            let decimals = Int(rng.next() % 7)
            #expect(LineEncoder.fixed(value, decimals: decimals) == ReferenceLineEncoder.fixed(value, decimals: decimals))
        }
    }

    /// Tokens are literals that must equal the raw values clients parse.
    @Test func tokensAreTheRawValues() {
        for s in Self.states { #expect(s.token.description == s.rawValue) }
        for p in Self.phases { #expect(p.token.description == p.rawValue) }
        for d in SwipeDirection.allCases { #expect(d.token.description == d.rawValue) }
        for e in ScreenEdge.allCases { #expect(e.token.description == e.rawValue) }
    }
}
