import GesturedCore
import GesturedIO
import Glibc

/// `gestured ctl [--socket PATH] REQUEST…`: one request line (the words joined by spaces) for a
/// shell or an idle manager's hook (`swayidle … 'gestured ctl screen off'`), its answer printed
/// on stdout; exit 0 when the daemon answered `ok` (or `stats`), 1 when it answered `error` or
/// could not be reached, 2 for bad usage (CONTRACT.md §6).
///
/// Lines the daemon sends before the answer (`hello`, event lines to every client) are skipped:
/// the answer is the first `ok`, `error` or `stats` line.
enum CtlCommand {
    /// How long to wait for the answer, in milliseconds: a hook must not hang a session's idle
    /// manager when the daemon is stopped mid-request; the daemon answers in microseconds.
    static let answerTimeout: Int64 = 10_000

    static func run(socket: ClientSocket, request: String) throws(CommandFailure) {
        let path = socket.path
        let fd = try ListenCommand.connect(socket)
        defer { close(fd) }
        try ListenCommand.writeAll(fd, Array((request + "\n").utf8), path: path)
        let deadline = MonotonicClock.now() + Interval.milliseconds(answerTimeout)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                switch answer(line) {
                case .none: continue
                case .accepted?: print(line); return
                case .refused?: print(line); throw CommandFailure(ExitStatus.failure, lines: [])
                }
            }
            let left = (deadline - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else { throw CommandFailure(ExitStatus.failure, "\(path): no answer within \(answerTimeout / 1000) s") }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            do { guard try pollOnce(&fds, timeout: Int32(left)) > 0 else { continue } } catch {
                throw CommandFailure(ExitStatus.failure, "\(error)")
            }
            guard let n = try ListenCommand.read(fd, into: &buffer, path: path) else { continue }
            if n == 0 { throw CommandFailure(ExitStatus.failure, "\(path): the daemon closed the connection without an answer") }
            pending.append(contentsOf: buffer[..<n])
        }
    }

    enum Answer { case accepted, refused }

    /// Whether a line is the answer, and which (text lines: `ctl` never asks for JSON).
    static func answer(_ line: String) -> Answer? {
        if line.hasPrefix("ok ") || line.hasPrefix("stats ") { return .accepted }
        if line.hasPrefix("error ") { return .refused }
        return nil
    }

    /// The request line from the words after the options; nil when there is none or one would
    /// make several lines.
    static func requestLine(_ words: [String]) throws(UsageError) -> String {
        guard !words.isEmpty else { throw UsageError(message: "ctl needs a request, e.g. 'gestured ctl screen off'") }
        let line = words.joined(separator: " ")
        // By byte: "\r\n" is one Character, equal to neither "\r" nor "\n".
        if line.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == 0 }) {
            throw UsageError(message: "ctl sends one request line: no line breaks or NUL in its words")
        }
        return line
    }
}
