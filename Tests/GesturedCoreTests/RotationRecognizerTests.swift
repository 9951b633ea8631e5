import Glibc
import Testing
@testable import GesturedCore

/// Rotation transcripts on the virtual clock (ms): the angle slop just under and over, the sign
/// convention, unwrapping across ±π and over several turns, touches joining and leaving the pair.
struct RotationRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.includeFailed = true
        return s
    }

    /// The point at `radius` from (500, 500) at `angle` (clockwise on screen from +x).
    static func onCircle(_ angle: Double, radius: Double = 100) -> Point {
        Point(x: 500 + radius * cos(angle), y: 500 + radius * sin(angle))
    }

    /// Two touches opposite each other on a circle, the pair's line at `start`, turned by `step`
    /// per frame every 10 ms; touch 1 is the pair's first, so the line's angle is `start` + turn.
    static func turn(_ s: inout EngineScript, from start: Double, by step: Double, frames: Int, lift: Bool = true,
                     at t0: Double = 0) {
        s.frame(at: t0, [(1, .began, onCircle(start + .pi)), (2, .began, onCircle(start))])
        for i in 1...frames {
            let a = start + step * Double(i)
            s.frame(at: t0 + 10 * Double(i), [(1, .moved, onCircle(a + .pi)), (2, .moved, onCircle(a))])
        }
        if lift { s.frame(at: t0 + 10 * Double(frames + 1), [(1, .ended, nil), (2, .ended, nil)]) }
    }

    @Test func clockwiseTranscript() throws {
        var s = try script([rotation("r")])
        Self.turn(&s, from: 0, by: 0.06, frames: 3)
        #expect(s.brief == [
            // 0.12 rad > 0.1 rad: began already holds the turn that made it begin; 6 rad/s.
            "gesture rotation began r view=root time=0.020000 touches=2 x=500.00 y=500.00 rotation=0.1200 velocity=6.00",
            "gesture rotation changed r view=root time=0.030000 touches=2 x=500.00 y=500.00 rotation=0.1800 velocity=6.00",
            "gesture rotation ended r view=root time=0.040000 touches=2 x=500.00 y=500.00 rotation=0.1800 velocity=4.80",
        ])
    }

    @Test(arguments: [(0.0999, false), (0.1001, true), (-0.0999, false), (-0.1001, true)])
    func slop(angle: Double, begins: Bool) throws {
        var s = try script([rotation("r")])
        Self.turn(&s, from: 0.3, by: angle, frames: 1, lift: false)
        #expect(s.states == (begins ? ["began"] : []))
        if begins { #expect(s.values("rotation") == [angle > 0 ? 0.1001 : -0.1001]) }
    }

    @Test func configuredSlop() throws {
        var s = try script([rotation("r") { $0.slop = 0.5 }])
        Self.turn(&s, from: 0, by: 0.1, frames: 6, lift: false)
        #expect(s.states == ["began"])
        #expect(s.values("rotation") == [0.6])
    }

    /// The pair's line starts pointing left (angle π) and turns across ±π either way: the rotation
    /// grows steadily, never jumping by 2π.
    @Test(arguments: [0.15, -0.15])
    func unwrapsAcrossPi(step: Double) throws {
        var s = try script([rotation("r")])
        Self.turn(&s, from: .pi - 3 * step, by: step, frames: 8)
        let r = s.values("rotation").compactMap { $0 }
        #expect(r.count == 9)                           // began, 7 changed, ended
        for (i, v) in r.dropLast().enumerated() {
            #expect((v - step * Double(i + 1)).magnitude < 1e-4, "frame \(i + 1): \(v)")
        }
        #expect((r.last! - 8 * step).magnitude < 1e-4)
    }

    @Test func severalTurnsAccumulate() throws {
        var s = try script([rotation("r")])
        Self.turn(&s, from: 0, by: 2 * .pi / 12, frames: 36)        // three turns, 30° a frame
        #expect((s.values("rotation").last!! - 6 * .pi).magnitude < 1e-4)
    }

    @Test func thirdFingerTakesOverWithoutAJump() throws {
        var s = try script([rotation("r")])
        s.frame(at: 0, [(1, .began, Point(x: 400, y: 500)), (2, .began, Point(x: 600, y: 500))])
        s.move(2, 600, 540, at: 10)                    // atan2(40, 200) = 0.1974 rad
        s.down(3, 500, 800, at: 20)                    // carried
        s.up(1, at: 30)                                // the pair is now 2 → 3: re-based
        s.move(3, 600, 800, at: 40)                    // the line 2 → 3 turns from 0.5952π... to vertical: −0.3218 rad
        s.frame(at: 50, [(2, .ended, nil), (3, .ended, nil)])
        #expect(s.states == ["began", "changed", "changed", "changed", "ended"])
        let r = s.values("rotation").compactMap { $0 }
        #expect(r[0] == 0.1974 && r[1] == 0.1974 && r[2] == 0.1974)
        // From (600,540) the vector to (500,800) has angle atan2(260,−100); to (600,800), π/2.
        let turned = Double.pi / 2 - atan2(260.0, -100.0)
        #expect((r[3] - (0.1974 + turned)).magnitude < 1e-4)
    }

    @Test func endsWhenOneOfTwoLiftsAndCancelsWhenCancelled() throws {
        var s = try script([rotation("r")])
        Self.turn(&s, from: 0, by: 0.2, frames: 1, lift: false)
        s.up(1, at: 20)
        s.up(2, at: 30)
        Self.turn(&s, from: 0, by: 0.2, frames: 1, lift: false, at: 100)   // all were up: a new sequence
        #expect(s.states == ["began", "ended", "began"])
        s.cancel(2, at: 120)
        #expect(s.states == ["began", "ended", "began", "cancelled"])
    }
}
