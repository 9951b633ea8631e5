import GesturedCore
import GesturedIO
import Glibc

/// `gestured listen`: a client that prints the daemon's event lines as they arrive.
///
/// It sends its requests (`format`, `subscribe`, `filter`) and copies every line to stdout but
/// the start-up exchange (`hello`, one `ok` per request: `ListenHandshake`), so that `gestured
/// listen --format json | jq` sees only JSON events. With `--exec` it prints nothing and runs
/// the command for each gesture and kiosk line instead (`ListenExec`).
///
/// With `--exec` or `--reconnect`, losing the daemon (a restart, an upgrade) is not the end: it
/// says so on stderr once, connects again after `ReconnectBackoff`'s waits, sends its requests
/// again and says so when it is back; a line cut by the loss is dropped, and no line is
/// repeated (the daemon sends a new connection only what happens from then on). Without them,
/// the end of the stream ends it (status 0), which a script can wait for. The first connection
/// must succeed either way: a wrong path is an error, not an outage.
enum ListenCommand {
    static func run(socket option: String?, format: LineFormat, filter: LineFilter?, touches: Bool,
                    failed: Bool, reconnect: Bool = false, exec: ListenExec? = nil) throws(CommandFailure) {
        var requests: [String] = []
        if format != .text { requests.append("format \(format.rawValue)") }
        if touches { requests.append("subscribe touches") }
        if failed { requests.append("subscribe failed") }
        if let filter { requests.append("filter \(filter)") }
        var session = Session(option: option, requests: requests, exec: exec, reconnect: reconnect || exec != nil)
        try session.run()
    }

    /// One `listen` run: its connections, one after another, and the command it runs.
    private struct Session {
        let option: String?
        let requests: [String]
        let exec: ListenExec?
        let reconnect: Bool
        /// SIGINT and SIGTERM end an `--exec` run only once its commands are done.
        let signals: SignalChannel?
        var backoff = ReconnectBackoff()
        /// Since when the daemon is away: nil while connected and greeted. A connection the
        /// daemon closes before its `hello` (it refused the client) is part of the outage, so
        /// the messages stay one per outage and the waits keep growing.
        var outage: Instant?

        init(option: String?, requests: [String], exec: ListenExec?, reconnect: Bool) {
            self.option = option; self.requests = requests; self.exec = exec; self.reconnect = reconnect
            signals = exec == nil ? nil : try? SignalChannel(signals: [SIGINT, SIGTERM])
            // A daemon gone mid-write is an outage to wait out, not a reason to die (SignalChannel
            // ignores SIGPIPE already; without it, stdout's EPIPE is then an error).
            if reconnect { signal(SIGPIPE, SIG_IGN) }
        }

        mutating func run() throws(CommandFailure) {
            var socket = try ClientSocket(option: option)
            var fd = try ListenCommand.connect(socket)
            while true {
                let end = try serve(fd, path: socket.path)
                close(fd)
                guard case .lost(let reason) = end, reconnect else { return try finish() }
                if outage == nil {
                    Log.plain("gestured listen: lost the daemon at \(socket.path) (\(reason)); connecting again, every "
                              + "\(ReconnectBackoff.first.seconds) s to \(ReconnectBackoff.maximum.seconds) s")
                    outage = MonotonicClock.now()
                }
                while true {
                    guard try wait(backoff.delay()) else { return try finish() }
                    do throws(CommandFailure) {
                        socket = try ClientSocket(option: option)
                        fd = try ListenCommand.connect(socket)
                        break
                    } catch {}
                }
            }
        }

        enum End { case signalled, lost(String) }

        /// The daemon's `hello` arrived: the outage, if any, is over.
        private mutating func greeted(path: String) {
            backoff.reset()
            guard let since = outage else { return }
            outage = nil
            let seconds = (MonotonicClock.now() - since).seconds
            Log.plain("gestured listen: connected to \(path) again after \(LineEncoder.fixed(seconds, decimals: 1)) s")
        }

        /// Reads one connection to its end: the lines printed or run, commands reaped.
        private mutating func serve(_ fd: Int32, path: String) throws(CommandFailure) -> End {
            // A daemon that closed at once (it refused the client, or is stopping) is lost like
            // one that closes later.
            do throws(CommandFailure) { try ListenCommand.writeAll(fd, Array(requests.map { $0 + "\n" }.joined().utf8), path: path) } catch {
                return .lost(error.lines.joined(separator: " "))
            }
            var handshake = ListenHandshake(requests: requests.count)
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var out: [UInt8] = []
            while true {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                if let signals { fds.append(pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0)) }
                if let pidfd = exec?.pidfd { fds.append(pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)) }
                do { _ = try pollForever(&fds) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
                if try handleSignalsAndChildren(fds) { return .signalled }
                guard fds[0].revents != 0 else { continue }
                let n: Int?
                do throws(CommandFailure) { n = try ListenCommand.read(fd, into: &buffer, path: path) } catch {
                    return .lost(error.lines.joined(separator: " "))
                }
                guard let n else { continue }
                if n == 0 { return .lost("end of stream") }
                pending.append(contentsOf: buffer[..<n])
                var start = 0
                while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[start..<newline]
                    let text = String(decoding: line, as: UTF8.self)
                    let greeting = !handshake.isGreeted
                    switch handshake.classify(text[...]) {
                    case .exchange: if greeting, handshake.isGreeted { greeted(path: path) }
                    case .refused: throw CommandFailure(ExitStatus.usage, "the daemon refused a request: \(text)")
                    case .event:
                        if let exec { try exec.handle(line: text[...]) } else { out += line; out.append(UInt8(ascii: "\n")) }
                    }
                    start = newline + 1
                }
                pending.removeFirst(start)
                if !out.isEmpty { try ListenCommand.writeAll(1, out, path: "stdout"); out.removeAll(keepingCapacity: true) }
            }
        }

        /// Reaps a finished command (starting the pending one); true when a signal asks to end.
        private func handleSignalsAndChildren(_ fds: [pollfd]) throws(CommandFailure) -> Bool {
            var index = 1
            if let signals {
                if fds[index].revents != 0, !((try? signals.read()) ?? []).isEmpty { return true }
                index += 1
            }
            if let exec, index < fds.count, fds[index].revents != 0 { try exec.reap() }
            return false
        }

        /// Waits `interval` while reaping commands; false when a signal asks to end.
        private func wait(_ interval: Interval) throws(CommandFailure) -> Bool {
            let deadline = MonotonicClock.now() + interval
            while true {
                let left = (deadline - MonotonicClock.now()).microseconds
                guard left > 0 else { return true }
                var fds = [pollfd(fd: -1, events: 0, revents: 0)]
                if let signals { fds.append(pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0)) }
                if let pidfd = exec?.pidfd { fds.append(pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)) }
                do { try pollOnce(&fds, timeout: Int32((left + 999) / 1000)) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
                if try handleSignalsAndChildren(fds) { return false }
            }
        }

        /// The end: waits for the running and pending commands.
        private func finish() throws(CommandFailure) {
            guard let exec else { return }
            while exec.isBusy {
                guard let pidfd = exec.pidfd else { return }
                var fds = [pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)]
                do { _ = try pollForever(&fds) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
                try exec.reap()
            }
        }
    }

    /// Connects to the socket; a failure names every path looked at (`SocketLocation`).
    static func connect(_ socket: ClientSocket) throws(CommandFailure) -> Int32 {
        let path = socket.path
        let fd: Int32
        do { fd = try GesturedIO.syscall("socket", onInterrupt: .fail) { Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) } } catch {
            throw CommandFailure(ExitStatus.failure, "socket: \(error.errno)")
        }
        do {
            _ = try withUnixSocketAddress(path, for: "connect") { (address, length) throws(SystemError) in
                try GesturedIO.syscall("connect", path: path, onInterrupt: .fail) { Glibc.connect(fd, address, length) }
            }
        } catch {
            close(fd)
            throw CommandFailure(ExitStatus.failure, socket.resolution.failure(error.errno == .nameTooLong ? "socket path too long"
                                                                                                          : "connect: \(error.errno)"))
        }
        return fd
    }

    /// One read through GesturedIO's wrapper (EINTR retried); nil when it would block.
    static func read(_ fd: Int32, into buffer: inout [UInt8], path: String) throws(CommandFailure) -> Int? {
        var result: Result<Int, SystemError> = .success(0)
        buffer.withUnsafeMutableBytes { raw in
            do throws(SystemError) { result = .success(try FileDescriptor(rawValue: fd).read(into: raw)) } catch {
                result = .failure(error)
            }
        }
        switch result {
        case .success(let n): return n
        case .failure(let error) where error.errno == .wouldBlock: return nil
        case .failure(let error): throw CommandFailure(ExitStatus.failure, "\(path): read: \(error.errno)")
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(CommandFailure) {
        do { try FileDescriptor(rawValue: fd).writeAll(bytes) } catch {
            throw CommandFailure(ExitStatus.failure, "\(path): write: \(error.errno)")
        }
    }
}
