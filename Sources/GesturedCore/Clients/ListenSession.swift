/// What a listening client (`gestured listen`) makes of each line it reads after it connected
/// and sent its requests: the start-up exchange is the daemon's `hello` and one `ok` or `error`
/// per request, but other lines may come between them (a kiosk line sent to every client can
/// arrive before the answer to `filter`), so a line counts as part of the exchange by its kind,
/// never by its position. Pure: the shell feeds it lines.
public struct ListenHandshake: Hashable, Sendable {
    private var helloPending = true
    private var answersPending: Int

    /// `requests`: how many request lines the client sent.
    public init(requests: Int) { answersPending = requests }

    public enum Verdict: Hashable, Sendable {
        /// `hello` or an `ok`: the exchange, not shown.
        case exchange
        /// An `error` answering one of the client's requests: the daemon refused it.
        case refused
        /// Anything else: the stream the client is for.
        case event
    }

    /// Whether the daemon's `hello` has arrived.
    public var isGreeted: Bool { !helloPending }

    /// Whether every answer has arrived.
    public var isComplete: Bool { !helloPending && answersPending == 0 }

    public mutating func classify(_ line: Substring) -> Verdict {
        if helloPending, Self.kind(of: line) == "hello" { helloPending = false; return .exchange }
        guard answersPending > 0 else { return .event }
        switch Self.kind(of: line) {
        case "ok": answersPending -= 1; return .exchange
        case "error": answersPending -= 1; return .refused
        default: return .event
        }
    }

    /// The first word of a text line, or the `event` of a JSON line (which the daemon always
    /// writes first).
    static func kind(of line: Substring) -> Substring {
        let json = #"{"event":""#
        if line.hasPrefix(json) {
            let rest = line.dropFirst(json.count)
            return rest.prefix { $0 != "\"" }
        }
        return line.prefix { $0 != " " }
    }
}

/// When a client that lost the daemon tries again: 0.1 s after the loss, then twice as long
/// after each failed attempt, at most 5 s apart, so a daemon back after an upgrade's restart is
/// found within a tenth of a second and one that stays away costs an attempt every 5 s.
public struct ReconnectBackoff: Hashable, Sendable {
    public static let first = Interval.milliseconds(100)
    public static let maximum = Interval(seconds: 5)

    private var next = ReconnectBackoff.first

    public init() {}

    /// The wait before the next attempt; each call doubles the one after, up to `maximum`.
    public mutating func delay() -> Interval {
        defer { next = min(Interval(microseconds: next.microseconds * 2), Self.maximum) }
        return next
    }

    /// A connection was made: the next loss starts again at `first`.
    public mutating func reset() { next = Self.first }
}
