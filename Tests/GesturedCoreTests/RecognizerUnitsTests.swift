import Testing
@testable import GesturedCore

/// The recognizers measure in the units of their thresholds (issue #34 item 6): each slop has
/// the type of what it is compared with, the arithmetic on the unit types is the `Double`
/// arithmetic it replaces, and a failure carries its values in their units.
struct RecognizerUnitsTests {
    /// A pinch's slop is a distance of span and a rotation's an angle of turn: given the other,
    /// `TwoTouchGesture(slop:)` does not compile.
    @Test func twoTouchSlopsHaveTheirMeasuresUnit() {
        #expect(PinchRecognizer.Scale.Slop.self == Distance.self)
        #expect(RotationRecognizer.Turn.Slop.self == Angle.self)
        let pinch = TwoTouchGesture<PinchRecognizer.Scale>(slop: GestureDefaults.pinchSlop)
        let rotation = TwoTouchGesture<RotationRecognizer.Turn>(slop: GestureDefaults.rotationSlop)
        #expect(pinch.slop == Distance(points: 10))
        #expect(rotation.slop == Angle(radians: 0.1))
    }

    @Test func aPairMeasuresItsSpanAndAngleInUnits() {
        let a = TouchGroup.Member(id: TouchID(1), down: Point(x: 0, y: 0), location: Point(x: 100, y: 100))
        let b = TouchGroup.Member(id: TouchID(2), down: Point(x: 0, y: 0), location: Point(x: 103, y: 104))
        let pair = TouchPair(a: a, b: b)
        #expect(pair.span == Distance(points: 5))
        #expect(pair.angle == Angle(radians: AngleMath.atan2(4, 3)))
    }

    /// Bit for bit what the `Double` expressions gave, so goldens and transcripts do not move.
    @Test func unitArithmeticIsTheDoubleArithmetic() {
        let distance = Distance(points: 37.3), elapsed = Interval(microseconds: 123_457)
        #expect((distance / elapsed).pointsPerSecond == 37.3 / elapsed.seconds)
        #expect(distance.ratio(to: Distance(points: 3.1)) == 37.3 / 3.1)
        #expect(Distance(points: 2).distance(to: distance) == Distance(points: (2 - 37.3).magnitude))
        var turn = Angle(radians: 3)
        turn += (Angle(radians: -3) - Angle(radians: 3)).normalized
        #expect(turn.radians == 3 + AngleMath.normalized(-6))
        #expect(Vector(dx: 3, dy: 4).distance == Distance(points: 5))
        #expect(Angle.direction(of: Vector(dx: -1, dy: 0)) == Angle(radians: .pi))
    }

    /// The trace's words are the same as when the values were bare: each slop names its unit.
    @Test func failuresPrintTheirUnits() {
        let texts = [
            FailReason.liftedBeforeMovement(slop: 10),
            .liftedBeforeSpanChange(slop: 10),
            .liftedBeforeTurn(slop: 0.1),
            .moved(distance: 12.5, limit: 10, parameter: .movementSlop),
            .wrongDirection(direction: .up, offAxis: 0.5, tolerance: Angle(radians: .pi / 8)),
            .liftedBeforeSwipe(minimumDistance: 10, minimumVelocity: 300),
        ].map { $0.text(templates: []) }
        #expect(texts == [
            "touch lifted before 10 pt of movement",
            "touch lifted before 10 pt of change in span",
            "touch lifted before 0.1 rad of turn",
            "moved 12.5 pt > movementSlop 10 pt",
            "0.5 rad off the up axis > angleTolerance 0.39 rad",
            "touch lifted before 10 pt at 300 pt/s",
        ])
    }
}
