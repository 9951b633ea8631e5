import Glibc

/// The process's open-file limit (`RLIMIT_NOFILE`), raised to what the daemon may need.
///
/// systemd starts services with a soft limit of 1024 and a far higher hard limit, and expects
/// programs that need more to raise the soft one themselves (systemd.exec(5), LimitNOFILE=): the
/// soft limit stays low by default only for the sake of old `select(2)` users, and the daemon
/// uses epoll.
public enum DescriptorLimit {
    /// Descriptors besides clients: input devices and their clones, action children's pidfds
    /// and pipes, the loop's epoll, timers, signalfd, udev monitor, socket and notify socket.
    public static let reserve = 64

    public enum Outcome: Equatable, Sendable {
        /// The soft limit is at least what was asked (raised if it had to be).
        case enough
        /// It could not be raised that far: it is `limit`, the hard limit.
        case short(limit: Int)
    }

    /// Raises the soft limit to `count` if it is lower, as far as the hard limit allows.
    public static func raise(toAtLeast count: Int) -> Outcome {
        var limits = rlimit()
        // Unreadable limits cannot be raised either; the daemon runs with what it has.
        guard (try? syscall("getrlimit", onInterrupt: .retry, { getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) })) != nil else {
            return .enough
        }
        let wanted = rlim_t(count)
        if limits.rlim_cur >= wanted { return .enough }
        let raised = min(wanted, limits.rlim_max)
        limits.rlim_cur = raised
        guard (try? syscall("setrlimit", onInterrupt: .retry, { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) })) != nil else {
            return .short(limit: Int(clamping: limits.rlim_max))
        }
        return raised >= wanted ? .enough : .short(limit: Int(raised))
    }
}
