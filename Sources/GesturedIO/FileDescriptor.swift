import Glibc

/// An open file descriptor. A plain value: whoever opened it closes it, once.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Closes the descriptor. On Linux the descriptor is released even when `close` reports
    /// `EINTR`, so that case counts as success and is never retried (retrying could close a
    /// descriptor another thread has just been given).
    public func close() throws(SystemError) {
        do {
            try syscall("close", onInterrupt: .fail) { Glibc.close(rawValue) }
        } catch where error.errno == .interrupted {}
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

    /// Writes all of `bytes`, retrying on `EINTR` and after short writes (a blocking
    /// descriptor: standard output or error, a client's socket).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try syscall("write", onInterrupt: .retry) {
                Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            }
        }
    }

    /// `writeAll` for an array.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try writeAll(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The file status flags (`F_GETFL`) with `flag` set or cleared (`F_SETFL`).
    public func setStatusFlag(_ flag: Int32, _ on: Bool) throws(SystemError) {
        let flags = try syscall("fcntl(F_GETFL)", onInterrupt: .retry) { fcntl(rawValue, F_GETFL) }
        try syscall("fcntl(F_SETFL)", onInterrupt: .retry) { fcntl(rawValue, F_SETFL, on ? flags | flag : flags & ~flag) }
    }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)
}

/// `poll(2)` on `fds` without a timeout, retried on `EINTR`; the number of ready entries.
public func pollForever(_ fds: inout [pollfd]) throws(SystemError) -> Int32 {
    try syscall("poll", onInterrupt: .retry) { poll(&fds, nfds_t(fds.count), -1) }
}

/// `poll(2)` on `fds` for at most `timeout` milliseconds; a signal (`EINTR`) returns as a timeout
/// would, so the caller recomputes what is left of its deadline. The number of ready entries.
@discardableResult
public func pollOnce(_ fds: inout [pollfd], timeout: Int32) throws(SystemError) -> Int32 {
    do { return try syscall("poll", onInterrupt: .fail) { poll(&fds, nfds_t(fds.count), timeout) } } catch where error.errno == .interrupted {
        return 0
    }
}
