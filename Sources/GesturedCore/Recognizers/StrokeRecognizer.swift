/// A custom gesture: `numberOfTouchesRequired` touches draw a shape (several touches draw their
/// centroid's path), matched at the last lift against the configured templates. Discrete: one
/// `ended` line with the best template's name and score, or failure.
///
/// It recognizes, at the last lift, the template with the best score (`StrokeMatcher`) when that
/// score reaches `minimumScore`, and fails otherwise. It also fails:
/// - when more touches than required go down, when a touch is cancelled, or when the lift comes
///   with fewer touches than required ever down together;
/// - at a lift whose path is shorter than `GestureDefaults.minimumStrokeLength` (a tap);
/// - early, during the drawing, once the path can no longer match: when its length exceeds
///   `earlyFailFactor` times the longest length-to-size ratio of its templates (a closed one
///   counted twice: it may be drawn round twice), times the diagonal of the path's bounding box
///   (the drawing has wound around far more than any template does, as a scribble or a shape
///   drawn over and over). Both sides of that ratio are free of scale, so the rule holds at
///   every size.
///
/// The path is recorded while exactly the required touches are down (the centroid's
/// translation, which does not jump when a finger lands), from the first such frame to the first
/// lift, in a `StrokePath` (bounded, allocated once: a frame never allocates). See docs/RECOGNIZERS.md for the diagram; a change to one is a
/// change to both.
public struct StrokeRecognizer: Sendable {
    /// How many times the templates' longest length-to-size ratio a path may reach before it
    /// fails early.
    public static let earlyFailFactor = 1.5

    public let parameters: StrokeParameters

    enum State: Sendable {
        /// No touch yet.
        case idle
        /// Touches down; `most` is the largest number down together, `lifted` once one has
        /// lifted (the path is then complete).
        case drawing(most: Int, lifted: Bool)
        /// Recognized or failed: deaf until reset.
        case finished
    }

    private(set) var state = State.idle
    private var touches = TouchGroup()
    private var matcher: StrokeMatcher
    private var path = StrokePath()
    /// Where the touches were last seen, for the recognized line.
    private var location = Point.zero

    init(_ parameters: StrokeParameters) {
        self.parameters = parameters
        matcher = StrokeMatcher(templates: parameters.templates, orientationSensitive: parameters.orientationSensitive,
                                rotationTolerance: parameters.rotationTolerance)
    }

    var deadline: Instant? { nil }

    /// The templates' distinct names, which its values and failures refer to by index
    /// (`GestureValues.stroke`, `FailReason.noTemplateMatched`).
    var templateNames: [String] { matcher.names }

    mutating func reset() {
        state = .idle
        touches.removeAll()
        clearPath()
    }

    mutating func fire(now: Instant) -> Proposal { .none }

    mutating func handle(_ updates: ArraySlice<TouchUpdate>, now: Instant) -> Proposal {
        for update in updates {
            let proposal = handle(update)
            if case .none = proposal { continue }
            state = .finished
            return proposal
        }
        guard case .drawing(_, false) = state, touches.count == parameters.numberOfTouchesRequired else {
            return .none
        }
        location = touches.centroid
        return sample(touches.translation)
    }

    private mutating func handle(_ update: TouchUpdate) -> Proposal {
        switch (state, update.phase) {
        case (.finished, _):
            return .none
        case (.idle, .began):
            touches.add(update.id, at: update.location)
            state = .drawing(most: 1, lifted: false)
        case (.idle, .moved), (.idle, .ended), (.idle, .cancelled):
            // A touch that went down before this recognizer was listening: not part of the stroke.
            return .none
        case (.drawing(let most, let lifted), .began):
            touches.add(update.id, at: update.location)
            guard touches.count <= parameters.numberOfTouchesRequired, !lifted else {
                return .fail(.tooManyTouches(count: touches.count, limit: parameters.numberOfTouchesRequired))
            }
            state = .drawing(most: max(most, touches.count), lifted: false)
        case (.drawing, .moved):
            touches.move(update.id, to: update.location)
        case (.drawing, .cancelled):
            return touches.contains(update.id) ? .fail(.touchCancelled) : .none
        case (.drawing(let most, let lifted), .ended):
            guard touches.contains(update.id) else { return .none }
            if !lifted && touches.count == parameters.numberOfTouchesRequired {
                touches.move(update.id, to: update.location)
                location = touches.centroid
                let t = touches.translation
                path.finish(at: Point(x: t.dx, y: t.dy))
            }
            touches.remove(update.id)
            state = .drawing(most: most, lifted: true)
            if touches.isEmpty { return decide(most: most) }
            return .none
        }
        if touches.count < parameters.numberOfTouchesRequired {
            // Not all fingers are down yet: the drawing has not started.
            touches.restartTranslation()
            clearPath()
        }
        return .none
    }

    /// At the last lift: the best template, if it scores enough.
    private mutating func decide(most: Int) -> Proposal {
        guard most == parameters.numberOfTouchesRequired else {
            return .fail(.tooFewTouches(count: most, required: parameters.numberOfTouchesRequired))
        }
        guard path.length >= GestureDefaults.minimumStrokeLength else {
            return .fail(.strokeTooShort(length: path.length, minimum: GestureDefaults.minimumStrokeLength))
        }
        let match = path.points.withUnsafeBufferPointer { matcher.bestMatch($0) }
        guard let match, match.score >= parameters.minimumScore else {
            return .fail(.noTemplateMatched(best: match?.nameIndex, score: match?.score ?? 0,
                                            minimum: parameters.minimumScore))
        }
        return .recognize(GestureSample(touches: most, location: location,
                                        values: .stroke(template: match.nameIndex, score: match.score)))
    }

    /// Adds the centroid's translation to the path; `.fail` when the early-fail rule says the
    /// path can no longer match.
    private mutating func sample(_ translation: Vector) -> Proposal {
        path.add(Point(x: translation.dx, y: translation.dy))
        let limit = Self.earlyFailFactor * matcher.longestRatio
        guard path.length >= GestureDefaults.minimumStrokeLength, path.length > path.diagonal * limit else { return .none }
        return .fail(.strokeTooLong(ratio: path.length.ratio(to: max(path.diagonal, Distance(points: .ulpOfOne))), limit: limit))
    }

    private mutating func clearPath() { path.removeAll() }
}
