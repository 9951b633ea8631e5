/// A line of the kiosk policy (docs/PROTOCOL.md, "Kiosk lines"): sent to every client, whatever
/// its subscriptions and filter, like `device` lines.
public struct KioskEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A touch began while its screen was off: its sequence is claimed. `location` in the
        /// screen's points.
        case wake(device: DeviceName, location: Point)
        /// The screen is locked for `seconds` from `time` (`lock SECONDS`).
        case lock(seconds: Int)
        /// The lock ended: `unlock` was asked, or its time was up.
        case unlock
        /// No touch for `seconds` (a configured threshold).
        case idle(seconds: Int)
        /// The first touch after an `idle` line.
        case active
    }

    public var kind: Kind
    public var time: Instant
    /// The screen it concerns; nil in the single form, and for the top-level `idle` thresholds
    /// (which count touches on every screen).
    public var screen: String?

    public init(_ kind: Kind, time: Instant, screen: String? = nil) {
        self.kind = kind; self.time = time; self.screen = screen
    }

    /// The line's kind: `wake`, `lock`, `unlock`, `idle` or `active`.
    public var name: String {
        switch kind {
        case .wake: "wake"
        case .lock: "lock"
        case .unlock: "unlock"
        case .idle: "idle"
        case .active: "active"
        }
    }
}
