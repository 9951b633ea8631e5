import Glibc

/// An `errno` value with a Swift name (swift-system's `Errno`, reduced to what the shell needs).
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let outOfRange = Errno(rawValue: ERANGE)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let outOfMemory = Errno(rawValue: ENOMEM)
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    public static let accessDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let busy = Errno(rawValue: EBUSY)
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)

    /// `strerror` text, e.g. "No such file or directory" (glibc's table is immutable: safe to
    /// call from any thread for valid values).
    public var description: String { String(cString: strerror(rawValue)) }
}

/// A failed system call: what was attempted, on which path (if any), and `errno`.
///
/// The shell's only error type for syscalls, so the executable can log every failure the same
/// way: `open /dev/input/event5: Permission denied (errno 13)`.
public struct SystemError: Error, CustomStringConvertible, Hashable, Sendable {
    public var operation: String
    public var path: String?
    public var errno: Errno

    public init(operation: String, path: String? = nil, errno: Errno) {
        self.operation = operation; self.path = path; self.errno = errno
    }

    /// The file (or socket path) does not exist (`ENOENT`).
    public var isNoSuchFile: Bool { errno == .noSuchFile }
    /// The device is gone (`ENODEV`): unplugged while open.
    public var isNoSuchDevice: Bool { errno == .noDevice }
    /// Another holder has it (`EBUSY`), e.g. a device grabbed by another program.
    public var isBusy: Bool { errno == .busy }
    /// Refused for lack of rights: file permissions (`EACCES`) or privilege (`EPERM`), which
    /// callers treat alike.
    public var isPermissionDenied: Bool { errno == .accessDenied || errno == .notPermitted }
    /// Out of descriptors (`EMFILE`, `ENFILE`) or kernel memory (`ENOBUFS`, `ENOMEM`): a shortage
    /// that may pass, not a fault of the request.
    public var isResourceShortage: Bool {
        errno == .tooManyOpenFiles || errno == .tooManyOpenFilesInSystem || errno == .noBufferSpace || errno == .outOfMemory
    }

    public var description: String {
        "\(operation)\(path.map { " \($0)" } ?? ""): \(errno) (errno \(errno.rawValue))"
    }
}

/// What a wrapper does when a call fails with `EINTR`. Every call site chooses; there is no
/// default, because the right answer differs (a `read` should be retried; an `epoll_wait` with a
/// deadline should return so the caller recomputes it; `close` must never be retried on Linux).
public enum InterruptPolicy: Sendable {
    /// Call again.
    case retry
    /// Throw `SystemError` with `Errno.interrupted`.
    case fail
}

/// The one wrapper for libc calls that return -1 and set `errno`. Public, so that the executable's
/// few direct calls go through it too (write `GesturedIO.syscall` there: Glibc has a `syscall`).
///
/// - Parameters:
///   - operation: the call's name, for the error (`"open"`, `"epoll_ctl(ADD)"`).
///   - path: the file involved, if any.
///   - onInterrupt: what to do on `EINTR`.
///   - call: the call itself.
/// - Returns: the call's non-negative result.
@discardableResult
@inlinable
public func syscall<Result: FixedWidthInteger>(
    _ operation: String, path: String? = nil, onInterrupt: InterruptPolicy,
    _ call: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error == .interrupted, case .retry = onInterrupt { continue }
        throw SystemError(operation: operation, path: path, errno: error)
    }
}

/// The same wrapper for calls that return a pointer, or NULL and set `errno` (libudev's
/// constructors). They are never interrupted.
@inlinable
public func syscall<Pointer>(_ operation: String, path: String? = nil, _ call: () -> Pointer?) throws(SystemError) -> Pointer {
    guard let pointer = call() else { throw SystemError(operation: operation, path: path, errno: .current) }
    return pointer
}

/// The same wrapper for calls that return the error number itself, 0 on success (`posix_spawn`,
/// the `pthread_` calls): they leave `errno` alone and are never interrupted.
@inlinable
public func returnedErrno(_ operation: String, path: String? = nil, _ status: Int32) throws(SystemError) {
    if status != 0 { throw SystemError(operation: operation, path: path, errno: Errno(rawValue: status)) }
}

/// For libraries that return `-errno` instead (libevdev, libudev).
@discardableResult
@inlinable
func negativeErrno<Result: FixedWidthInteger & SignedInteger>(
    _ operation: String, path: String? = nil, _ result: Result
) throws(SystemError) -> Result {
    if result >= 0 { return result }
    throw SystemError(operation: operation, path: path, errno: Errno(rawValue: Int32(truncatingIfNeeded: 0 - result)))
}
