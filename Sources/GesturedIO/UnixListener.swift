import CLinux
import GesturedCore
import Glibc

/// Why the server could not start.
public enum SocketServerError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Something answers on the socket path: another daemon is running.
    case inUse(path: String)
    /// The path exists and is not a socket; it is left alone.
    case notASocket(path: String)
    /// The service manager passed sockets this daemon cannot serve on.
    case activation(SocketActivation.Failure)
    /// Between `bind` and setting its group and mode, the socket file was replaced by something
    /// that is not a socket of this user (a symlink swapped in by someone who may write the
    /// directory): nothing was changed through it.
    case replaced(path: String)
    case system(SystemError)

    public var description: String {
        switch self {
        case .inUse(let path): "\(path): another daemon is already listening on this socket (it accepted a connection); not starting a second one"
        case .notASocket(let path): "\(path): exists and is not a socket, not replacing it"
        case .activation(let failure): "\(failure)"
        case .replaced(let path): "\(path): the socket file was replaced while its group and mode were being set (someone else can write that directory); not serving on it"
        case .system(let error): "\(error)"
        }
    }
}

/// The listening end of the line protocol's socket: a socket file made at a path, safely (a
/// stale file of a crashed daemon replaced, a live daemon's never; group and mode set through the
/// bound file itself), or a listening socket the service manager passed. `UnixSocketServer`
/// serves on what this returns.
enum UnixListener {
    /// Binds and listens on `path` (`UnixSocketServer.init(path:…)` says how).
    static func listen(at path: String, backlog: Int32, permissions: mode_t?, group: gid_t?,
                       afterBind: (String) -> Void) throws(SocketServerError) -> FileDescriptor {
        do {
            try Self.makeParentDirectory(of: path)
            try Self.removeStaleSocket(at: path)
            let fd = FileDescriptor(rawValue: try syscall("socket", onInterrupt: .fail) {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
            do {
                // The file is born with at most `permissions` (what the umask leaves of the socket's
                // own mode), so it is never more open than asked, even for an instant.
                if let permissions { try syscall("fchmod", onInterrupt: .retry) { fchmod(fd.rawValue, permissions) } }
                _ = try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in
                    try syscall("bind", path: path, onInterrupt: .fail) { bind(fd.rawValue, address, length) }
                }
                afterBind(path)
                if permissions != nil || group != nil { try Self.settle(path, permissions: permissions, group: group) }
                try syscall("listen", path: path, onInterrupt: .fail) { Glibc.listen(fd.rawValue, backlog) }
            } catch {
                try? fd.close()
                throw error
            }
            return fd
        } catch let error as SocketServerError {
            throw error
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            fatalError("unreachable: \(error)")
        }
    }

    /// A listening socket someone else bound, made non-blocking.
    static func adopt(_ descriptor: FileDescriptor, path: String) throws(SocketServerError) -> FileDescriptor {
        do {
            let flags = try syscall("fcntl(F_GETFL)", path: path, onInterrupt: .retry) { fcntl(descriptor.rawValue, F_GETFL) }
            try syscall("fcntl(F_SETFL, O_NONBLOCK)", path: path, onInterrupt: .retry) {
                fcntl(descriptor.rawValue, F_SETFL, flags | O_NONBLOCK)
            }
        } catch { throw .system(error) }
        return descriptor
    }

    /// Sets the bound socket file's group and mode through an `O_PATH` descriptor of the file
    /// (opened without following a symlink), after checking it is a socket this user owns: a
    /// file swapped in at `path` since `bind` is refused, never changed. The mode goes through
    /// `/proc/self/fd` (Linux 6.1 has no `fchmodat` on a descriptor that does not follow links),
    /// which names the opened file, not the path.
    private static func settle(_ path: String, permissions: mode_t?, group: gid_t?) throws {
        let file = try syscall("open(O_PATH)", path: path, onInterrupt: .retry) {
            open(path, GESTURED_O_PATH | O_NOFOLLOW | O_CLOEXEC)
        }
        defer { try? FileDescriptor(rawValue: file).close() }
        var status = stat()
        try syscall("fstat", path: path, onInterrupt: .retry) { fstat(file, &status) }
        guard status.st_mode & S_IFMT == S_IFSOCK, status.st_uid == geteuid() else {
            throw SocketServerError.replaced(path: path)
        }
        if let group {
            try syscall("fchownat", path: path, onInterrupt: .retry) { fchownat(file, "", uid_t.max, group, GESTURED_AT_EMPTY_PATH) }
        }
        if let permissions, status.st_mode & 0o7777 != permissions {
            try syscall("chmod", path: "/proc/self/fd/\(file) (\(path))", onInterrupt: .retry) {
                chmod("/proc/self/fd/\(file)", permissions)
            }
        }
    }

    private static func makeParentDirectory(of path: String) throws(SystemError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let parent = String(path[..<slash])
        var status = stat()
        if (try? syscall("stat", path: parent, onInterrupt: .retry) { stat(parent, &status) }) != nil { return }
        try makeParentDirectory(of: parent)
        do {
            try syscall("mkdir", path: parent, onInterrupt: .retry) { mkdir(parent, 0o755) }
        } catch where error.errno == .fileExists {}
    }

    private static func removeStaleSocket(at path: String) throws(SocketServerError) {
        var status = stat()
        do {
            try syscall("lstat", path: path, onInterrupt: .retry) { lstat(path, &status) }
        } catch where error.errno == .noSuchFile {
            return
        } catch { throw .system(error) }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        let probe: Int32
        do {
            probe = try syscall("socket", onInterrupt: .fail) {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch { throw .system(error) }
        defer { try? FileDescriptor(rawValue: probe).close() }
        let connected: Result<Void, SystemError>
        do {
            _ = try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in
                try syscall("connect", path: path, onInterrupt: .fail) { connect(probe, address, length) }
            }
            connected = .success(())
        } catch { connected = .failure(error) }
        switch connected {
        case .success: throw .inUse(path: path)
        case .failure(let error) where error.errno == .connectionRefused || error.errno == .noSuchFile:
            do {
                try syscall("unlink", path: path, onInterrupt: .retry) { unlink(path) }
            } catch where error.errno == .noSuchFile {
            } catch { throw .system(error) }
        case .failure(let error): throw .system(error)
        }
    }
}
