import GesturedCore
import GesturedIO
import Glibc
import Synchronization

/// The daemon's only logger: stderr, one line per message, each with its syslog priority prefix
/// (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug), which journald turns into priorities.
///
/// Messages a device or a client can trigger again and again go through `limited`, which
/// allows a burst and then stays quiet for the rest of the window (libinput: 5 per 30 s), and
/// says how many it suppressed when it speaks again; `RateLimiter` decides, and holds a bounded
/// number of keys however many clients come and go.
///
/// Every message is escaped (`LogText`): text a client or a device chose (a request line, a
/// device's name) can never start a journal record of its own or carry a NUL or a terminal
/// escape.
enum Log {
    enum Priority: Int32 { case error = 3, warning = 4, info = 6, debug = 7 }

    nonisolated(unsafe) static var verbose = false
    /// The daemon writes syslog priority prefixes for journald; the one-shot commands
    /// (`check-config`, `replay`, ...) write plain messages for a person at a terminal.
    nonisolated(unsafe) static var priorityPrefixes = false
    /// The process's one limiter, behind a lock: the daemon has one thread, but the tests run
    /// its parts on several at once (two threads changing its table at once crashed a test run).
    private static let limits = Mutex(RateLimiter())
    /// A copy of the limiter as it is now (tests read its size).
    static var limiter: RateLimiter { limits.withLock { $0 } }
    /// Collects the lines (escaped already) instead of stderr, for the task that set it and its
    /// children only: a test that runs the daemon's parts in its own process reads what they
    /// logged (`Log.$collector.withValue`) without catching what tests beside it log.
    @TaskLocal static var collector: (@Sendable (String) -> Void)?

    static func error(_ message: String) { write(.error, message) }
    static func warning(_ message: String) { write(.warning, message) }
    static func info(_ message: String) { write(.info, message) }
    static func debug(_ message: @autoclosure () -> String) { if verbose { write(.debug, message()) } }

    /// A `--trace` line (asked for, so never rate-limited): `trace TIME name: old → new (why)`,
    /// at debug priority.
    static func trace(_ line: String) { write(.debug, "trace " + line) }

    /// The clock the rate limit reads, for the task that set it and its children: the daemon's
    /// own clock (CLOCK_MONOTONIC) when none is set; a test's virtual clock
    /// (`Log.$clock.withValue`), so that windows pass when the test says.
    @TaskLocal static var clock: (any Clock)?

    /// Logs at most `limiter.burst` messages per `limiter.window` for `key`.
    static func limited(_ priority: Priority, key: String, _ message: @autoclosure () -> String) {
        let now = (clock ?? MonotonicClock.system).now()
        let admission = limits.withLock { $0.admit(key: key, now: now) }
        for held in admission.suppressed { write(priority, "\(held.key): \(held.count) similar messages suppressed") }
        if admission.logs { write(priority, message()) }
    }

    private static func write(_ priority: Priority, _ message: String) {
        let text = line(priority, message, prefixed: priorityPrefixes)
        if let collector { collector(text) } else { writeLine(text) }
    }

    /// The line written for `message`: escaped (`LogText`), after its priority prefix when
    /// `prefixed`.
    static func line(_ priority: Priority, _ message: String, prefixed: Bool) -> String {
        let text = LogText.escaped(message)
        return prefixed ? "<\(priority.rawValue)>" + text : text
    }

    /// One message to stderr without a priority, escaped like every other.
    static func plain(_ message: String) { writeLine(LogText.escaped(message)) }

    /// One line to stderr as it is, in a single write(2) so concurrent writers do not interleave
    /// (short writes are completed). A failed write is dropped: there is nowhere to report it.
    private static func writeLine(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { buffer in try? FileDescriptor.standardError.writeAll(UnsafeRawBufferPointer(buffer)) }
    }
}
