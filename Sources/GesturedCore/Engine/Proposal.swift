/// What a recognizer would do after an input; the arbiter decides whether it may.
///
/// Recognizers never talk to each other and never change their reported state themselves: they
/// propose, the arbiter (`GestureEngine`) disposes (Flutter's gesture arena works the same way).
public enum Proposal: Hashable, Sendable {
    /// Nothing to report.
    case none
    /// The touches are not this gesture (`possible → failed`), or, once begun, the gesture cannot
    /// go on (`→ cancelled`); the reason is for `--trace` only (plain values: no allocation).
    case fail(FailReason)
    /// A discrete gesture is complete (`possible → ended`).
    case recognize(GestureSample)
    /// A continuous gesture starts (`possible → began`).
    case begin(GestureSample)
    /// A continuous gesture moves on (`began/changed → changed`).
    case change(GestureSample)
    /// A continuous gesture finishes (`began/changed → ended`).
    case end(GestureSample)
    /// A continuous gesture's touches were cancelled (`began/changed → cancelled`).
    case cancel
}

/// Why a recognizer fails: what `--trace` prints after the transition (`FailReason.text`).
/// Plain values in their units (`Distance`, `Speed`, `Angle`, `Interval`), so proposing a failure
/// allocates nothing; the text is built only when traced.
public enum FailReason: Hashable, Sendable {
    /// A touch moved `distance` from where it went down; `limit` (`parameter`) allows less.
    case moved(distance: Distance, limit: Distance, parameter: MovementLimit)
    /// `count` touches down at once; at most `limit` allowed.
    case tooManyTouches(count: Int, limit: Int)
    /// A tap or press ended with `count` touches at most; `required` needed.
    case tooFewTouches(count: Int, required: Int)
    /// No next tap within `maximumTapInterval` after tap `completed`.
    case noNextTap(completed: Int, interval: Interval)
    /// The next tap went down `distance` from the first; `maximumTapDistance` allows less.
    case nextTapTooFar(distance: Distance, limit: Distance)
    /// A tap (of a multi-tap long press) was held for `minimumPressDuration`.
    case tapHeldTooLong(duration: Interval)
    /// The press lifted after `held`, before `minimumPressDuration`.
    case liftedEarly(held: Interval, required: Interval)
    /// The touches of a pan or a screen-edge pan lifted before moving `slop`.
    case liftedBeforeMovement(slop: Distance)
    /// The touches of a pinch lifted before their span changed by `slop`.
    case liftedBeforeSpanChange(slop: Distance)
    /// The touches of a rotation lifted before their line turned by `slop`.
    case liftedBeforeTurn(slop: Angle)
    /// A swipe's touch lifted before reaching `minimumDistance` at `minimumVelocity`.
    case liftedBeforeSwipe(minimumDistance: Distance, minimumVelocity: Speed)
    /// A swipe took `maximumDuration` without meeting its criteria.
    case tooSlow(limit: Interval)
    /// A swipe moved `direction`, not one of its directions, or off the axis by more than the
    /// tolerance (`offAxis`, `tolerance` allowed).
    case wrongDirection(direction: SwipeDirection, offAxis: Angle, tolerance: Angle)
    /// A screen-edge pan's touch began farther than `edgeZoneWidth` from its edges.
    case notAtEdge(zone: Distance)
    /// A screen-edge pan's touch moved `slop` but not away from its edge.
    case notAwayFromEdge(slop: Distance)
    /// A second touch went down where one was expected.
    case secondTouch
    /// The system cancelled a touch.
    case touchCancelled
    /// A stroke's path was `length` long at the lift; at least `minimum` needed.
    case strokeTooShort(length: Distance, minimum: Distance)
    /// A stroke's path grew longer than any template allows for its size (the early-fail rule).
    case strokeTooLong(ratio: Double, limit: Double)
    /// A stroke's best template (nil: none could be compared) scored below `minimumScore`;
    /// `best` is the index of its name in the recognizer's templates (`GestureLabel.templates`).
    case noTemplateMatched(best: Int?, score: Double, minimum: Double)

    /// The words `--trace` prints, e.g. `touch lifted before 10 pt of movement`; `templates`
    /// are the failing recognizer's template names (`GestureLabel.templates`), which
    /// `noTemplateMatched` refers to by index.
    public func text(templates: [String]) -> String {
        switch self {
        case .moved(let distance, let limit, let parameter):
            "moved \(Self.number(distance.points)) pt > \(parameter.rawValue) \(Self.number(limit.points)) pt"
        case .tooManyTouches(let count, let limit): "\(count) touches down > \(limit) allowed"
        case .tooFewTouches(let count, let required): "\(count) touch\(count == 1 ? "" : "es") < \(required) required"
        case .noNextTap(let completed, let interval):
            "no tap \(completed + 1) within maximumTapInterval \(Self.number(interval.seconds)) s"
        case .nextTapTooFar(let distance, let limit):
            "next tap \(Self.number(distance.points)) pt away > maximumTapDistance \(Self.number(limit.points)) pt"
        case .tapHeldTooLong(let duration):
            "a tap held for minimumPressDuration \(Self.number(duration.seconds)) s before the taps were done"
        case .liftedEarly(let held, let required):
            "lifted after \(Self.number(held.seconds)) s < minimumPressDuration \(Self.number(required.seconds)) s"
        case .liftedBeforeMovement(let slop): "touch lifted before \(Self.number(slop.points)) pt of movement"
        case .liftedBeforeSpanChange(let slop): "touch lifted before \(Self.number(slop.points)) pt of change in span"
        case .liftedBeforeTurn(let slop): "touch lifted before \(Self.number(slop.radians)) rad of turn"
        case .liftedBeforeSwipe(let distance, let velocity):
            "touch lifted before \(Self.number(distance.points)) pt at \(Self.number(velocity.pointsPerSecond)) pt/s"
        case .tooSlow(let limit): "not swiped within maximumDuration \(Self.number(limit.seconds)) s"
        case .wrongDirection(let direction, let offAxis, let tolerance):
            offAxis > tolerance
                ? "\(Self.number(offAxis.radians)) rad off the \(direction.rawValue) axis > angleTolerance \(Self.number(tolerance.radians)) rad"
                : "swiped \(direction.rawValue), not one of its directions"
        case .notAtEdge(let zone): "touch began more than edgeZoneWidth \(Self.number(zone.points)) pt from its edges"
        case .notAwayFromEdge(let slop): "moved \(Self.number(slop.points)) pt, but not away from its edge"
        case .secondTouch: "a second touch went down"
        case .touchCancelled: "a touch was cancelled"
        case .strokeTooShort(let length, let minimum):
            "stroke \(Self.number(length.points)) pt long < \(Self.number(minimum.points)) pt"
        case .strokeTooLong(let ratio, let limit):
            "stroke \(Self.number(ratio)) times its size > \(Self.number(limit)) that its templates allow"
        case .noTemplateMatched(let best, let score, let minimum):
            best.map { "best template \(Self.template($0, of: templates)) scored \(Self.number(score, decimals: 3)) < minimumScore \(Self.number(minimum))" }
                ?? "no template could be compared"
        }
    }

    /// The name of template `index`, or `#index` if `templates` has none (not the recognizer's).
    private static func template(_ index: Int, of templates: [String]) -> String {
        templates.indices.contains(index) ? templates[index] : "#\(index)"
    }

    /// The parameter a movement exceeded.
    public enum MovementLimit: String, Hashable, Sendable { case movementSlop, allowableMovement }

    /// At most two decimals (or `decimals`), trailing zeros dropped: `0.5`, `10`, `14.14`.
    public static func number(_ value: Double, decimals: Int = 2) -> String {
        var text = LineEncoder.fixed(value, decimals: decimals)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
