import CLinux
import Glibc

/// A command started with `posix_spawn` and watched through a pidfd: the pidfd becomes readable
/// when the child exits, so an epoll or poll loop reaps it without blocking and without SIGCHLD.
///
/// The child gets its own process group (so a timeout can signal everything it started), the
/// default signal dispositions and an empty signal mask (the daemon blocks signals for its
/// signalfd; a child must not inherit that), and no shell: `arguments[0]` is looked up in `PATH`
/// when it has no slash.
public final class ChildProcess {
    public let pid: pid_t
    /// Readable when the child has exited.
    public let pidfd: FileDescriptor
    private var reaped = false

    public enum Status: Hashable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// A pipe for a child's output: the read end is the caller's (non-blocking, close-on-exec),
    /// the write end is given to the child and closed by the caller once it is started.
    public static func outputPipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        try syscall("pipe2", onInterrupt: .fail) { pipe2(&fds, O_CLOEXEC | O_NONBLOCK) }
        // The child's end must block like any stdout: a child writing fast must wait, not fail.
        let pipe = (read: FileDescriptor(rawValue: fds[0]), write: FileDescriptor(rawValue: fds[1]))
        do { try pipe.write.setStatusFlag(O_NONBLOCK, false) } catch {
            try? pipe.read.close(); try? pipe.write.close()
            throw error
        }
        return pipe
    }

    /// A pipe for a child's input: the read end is given to the child (blocking, as any stdin)
    /// and closed by the caller once it is started; the write end is the caller's
    /// (close-on-exec). Closing the write end is the child's end of input.
    public static func inputPipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        try syscall("pipe2", onInterrupt: .fail) { pipe2(&fds, O_CLOEXEC) }
        return (read: FileDescriptor(rawValue: fds[0]), write: FileDescriptor(rawValue: fds[1]))
    }

    /// Starts `arguments` with exactly `environment` (`NAME=value` strings).
    /// - Parameters:
    ///   - stdin, stdout, stderr: descriptors to give the child as 0, 1, 2; nil inherits.
    ///   - descriptors: more descriptors to give the child, by the number it sees them as (e.g.
    ///     `[3: listener]` for socket activation); dup2 clears close-on-exec on them.
    ///   - account: the user and group to run it as, with no supplementary groups (a root caller
    ///     dropping its rights for the child); `arguments[0]` must then be a path (no PATH
    ///     lookup). nil: as this process.
    public convenience init(_ arguments: [String], environment: [String], stdin: FileDescriptor? = nil,
                stdout: FileDescriptor? = nil, stderr: FileDescriptor? = nil,
                descriptors: [Int32: FileDescriptor] = [:], account: (uid: UInt32, gid: UInt32)? = nil) throws(SystemError) {
        precondition(!arguments.isEmpty)
        if let account {
            precondition(arguments[0].contains("/"), "a child run as another user is started by its path")
            var from: [Int32] = [], to: [Int32] = []
            for case let (fd?, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] { from.append(fd.rawValue); to.append(target) }
            for (target, fd) in descriptors.sorted(by: { $0.key < $1.key }) { from.append(fd.rawValue); to.append(target) }
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = environment.map { strdup($0) } + [nil]
            defer { for p in argv + envp { free(p) } }
            var child: Int32 = 0
            try returnedErrno("spawn as uid \(account.uid)", path: arguments[0],
                              gestured_spawn_as(arguments[0], argv, envp, from, to, Int32(from.count), account.uid, account.gid, &child))
            try self.init(started: child)
            return
        }
        var actions = posix_spawn_file_actions_t()
        try returnedErrno("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            if let fd { try returnedErrno("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, fd.rawValue, target)) }
        }
        for (target, fd) in descriptors.sorted(by: { $0.key < $1.key }) {
            try returnedErrno("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, fd.rawValue, target))
        }
        var attributes = posix_spawnattr_t()
        try returnedErrno("posix_spawnattr_init", posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var child: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        try returnedErrno("posix_spawn", path: arguments[0], posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp))
        try self.init(started: child)
    }

    /// Watches `child`, just started (killed and reaped when no pidfd can be had).
    private init(started child: pid_t) throws(SystemError) {
        pid = child
        do { pidfd = FileDescriptor(rawValue: try syscall("pidfd_open", onInterrupt: .fail) { pidfd_open(child, 0) }) } catch {
            // Best effort: the error that matters is pidfd_open's.
            _ = try? syscall("kill", onInterrupt: .retry) { kill(child, SIGKILL) }
            var ignored: Int32 = 0
            _ = try? syscall("waitpid", onInterrupt: .retry) { waitpid(child, &ignored, 0) }
            throw error
        }
    }

    deinit {
        if !reaped && !abandoned {
            _ = try? syscall("kill", onInterrupt: .retry) { kill(pid, SIGKILL) }
            _ = try? wait(blocking: true)
        }
        try? pidfd.close()
    }

    private var abandoned = false

    /// Lets the child run on after this value goes: it is neither killed nor waited for here
    /// (a clone's guard outlives the daemon on purpose; init reaps it once the daemon is gone).
    public func abandon() { abandoned = true }

    /// Collects the exit status: nil while the child runs (when not `blocking`).
    public func wait(blocking: Bool = false) throws(SystemError) -> Status? {
        var status: Int32 = 0
        let r = try syscall("waitpid", onInterrupt: .retry) { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
        if r == 0 { return nil }
        reaped = true
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import (macros).
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(status & 0x7f)
    }

    /// Sends `signal` to the child's process group (itself and what it started). Until the
    /// child is reaped its pid, the group's id, cannot be reused; after, the kernel keeps the id
    /// the group's while any process is in it, so the signal goes only while one is.
    public func signalGroup(_ signal: Int32) {
        guard !reaped || !groupIsEmpty else { return }
        // A group that emptied since is the only failure, and then there is nobody to signal.
        _ = try? syscall("kill", onInterrupt: .retry) { kill(-pid, signal) }
    }

    /// Whether no process is left in the child's process group: `kill(-pgid, 0)` fails with
    /// ESRCH. A process there that may not be signalled (EPERM) counts; so does a zombie that
    /// its reaper has not collected yet (one killed at a timeout, say). Meaningful once the
    /// child is reaped (before, the child itself is in it).
    public var groupIsEmpty: Bool {
        do { _ = try syscall("kill", onInterrupt: .retry) { kill(-pid, 0) } } catch { return error.errno == .noSuchProcess }
        return false
    }

    /// The current environment as `NAME=value` strings, with `extra` set (replacing same names)
    /// and the names in `removing` left out.
    public static func environment(adding extra: [(name: String, value: String)], removing: [String] = []) -> [String] {
        let names = Set(extra.map(\.name) + removing)
        var result: [String] = []
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !names.contains(name) { result.append(text) }
            p += 1
        }
        return result + extra.map { "\($0.name)=\($0.value)" }
    }
}
