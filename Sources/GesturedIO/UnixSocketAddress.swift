import Glibc

/// Calls `body` with the `sockaddr_un` of the socket file at `path`, and its length.
///
/// The one place that lays out a path socket's address (the server binds and probes with it, the
/// `listen` command connects with it; tests and the benchmark use it too). Abstract names
/// (`@name`, for `NOTIFY_SOCKET`) are `SystemdNotifier`'s.
/// - Throws: `SystemError(operation, path, ENAMETOOLONG)` when `path` does not fit `sun_path`
///   with its terminating NUL, and whatever `body` throws.
public func withUnixSocketAddress<R>(_ path: String, for operation: String,
                                     _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> R)
    throws(SystemError) -> R {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw SystemError(operation: operation, path: path, errno: .nameTooLong)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    // The pointer is used only inside the closure, where `address` is guaranteed to live.
    let result: Result<R, SystemError> = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            do throws(SystemError) { return .success(try body(address, length)) } catch { return .failure(error) }
        }
    }
    return try result.get()
}
