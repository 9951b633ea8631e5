import GesturedCore
import GesturedIO
import Glibc

/// `gestured listen`: a client that prints the daemon's event lines as they arrive.
///
/// It sends its requests (`format`, `subscribe`, `filter`), reads the handshake — `hello`, then
/// one `ok` or `error` per request — and from then on copies every line to stdout, so that
/// `gestured listen --format json | jq` sees only JSON events. With `--exec` it prints nothing
/// and runs the command for each gesture line instead (`ListenExec`).
enum ListenCommand {
    static func run(socket path: String, format: LineFormat, filter: LineFilter?, touches: Bool,
                    failed: Bool, exec: ListenExec? = nil) throws(CommandFailure) {
        var requests: [String] = []
        if format != .text { requests.append("format \(format.rawValue)") }
        if touches { requests.append("subscribe touches") }
        if failed { requests.append("subscribe failed") }
        if let filter { requests.append("filter \(filter)") }

        let fd = try connect(path)
        defer { close(fd) }
        try writeAll(fd, Array(requests.map { $0 + "\n" }.joined().utf8), path: path)

        var pending: [UInt8] = []
        var handshake = 1 + requests.count   // hello, then the answers
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        if let exec { return try runCommands(exec, fd: fd, path: path, handshake: handshake) }
        while true {
            guard let n = try read(fd, into: &buffer, path: path) else { continue }
            if n == 0 { return }
            guard handshake > 0 else { try writeAll(1, Array(buffer[..<n]), path: "stdout"); continue }
            pending.append(contentsOf: buffer[..<n])
            while handshake > 0, let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.hasPrefix("error ") || line.hasPrefix("{\"event\":\"error\"") {
                    throw CommandFailure(ExitStatus.usage, "the daemon refused a request: \(line)")
                }
                handshake -= 1
            }
            if handshake == 0, !pending.isEmpty {
                try writeAll(1, pending, path: "stdout")
                pending.removeAll()
            }
        }
    }

    /// Reads lines and runs the command for gesture lines, reaping it through its pidfd in the
    /// same poll: a slow command never stops the reading (the daemon would drop a client that
    /// stops reading). At the end of the stream, waits for the running and pending commands.
    private static func runCommands(_ exec: ListenExec, fd: Int32, path: String, handshake: Int) throws(CommandFailure) {
        var handshake = handshake
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = true
        while open || exec.isBusy {
            var fds = [pollfd(fd: open ? fd : -1, events: Int16(POLLIN), revents: 0)]
            if let pidfd = exec.pidfd { fds.append(pollfd(fd: pidfd.rawValue, events: Int16(POLLIN), revents: 0)) }
            do { _ = try pollForever(&fds) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
            if fds.count > 1, fds[1].revents != 0 { try exec.reap() }
            guard open, fds[0].revents != 0 else { continue }
            guard let n = try read(fd, into: &buffer, path: path) else { continue }
            if n == 0 { open = false; continue }
            pending.append(contentsOf: buffer[..<n])
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[start..<newline], as: UTF8.self)
                start = newline + 1
                if handshake > 0 {
                    if line.hasPrefix("error ") { throw CommandFailure(ExitStatus.usage, "the daemon refused a request: \(line)") }
                    handshake -= 1
                    continue
                }
                try exec.handle(line: line[...])
            }
            pending.removeFirst(start)
        }
    }

    static func connect(_ path: String) throws(CommandFailure) -> Int32 {
        let fd: Int32
        do { fd = try GesturedIO.syscall("socket", onInterrupt: .fail) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) } } catch {
            throw CommandFailure(ExitStatus.failure, "socket: \(error.errno)")
        }
        do {
            _ = try withUnixSocketAddress(path, for: "connect") { (address, length) throws(SystemError) in
                try GesturedIO.syscall("connect", path: path, onInterrupt: .fail) { Glibc.connect(fd, address, length) }
            }
        } catch {
            close(fd)
            throw CommandFailure(ExitStatus.failure, error.errno == .nameTooLong ? "\(path): socket path too long"
                                                                                    : "\(path): connect: \(error.errno)")
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
