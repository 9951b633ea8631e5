import GesturedCore
import GesturedIO
import Glibc

/// The daemon's only logger: stderr, one line per message, each with its syslog priority prefix
/// (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug), which journald turns into priorities.
///
/// Messages a device or a client can trigger again and again go through `limited`, which
/// allows a burst and then stays quiet for the rest of the window (libinput: 5 per 30 s), and
/// says how many it suppressed when it speaks again.
enum Log {
    enum Priority: Int32 { case error = 3, warning = 4, info = 6, debug = 7 }

    nonisolated(unsafe) static var verbose = false
    /// The daemon writes syslog priority prefixes for journald; the one-shot commands
    /// (`check-config`, `replay`, ...) write plain messages for a person at a terminal.
    nonisolated(unsafe) static var priorityPrefixes = false
    nonisolated(unsafe) private static var windows: [String: (start: Instant, count: Int, suppressed: Int)] = [:]

    static let burst = 5
    static let window = Interval(seconds: 30)

    static func error(_ message: String) { write(.error, message) }
    static func warning(_ message: String) { write(.warning, message) }
    static func info(_ message: String) { write(.info, message) }
    static func debug(_ message: @autoclosure () -> String) { if verbose { write(.debug, message()) } }

    /// Logs at most `burst` messages per `window` for `key`.
    static func limited(_ priority: Priority, key: String, _ message: @autoclosure () -> String) {
        let now = MonotonicClock.now()
        var w = windows[key] ?? (now, 0, 0)
        if now - w.start >= window {
            if w.suppressed > 0 { write(priority, "\(key): \(w.suppressed) similar messages suppressed") }
            w = (now, 0, 0)
        }
        w.count += 1
        if w.count <= burst { write(priority, message()) } else { w.suppressed += 1 }
        windows[key] = w
    }

    private static func write(_ priority: Priority, _ message: String) {
        plain(priorityPrefixes ? "<\(priority.rawValue)>" + message : message)
    }

    /// One line to stderr as it is, in a single write(2) so concurrent writers do not interleave.
    static func plain(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}
