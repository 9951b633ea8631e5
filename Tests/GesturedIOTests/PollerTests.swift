import GesturedCore
import GesturedIO
import Glibc
import Testing

@Suite struct PollerTests {
    /// A pipe as two descriptors, closed by the caller.
    static func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        #expect(Glibc.pipe(&fds) == 0)
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    @Test func reportsReadinessWithTheTokenGiven() throws {
        let poller = try Poller()
        let (reader, writer) = try Self.pipe()
        defer { try? reader.close(); try? writer.close() }
        try poller.add(reader, token: 42, events: .readable)
        #expect(try poller.wait(timeout: 0) == [])
        #expect(Glibc.write(writer.rawValue, "x", 1) == 1)
        #expect(try poller.wait(timeout: 5000) == [PollResult(token: 42, events: .readable)])
        // Level-triggered: still ready until read.
        #expect(try poller.wait(timeout: 0) == [PollResult(token: 42, events: .readable)])
    }

    @Test func modifyAndRemove() throws {
        let poller = try Poller()
        let (reader, writer) = try Self.pipe()
        defer { try? reader.close(); try? writer.close() }
        try poller.add(writer, token: 1, events: [])
        #expect(try poller.wait(timeout: 0) == [])
        try poller.modify(writer, token: 2, events: .writable)
        #expect(try poller.wait(timeout: 5000) == [PollResult(token: 2, events: .writable)])
        try poller.remove(writer)
        #expect(try poller.wait(timeout: 0) == [])
        #expect(throws: SystemError(operation: "epoll_ctl(DEL)", errno: Errno(rawValue: ENOENT))) {
            try poller.remove(writer)
        }
    }

    @Test func hangupIsReported() throws {
        let poller = try Poller()
        let (reader, writer) = try Self.pipe()
        defer { try? reader.close() }
        try poller.add(reader, token: 9, events: .readable)
        try writer.close()
        let results = try poller.wait(timeout: 5000)
        #expect(results.count == 1)
        #expect(results.first?.events.contains(.hangup) == true)
    }

    @Test func errorsNameTheOperationAndErrno() {
        let error = SystemError(operation: "open", path: "/nonexistent", errno: .noSuchFile)
        #expect(error.description == "open /nonexistent: No such file or directory (errno 2)")
        #expect(throws: error) { try FileDescriptor.open("/nonexistent", flags: O_RDONLY) }
    }

    @Test func monotonicClockMovesForward() {
        let first = MonotonicClock.now()
        let second = MonotonicClock.now()
        #expect(first.microseconds > 0)
        #expect(second >= first)
    }
}
