import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Whether `fd` becomes readable before `deadline` (poll, never sleep).
func becomesReadable(_ fd: FileDescriptor, by deadline: Instant) -> Bool {
    while true {
        let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
        var pollFD = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollFD, 1, Int32(max(0, remaining)))
        if ready == 1 { return true }
        if ready == 0 || remaining <= 0 { return false }
    }
}

@Suite struct DeadlineTimerTests {
    @Test func deadlineInThePastFiresAtOnce() throws {
        let timer = try DeadlineTimer()
        try timer.arm(at: MonotonicClock.now() + Interval(microseconds: -1_000_000))
        #expect(becomesReadable(timer.descriptor, by: deadline(milliseconds: 1000)))
        #expect(try timer.acknowledge() == 1)
        #expect(try timer.acknowledge() == 0)
    }

    @Test func instantZeroFiresRatherThanDisarming() throws {
        let timer = try DeadlineTimer()
        try timer.arm(at: .zero)
        #expect(becomesReadable(timer.descriptor, by: deadline(milliseconds: 1000)))
        #expect(try timer.acknowledge() == 1)
    }

    @Test func futureDeadlineFiresNotBefore() throws {
        let timer = try DeadlineTimer()
        let due = MonotonicClock.now() + .milliseconds(20)
        try timer.arm(at: due)
        #expect(becomesReadable(timer.descriptor, by: deadline(milliseconds: 5000)))
        #expect(MonotonicClock.now() >= due)
        #expect(try timer.acknowledge() == 1)
    }

    @Test func nilDisarms() throws {
        let timer = try DeadlineTimer()
        try timer.arm(at: MonotonicClock.now() + Interval(microseconds: -1))
        #expect(becomesReadable(timer.descriptor, by: deadline(milliseconds: 1000)))
        // Re-arming resets the expiration count: after disarming nothing is pending.
        try timer.arm(at: nil)
        #expect(!becomesReadable(timer.descriptor, by: MonotonicClock.now()))
        #expect(try timer.acknowledge() == 0)
    }
}

@Suite struct SignalChannelTests {
    /// `raise` sends to the calling thread, and a synchronous test runs on one thread, so the
    /// signal is pending exactly where the channel blocked it.
    @Test func receivesARaisedSIGHUP() throws {
        let channel = try SignalChannel()
        defer { try? channel.close() }
        #expect(try channel.read() == [])
        #expect(raise(SIGHUP) == 0)
        #expect(becomesReadable(channel.descriptor, by: deadline(milliseconds: 5000)))
        #expect(try channel.read() == [SIGHUP])
        #expect(try channel.read() == [])
    }

    @Test func receivesSeveralSignals() throws {
        let channel = try SignalChannel(signals: [SIGUSR1, SIGUSR2])
        defer { try? channel.close() }
        #expect(raise(SIGUSR2) == 0)
        #expect(raise(SIGUSR1) == 0)
        #expect(becomesReadable(channel.descriptor, by: deadline(milliseconds: 5000)))
        #expect(Set(try channel.read()) == [SIGUSR1, SIGUSR2])
    }
}

@Suite struct ReadFileTests {
    @Test func readsWholeFilesAndRespectsTheLimit() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let text = String(repeating: "E: 1.000000 0000 0000 0\n", count: 10_000)
        let path = try directory.write("r.events", text)
        #expect(try readTextFile(path: path) == text)
        #expect(throws: SystemError(operation: "read (larger than 100 bytes)", path: path, errno: .fileTooLarge)) {
            try readFile(path: path, limit: 100)
        }
        #expect(throws: SystemError(operation: "open", path: directory.path + "/missing", errno: .noSuchFile)) {
            try readFile(path: directory.path + "/missing")
        }
        #expect(try readFile(path: path, limit: text.utf8.count) == Array(text.utf8))
    }

    /// The buffer is sized from fstat; a file whose size says nothing (procfs: 0) still reads
    /// whole.
    @Test func readsFilesLargerThanTheirStatSize() throws {
        let status = String(decoding: try readFile(path: "/proc/self/status"), as: UTF8.self)
        #expect(status.hasPrefix("Name:"))
        #expect(status.contains("\nVmRSS:"))
    }
}
