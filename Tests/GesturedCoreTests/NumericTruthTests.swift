import GesturedSynthetic
import Glibc
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The numbers behind the recognizers, against independent truth: libm for `atan2` (the test
/// target may use it; the core may not), exact arithmetic for the velocity fit, and whole
/// engine transcripts for scale, rotation and pan velocity.
struct NumericTruthTests {
    @Test func atan2MatchesLibmWithin1e9() {
        var rng = SplitMix64(seed: 42)
        var worst = 0.0
        for i in 0..<200_000 {
            // Magnitudes from 1e-6 to 1e6, and both signs, to reach every branch.
            let scale = [1e-6, 1e-2, 1, 1e3, 1e6][i % 5]
            let y = rng.unit() * scale, x = rng.unit() * [1e-6, 1, 1e6][i % 3]
            worst = max(worst, (AngleMath.atan2(y, x) - Glibc.atan2(y, x)).magnitude)
        }
        #expect(worst <= 1e-9)
    }

    static let pi = Double.pi
    static let knownAtan2: [(y: Double, x: Double, expected: Double)] = [
        (0, 1, 0), (1, 1, pi / 4), (1, 0, pi / 2), (1, -1, 3 * pi / 4), (0, -1, pi), (-0.0, -1, -pi),
        (-1, -1, -3 * pi / 4), (-1, 0, -pi / 2), (-1, 1, -pi / 4), (1, 1.7320508075688772, pi / 6),
        (1.7320508075688772, 1, pi / 3), (0, 0, 0), (0, -0.0, pi), (0.2679491924311227, 1, pi / 12),
    ]

    @Test(arguments: knownAtan2)
    func atan2KnownValues(_ c: (y: Double, x: Double, expected: Double)) {
        let (y, x, expected) = c
        #expect((AngleMath.atan2(y, x) - expected).magnitude <= 1e-15)
    }

    static let normalizations: [(angle: Double, expected: Double)] = [
        (0, 0), (pi, pi), (-pi, pi), (3 * pi / 2, -pi / 2), (-3 * pi / 2, pi / 2), (7 * pi, pi), (0.1 + 4 * pi, 0.1),
    ]

    @Test(arguments: normalizations)
    func normalizedIntoHalfOpenInterval(_ c: (angle: Double, expected: Double)) {
        let (angle, expected) = c
        #expect((AngleMath.normalized(angle) - expected).magnitude <= 1e-12)
    }

    @Test func velocityOfASteadyMotionIsExact() {
        var v = VelocityTracker()
        for i in 0...50 {
            v.add(Instant(microseconds: Int64(i) * 10_000), x: 5 * Double(i), y: -2 * Double(i))
        }
        #expect((v.velocity.x - 500).magnitude < 1e-6)
        #expect((v.velocity.y + 200).magnitude < 1e-6)
    }

    @Test func velocitySmoothsJitter() {
        // 500 pt/s with ±3 pt alternating jitter: a frame difference would read ±1100 pt/s.
        var v = VelocityTracker()
        for i in 0...30 {
            v.add(Instant(microseconds: Int64(i) * 8_000), x: 4 * Double(i) + (i % 2 == 0 ? 3 : -3))
        }
        #expect((v.velocity.x - 500).magnitude < 60)
    }

    @Test func velocityForgetsSamplesBeforeAPause() {
        var v = VelocityTracker()
        for i in 0...10 { v.add(Instant(microseconds: Int64(i) * 10_000), x: 10 * Double(i)) }
        // Held still for 50 ms (no events), then one sample at the same place: the touch stopped.
        v.add(Instant(microseconds: 150_000), x: 100)
        #expect(v.velocity.x == 0)
        // Fewer than three samples in the window: no estimate.
        var two = VelocityTracker()
        two.add(.zero, x: 0); two.add(Instant(microseconds: 10_000), x: 10)
        #expect(two.velocity.x == 0)
    }

    @Test func velocityWindowIsTheLast100Milliseconds() {
        var v = VelocityTracker()
        // 1000 pt/s for 200 ms, then 100 pt/s for the last 100 ms: only the latter counts.
        var x = 0.0
        for i in 0...20 { x = 10 * Double(i); v.add(Instant(microseconds: Int64(i) * 10_000), x: x) }
        for i in 1...10 { v.add(Instant(microseconds: Int64(200 + i * 10) * 1000), x: x + Double(i)) }
        #expect((v.velocity.x - 100).magnitude < 1e-6)
    }

    @Test func velocityRingWrapsWithoutLosingOrder() {
        var v = VelocityTracker()
        for i in 0..<(3 * VelocityTracker.capacity + 7) {
            v.add(Instant(microseconds: Int64(i) * 5_000), x: -3 * Double(i))
        }
        #expect(v.count == VelocityTracker.capacity)
        #expect((v.velocity.x + 600).magnitude < 1e-6)
    }
}

/// Whole-engine truths: the values a client reads at the end of a known movement.
struct EngineNumericTruthTests {
    @Test func twoFingersSpreadingFrom200To400ReadScale2() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [pinch("z")])])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        for i in 1...20 {
            let d: Double = 5 * Double(i)
            s.frame(at: 10 * Double(i), [(1, .moved, Point(x: 400 - d, y: 500)), (2, .moved, Point(x: 600 + d, y: 500))])
        }
        s.frame(at: 210, [(1, .ended, nil), (2, .ended, nil)])
        #expect(s.states.last == "ended")
        #expect((s.values("scale").last!! - 2).magnitude <= 0.001)
        // 0.05 scale per 10 ms while moving.
        #expect((s.values("velocity").dropLast().last!! - 5).magnitude <= 0.05)
    }

    @Test(arguments: [(1.0, Double.pi / 2), (-1.0, -Double.pi / 2)])
    func quarterTurn(direction: Double, expected: Double) throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [rotation("r")])])
        // Clockwise on screen (y down): the touch on the right moves down, the one on the left up.
        RotationRecognizerTests.turn(&s, from: 0, by: direction * Double.pi / 2 / 30, frames: 30)
        #expect(s.states.last == "ended")
        #expect((s.values("rotation").last!! - expected).magnitude <= 1e-3)
        // A clockwise quarter turn moves touch 2 from (600, 500) down to (500, 600).
        #expect(RotationRecognizerTests.onCircle(Double.pi / 2).y > 500)
    }

    @Test func steadyDragAt500PointsPerSecond() throws {
        var s = try EngineScript([ViewSpec(id: "root", gestures: [pan("p")])])
        s.down(1, 100, 100, at: 0)
        for i in 1...30 { s.move(1, 100 + 5 * Double(i), 100, at: 10 * Double(i)) }   // 5 pt per 10 ms
        let v = s.values("velocityX").compactMap { $0 }
        #expect(!v.isEmpty)
        for value in v { #expect((value - 500).magnitude <= 5) }
    }
}
