import GesturedCore
import GesturedIO
import Glibc

/// The bridge's connection to the daemon's socket: lines in, request lines out.
struct DaemonConnection {
    /// `--socket`'s value: the socket is looked for again at each connection (the service's may
    /// have appeared since), as `listen --exec` does.
    let option: String?
    /// The path of the last connection, or the first looked at before one.
    private(set) var path: String
    private(set) var fd: Int32 = -1
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// A line longer than this is cut off: the daemon's lines are far shorter, so one would be a
    /// bug, and the bridge's memory stays bounded whatever arrives.
    static let maximumLine = 64 << 10

    init(option: String?) {
        self.option = option
        path = (try? ClientSocket(option: option).path) ?? option ?? SocketLocation.system
    }

    enum ReadResult { case lines([String]), closed(String) }

    /// Nil, or why not.
    mutating func connect() -> String? {
        do {
            let socket = try ClientSocket(option: option)
            path = socket.path
            fd = try ListenCommand.connect(socket)
        } catch { return error.lines.joined(separator: "; ") }
        pending = []
        return nil
    }

    mutating func read() -> ReadResult {
        let n: Int?
        do { n = try ListenCommand.read(fd, into: &buffer, path: path) } catch {
            disconnect()
            return .closed(error.lines.joined(separator: "; "))
        }
        guard let n else { return .lines([]) }
        if n == 0 { disconnect(); return .closed("end of stream") }
        pending.append(contentsOf: buffer[..<n])
        var lines: [String] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > Self.maximumLine { pending.removeAll() }
        return .lines(lines)
    }

    /// Sends one request; a failure shows as the end of stream at the next read.
    mutating func send(_ line: String) {
        guard fd >= 0 else { return }
        try? ListenCommand.writeAll(fd, Array((line + "\n").utf8), path: path)
    }

    mutating func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
    }
}
