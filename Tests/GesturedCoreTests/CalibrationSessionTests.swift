import Foundation
import GesturedCalibration
import Testing
@testable import GesturedCore

/// `gestured calibrate`'s measurement (docs/KIOSK.md, "Calibration") as transcripts on the
/// virtual clock: touches in normalized raw coordinates, the session's steps out, compared whole.
struct CalibrationSessionTests {
    static let screen = Size(width: 1280, height: 800)

    /// Where a panel whose calibration is `matrix` reports a touch on `target`: the matrix's
    /// inverse applied to the target (the matrix sends raw positions onto the screen).
    static func raw(of target: NormalizedPoint, matrix m: [Double]) -> NormalizedPoint {
        let det = m[0] * m[4] - m[1] * m[3]
        let u = target.x - m[2], v = target.y - m[5]
        return NormalizedPoint(x: (m[4] * u - m[1] * v) / det, y: (m[0] * v - m[3] * u) / det)
    }

    /// A rotation by `degrees`, scaled by `sx`/`sy`, then offset by `cx`/`cy`.
    static func matrix(degrees: Double, sx: Double, sy: Double, cx: Double, cy: Double) -> [Double] {
        let r = degrees * .pi / 180
        return [sx * cos(r), -sx * sin(r), cx, sy * sin(r), sy * cos(r), cy]
    }

    /// A script: taps (down, a motion, up) at the given raw points, 1 s apart, from t = 0.
    struct Script {
        var session = CalibrationSession(screen: CalibrationSessionTests.screen)
        var now = Instant(microseconds: 0)
        var steps: [CalibrationSession.Step] = []
        var id = 0

        init() { steps += session.start(now: now) }

        mutating func tap(_ p: NormalizedPoint, wobble: Double = 0) {
            now = now + Interval(seconds: 1); id += 1
            steps += session.handle(.down(id: id, at: p), now: now)
            steps += session.handle(.motion(id: id, at: NormalizedPoint(x: p.x + wobble, y: p.y)), now: now + .milliseconds(50))
            steps += session.handle(.motion(id: id, at: NormalizedPoint(x: p.x - wobble, y: p.y)), now: now + .milliseconds(100))
            steps += session.handle(.up(id: id), now: now + .milliseconds(150))
        }

        mutating func tapTargets(matrix: [Double], offBy: [CalibrationTarget: NormalizedPoint] = [:]) {
            for target in CalibrationTarget.allCases {
                var p = CalibrationSessionTests.raw(of: target.point, matrix: matrix)
                if let off = offBy[target] { p.x += off.x; p.y += off.y }
                tap(p)
            }
        }

        mutating func take() -> [String] { defer { steps = [] }; return steps.map(\.description) }
        var fit: CalibrationFit? {
            for case .finished(let fit, _) in steps { return fit }
            return nil
        }
    }

    @Test func theTargetsAreAnEighthInFromEachCornerInOrder() {
        #expect(CalibrationTarget.allCases.map(\.point) == [
            NormalizedPoint(x: 0.125, y: 0.125), NormalizedPoint(x: 0.875, y: 0.125),
            NormalizedPoint(x: 0.875, y: 0.875), NormalizedPoint(x: 0.125, y: 0.875),
        ])
    }

    @Test(arguments: [
        (degrees: 3.0, sx: 1.04, sy: 0.97, cx: -0.03, cy: 0.02),
        (degrees: -4.5, sx: 0.92, sy: 1.08, cx: 0.05, cy: -0.04),
        (degrees: 0.0, sx: 1.0, sy: 1.0, cx: 0.0, cy: 0.0),
        (degrees: 90.0, sx: 1.0, sy: 1.0, cx: 1.0, cy: 0.0),
    ])
    func anExactAffineMapIsRecoveredExactly(_ m: (degrees: Double, sx: Double, sy: Double, cx: Double, cy: Double)) throws {
        let truth = Self.matrix(degrees: m.degrees, sx: m.sx, sy: m.sy, cx: m.cx, cy: m.cy)
        var s = Script()
        s.tapTargets(matrix: truth)
        let fit = try #require(s.fit, "\(s.take())")
        for (got, want) in zip(fit.matrix, truth) { #expect(abs(got - want) < 1e-9, "\(fit.matrix) against \(truth)") }
        #expect(fit.residual < 1e-6)
        #expect(s.session.isDone && s.session.nextDeadline == nil)
    }

    @Test func theTranscriptOfAGoodRound() {
        var s = Script()
        s.tapTargets(matrix: Self.matrix(degrees: 3, sx: 1.04, sy: 0.97, cx: -0.03, cy: 0.02))
        #expect(s.take() == [
            "touch target 1 of 4: top left, at 12.5 % 12.5 %",
            "took the top left touch at (0.1545, 0.1003) of the panel's range",
            "touch target 2 of 4: top right, at 87.5 % 12.5 %",
            "took the top right touch at (0.8747, 0.0626) of the panel's range",
            "touch target 3 of 4: bottom right, at 87.5 % 87.5 %",
            "took the bottom right touch at (0.9151, 0.8347) of the panel's range",
            "touch target 4 of 4: bottom left, at 12.5 % 87.5 %",
            "took the bottom left touch at (0.1950, 0.8724) of the panel's range",
            "fitted: residual 0.0 points",
        ])
    }

    /// One touch 200 points off (a sixth of the width): the fit misses by about 50 points at
    /// every touch (numpy's `lstsq`: 50.4 at most), above the 30.2-point limit (2 % of 1280 × 800's diagonal); the four targets
    /// are asked again, and a good round is taken.
    @Test func aFarOffTouchIsRefusedAndTheTargetsAskedAgain() throws {
        let truth = Self.matrix(degrees: -2, sx: 1.02, sy: 1.01, cx: 0.01, cy: -0.01)
        var s = Script()
        s.tapTargets(matrix: truth, offBy: [.bottomRight: NormalizedPoint(x: 200.0 / 1280, y: 0)])
        let first = s.take()
        #expect(first.count == 10, "\(first)")
        #expect(first.suffix(2) == [
            "refused: a touch was far off its target: the fit misses by 50.4 points, more than the limit of 30.2; touch the four targets again",
            "touch target 1 of 4: top left, at 12.5 % 12.5 % (round 2 of 3)",
        ])
        let diagonal: Double = (1280.0 * 1280.0 + 800.0 * 800.0).squareRoot()
        #expect(CalibrationFit.residualLimit(screen: Self.screen) == 0.02 * diagonal)
        s.tapTargets(matrix: truth)
        let fit = try #require(s.fit)
        for (got, want) in zip(fit.matrix, truth) { #expect(abs(got - want) < 1e-9) }
    }

    /// A touch 60 points off leaves about a quarter of that at every touch (numpy's `lstsq` on
    /// the same pairs gives 15.97, 15.97, 14.97, 14.97): under the limit, taken.
    @Test func aTouchSlightlyOffIsTakenWithItsResidual() throws {
        var s = Script()
        s.tapTargets(matrix: DeviceGeometry.identityCalibration, offBy: [.topLeft: NormalizedPoint(x: 60.0 / 1280, y: 0)])
        let fit = try #require(s.fit)
        #expect(abs(fit.residual - 15.9667) < 0.0001, "\(fit.residual)")
    }

    @Test func fourTouchesInOnePlaceAreRefusedClearlyThenTheSessionGivesUp() {
        var s = Script()
        for _ in 0..<3 { for _ in 0..<4 { s.tap(NormalizedPoint(x: 0.5, y: 0.5)) } }
        let steps = s.take()
        let degenerate = "refused: the touches do not span the screen (spread 0.0000 of the panel's range, at least 0.0375 needed): "
            + "each target must be touched where it is shown; touch the four targets again"
        #expect(steps.filter { $0 == degenerate }.count == 3, "\(steps)")
        #expect(steps.last == "failed: 3 rounds of four touches gave no matrix; the last: the touches do not span the screen "
                + "(spread 0.0000 of the panel's range, at least 0.0375 needed): each target must be touched where it is shown")
        #expect(s.session.isDone && s.session.nextDeadline == nil)
        // Along one line is no better: no touch spreads the other way.
        var line = Script()
        for x in [0.1, 0.4, 0.6, 0.9] { line.tap(NormalizedPoint(x: x, y: 0.5)) }
        #expect(line.take().contains { $0.hasPrefix("refused: the touches do not span the screen (spread 0.0000") })
    }

    @Test func twoFingersOrASlideAreRefusedAndTheSameTargetAskedAgain() {
        var s = Script()
        s.tap(NormalizedPoint(x: 0.125, y: 0.125))
        _ = s.take()
        // A second finger while the first is down.
        s.steps += s.session.handle(.down(id: 10, at: NormalizedPoint(x: 0.875, y: 0.125)), now: s.now)
        s.steps += s.session.handle(.down(id: 11, at: NormalizedPoint(x: 0.5, y: 0.5)), now: s.now)
        s.steps += s.session.handle(.up(id: 10), now: s.now)
        #expect(s.take().isEmpty, "nothing until the last finger lifts")
        s.steps += s.session.handle(.up(id: 11), now: s.now)
        // A slide of 0.05 of the width each way: 64 points from the first position.
        s.tap(NormalizedPoint(x: 0.875, y: 0.125), wobble: 0.05)
        s.tap(NormalizedPoint(x: 0.875, y: 0.125), wobble: 0.001)
        #expect(s.take() == [
            "the top right touch is not taken: more than one finger touched: touch with one finger; touch it again",
            "touch target 2 of 4: top right, at 87.5 % 12.5 %",
            "the top right touch is not taken: the finger slid 64 points (at most 30): press on the target and lift; touch it again",
            "touch target 2 of 4: top right, at 87.5 % 12.5 %",
            "took the top right touch at (0.8750, 0.1250) of the panel's range",
            "touch target 3 of 4: bottom right, at 87.5 % 87.5 %",
        ])
    }

    @Test func lostEventsDuringATouchAskForTheSameTargetAgain() {
        var s = Script()
        _ = s.take()
        #expect(s.session.handle(.cancel, now: s.now).isEmpty, "no touch yet: nothing to refuse")
        _ = s.session.handle(.down(id: 1, at: NormalizedPoint(x: 0.125, y: 0.125)), now: s.now)
        #expect(s.session.handle(.cancel, now: s.now).map(\.description) == [
            "the top left touch is not taken: the panel's events were lost; touch it again",
            "touch target 1 of 4: top left, at 12.5 % 12.5 %",
        ])
        // The lift of the cancelled finger is not a touch.
        #expect(s.session.handle(.up(id: 1), now: s.now).isEmpty)
    }

    @Test func aTargetNobodyTouchesEndsTheSessionAtItsDeadline() {
        var s = Script()
        s.tap(NormalizedPoint(x: 0.125, y: 0.125))
        _ = s.take()
        let deadline = s.now + .milliseconds(150) + CalibrationSession.targetTimeout
        #expect(s.session.nextDeadline == deadline)
        #expect(s.session.expire(now: deadline + Interval(microseconds: -1)).isEmpty)
        #expect(s.session.expire(now: deadline).map(\.description) == ["failed: nobody touched the top right target within 120 s"])
        #expect(s.session.isDone && s.session.nextDeadline == nil)
        #expect(s.session.handle(.down(id: 5, at: NormalizedPoint(x: 0.5, y: 0.5)), now: deadline).isEmpty)
    }
}
