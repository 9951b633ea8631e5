import GesturedSynthetic
import Glibc
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Stroke transcripts on the virtual clock: every built-in shape from a synthetic hand, a
/// scribble, and each invariance (scale, direction, rotation) and the early-fail rule on both
/// sides of its bound.
struct StrokeRecognizerTests {
    static let center = Point(x: 500, y: 500)

    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.includeFailed = true
        return s
    }

    static func stroke(_ id: String = "s", _ templates: [String] = StrokeLibrary.names, requireToFail: [String] = [],
                       configure: (inout StrokeParameters) -> Void = { _ in }) -> GestureSpec {
        var p = StrokeParameters()
        p.templates = templates.map { StrokeLibrary.template(named: $0)! }
        configure(&p)
        return gesture(id, .stroke(p), requireToFail: requireToFail)
    }

    /// `points` as touch `id`: down, one move per 8 ms, up 8 ms after the last; returns the lift time.
    @discardableResult
    static func draw(_ points: [Point], id: UInt64 = 1, at start: Double = 0, into s: inout EngineScript) -> Double {
        s.down(id, points[0].x, points[0].y, at: start)
        for (i, p) in points.enumerated().dropFirst() { s.move(id, p.x, p.y, at: start + 8 * Double(i)) }
        let lift = start + 8 * Double(points.count)
        s.up(id, at: lift)
        return lift
    }

    /// A template's points placed at `center`, scaled so its larger side is `size`, turned by
    /// `degrees`, and split into steps of about 5 pt.
    static func placed(_ name: String, size: Double = 300, degrees: Double = 0, reversed: Bool = false) -> [Point] {
        var points = StrokeLibrary.template(named: name)!.points
        if reversed { points.reverse() }
        let xs = points.map(\.x), ys = points.map(\.y)
        let (midX, midY) = ((xs.min()! + xs.max()!) / 2, (ys.min()! + ys.max()!) / 2)
        let scale = size / max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        let placed = points.map { p -> Point in
            let (x, y) = ((p.x - midX) * scale, (p.y - midY) * scale)
            return Point(x: center.x + c * x - s * y, y: center.y + s * x + c * y)
        }
        var result = [placed[0]]
        for (a, b) in zip(placed, placed.dropFirst()) {
            let steps = max(1, Int((b - a).length / 5))
            for k in 1...steps { result.append(a + (b - a) * (Double(k) / Double(steps))) }
        }
        return result
    }

    /// The `stroke=` and `score=` of the one line, or the line itself when it has none.
    static func answer(_ s: EngineScript) -> String {
        guard s.brief.count == 1 else { return s.brief.joined(separator: "\n") }
        let fields = s.brief[0].split(separator: " ")
        return ([fields[2]] + fields.filter { $0.hasPrefix("stroke=") }).joined(separator: " ")
    }

    @Test(arguments: StrokeLibrary.names)
    func everyBuiltInShapeDrawnByAHandIsRecognized(_ name: String) throws {
        var s = try script([Self.stroke()])
        // A steadier hand than the benchmark's (which measures the rate over thousands): each
        // shape must be recognized, not most of them.
        var variation = SyntheticHand.Variation()
        variation.rotation = 15 * .pi / 180
        variation.wobble = 0.01
        variation.rounding = 0.02
        var hand = SyntheticHand(seed: 1300 + UInt64(StrokeLibrary.names.firstIndex(of: name)!), variation: variation)
        let drawing = hand.draw(StrokeLibrary.template(named: name)!.points, center: Self.center)
        Self.draw(drawing.points, into: &s)
        #expect(Self.answer(s) == "ended stroke=\(name)")
    }

    @Test func theLineCarriesTemplateScoreAndWhereTheFingerLifted() throws {
        var s = try script([Self.stroke("s", ["check", "v"])])
        let points = Self.placed("check")
        let lift = Self.draw(points, into: &s)
        let last = points[points.count - 1]
        #expect(s.brief == ["gesture stroke ended s view=root time=\(LineEncoder.fixed(lift / 1000, decimals: 6)) touches=1 "
                            + "x=\(LineEncoder.fixed(last.x, decimals: 2)) y=\(LineEncoder.fixed(last.y, decimals: 2)) "
                            + "stroke=check score=1.000"])
    }

    /// A Lissajous scribble (three loops across, two down) is none of the sixteen.
    @Test func aScribbleFails() throws {
        var s = try script([Self.stroke()])
        let points = (0...200).map { k in
            let t = Double(k) / 200 * 2 * .pi
            return Self.center + Vector(dx: 150 * sin(3 * t), dy: 120 * sin(2 * t + 0.5))
        }
        Self.draw(points, into: &s)
        #expect(Self.answer(s) == "failed")
    }

    @Test func aStraightLineFails() throws {
        var s = try script([Self.stroke()])
        Self.draw((0...60).map { Point(x: 200 + 6 * Double($0), y: 500 + Double($0 % 2)) }, into: &s)
        #expect(Self.answer(s) == "failed")
    }

    /// Size does not matter down to `minimumStrokeLength` (30 pt) of path: checks of 600, 80 and
    /// 24 pt (40 pt of path) are checks; one of 14 pt (24 pt of path) is a tap that moved.
    @Test(arguments: [(600.0, "ended stroke=check"), (80, "ended stroke=check"), (24, "ended stroke=check"),
                      (14, "failed")])
    func scaleInvarianceDownToTheMinimumLength(size: Double, expected: String) throws {
        var s = try script([Self.stroke()])
        let points = Self.placed("check", size: size)
        Self.draw(points, into: &s)
        #expect(Self.answer(s) == expected, "\(size) pt: path \(SyntheticHand.length(points)) pt")
    }

    /// Either direction, and any start of a closed shape.
    @Test(arguments: ["check", "caret", "pigtail", "leftCurlyBrace", "rectangle", "star", "triangle", "circle"])
    func drawnBackwardsIsTheSameShape(_ name: String) throws {
        var s = try script([Self.stroke()])
        Self.draw(Self.placed(name, reversed: true), into: &s)
        #expect(Self.answer(s) == "ended stroke=\(name)")
    }

    @Test func aClosedShapeFromAnotherCornerIsTheSameShape() throws {
        var s = try script([Self.stroke()])
        let corners = [Point(x: 600, y: 300), Point(x: 600, y: 520), Point(x: 300, y: 520), Point(x: 300, y: 300),
                       Point(x: 600, y: 300)]   // from the top-right corner, clockwise on screen
        var points: [Point] = []
        for (a, b) in zip(corners, corners.dropFirst()) { for k in 0..<40 { points.append(a + (b - a) * (Double(k) / 40)) } }
        points.append(corners[4])
        Self.draw(points, into: &s)
        #expect(Self.answer(s) == "ended stroke=rectangle")
    }

    /// The rotation bound (30° by default): up to it a drawing is matched as if upright; beyond,
    /// it is matched at the bound and the rest of the turn lowers its score, so at the default
    /// minimum score 20° is the shape and 60° is not. Without orientation sensitivity 60° and
    /// 90° are.
    @Test(arguments: [(20.0, true, "ended stroke=arrow"), (-20, true, "ended stroke=arrow"), (60, true, "failed"),
                      (-60, true, "failed"), (60, false, "ended stroke=arrow"), (90, false, "ended stroke=arrow")])
    func rotationWithinTheBound(degrees: Double, sensitive: Bool, expected: String) throws {
        var s = try script([Self.stroke("s", ["arrow"]) { $0.orientationSensitive = sensitive }])
        Self.draw(Self.placed("arrow", degrees: degrees), into: &s)
        #expect(Self.answer(s) == expected)
    }

    @Test func aWiderToleranceTakesAWiderTurn() throws {
        var s = try script([Self.stroke("s", ["arrow"]) { $0.rotationTolerance = Angle(radians: .pi / 3) }])
        Self.draw(Self.placed("arrow", degrees: 60), into: &s)
        #expect(Self.answer(s) == "ended stroke=arrow")
    }

    /// Early failure: with `circle` the longest template (2.22 × its diagonal, counted twice as
    /// a closed shape may be drawn round twice), a circle drawn 2.5 times round (ratio 5.6) is
    /// judged at the lift; one drawn 4 times round (8.9) fails while the finger is still down,
    /// beyond 1.5 × 2 × 2.22 = 6.7.
    @Test(arguments: [(100, false), (160, true)])
    func aPathFarLongerThanAnyTemplateFailsBeforeTheLift(steps: Int, early: Bool) throws {
        var s = try script([Self.stroke("s", ["circle", "check"])])
        let points = (0...steps).map { k in
            Self.center + Vector(dx: cos(Double(k) * .pi / 20), dy: sin(Double(k) * .pi / 20)) * 150
        }
        let lift = Self.draw(points, into: &s)
        #expect(s.brief.count == 1)
        let failedEarly = s.brief.first.map { $0.contains("failed") && !$0.contains("time=\(LineEncoder.fixed(lift / 1000, decimals: 6))") }
        #expect(failedEarly == early, "\(s.brief)")
    }

    @Test func twoFingersDrawTheirCentroidsPath() throws {
        var s = try script([Self.stroke("s", ["v", "caret"]) { $0.numberOfTouchesRequired = 2 }])
        let points = Self.placed("v")
        s.down(1, points[0].x - 40, points[0].y, at: 0)
        s.down(2, points[0].x + 40, points[0].y, at: 8)
        for (i, p) in points.enumerated().dropFirst() {
            s.frame(at: 8 * Double(i + 1), [(1, .moved, Point(x: p.x - 40, y: p.y)), (2, .moved, Point(x: p.x + 40, y: p.y))])
        }
        let end: Double = 8 * Double(points.count + 1)
        s.up(1, at: end)
        s.up(2, at: end + 8)
        #expect(Self.answer(s) == "ended stroke=v")
        #expect(s.brief.first?.contains("touches=2") == true)
    }

    @Test func moreFingersThanRequiredFail() throws {
        var s = try script([Self.stroke()])
        s.down(1, 100, 100, at: 0)
        s.down(2, 300, 100, at: 8)
        #expect(s.brief == ["gesture stroke failed s view=root time=0.008000 touches=2 x=300.00 y=100.00"])
    }

    /// The recommended configuration: a pan that requires the stroke to fail waits while the
    /// shape is drawn and fails when it is recognized; after a non-shape, at the lift, its held
    /// transitions are replayed (UIKit's rule for `require(toFail:)`).
    @Test func aPanThatRequiresTheStrokeToFailWaitsForIt() throws {
        var s = try script([Self.stroke("s", ["check"]), pan("p", requireToFail: ["s"])])
        Self.draw(Self.placed("check"), into: &s)
        #expect(s.brief.map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
                == ["gesture stroke ended s", "gesture pan failed p"])

        var t = try script([Self.stroke("s", ["check"]), pan("p", requireToFail: ["s"])])
        Self.draw(Self.placed("circle"), at: 1000, into: &t)
        let heads = t.brief.map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
        #expect(heads.prefix(2) == ["gesture stroke failed s", "gesture pan began p"])
        #expect(heads.last == "gesture pan ended p")
        #expect(heads.dropFirst(2).dropLast().allSatisfy { $0 == "gesture pan changed p" })
        // (The circle fails before the lift: it is longer for its size than a check can be.)
    }

    /// The other way round: a stroke that requires a swipe to fail is not reported for a swipe.
    @Test func aStrokeThatRequiresASwipeToFailLosesToTheSwipe() throws {
        var s = try script([Self.stroke("s", ["check"], requireToFail: ["w"]), swipe("w")])
        s.down(1, 100, 500, at: 0)
        s.move(1, 120, 500, at: 10)
        s.move(1, 140, 500, at: 20)
        s.up(1, at: 30)
        #expect(s.brief.map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
                == ["gesture swipe ended w", "gesture stroke failed s"])
    }
}
