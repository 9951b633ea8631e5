@testable import gestured
import CLinux
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// An action's whole process group is the action's until its timeout (issue 44, finding 7): a
/// command that backgrounds a child and exits still counts as running (its gesture's next run
/// waits), and the timeout's SIGTERM reaches the child it left. The runner is the daemon's
/// (`ActionRunner`) on a real poller, for the children's pidfds, and a virtual timer: time
/// moves only when the test moves it. The backgrounded child blocks opening a FIFO that nobody
/// opens for writing, so nothing here sleeps; the waits are for real events (a pidfd), bounded.
@Suite struct ActionGroupTests {
    static let t0 = Instant(microseconds: 1_000_000)
    static let timeout = Interval(seconds: 5)

    /// Hands the runner what its poller reports within `milliseconds`.
    static func dispatch(_ runner: ActionRunner, _ poller: Poller, now: Instant, milliseconds: Int32 = 0) throws {
        for item in try poller.wait(timeout: milliseconds) { runner.ready(token: item.token, now: now) }
    }

    /// Fires the runner's timer at each instant it is armed at, up to `limit`, as the loop does.
    static func advance(_ runner: ActionRunner, _ timer: VirtualTimer, to limit: Instant) {
        while let armed = timer.armed, armed <= limit { runner.timeouts(now: armed) }
    }

    /// Whether process `pid` (not this one's child) exits before `milliseconds` pass: its pidfd
    /// becomes readable when it does.
    static func exits(_ pid: pid_t, within milliseconds: Int32) -> Bool {
        let fd = pidfd_open(pid, 0)
        guard fd >= 0 else { return errno == ESRCH }
        defer { close(fd) }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) == 1
    }

    @Test func aBackgroundedChildIsTheActionsUntilTheTimeoutKillsIt() throws {
        let scratch = try TestEnvironment.TemporaryDirectory(prefix: "gestured-action-group")
        let fifo = scratch.path + "/fifo", pidFile = scratch.path + "/pid"
        #expect(mkfifo(fifo, 0o600) == 0)
        let poller = try Poller()
        let timer = VirtualTimer()
        let runner = try ActionRunner(poller: poller, timer: timer)
        defer { runner.stop() }
        let tap = GestureSpec(id: "tap", kind: .tap(TapParameters()), action: GestureAction(run: ["/bin/true"]))
        runner.configure(Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "root", gestures: [tap])]))

        // `sh -c 'sleep 1000 & exit 0'`, with a child that blocks without a clock.
        let backgrounding = GestureAction(run: ["/bin/sh", "-c", "cat '\(fifo)' & echo $! > '\(pidFile)'; exit 0"], timeout: Self.timeout)
        runner.run(backgrounding, name: "tap", variables: [], now: Self.t0)
        let leader = try #require(runner.runningPIDs["tap"])
        #expect(Self.exits(leader, within: 10_000), "the shell \(leader) did not exit")
        try Self.dispatch(runner, poller, now: Self.t0)
        let text = try EvemuDevices.read(pidFile)
        let child = try #require(pid_t(text.split(separator: "\n").first ?? ""), "\(text)")
        defer { kill(child, SIGKILL) }
        #expect(kill(child, 0) == 0, "the backgrounded child \(child) is gone already")

        // The shell has exited and been reaped; its child holds the action: the next run waits.
        #expect(runner.runningPIDs == ["tap": leader])
        runner.run(GestureAction(run: ["/bin/true"]), name: "tap", variables: [], now: Self.t0)
        #expect(runner.runningPIDs == ["tap": leader])
        Self.advance(runner, timer, to: Self.t0 + Interval(microseconds: Self.timeout.microseconds - 1000))
        #expect(runner.runningPIDs == ["tap": leader])
        #expect(!Self.exits(child, within: 0), "the backgrounded child \(child) ended before the timeout")

        // The timeout: SIGTERM to the group reaches the child the shell left behind.
        Self.advance(runner, timer, to: Self.t0 + Self.timeout)
        #expect(Self.exits(child, within: 10_000), "the backgrounded child \(child) outlived the timeout")
        // By the end of the grace the group is over (or SIGKILLed): the waiting run starts.
        Self.advance(runner, timer, to: Self.t0 + Self.timeout + GestureAction.killGrace)
        let next = try #require(runner.runningPIDs["tap"])
        #expect(next != leader)
        #expect(Self.exits(next, within: 10_000))
        try Self.dispatch(runner, poller, now: Self.t0 + Self.timeout + GestureAction.killGrace)
        #expect(runner.runningPIDs.isEmpty)
    }

    /// A group that empties by itself ends the action before its timeout: when the leader is
    /// reaped with nothing left in its group, at once.
    @Test func anActionWhoseGroupIsEmptyEndsWithItsLeader() throws {
        let poller = try Poller()
        let timer = VirtualTimer()
        let runner = try ActionRunner(poller: poller, timer: timer)
        defer { runner.stop() }
        runner.run(GestureAction(run: ["/bin/sh", "-c", "exit 0"], timeout: Self.timeout), name: "tap", variables: [], now: Self.t0)
        let leader = try #require(runner.runningPIDs["tap"])
        #expect(Self.exits(leader, within: 10_000))
        try Self.dispatch(runner, poller, now: Self.t0)
        #expect(runner.runningPIDs.isEmpty)
        #expect(timer.armed == nil)
    }
}
