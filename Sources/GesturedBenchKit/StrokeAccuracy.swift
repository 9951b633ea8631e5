import GesturedCore
import GesturedSynthetic

/// The accuracy of the stroke recognizer on drawings of the seeded synthetic hands
/// (`SyntheticHand`), through the real engine: each drawing is a touch-down, a move per 120 Hz
/// frame, and a lift, into a view whose one stroke recognizer holds the templates.
public enum StrokeAccuracy {
    /// What was drawn: a shape of `StrokeLibrary.names`, a scribble, or a straight line.
    public enum Drawn: Hashable, Sendable {
        case shape(String), scribble, line
        public var label: String {
            switch self {
            case .shape(let name): name
            case .scribble: "(scribble)"
            case .line: "(line)"
            }
        }
    }

    public struct Result: Sendable {
        /// Per drawn label: how often each answer came (a template name, or "-" for failed).
        public var confusion: [String: [String: Int]] = [:]
        public var rows: [String] = []

        public mutating func add(_ drawn: Drawn, answer: String?) {
            if confusion[drawn.label] == nil { rows.append(drawn.label) }
            confusion[drawn.label, default: [:]][answer ?? "-", default: 0] += 1
        }

        /// Shapes recognized as themselves, over all shapes drawn.
        public var shapeAccuracy: Double {
            let shapes = rows.filter { !$0.hasPrefix("(") }
            let right = shapes.reduce(0) { $0 + (confusion[$1]?[$1] ?? 0) }
            let all = shapes.reduce(0) { $0 + (confusion[$1]?.values.reduce(0, +) ?? 0) }
            return all == 0 ? 0 : Double(right) / Double(all)
        }

        /// Scribbles and lines recognized as any shape, over all of them.
        public var falseRecognitions: Double {
            let others = rows.filter { $0.hasPrefix("(") }
            let wrong = others.reduce(0) { $0 + (confusion[$1]?.filter { $0.key != "-" }.values.reduce(0, +) ?? 0) }
            let all = others.reduce(0) { $0 + (confusion[$1]?.values.reduce(0, +) ?? 0) }
            return all == 0 ? 0 : Double(wrong) / Double(all)
        }
    }

    /// One drawing and the engine's answer: the best template and its score (nil: it failed
    /// for another reason than the score, e.g. the early-fail rule).
    public struct Sample: Sendable {
        public var drawn: Drawn
        public var answer: (template: String, score: Double)?
    }

    /// The result at `minimumScore` of samples recognized with a minimum score of 0.
    public static func result(_ samples: [Sample], minimumScore: Double) -> Result {
        var result = Result()
        for sample in samples {
            result.add(sample.drawn, answer: sample.answer.flatMap { $0.score >= minimumScore ? $0.template : nil })
        }
        return result
    }

    /// Draws `perShape` strokes of each built-in shape and `perShape` each of scribbles and
    /// lines, with hands seeded from `seed`, and recognizes them with `parameters` (whose
    /// `minimumScore` should be 0, so that `result(_:minimumScore:)` can apply any).
    public static func run(_ parameters: StrokeParameters, perShape: Int, seed: UInt64,
                           variation: SyntheticHand.Variation = .init()) throws -> [Sample] {
        var engine = try GestureEngine(views: [ViewSpec(id: "root", gestures: [
            GestureSpec(id: "s", kind: .stroke(parameters)),
        ])], screen: Size(width: 1280, height: 800))
        var hand = SyntheticHand(seed: seed, variation: variation)
        var samples: [Sample] = []
        var clock = 0.0
        var touch: UInt64 = 0
        let shapes = StrokeLibrary.all
        for _ in 0..<perShape {
            for template in shapes {
                let drawing = hand.draw(template.points)
                samples.append(Sample(drawn: .shape(template.name), answer: recognize(drawing, &engine, &clock, &touch)))
            }
            samples.append(Sample(drawn: .scribble, answer: recognize(hand.scribble(), &engine, &clock, &touch)))
            samples.append(Sample(drawn: .line, answer: recognize(hand.line(), &engine, &clock, &touch)))
        }
        return samples
    }

    /// As `run`, but straight through `matcher` on the drawn points as `StrokePath` keeps them
    /// (no engine, no early failure): to compare matching methods on the same drawings.
    public static func run(_ matcher: StrokeMatcher, perShape: Int, seed: UInt64,
                           variation: SyntheticHand.Variation = .init()) -> [Sample] {
        var matcher = matcher
        var hand = SyntheticHand(seed: seed, variation: variation)
        var samples: [Sample] = []
        func answer(_ drawing: SyntheticHand.Drawing) -> (template: String, score: Double)? {
            StrokePath.kept(drawing.points).withUnsafeBufferPointer { matcher.bestMatch($0) }.map { (matcher.names[$0.nameIndex], $0.score) }
        }
        for _ in 0..<perShape {
            for template in StrokeLibrary.all {
                samples.append(Sample(drawn: .shape(template.name), answer: answer(hand.draw(template.points))))
            }
            samples.append(Sample(drawn: .scribble, answer: answer(hand.scribble())))
            samples.append(Sample(drawn: .line, answer: answer(hand.line())))
        }
        return samples
    }

    /// The template the engine recognized for `drawing` and its score, or nil when it failed.
    public static func recognize(_ drawing: SyntheticHand.Drawing, _ engine: inout GestureEngine,
                                 _ clock: inout Double, _ touch: inout UInt64) -> (template: String, score: Double)? {
        touch += 1
        var events: [GestureEvent] = []
        let start = clock + 1000
        for (i, point) in drawing.points.enumerated() {
            let phase: TouchPhase = i == 0 ? .began : i == drawing.points.count - 1 ? .ended : .moved
            let now = Instant(microseconds: Int64((start + drawing.times[i]) * 1000))
            engine.advance(to: now, into: &events)
            engine.handle([TouchUpdate(id: TouchID(touch), phase: phase, location: point, device: "event0", slot: 0)],
                          now: now, into: &events)
        }
        clock = start + (drawing.times.last ?? 0)
        for event in events where event.state == .ended {
            if case .stroke(_, let score) = event.sample.values, let template = event.template { return (template, score) }
        }
        return nil
    }
}
