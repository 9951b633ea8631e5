import GesturedCore
import GesturedIO
import Glibc

/// Runs the configuration's gesture actions (`action: { on, run, timeout }`) from the daemon's
/// loop, never blocking it and never touching recognition: a command that cannot start, fails,
/// hangs or floods its output only produces log lines.
///
/// Per gesture, at most one instance runs and one waits (`CommandQueue`, the same policy as
/// `listen --exec`). Each child is watched through its pidfd and its output pipe in the daemon's
/// epoll set; one timerfd is armed at the earliest timeout. At its timeout a child's process group
/// gets SIGTERM, and SIGKILL `GestureAction.killGrace` later if it is still there.
///
/// The whole process group is the action's until its timeout: a command that leaves a child
/// behind (`sh -c 'sleep 1000 & exit 0'`) still runs, for its gesture's queue, until every
/// process of its group has exited or the timeout has killed the group. No event says that a
/// group became empty (a pidfd is one process's), so once the leader is reaped the group is
/// looked at (`kill(-pgid, 0)`: ESRCH when nobody is left) when its output pipe reaches its end
/// (the usual sign: what it left closed its stdout), and on the actions' timer at growing
/// intervals (`groupRecheck`: 0.1 s, doubling, at most 1 s), until the timeout; a bounded number
/// of `kill` calls per action, nothing when no group outlives its leader. While a process is in
/// the group the kernel keeps its id from being reused, so the group's signals reach only it. A
/// process that leaves the group (`setsid`, `setpgid`) is out of the action's reach; under
/// systemd it stays in the service's cgroup, bounded by `TasksMax=`/`MemoryMax=` and killed when
/// the service stops (`KillMode=control-group`; docs/RELIABILITY.md, "Actions").
final class ActionRunner {
    /// epoll tokens: `base + 2n` a child's pidfd, `base + 2n + 1` its output pipe (the loop's
    /// `LoopToken.actions` range).
    static let base: UInt64 = LoopToken.actions.lowerBound

    /// Variables of the service manager's that are the daemon's alone.
    static let privateVariables = ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"]
    /// Longest output line logged whole; longer ones are cut.
    static let maximumLineLength = 1024

    /// A group left after its leader is looked at again this long after the leader's exit,
    /// then at twice the interval each time, at most `longest` (ActionRunner's comment).
    static let groupRecheck = (first: Interval.milliseconds(100), longest: Interval(seconds: 1))

    struct Running {
        let gesture: String
        let child: ChildProcess
        let output: FileDescriptor
        var partial: [UInt8] = []
        var deadline: Instant
        var terminated = false
        /// SIGKILL went to the group: once the leader is reaped, the action is over.
        var killed = false
        /// The leader's status once it is reaped; its group may live on.
        var leaderStatus: ChildProcess.Status?
        /// While the group outlives its leader: when to look at it again, and the interval.
        var recheck: Instant?
        var recheckInterval = ActionRunner.groupRecheck.first
    }

    private let poller: any EventPolling
    /// The timeouts' timer: a timerfd in the daemon, a virtual one in a test.
    let timer: any DeadlineArming
    /// A run: the command, and the variables of the gesture event that asked for it.
    private typealias Job = (action: GestureAction, variables: [(name: String, value: String)])
    private var queues: [String: CommandQueue<Job>] = [:]
    /// The gestures the configuration in force gives an action (`configure`): a run still
    /// waiting when a reload took its action away is dropped.
    private var configured: Set<String> = []
    /// The actions running, by the token of their pidfd (ActionRunner+Timeouts.swift reads it).
    var running: [UInt64: Running] = [:]
    private var nextIndex: UInt64 = 0
    var armed: Instant?
    /// Set by `stop`: waiting runs are dropped, nothing new starts.
    var stopping = false

    init(poller: any EventPolling, timer: (any DeadlineArming)? = nil) throws(SystemError) {
        self.poller = poller
        if let timer { self.timer = timer } else { self.timer = try DeadlineTimer() }
    }

    /// The pid of each gesture's running command (for tests: what counts as running).
    var runningPIDs: [String: pid_t] {
        Dictionary(uniqueKeysWithValues: running.values.map { ($0.gesture, $0.child.pid) })
    }

    /// The gestures of a (re)loaded configuration that have an action, and the wake action if
    /// a screen has one. Commands already running go on.
    func configure(_ configuration: Configuration) {
        configured = []
        if configuration.power.wakeAction != nil || configuration.screenSpecs.contains(where: { $0.power?.wakeAction != nil }) {
            configured.insert(PowerPolicy.wakeActionName)
        }
        func collect(_ views: [ViewSpec]) {
            for view in views {
                for gesture in view.gestures where gesture.action != nil { configured.insert(gesture.id) }
                collect(view.subviews)
            }
        }
        collect(configuration.allViews)
    }

    /// Runs `action` for `event`, whose line was numbered `seq` (the pipeline decided it: the
    /// event reached the state its configured action runs on, `Batch.actions`).
    func run(_ action: GestureAction, for event: GestureEvent, seq: UInt64, now: Instant) {
        run(action, name: event.name, variables: GestureEnvironment.variables(of: event, seq: seq), now: now)
    }

    /// Runs `action` under `name` (a gesture's id, or `power.wakeAction`) with `variables`.
    func run(_ action: GestureAction, name: String, variables: [(name: String, value: String)], now: Instant) {
        guard !stopping else { return }
        switch queues[name, default: CommandQueue()].submit((action, variables)) {
        case .start(let job): start(name, job.action, job.variables, now: now)
        case .queued(let replaced):
            if replaced != nil {
                Log.limited(.info, key: "action \(name) replaced",
                            "action \(name): still running; the waiting run is replaced by a newer one")
            }
        case .none: break
        }
    }

    private func start(_ gesture: String, _ action: GestureAction, _ variables: [(name: String, value: String)], now: Instant) {
        do {
            let pipe = try ChildProcess.outputPipe()
            defer { try? pipe.write.close() }
            let null = try FileDescriptor.open("/dev/null", flags: O_RDONLY)
            defer { try? null.close() }
            let child: ChildProcess
            do {
                child = try ChildProcess(action.run, environment: ChildProcess.environment(adding: variables, removing: Self.privateVariables),
                                         stdin: null, stdout: pipe.write, stderr: pipe.write)
            } catch {
                try? pipe.read.close()
                throw error
            }
            let token = Self.base + 2 * nextIndex
            nextIndex += 1
            try poller.add(child.pidfd, token: token, events: .readable)
            try poller.add(pipe.read, token: token + 1, events: .readable)
            running[token] = Running(gesture: gesture, child: child, output: pipe.read, deadline: now + action.timeout)
            Log.info("action \(gesture): started \(action.run[0]) (pid \(child.pid))")
            armTimer()
        } catch {
            Log.limited(.warning, key: "action \(gesture) failed", "action \(gesture): cannot run \(action.run[0]): \(error)")
            finished(gesture, now: now)
        }
    }

    /// An epoll token of this runner's range became ready.
    func ready(token: UInt64, now: Instant) {
        let key = token & ~1
        guard running[key] != nil else { return }
        if token & 1 == 1 {
            // The end of its output is the usual sign that what a leader left has gone too.
            if readOutput(key, final: false), running[key]?.leaderStatus != nil { settle(key, now: now) }
        } else {
            reap(key, now: now)
        }
    }

    /// Reads what the command wrote; true when its output has ended.
    @discardableResult
    private func readOutput(_ key: UInt64, final: Bool) -> Bool {
        guard var item = running[key] else { return false }
        var ended = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        // At most 64 KiB per wakeup, so a flooding child cannot hold the loop.
        for _ in 0..<16 {
            // Through GesturedIO's wrapper: EINTR is retried; EAGAIN (drained) or an error ends
            // this wakeup's reading, as the end of the output (0) does.
            let n = buffer.withUnsafeMutableBytes { raw in (try? item.output.read(into: raw)) ?? -1 }
            if n <= 0 {
                if n == 0 { try? poller.remove(item.output); ended = true }
                break
            }
            item.partial.append(contentsOf: buffer[..<n])
            while let newline = item.partial.firstIndex(of: UInt8(ascii: "\n")) {
                log(item, item.partial[..<newline])
                item.partial.removeSubrange(...newline)
            }
            if item.partial.count > Self.maximumLineLength {
                log(item, item.partial[...])
                item.partial.removeAll()
            }
        }
        if final, !item.partial.isEmpty { log(item, item.partial[...]); item.partial.removeAll() }
        running[key] = item
        return ended
    }

    private func log(_ item: Running, _ bytes: ArraySlice<UInt8>) {
        let line = String(decoding: bytes.prefix(Self.maximumLineLength), as: UTF8.self)
        Log.limited(.info, key: "action \(item.gesture) output", "action \(item.gesture) (pid \(item.child.pid)): \(line)")
    }

    /// Collects the leader's status when it has exited, then `settle`s its group.
    func reap(_ key: UInt64, now: Instant, blocking: Bool = false) {
        guard var item = running[key], item.leaderStatus == nil else { return }
        let status: ChildProcess.Status?
        do { status = try item.child.wait(blocking: blocking) } catch {
            Log.warning("action \(item.gesture): \(error)")
            return
        }
        guard let status else { return }
        try? poller.remove(item.child.pidfd)
        item.leaderStatus = status
        running[key] = item
        settle(key, now: now)
    }

    /// The leader is reaped: the action ends if its group is empty or was killed; else the
    /// group stays the action's, looked at again at `recheck`.
    func settle(_ key: UInt64, now: Instant) {
        guard var item = running[key], let status = item.leaderStatus else { return }
        if item.killed || item.child.groupIsEmpty {
            end(key, now: now)
            return
        }
        guard item.recheck == nil else { return }
        Log.info("action \(item.gesture) (pid \(item.child.pid)): \(status); what it started runs on and is the action's until it ends or the timeout")
        item.recheck = now + item.recheckInterval
        running[key] = item
        armTimer()
    }

    /// The action is over: the rest of its output, its status, and the next run of its gesture.
    func end(_ key: UInt64, now: Instant) {
        guard let item = running[key], let status = item.leaderStatus else { return }
        readOutput(key, final: true)
        try? poller.remove(item.output)
        try? item.output.close()
        running[key] = nil
        let group = item.recheck == nil ? "" : item.killed ? "; its process group killed" : "; its process group has ended"
        if status == .exited(0) {
            Log.info("action \(item.gesture) (pid \(item.child.pid)): \(status)\(group)")
        } else {
            Log.limited(.warning, key: "action \(item.gesture) status", "action \(item.gesture) (pid \(item.child.pid)): \(status)\(group)")
        }
        finished(item.gesture, now: now)
        armTimer()
    }

    private func finished(_ gesture: String, now: Instant) {
        guard !stopping else { return }
        guard case .start(let job) = queues[gesture, default: CommandQueue()].finished() else { return }
        guard configured.contains(gesture) else {
            // Reloaded without the action: the waiting run is dropped.
            _ = queues[gesture]?.finished()
            return
        }
        start(gesture, job.action, job.variables, now: now)
    }
}
