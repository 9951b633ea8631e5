/// Decides which of a repeated log message to write: at most `burst` per `window` for each
/// key, then quiet until the window has passed (libinput: 5 per 30 s), with a count of what was
/// held back when the key speaks again or is forgotten.
///
/// Keys carry client ids and device names, which a daemon running for months never reuses, so
/// the limiter holds at most `capacity` keys: a key whose window has passed is forgotten (swept
/// once the earliest window has passed, at most once per half window, so sweeps cost O(keys)
/// about twice per window), and
/// while all `capacity` keys are in their window, a message under a new key is limited under
/// `overflowKey` instead. Pure: the caller passes `now` and writes what it is told to.
public struct RateLimiter: Sendable {
    /// What to write for one message.
    public struct Admission: Equatable, Sendable {
        /// Whether to write the message itself.
        public var logs: Bool
        /// Keys whose window ended with messages held back, and how many: one line each.
        public var suppressed: [Suppressed]
    }

    public struct Suppressed: Equatable, Sendable {
        public var key: String
        public var count: Int
    }

    private struct Window: Sendable {
        var start: Instant
        var count = 0
        var suppressed = 0
    }

    /// The key of messages whose own key found no room.
    public static let overflowKey = "other messages"

    public let burst: Int
    public let window: Interval
    public let capacity: Int

    private var windows: [String: Window] = [:]
    private var overflow: Window?
    /// The earliest instant at which some held window has passed (nil when none is held).
    private var nextExpiry: Instant?

    public init(burst: Int = 5, window: Interval = Interval(seconds: 30), capacity: Int = 256) {
        precondition(burst > 0 && capacity > 0)
        self.burst = burst
        self.window = window
        self.capacity = capacity
    }

    /// How many keys the limiter holds (the overflow key included).
    public var keyCount: Int { windows.count + (overflow == nil ? 0 : 1) }

    /// Counts one message under `key` at `now` and says what to write.
    public mutating func admit(key: String, now: Instant) -> Admission {
        var admission = Admission(logs: false, suppressed: [])
        if let expiry = nextExpiry, now >= expiry { sweep(now: now, into: &admission.suppressed) }
        if windows[key] == nil, windows.count >= capacity {
            var entry = overflow
            admission.logs = count(&entry, key: Self.overflowKey, now: now, into: &admission.suppressed)
            overflow = entry
        } else {
            var entry = windows[key]
            admission.logs = count(&entry, key: key, now: now, into: &admission.suppressed)
            windows[key] = entry
        }
        return admission
    }

    private mutating func count(_ entry: inout Window?, key: String, now: Instant,
                                into suppressed: inout [Suppressed]) -> Bool {
        var w = entry ?? Window(start: now)
        if now - w.start >= window {
            if w.suppressed > 0 { suppressed.append(Suppressed(key: key, count: w.suppressed)) }
            w = Window(start: now)
        }
        w.count += 1
        if w.count > burst { w.suppressed += 1 }
        if entry == nil || w.start == now { nextExpiry = min(nextExpiry ?? w.start + window, w.start + window) }
        entry = w
        return w.count <= burst
    }

    /// Forgets every key whose window has passed, reporting what each held back.
    private mutating func sweep(now: Instant, into suppressed: inout [Suppressed]) {
        var next: Instant?
        for (key, w) in windows {
            if now - w.start >= window {
                if w.suppressed > 0 { suppressed.append(Suppressed(key: key, count: w.suppressed)) }
                windows[key] = nil
            } else {
                next = min(next ?? w.start + window, w.start + window)
            }
        }
        if let w = overflow {
            if now - w.start >= window {
                if w.suppressed > 0 { suppressed.append(Suppressed(key: Self.overflowKey, count: w.suppressed)) }
                overflow = nil
            } else {
                next = min(next ?? w.start + window, w.start + window)
            }
        }
        // At most one sweep per half window: a key lives up to one and a half windows.
        let soonest = now + Interval(microseconds: window.microseconds / 2)
        nextExpiry = next.map { max($0, soonest) }
        suppressed.sort { $0.key < $1.key }
    }
}
