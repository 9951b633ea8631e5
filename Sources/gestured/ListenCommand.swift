import GesturedCore
import GesturedIO
import Glibc

/// `gestured listen`: a client that prints the daemon's lines as they arrive.
enum ListenCommand {
    static func run(socket path: String, format: LineFormat) throws(CommandFailure) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CommandFailure(ExitStatus.failure, "socket: \(Errno.current)") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw CommandFailure(ExitStatus.failure, "\(path): socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw CommandFailure(ExitStatus.failure, "\(path): connect: \(Errno.current)") }
        if format == .json {
            // Requests are not part of this version's protocol yet: only text is served.
            throw CommandFailure(ExitStatus.failure, "listen: --format json needs a daemon that takes requests (not in this version)")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw CommandFailure(ExitStatus.failure, "\(path): read: \(Errno.current)") }
            if n == 0 { return }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { write(1, $0.baseAddress! + offset, n - offset) }
                if w < 0 { if errno == EINTR { continue }; return }
                offset += w
            }
        }
    }
}
