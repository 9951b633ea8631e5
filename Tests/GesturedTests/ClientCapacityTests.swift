@testable import gestured
import GesturedCore
@testable import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The daemon's loop embedded (`EmbeddedDaemon`: a real socket, a virtual clock), when clients
/// try to use up what the daemon has (security review): descriptors (accept failing with EMFILE
/// left the listener ready, so the loop spun at 99% CPU), and slots held by connections that
/// never read.
@Suite(.serialized) struct ClientCapacityTests {
    /// Out of descriptors, the listener leaves the ready set (so the loop sleeps instead of
    /// spinning on accept), for `ClientHub.acceptPause`; then the waiting client is taken.
    @Test func outOfDescriptorsPausesAcceptingInsteadOfSpinning() throws {
        let bed = try EmbeddedDaemon()
        let normal = bed.server.acceptor
        var failures = 0
        bed.server.acceptor = { _ in failures += 1; Glibc.errno = EMFILE; return -1 }
        let client = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        #expect(try bed.iterate { failures > 0 })
        #expect(failures == 1)
        // The connection still waits in the backlog, and nothing is ready: the loop sleeps, its
        // timer armed at the end of the pause.
        var ready: [PollResult] = []
        try bed.poller.wait(timeout: 0, into: &ready)
        #expect(ready == [])
        #expect(bed.timer.armed == bed.clock.time + ClientHub.acceptPause)
        bed.server.acceptor = normal
        bed.clock.time = bed.timer.armed!
        #expect(try bed.iterate { bed.server.clientCount == 1 })
        #expect(failures == 1)
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
    }

    /// A connection that never reads its hello is let go after two checks a `readTimeout` apart
    /// without progress; one that reads stays, and once it has read everything nothing is due.
    @Test func aConnectionThatNeverReadsIsLetGoAndAReaderStays() throws {
        var settings = SocketSettings()
        settings.readTimeout = Interval(seconds: 30)
        let bed = try EmbeddedDaemon(settings: settings)
        let silent = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        let reader = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        #expect(try bed.iterate { bed.server.clientCount == 2 })
        #expect(try reader.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let first = try #require(bed.timer.armed)
        #expect(first == bed.clock.time + Interval(seconds: 30))
        bed.clock.time = first
        try bed.iterate()                           // the silent one has its hello unread: watched
        #expect(bed.server.clientCount == 2)
        #expect(bed.timer.armed == first + Interval(seconds: 30))
        bed.clock.time = first + Interval(seconds: 30)
        try bed.iterate()                           // still unread, nothing new sent: let go
        #expect(bed.server.clientCount == 1)
        #expect(bed.timer.armed == nil)             // nothing more to wait for: no wakeup
        _ = silent
    }
}
