import GesturedCore
import GesturedIO
import Glibc

/// The daemon's socket as a client finds it (`SocketLocation`: `--socket`, `$GESTURED_SOCKET`,
/// the system socket when it exists, `$XDG_RUNTIME_DIR/gestured.sock`), with every path looked
/// at, so that a failure to connect names them all.
struct ClientSocket {
    /// `--socket`'s value.
    let option: String?
    let resolution: SocketLocation.Resolution
    let path: String

    /// Looks now (again, for a client that reconnects: the service's socket may have appeared).
    init(option: String?) throws(CommandFailure) {
        self.option = option
        resolution = SocketLocation.resolve(option: option, environment: { getenv($0).map { String(cString: $0) } },
                                            exists: Self.exists)
        guard let path = resolution.path else { throw CommandFailure(ExitStatus.failure, resolution.failure("")) }
        self.path = path
    }

    /// Something is there, or this user may not look: connecting then says why it is refused.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        do { _ = try GesturedIO.syscall("lstat", path: path, onInterrupt: .retry) { lstat(path, &status) } } catch {
            return error.errno == .accessDenied
        }
        return true
    }
}
