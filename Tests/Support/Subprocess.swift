import CLinux
import FoundationEssentials
import GesturedCore
import GesturedIO
import Glibc

/// A child process for tests: a `ChildProcess` (the daemon's own spawner: empty signal mask,
/// default signal actions, its own process group, a pidfd), waited for with a deadline (the pidfd
/// polled, no sleeping) and killed when the deadline passes, with its output in files.
///
/// The process group means a kill on timeout also reaches what the child started
/// (`umockdev-run` and the program under it).
public final class Subprocess {
    public enum Output: Sendable {
        case inherit
        case discard
        /// Created or truncated.
        case file(String)
    }

    public typealias Termination = ChildProcess.Status

    public let executable: String
    private let child: ChildProcess
    public var pid: pid_t { child.pid }
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
        let out = try Self.open(stdout), err = try Self.open(stderr)
        defer { try? out?.close(); try? err?.close() }
        var pairs = Self.currentEnvironment()
        for (key, value) in environment { pairs[key] = value }
        child = try ChildProcess([executable] + arguments, environment: pairs.keys.sorted().map { "\($0)=\(pairs[$0]!)" },
                                 stdout: out, stderr: err,
                                 descriptors: descriptors.mapValues { FileDescriptor(rawValue: $0) })
    }

    /// The descriptor to give the child for `output`; nil inherits this process's.
    private static func open(_ output: Output) throws(SystemError) -> FileDescriptor? {
        switch output {
        case .inherit: nil
        case .discard: try FileDescriptor.open("/dev/null", flags: O_WRONLY)
        case .file(let path): try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        }
    }

    deinit {
        // ChildProcess reaps what is left; the whole group goes, not only the child.
        if termination == nil { child.signalGroup(SIGKILL) }
    }

    /// Sends `signal` to the child.
    public func send(signal: Int32) { kill(pid, signal) }

    /// Sends `signal` to the child's process group.
    public func killGroup(_ signal: Int32) { child.signalGroup(signal) }

    /// Waits until the child exits or `deadline` passes. On timeout, kills the child's process
    /// group with SIGKILL when `killOnTimeout`, reaps it and returns its termination with
    /// `timedOut` true; otherwise returns nil.
    public func wait(deadline: Instant, killOnTimeout: Bool = true) throws(SystemError)
        -> (termination: Termination, timedOut: Bool)? {
        if let termination { return (termination, false) }
        while true {
            var pollFD = pollfd(fd: child.pidfd.rawValue, events: Int16(POLLIN), revents: 0)
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
        let result = try child.wait(blocking: true)!
        termination = result
        return result
    }

    /// This process's environment, from `/proc/self/environ`: the environment it started with,
    /// whatever it has set since (the testbed's `g_setenv`, for one, is handed over explicitly).
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
