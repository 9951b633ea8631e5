/// What a recognizer would do after an input; the arbiter decides whether it may.
///
/// Recognizers never talk to each other and never change their reported state themselves: they
/// propose, the arbiter (`GestureEngine`) disposes (Flutter's gesture arena works the same way).
public enum Proposal: Hashable, Sendable {
    /// Nothing to report.
    case none
    /// The touches are not this gesture (`possible → failed`), or, once begun, the gesture cannot
    /// go on (`→ cancelled`).
    case fail
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
