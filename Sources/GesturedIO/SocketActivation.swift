import CLinux
import Glibc

/// Sockets passed by the service manager (`sd_listen_fds(3)`): descriptors from 3 on, announced
/// by `LISTEN_PID` (this process), `LISTEN_FDS` (how many) and `LISTEN_FDNAMES` (their names).
public enum SocketActivation {
    /// The first passed descriptor; the rest follow it.
    public static let firstDescriptor: Int32 = 3

    /// One passed descriptor and the name the socket unit gave it (`FileDescriptorName=`, by
    /// default the unit's name).
    public struct Passed: Hashable, Sendable {
        public var descriptor: FileDescriptor
        public var name: String?
        public init(descriptor: FileDescriptor, name: String?) { self.descriptor = descriptor; self.name = name }
    }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case invalidCount(String)
        case wrongCount(Int)
        case notAStreamUnixSocket(descriptor: Int32, detail: String)
        case system(SystemError)

        public var description: String {
            switch self {
            case .invalidCount(let value): "LISTEN_FDS=\(value) is not a number of descriptors"
            case .wrongCount(let count): "the service manager passed \(count) sockets; gestured listens on exactly one"
            case .notAStreamUnixSocket(let fd, let detail):
                "the descriptor passed by the service manager (fd \(fd)) is not a listening Unix stream socket: \(detail)"
            case .system(let error): "\(error)"
            }
        }
    }

    /// The passed descriptors the variables announce (pure: no syscalls).
    ///
    /// Empty when `LISTEN_PID` is unset or names another process (the variables were inherited
    /// and are not meant for us) or `LISTEN_FDS` is unset; throws when `LISTEN_FDS` is not a
    /// count. Names come from `LISTEN_FDNAMES` (colon-separated), when it has one per descriptor.
    public static func parse(listenPID: String?, listenFDs: String?, fdNames: String?,
                             ownPID: pid_t) throws(Failure) -> [Passed] {
        guard let listenPID, let pid = pid_t(listenPID), pid == ownPID, let listenFDs else { return [] }
        guard let count = Int32(listenFDs), count >= 0, count <= Int32.max - firstDescriptor else {
            throw .invalidCount(listenFDs)
        }
        let names = fdNames.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
        return (0..<count).map { offset in
            Passed(descriptor: FileDescriptor(rawValue: firstDescriptor + offset),
                   name: names.flatMap { $0.count == Int(count) ? $0[Int(offset)] : nil })
        }
    }

    /// Takes the passed descriptors from this process's environment: parses the variables,
    /// removes them (so nothing started later mistakes them for its own) and marks each
    /// descriptor close-on-exec, as `sd_listen_fds(1)` does.
    public static func takeFromEnvironment() throws(Failure) -> [Passed] {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        let passed = try parse(listenPID: variable("LISTEN_PID"), listenFDs: variable("LISTEN_FDS"),
                               fdNames: variable("LISTEN_FDNAMES"), ownPID: getpid())
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        for item in passed {
            do {
                let flags = try syscall("fcntl(F_GETFD) on a passed descriptor", onInterrupt: .retry) {
                    fcntl(item.descriptor.rawValue, F_GETFD)
                }
                try syscall("fcntl(F_SETFD) on a passed descriptor", onInterrupt: .retry) {
                    fcntl(item.descriptor.rawValue, F_SETFD, flags | FD_CLOEXEC)
                }
            } catch { throw .system(error) }
        }
        return passed
    }

    /// Checks that `fd` is a listening `AF_UNIX` `SOCK_STREAM` socket (`getsockopt(SO_TYPE)`,
    /// `SO_ACCEPTCONN`, `getsockname`) and returns the path it is bound to (`@name` for an
    /// abstract one, empty when unnamed).
    public static func validateListeningUnixStream(_ fd: FileDescriptor) throws(Failure) -> String {
        func option(_ name: Int32) throws(Failure) -> Int32 {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            do {
                try syscall("getsockopt", onInterrupt: .retry) { getsockopt(fd.rawValue, SOL_SOCKET, name, &value, &length) }
            } catch { throw .notAStreamUnixSocket(descriptor: fd.rawValue, detail: "getsockopt: \(error.errno)") }
            return value
        }
        let type = try option(SO_TYPE)
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .notAStreamUnixSocket(descriptor: fd.rawValue, detail: "socket type \(type), not SOCK_STREAM")
        }
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        do {
            try syscall("getsockname", onInterrupt: .retry) {
                withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
                }
            }
        } catch { throw .notAStreamUnixSocket(descriptor: fd.rawValue, detail: "getsockname: \(error.errno)") }
        guard address.sun_family == sa_family_t(AF_UNIX) else {
            throw .notAStreamUnixSocket(descriptor: fd.rawValue, detail: "address family \(address.sun_family), not AF_UNIX")
        }
        guard try option(SO_ACCEPTCONN) == 1 else {
            throw .notAStreamUnixSocket(descriptor: fd.rawValue, detail: "not listening")
        }
        let pathLength = Int(length) - MemoryLayout<sa_family_t>.size
        let bytes = withUnsafeBytes(of: &address.sun_path) { Array($0.prefix(max(0, pathLength))) }
        guard let first = bytes.first else { return "" }
        if first == 0 { return "@" + String(decoding: bytes.dropFirst(), as: UTF8.self) }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
