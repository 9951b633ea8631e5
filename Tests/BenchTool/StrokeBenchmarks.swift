import GesturedBenchKit
import GesturedCore
import GesturedSynthetic
import GesturedTestSupport
import Glibc

/// The stroke recognizer's figures (docs/RECOGNIZERS.md, "Stroke accuracy"): accuracy on the
/// seeded synthetic hands through the real engine, the matching methods compared on the same
/// drawings, the confusion matrix, and the cost of the decision at lift.
///
///     gestured-bench strokes [PER-SHAPE]   (make bench runs it with 200)
enum StrokeBenchmarks {
    /// The seed of the drawings measured; the user's examples come from another hand.
    static let seed: UInt64 = 13

    static func run(perShape: Int = 200, log: (String) -> Void) throws {
        var parameters = StrokeParameters()
        parameters.templates = StrokeLibrary.all
        parameters.minimumScore = 0
        let defaultScore = GestureDefaults.minimumStrokeScore
        log("strokes: \(perShape) drawings of each of the 16 shapes, \(perShape) scribbles, \(perShape) lines (seed \(seed))")

        let builtIn = try StrokeAccuracy.run(parameters, perShape: perShape, seed: seed)
        var withUser = parameters
        withUser.templates = StrokeLibrary.all + userExamples()
        let user = try StrokeAccuracy.run(withUser, perShape: perShape, seed: seed)
        log("  minimumScore  built-in: shapes right  scribbles+lines recognized   +3 user examples: shapes right  scribbles+lines")
        for threshold in stride(from: 0.70, through: 0.901, by: 0.02) {
            let b = StrokeAccuracy.result(builtIn, minimumScore: threshold), u = StrokeAccuracy.result(user, minimumScore: threshold)
            log("  \(fixed(threshold))          \(percent(b.shapeAccuracy))        \(percent(b.falseRecognitions))"
                + "                        \(percent(u.shapeAccuracy))        \(percent(u.falseRecognitions))")
        }
        let atDefault = StrokeAccuracy.result(builtIn, minimumScore: defaultScore)
        let userAtDefault = StrokeAccuracy.result(user, minimumScore: defaultScore)
        log("  at the default \(fixed(defaultScore)): built-in \(percent(atDefault.shapeAccuracy)) right, "
            + "\(percent(atDefault.falseRecognitions)) false; with 3 user examples \(percent(userAtDefault.shapeAccuracy)) right, "
            + "\(percent(userAtDefault.falseRecognitions)) false")
        log("  confusion at \(fixed(defaultScore)), built-in templates (row: drawn; answers, - = failed):")
        for line in confusion(atDefault) { log("    " + line) }

        log("  matching methods on the same drawings (matcher only, at \(fixed(defaultScore))):")
        let methods: [(String, StrokeMatcher)] = [
            ("Protractor, drawn direction only", StrokeMatcher(templates: StrokeLibrary.all, bothDirections: false, everyStart: false)),
            ("Protractor, both directions", StrokeMatcher(templates: StrokeLibrary.all, everyStart: false)),
            ("Protractor, both directions, every start of closed shapes",
             StrokeMatcher(templates: StrokeLibrary.all)),
        ]
        for (name, matcher) in methods {
            let r = StrokeAccuracy.result(StrokeAccuracy.run(matcher, perShape: perShape, seed: seed), minimumScore: defaultScore)
            log("    \(name): shapes \(percent(r.shapeAccuracy)), scribbles+lines \(percent(r.falseRecognitions))")
        }
        log("  decision at lift, 16 templates: median \(fixed(liftCost(), decimals: 1)) µs")
    }

    /// The median time of `StrokeMatcher.bestMatch` over the 16 built-ins, for 1 600 drawings
    /// of the generator as `StrokePath` keeps them, in microseconds.
    static func liftCost() -> Double {
        var hand = SyntheticHand(seed: seed + 1)
        let paths = (0..<100).flatMap { _ in StrokeLibrary.all.map { StrokePath.kept(hand.draw($0.points).points) } }
        var matcher = StrokeMatcher(templates: StrokeLibrary.all)
        var times: [Double] = []
        var sink = 0.0
        for path in paths {
            let start = Clock.nanoseconds()
            sink += path.withUnsafeBufferPointer { matcher.bestMatch($0)?.score ?? 0 }
            times.append(Double(Clock.nanoseconds() - start) / 1000)
        }
        precondition(sink > 0)
        return times.sorted()[times.count / 2]
    }

    /// Three examples of each shape from another hand, kept as the recognizer keeps a path
    /// (what `gestured record-stroke` writes).
    static func userExamples() -> [StrokeTemplate] {
        var hand = SyntheticHand(seed: 99)
        return (0..<3).flatMap { _ in
            StrokeLibrary.all.map { StrokeTemplate(name: $0.name, points: StrokePath.kept(hand.draw($0.points).points)) }
        }
    }

    static func confusion(_ r: StrokeAccuracy.Result) -> [String] {
        r.rows.map { row in
            row + ": " + r.confusion[row]!.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
        }
    }

    static func percent(_ x: Double) -> String { fixed(100 * x) + "%" }
    static func fixed(_ x: Double, decimals: Int = 2) -> String { LineEncoder.fixed(x, decimals: decimals) }
}

extension StrokeBenchmarks {
    /// `gestured-bench stroke-pictures DIR`: one SVG per built-in template, drawn from its very
    /// points (docs/RECOGNIZERS.md shows them), with a dot where the drawing starts.
    static func writePictures(directory: String) throws {
        for template in StrokeLibrary.all {
            let xs = template.points.map(\.x), ys = template.points.map(\.y)
            let (minX, minY) = (xs.min()!, ys.min()!)
            let scale = 100 / max(xs.max()! - minX, ys.max()! - minY)
            let points = template.points.map { (x: 10 + ($0.x - minX) * scale, y: 10 + ($0.y - minY) * scale) }
            let path = points.map { "\(fixed($0.x, decimals: 1)),\(fixed($0.y, decimals: 1))" }.joined(separator: " ")
            let svg = """
                <svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">
                  <title>\(template.name)</title>
                  <rect width="120" height="120" fill="white"/>
                  <polyline points="\(path)" fill="none" stroke="#1f5fa8" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>
                  <circle cx="\(fixed(points[0].x, decimals: 1))" cy="\(fixed(points[0].y, decimals: 1))" r="5" fill="#d23c2a"/>
                </svg>

                """
            try DaemonBenchmarks.writeBytes(path: directory + "/" + template.name + ".svg", Array(svg.utf8))
        }
    }
}
