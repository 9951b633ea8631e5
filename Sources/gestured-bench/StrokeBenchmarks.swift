import GesturedBenchKit
import GesturedCore
import GesturedTestSupport
import Glibc

/// `gestured-bench strokes`: the stroke recognizer's accuracy on the seeded synthetic hands and
/// its cost at lift (docs/RECOGNIZERS.md, "Stroke accuracy").
enum StrokeBenchmarks {
    static func run(arguments: [String]) throws {
        let perShape = arguments.first.flatMap(Int.init) ?? 200
        var parameters = StrokeParameters()
        parameters.templates = StrokeLibrary.all
        parameters.minimumScore = 0
        let samples = try StrokeAccuracy.run(parameters, perShape: perShape, seed: 13)
        var withUser = parameters
        withUser.templates = StrokeLibrary.all + userExamples()
        let userSamples = try StrokeAccuracy.run(withUser, perShape: perShape, seed: 13)
        for threshold in stride(from: 0.74, through: 0.86, by: 0.01) {
            let r = StrokeAccuracy.result(userSamples, minimumScore: threshold)
            if threshold > 0.795 && threshold < 0.805 { print(confusion(r)) }
            print("3 user examples at \(LineEncoder.fixed(threshold, decimals: 2)): shapes \(percent(r.shapeAccuracy)), scribbles+lines \(percent(r.falseRecognitions))")
        }
        let variants: [(String, StrokeMatcher)] = [
            ("protractor, drawn direction only", StrokeMatcher(templates: StrokeLibrary.all, bothDirections: false, everyStart: false)),
            ("protractor, both directions", StrokeMatcher(templates: StrokeLibrary.all, everyStart: false)),
            ("protractor, both directions, every start of closed shapes", StrokeMatcher(templates: StrokeLibrary.all)),
        ]
        for (name, matcher) in variants {
            let s = StrokeAccuracy.run(matcher, perShape: perShape, seed: 13)
            for threshold in [0.7, 0.75, 0.8, 0.85] {
                let r = StrokeAccuracy.result(s, minimumScore: threshold)
                print("\(name) at \(threshold): shapes \(percent(r.shapeAccuracy)), scribbles+lines \(percent(r.falseRecognitions))")
            }
        }
        for threshold in stride(from: 0.74, through: 0.86, by: 0.01) {
            let r = StrokeAccuracy.result(samples, minimumScore: threshold)
            
            print("minimumScore \(LineEncoder.fixed(threshold, decimals: 2)): shapes \(percent(r.shapeAccuracy)), scribbles+lines \(percent(r.falseRecognitions))")
        }
    }

    static func userExamples() -> [StrokeTemplate] {
        var hand = SyntheticHand(seed: 99)
        return (0..<3).flatMap { _ in StrokeLibrary.all.map { StrokeTemplate(name: $0.name, points: StrokePath.kept(hand.draw($0.points).points)) } }
    }

    static func percent(_ x: Double) -> String { LineEncoder.fixed(100 * x, decimals: 2) + "%" }
}
extension StrokeBenchmarks {
    static func confusion(_ r: StrokeAccuracy.Result) -> String {
        r.rows.map { row in
            row + ": " + r.confusion[row]!.sorted { $0.value > $1.value }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
