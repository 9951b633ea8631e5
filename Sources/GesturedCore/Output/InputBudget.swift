/// The bound on how many keys and clicks gestures may send: at most `perSecond` in any second,
/// so a gesture stuck recognizing over and over (a flood of frames from a broken panel, a
/// configuration mistake) cannot type without end. A scroll is not counted: it sends at most
/// one wheel frame per touch frame of its gesture, and nothing once the fingers lift.
public struct InputBudget: Sendable {
    /// Twenty a second is faster than anyone taps (a deliberate double tap is ~5 per second),
    /// and slow enough that a runaway cannot do much before someone notices.
    public static let perSecond = 20

    /// The times of the last sends (at most `perSecond`), oldest first.
    private var sent: [Instant] = []

    public init() {}

    /// Whether `action` may be sent at `now`; counts it when it may.
    public mutating func allows(_ action: InputAction, at now: Instant) -> Bool {
        switch action.kind {
        case .scroll: return true
        case .key, .click: break
        }
        let second = Interval(seconds: 1)
        while let first = sent.first, now - first >= second { sent.removeFirst() }
        guard sent.count < Self.perSecond else { return false }
        sent.append(now)
        return true
    }
}
