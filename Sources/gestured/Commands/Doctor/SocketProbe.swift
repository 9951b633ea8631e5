import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// The daemon's socket as the caller finds it: its owner, group and mode, and whether a
/// connection is accepted (the connection is closed at once; the daemon sees a client come and go).
enum SocketProbe {
    static func probe(_ path: String) -> DoctorFacts.Socket {
        var status = stat()
        var socket = DoctorFacts.Socket(path: path, reach: .connected)
        if stat(path, &status) == 0 {
            socket.owner = getpwuid(status.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(status.st_uid)"
            socket.group = getgrgid(status.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "gid \(status.st_gid)"
            socket.mode = status.st_mode & 0o7777
            if status.st_mode & S_IFMT != S_IFSOCK {
                socket.reach = .failed("not a socket")
                return socket
            }
        }
        let fd: Int32
        do {
            fd = try GesturedIO.syscall("socket", onInterrupt: .fail) {
                Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch {
            socket.reach = .failed("socket: \(error.errno)")
            return socket
        }
        defer { try? FileDescriptor(rawValue: fd).close() }
        do {
            _ = try withUnixSocketAddress(path, for: "connect") { (address, length) throws(SystemError) in
                try GesturedIO.syscall("connect", path: path, onInterrupt: .retry) { Glibc.connect(fd, address, length) }
            }
        } catch {
            socket.reach = if error.isNoSuchFile { .missing }
                else if error.errno == .connectionRefused { .refused }
                else if error.isPermissionDenied { .denied }
                else { .failed("connect: \(error.errno)") }
        }
        return socket
    }

    /// The caller's uid and user name.
    static func caller() -> DoctorFacts.Caller {
        let uid = getuid()
        return DoctorFacts.Caller(uid: uid, name: getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)")
    }
}
