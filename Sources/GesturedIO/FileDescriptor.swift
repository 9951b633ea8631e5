import Glibc

/// An open file descriptor. A plain value: whoever opened it closes it, once.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Closes the descriptor. On Linux the descriptor is released even when `close` reports
    /// `EINTR`, so that case counts as success and is never retried (retrying could close a
    /// descriptor another thread has just been given).
    public func close() throws(SystemError) {
        if Glibc.close(rawValue) == -1 {
            let error = Errno.current
            if error == .interrupted { return }
            throw SystemError(operation: "close", errno: error)
        }
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is always added).
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws(SystemError) -> FileDescriptor {
        let fd = try syscall("open", path: path, onInterrupt: .retry) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// One `read(2)`; 0 means end of file. `EAGAIN` is thrown (as `Errno.wouldBlock`).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try syscall("read", onInterrupt: .retry) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }
}
