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
final class ActionRunner {
    /// epoll tokens: `base + 2n` a child's pidfd, `base + 2n + 1` its output pipe (the loop's
    /// `LoopToken.actions` range).
    static let base: UInt64 = LoopToken.actions.lowerBound

    /// Variables of the service manager's that are the daemon's alone.
    static let privateVariables = ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"]
    /// Longest output line logged whole; longer ones are cut.
    static let maximumLineLength = 1024

    private struct Running {
        let gesture: String
        let child: ChildProcess
        let output: FileDescriptor
        var partial: [UInt8] = []
        var deadline: Instant
        var terminated = false
    }

    private let poller: any EventPolling
    let timer: DeadlineTimer
    /// A run: the command, and the variables of the gesture event that asked for it.
    private typealias Job = (action: GestureAction, variables: [(name: String, value: String)])
    private var queues: [String: CommandQueue<Job>] = [:]
    /// The gestures the configuration in force gives an action (`configure`): a run still
    /// waiting when a reload took its action away is dropped.
    private var configured: Set<String> = []
    private var running: [UInt64: Running] = [:]
    private var nextIndex: UInt64 = 0
    private var armed: Instant?
    /// Set by `stop`: waiting runs are dropped, nothing new starts.
    private var stopping = false

    init(poller: any EventPolling) throws(SystemError) {
        self.poller = poller
        timer = try DeadlineTimer()
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
        if token & 1 == 1 { readOutput(key, final: false) } else { reap(key, now: now) }
    }

    private func readOutput(_ key: UInt64, final: Bool) {
        guard var item = running[key] else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        // At most 64 KiB per wakeup, so a flooding child cannot hold the loop.
        for _ in 0..<16 {
            // Through GesturedIO's wrapper: EINTR is retried; EAGAIN (drained) or an error ends
            // this wakeup's reading, as the end of the output (0) does.
            let n = buffer.withUnsafeMutableBytes { raw in (try? item.output.read(into: raw)) ?? -1 }
            if n <= 0 {
                if n == 0 { try? poller.remove(item.output) }
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
    }

    private func log(_ item: Running, _ bytes: ArraySlice<UInt8>) {
        let line = String(decoding: bytes.prefix(Self.maximumLineLength), as: UTF8.self)
        Log.limited(.info, key: "action \(item.gesture) output", "action \(item.gesture) (pid \(item.child.pid)): \(line)")
    }

    private func reap(_ key: UInt64, now: Instant, blocking: Bool = false) {
        guard let item = running[key] else { return }
        let status: ChildProcess.Status?
        do { status = try item.child.wait(blocking: blocking) } catch {
            Log.warning("action \(item.gesture): \(error)")
            return
        }
        guard let status else { return }
        readOutput(key, final: true)
        try? poller.remove(item.child.pidfd)
        try? poller.remove(item.output)
        try? item.output.close()
        running[key] = nil
        if status == .exited(0) {
            Log.info("action \(item.gesture) (pid \(item.child.pid)): \(status)")
        } else {
            Log.limited(.warning, key: "action \(item.gesture) status", "action \(item.gesture) (pid \(item.child.pid)): \(status)")
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

    /// The timeout timer fired: SIGTERM the late ones, SIGKILL those that ignored it.
    func timeouts(now: Instant) {
        _ = try? timer.acknowledge()
        armed = nil
        for key in running.keys.sorted() where running[key]!.deadline <= now {
            var item = running[key]!
            if item.terminated {
                Log.warning("action \(item.gesture) (pid \(item.child.pid)): still running \(GestureAction.killGrace.seconds) s after SIGTERM, sending SIGKILL")
                item.child.signalGroup(SIGKILL)
                item.deadline = now + GestureAction.killGrace
            } else {
                Log.warning("action \(item.gesture) (pid \(item.child.pid)): timed out, sending SIGTERM")
                item.child.signalGroup(SIGTERM)
                item.terminated = true
                item.deadline = now + GestureAction.killGrace
            }
            running[key] = item
        }
        armTimer()
    }

    private func armTimer() {
        let next = running.values.map(\.deadline).min()
        guard next != armed else { return }
        do { try timer.arm(at: next); armed = next } catch {
            Log.limited(.error, key: "action timer", "cannot arm the action timer: \(error)")
        }
    }

    /// Stopping: SIGTERM to every running action, a wait of at most `GestureAction.killGrace`
    /// for them to exit, SIGKILL for the rest; each is reaped and its status logged, so none is
    /// left behind as an orphan. Blocking is fine here: the loop is over.
    func stop() {
        stopping = true
        guard !running.isEmpty else { return }
        for item in running.values { item.child.signalGroup(SIGTERM) }
        let limit = MonotonicClock.now() + GestureAction.killGrace
        while !running.isEmpty {
            let keys = running.keys.sorted()
            var fds = keys.map { pollfd(fd: running[$0]!.child.pidfd.rawValue, events: Int16(POLLIN), revents: 0) }
            let remaining = (limit - MonotonicClock.now()).microseconds / 1000
            if remaining <= 0 {
                for item in running.values { item.child.signalGroup(SIGKILL) }
                for key in keys { reap(key, now: MonotonicClock.now(), blocking: true) }
                return
            }
            do { try pollOnce(&fds, timeout: Int32(remaining)) } catch {
                Log.warning("actions: poll: \(error); stopping them at once")
                for item in running.values { item.child.signalGroup(SIGKILL) }
                for key in keys { reap(key, now: MonotonicClock.now(), blocking: true) }
                return
            }
            for (key, fd) in zip(keys, fds) where fd.revents != 0 { reap(key, now: MonotonicClock.now()) }
        }
    }
}
