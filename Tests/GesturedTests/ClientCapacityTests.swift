@testable import gestured
import GesturedCore
@testable import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The client hub on a real socket and epoll, dispatched as the daemon's loop does, when clients
/// try to use up what the daemon has (security review): descriptors (accept failing with EMFILE
/// left the listener ready, so the loop spun at 99% CPU), and slots held by connections that
/// never read.
@Suite(.serialized) struct ClientCapacityTests {
    struct Hub {
        let directory: TestEnvironment.TemporaryDirectory
        let poller: Poller
        let server: UnixSocketServer
        let hub: ClientHub

        init(settings: SocketSettings = SocketSettings()) throws {
            directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-capacity")
            poller = try Poller()
            server = try UnixSocketServer(path: directory.path + "/g.sock")
            try poller.add(server.listenDescriptor, token: LoopToken.listenerToken, events: .readable)
            let configuration = Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "root")])
            let live = LivePipeline(try GesturePipeline(configuration: configuration, sizes: [Size(width: 1000, height: 1000)]))
            hub = ClientHub(server: server, poller: poller, live: live, settings: settings)
            hub.control = Control(configuration: configuration, live: live)
        }

        /// One pass of the daemon's loop over what is ready now (no waiting).
        func serviceReady() throws -> [LoopToken] {
            let ready = try poller.wait(timeout: 0)
            for item in ready {
                switch LoopToken(item.token) {
                case .listener: hub.accept()
                case .client(let id): hub.service(id, events: item.events)
                default: Issue.record("unexpected token \(item.token)")
                }
            }
            hub.flush()
            return ready.compactMap { LoopToken($0.token) }
        }
    }

    /// Out of descriptors, the listener leaves the ready set (so the loop sleeps instead of
    /// spinning on accept), for `ClientHub.acceptPause`; then the waiting client is taken.
    @Test func outOfDescriptorsPausesAcceptingInsteadOfSpinning() throws {
        let bed = try Hub()
        defer { bed.server.close() }
        let normal = bed.server.acceptor
        var failures = 0
        bed.server.acceptor = { _ in failures += 1; Glibc.errno = EMFILE; return -1 }
        let client = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        let before = MonotonicClock.now()
        #expect(try bed.serviceReady() == [.listener])
        #expect(failures == 1)
        // The connection still waits in the backlog, and nothing is ready: the loop would sleep.
        #expect(try bed.serviceReady() == [])
        let resume = try #require(bed.hub.nextWake)
        #expect(resume >= before + ClientHub.acceptPause)
        bed.server.acceptor = normal
        bed.hub.wake(now: resume)
        #expect(try bed.serviceReady() == [.listener])
        #expect(bed.server.clientCount == 1)
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
    }

    /// A connection that never reads its hello is let go after two checks a `readTimeout` apart
    /// without progress; one that reads stays, and once it has read everything nothing is due.
    @Test func aConnectionThatNeverReadsIsLetGoAndAReaderStays() throws {
        var settings = SocketSettings()
        settings.readTimeout = Interval(seconds: 30)
        let bed = try Hub(settings: settings)
        defer { bed.server.close() }
        let silent = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        let reader = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        _ = try bed.serviceReady()
        #expect(bed.server.clientCount == 2)
        #expect(try reader.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let first = try #require(bed.hub.nextWake)
        bed.hub.wake(now: first)                    // the silent one has its hello unread: watched
        #expect(bed.server.clientCount == 2)
        let second = try #require(bed.hub.nextWake)
        #expect(second == first + Interval(seconds: 30))
        bed.hub.wake(now: second)                   // still unread, nothing new sent: let go
        #expect(bed.server.clientCount == 1)
        #expect(bed.hub.nextWake == nil)
        _ = silent
    }
}
