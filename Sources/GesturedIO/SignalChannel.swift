import CLinux
import Glibc

/// Termination and reload signals as readable events (signalfd), so the event loop handles them
/// between events instead of in an async-signal handler.
///
/// Create it on the main thread before any other thread starts: the signals are blocked in the
/// calling thread's mask, which threads created later inherit. `SIGPIPE` is ignored
/// process-wide, so a client that goes away shows up as `EPIPE` on its socket.
public final class SignalChannel {
    public let descriptor: FileDescriptor
    public let signals: [Int32]
    private var previousMask = sigset_t()
    private var isClosed = false

    /// - Parameter signals: the signals to deliver through the descriptor
    ///   (default SIGINT, SIGTERM, SIGHUP).
    public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) throws(SystemError) {
        self.signals = signals
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        try returnedErrno("pthread_sigmask", pthread_sigmask(SIG_BLOCK, &set, &previousMask))
        // Its one failure (EINVAL) is for a signal that cannot be caught, which SIGPIPE is not.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        do {
            let fd = try syscall("signalfd", onInterrupt: .fail) {
                signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
            }
            descriptor = FileDescriptor(rawValue: fd)
        } catch {
            // Restoring a mask read a moment ago cannot fail (EINVAL is for a bad `how`).
            _ = try? returnedErrno("pthread_sigmask", pthread_sigmask(SIG_SETMASK, &previousMask, nil))
            throw error
        }
    }

    deinit { if !isClosed { try? descriptor.close() } }

    /// The pending signals, in arrival order (empty when none).
    public func read() throws(SystemError) -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while true {
            let count: Int
            do {
                count = try syscall("read(signalfd)", onInterrupt: .retry) {
                    withUnsafeMutableBytes(of: &info) { Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count) }
                }
            } catch where error.errno == .wouldBlock {
                return received
            }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return received }
            received.append(Int32(bitPattern: info.ssi_signo))
        }
    }

    /// Closes the descriptor and restores the calling thread's previous signal mask (call it on
    /// the thread that created the channel, after reading pending signals: a pending signal is
    /// delivered as soon as it is unblocked).
    public func close() throws(SystemError) {
        guard !isClosed else { return }
        isClosed = true
        defer { _ = try? returnedErrno("pthread_sigmask", pthread_sigmask(SIG_SETMASK, &previousMask, nil)) }
        try descriptor.close()
    }
}
