import CLinux
import FoundationEssentials
import GesturedCore
import GesturedIO
import Glibc

/// A child process started with `posix_spawn`, waited for with a deadline (a pidfd polled, no
/// sleeping), and killed when the deadline passes.
///
/// The child gets an empty signal mask and default signal actions (tests block signals for
/// signalfd), and its own process group, so a kill on timeout also reaches what it started
/// (`umockdev-run` and the program under it).
public final class Subprocess {
    public enum Output: Sendable {
        case inherit
        case discard
        /// Created or truncated.
        case file(String)
    }

    public enum Termination: Hashable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public let pid: pid_t
    public let executable: String
    private let pidDescriptor: FileDescriptor
    public private(set) var termination: Termination?

    /// - Parameters:
    ///   - executable: a path, or a name looked up in `PATH`.
    ///   - arguments: without `argv[0]` (which is `executable`).
    ///   - environment: added to (and overriding) this process's environment.
    ///   - descriptors: the child's descriptor number → this process's descriptor to give it
    ///     there (e.g. `[3: listener]` for socket activation); close-on-exec is cleared.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                stdout: Output = .inherit, stderr: Output = .inherit,
                descriptors: [Int32: Int32] = [:]) throws(SystemError) {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .inherit: break
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        for (target, source) in descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environmentPairs = Self.currentEnvironment()
        for (key, value) in environment { environmentPairs[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environmentPairs.keys.sorted().map { strdup("\($0)=\(environmentPairs[$0]!)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid: pid_t = 0
        let status = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        if status != 0 { throw SystemError(operation: "posix_spawnp", path: executable, errno: Errno(rawValue: status)) }
        self.pid = pid
        let fd = pidfd_open(pid, 0)
        if fd == -1 {
            let error = Errno.current
            kill(pid, SIGKILL)
            var ignored: Int32 = 0
            waitpid(pid, &ignored, 0)
            throw SystemError(operation: "pidfd_open", path: executable, errno: error)
        }
        pidDescriptor = FileDescriptor(rawValue: fd)
    }

    deinit {
        if termination == nil {
            killGroup(SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        try? pidDescriptor.close()
    }

    /// Sends `signal` to the child.
    public func send(signal: Int32) { kill(pid, signal) }

    /// Sends `signal` to the child's process group.
    public func killGroup(_ signal: Int32) { kill(-pid, signal) }

    /// Waits until the child exits or `deadline` passes. On timeout, kills the child's process
    /// group with SIGKILL when `killOnTimeout`, reaps it and returns its termination with
    /// `timedOut` true; otherwise returns nil.
    public func wait(deadline: Instant, killOnTimeout: Bool = true) throws(SystemError)
        -> (termination: Termination, timedOut: Bool)? {
        if let termination { return (termination, false) }
        while true {
            var pollFD = pollfd(fd: pidDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
            let remaining = max(0, (deadline - MonotonicClock.now()).microseconds / 1000)
            let ready = poll(&pollFD, 1, Int32(min(remaining, Int64(Int32.max))))
            if ready == -1 {
                if Errno.current == .interrupted { continue }
                throw SystemError(operation: "poll(pidfd)", path: executable, errno: .current)
            }
            if ready == 1 { return (try reap(), false) }
            if MonotonicClock.now() >= deadline {
                guard killOnTimeout else { return nil }
                killGroup(SIGKILL)
                return (try reap(), true)
            }
        }
    }

    private func reap() throws(SystemError) -> Termination {
        var status: Int32 = 0
        _ = try syscall("waitpid") { waitpid(pid, &status, 0) }
        // WIFEXITED/WEXITSTATUS are macros: decode the wait status by hand.
        let result: Termination = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
        termination = result
        return result
    }

    /// This process's environment, from `/proc/self/environ` (avoids the `environ` global).
    public static func currentEnvironment() -> [String: String] {
        guard let bytes = try? readFile(path: "/proc/self/environ") else { return [:] }
        var pairs: [String: String] = [:]
        for entry in bytes.split(separator: 0) {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            pairs[String(decoding: entry[..<equals], as: UTF8.self)] =
                String(decoding: entry[(equals + 1)...], as: UTF8.self)
        }
        return pairs
    }

    private func syscall(_ operation: String, _ call: () -> Int32) throws(SystemError) -> Int32 {
        while true {
            let result = call()
            if result != -1 { return result }
            if Errno.current == .interrupted { continue }
            throw SystemError(operation: operation, path: executable, errno: .current)
        }
    }

    /// The child's descendants (children, grandchildren, ...) as (pid, parent, command name), from
    /// `/proc/*/stat`; e.g. the daemon that `timeout` → `umockdev-run` started, to signal it by
    /// its own id.
    public func descendants() -> [(pid: pid_t, parent: pid_t, name: String)] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var parents: [pid_t: (parent: pid_t, name: String)] = [:]
        for entry in entries {
            guard let id = pid_t(entry), let stat = try? readTextFile(path: "/proc/\(entry)/stat", limit: 4096),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            parents[id] = (parent, name)
        }
        var result: [(pid: pid_t, parent: pid_t, name: String)] = []
        var frontier: Set<pid_t> = [pid]
        while !frontier.isEmpty {
            let children = parents.filter { frontier.contains($0.value.parent) }
            result += children.map { ($0.key, $0.value.parent, $0.value.name) }.sorted { $0.0 < $1.0 }
            frontier = Set(children.keys)
        }
        return result
    }

    /// Runs a program to completion with output captured in files under `directory`.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           in directory: String, deadline: Instant) throws(SystemError) -> Completed {
        let out = directory + "/stdout-\(UInt32.random(in: 0...UInt32.max))"
        let err = out.replacingOccurrences("stdout", "stderr")
        let process = try Subprocess(executable, arguments, environment: environment,
                                     stdout: .file(out), stderr: .file(err))
        let (termination, timedOut) = try process.wait(deadline: deadline)!
        return Completed(termination: termination, timedOut: timedOut,
                         stdout: (try? readTextFile(path: out)) ?? "", stderr: (try? readTextFile(path: err)) ?? "")
    }

    public struct Completed: Sendable {
        public var termination: Termination
        public var timedOut: Bool
        public var stdout: String
        public var stderr: String
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
