@testable import gestured
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The daemon's loop in this process (`EmbeddedDaemon`: its parts on a real socket, a virtual
/// clock that the log limiter reads too) against 10,000 real connections, each of which
/// sends a bad request and hangs up. Every one of them makes the daemon log a rate-limited
/// message under its own key ("client N bad request"), and client ids are never reused: the log
/// limiter must stay bounded however many clients come and go. The connections themselves are
/// logged a burst per uid per window (`ConnectionLog`), then summarized once the window ends.
@Suite(.serialized) struct ClientChurnTests {
    static let clients = 10_000
    /// Connections in flight at once: within the server's listen backlog (16).
    static let batch = 8

    @Test func tenThousandClientsWithABadRequestEachLeaveTheLimiterBounded() throws {
        let log = CollectedLines()
        try Log.$collector.withValue({ log.append($0) }) { try churn(log) }
    }

    private func churn(_ log: CollectedLines) throws {

        let bed = try EmbeddedDaemon()
        let path = bed.server.path

        let capacity = Log.limiter.capacity
        var peak = Log.limiter.keyCount
        var served = 0
        let start = MonotonicClock.now()
        while served < Self.clients {
            // A batch connects and sends a request no daemon knows; each client hangs up once it
            // has its answer (the hello, then the error line).
            let count = min(Self.batch, Self.clients - served)
            var waiting: [Int32: [UInt8]] = [:]
            for _ in 0..<count {
                let fd = try Self.connect(path)
                try Self.send("frobnicate\n", to: fd)
                waiting[fd] = []
            }
            // The daemon's loop until the batch has come and gone: accepted, answered, dropped.
            repeat {
                try bed.iterate()
                peak = max(peak, Log.limiter.keyCount)
                for (fd, received) in waiting {
                    var bytes = received + Self.receiveAvailable(fd)
                    if bytes.count(where: { $0 == UInt8(ascii: "\n") }) >= 2 {
                        #expect(String(decoding: bytes, as: UTF8.self).contains("message=\"unknown request 'frobnicate'\""))
                        close(fd)
                        waiting[fd] = nil
                        bytes = []
                    } else {
                        waiting[fd] = bytes
                    }
                }
            } while !waiting.isEmpty || bed.server.clientCount > 0
            served += count
        }
        let elapsed = MonotonicClock.now() - start

        let lines = log.lines
        let badRequests = lines.filter { $0.contains(": bad request: ") }
        // Five connections logged with their disconnections, not 10,000 of each (security
        // review, round two: 67,803 lines in 3 s); the rest in one summary when the window ends.
        #expect(lines.filter { $0.hasSuffix(": connected") }.count == 5)
        #expect(lines.filter { $0.hasSuffix(": disconnected") }.count == 5)
        #expect(!lines.contains { $0.contains("connections in") })
        bed.clock.time = bed.clock.time + Interval(seconds: 30)
        try bed.iterate()
        let summary = log.lines.filter { $0.contains("connections in") }
        #expect(summary == ["uid \(getuid()): 10,000 connections in 1 s, 9,995 not logged"])
        #expect(badRequests.first == "client 1: bad request: unknown request 'frobnicate'", "\(lines.prefix(5))")
        // At most `capacity` keys of their own (256, gestured(8)), and one shared by the messages
        // that found no room.
        #expect(capacity == 256)
        #expect(peak <= capacity + 1, "the limiter held \(peak) keys")
        #expect(Log.limiter.keyCount <= capacity + 1)
        // Filled: the virtual clock never moved, so every client came within one 30 s window, and
        // most of the 10,000 messages were held back.
        #expect(peak == capacity + 1, "peak \(peak) keys in \(elapsed)")
        #expect(badRequests.count < Self.clients / 10, "\(badRequests.count) bad-request lines in \(elapsed)")
    }

    /// A blocking client socket connected to `path` (the listen backlog has room: batches are
    /// smaller than it).
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        try withUnixSocketAddress(path, for: "connect") { (address, length) throws(SystemError) in
            if Glibc.connect(fd, address, length) == -1 { throw SystemError(operation: "connect", path: path, errno: .current) }
        }
        return fd
    }

    static func send(_ text: String, to fd: Int32) throws {
        let bytes = Array(text.utf8)
        try #require(Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count)
    }

    /// What the socket has for us now, without waiting.
    static func receiveAvailable(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return n > 0 ? Array(buffer[..<n]) : []
    }
}

/// Lines a test's own task logged (`Log.collector`); one task appends, then reads.
final class CollectedLines: @unchecked Sendable {
    private(set) var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}
