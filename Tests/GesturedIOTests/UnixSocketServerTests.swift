import GesturedCore
@testable import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Accepts until `count` clients are connected (poll on the listening socket, with a deadline).
func acceptClients(_ server: UnixSocketServer, count: Int, by deadline: Instant) throws -> [ClientID] {
    var accepted: [ClientID] = []
    while accepted.count < count {
        guard becomesReadable(server.listenDescriptor, by: deadline) else { break }
        while let event = try server.accept() {
            if case .accepted(let id) = event { accepted.append(id) }
        }
    }
    return accepted
}

func fileExists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
}

@Suite struct UnixSocketServerTests {
    @Test func greetsClientsLineByLine() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock")
        defer { server.close() }
        let client = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(server, count: 1, by: deadline(milliseconds: 5000))
        #expect(ids.count == 1)
        #expect(server.send(line: "hello version=1 daemon=gestured", to: ids[0]) == nil)
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
    }

    @Test func staleSocketFileIsReplaced() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = directory.path + "/g.sock"
        // A daemon that died: its socket file remains, nobody listens.
        try LineClient.makeStaleSocketFile(at: path)
        #expect(fileExists(path))

        let server = try UnixSocketServer(path: path)
        defer { server.close() }
        let client = try LineClient(path: path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(server, count: 1, by: deadline(milliseconds: 5000))
        #expect(ids.count == 1)
        server.send(line: "fresh", to: ids[0])
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "fresh")
    }

    @Test func runningDaemonIsDetected() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = directory.path + "/g.sock"
        let running = try UnixSocketServer(path: path)
        defer { running.close() }
        #expect(throws: SocketServerError.inUse(path: path)) { try UnixSocketServer(path: path) }
        #expect(SocketServerError.inUse(path: path).description == "\(path): another daemon is already listening on this socket (it accepted a connection); not starting a second one")
        // The running daemon is undisturbed.
        #expect(fileExists(path))
        let client = try LineClient(path: path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(running, count: 2, by: deadline(milliseconds: 5000))
        #expect(ids.count == 2)  // the probe connection, then the client
        // The probe hung up at once: writing to it fails and drops it alone.
        #expect(running.broadcast(line: "still here")
                == [.dropped(ids[0], .failed(SystemError(operation: "send", path: path, errno: .brokenPipe)))])
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "still here")
    }

    @Test func otherFilesAreNotReplaced() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = try directory.write("g.sock", "not a socket")
        #expect(throws: SocketServerError.notASocket(path: path)) { try UnixSocketServer(path: path) }
        #expect(try readTextFile(path: path) == "not a socket")
    }

    @Test func parentDirectoryIsCreatedAndCloseRemovesTheFile() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = directory.path + "/run/gestured/g.sock"
        let server = try UnixSocketServer(path: path)
        var status = stat()
        #expect(stat(directory.path + "/run/gestured", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o700 == 0o700)
        #expect(fileExists(path))
        server.close()
        #expect(!fileExists(path))
    }

    @Test(arguments: [mode_t(0o600), 0o660, 0o666])
    func socketPermissions(mode: mode_t) throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock", permissions: mode)
        defer { server.close() }
        var status = stat()
        #expect(lstat(server.path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == mode)
    }

    /// The security review's attack: whoever may write the socket's directory swaps the freshly
    /// bound socket for a symlink to a file of the daemon's user before its mode is set. The mode
    /// used to be set with `chmod(path)`, which followed the link and opened the file to
    /// everyone (0666 on a root file). Now nothing is changed through the link and the server
    /// does not start.
    @Test func aSymlinkSwappedInAfterBindIsRefusedAndItsTargetKeepsItsMode() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let victim = try directory.write("victim", "secret\n")
        #expect(chmod(victim, 0o600) == 0)
        let path = directory.path + "/g.sock"
        #expect(throws: SocketServerError.replaced(path: path)) {
            _ = try UnixSocketServer(path: path, permissions: 0o666, group: getegid(), writer: UnixSocketServer.socketWriter,
                                     afterBind: { bound in
                                         #expect(unlink(bound) == 0)
                                         #expect(symlink(victim, bound) == 0)
                                     })
        }
        var status = stat()
        #expect(stat(victim, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o600)
    }

    /// The mode is exact whatever the umask took away at `bind` (a service's UMask=0077).
    @Test func modeIsExactUnderARestrictiveUmask() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = directory.path + "/g.sock"
        var status = stat()
        let server = try UnixSocketServer(path: path, permissions: 0o660, writer: UnixSocketServer.socketWriter,
                                          afterBind: { bound in
                                              // What bind made of the socket's own mode under UMask=0077.
                                              #expect(chmod(bound, 0o600) == 0)
                                          })
        defer { server.close() }
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
    }

    @Test func manyClientsGetABroadcast() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock")
        defer { server.close() }
        var clients: [LineClient] = []
        var ids: [ClientID] = []
        for _ in 0..<40 {  // more than the listen backlog: accept as they come
            clients.append(try LineClient(path: server.path, deadline: deadline(milliseconds: 5000)))
            ids += try acceptClients(server, count: 1, by: deadline(milliseconds: 5000))
        }
        #expect(ids.count == 40)
        #expect(server.clientIDs == ids)
        #expect(server.broadcast(line: "gesture tap ended tap seq=1").isEmpty)
        #expect(server.broadcast(line: "gesture tap ended tap seq=2").isEmpty)
        for client in clients {
            #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "gesture tap ended tap seq=1")
            #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "gesture tap ended tap seq=2")
        }
    }

    @Test func clientsBeyondTheLimitAreRefused() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock", maxClients: 2)
        defer { server.close() }
        let clients = try (0..<3).map { _ in try LineClient(path: server.path, deadline: deadline(milliseconds: 5000)) }
        var events: [ServerEvent] = []
        let limit = deadline(milliseconds: 5000)
        while events.count < 3, becomesReadable(server.listenDescriptor, by: limit) {
            while let event = try server.accept() { events.append(event) }
        }
        #expect(events == [.accepted(ClientID(rawValue: 1)), .accepted(ClientID(rawValue: 2)), .refused(maxClients: 2)])
        #expect(try clients[2].waitForEndOfFile(deadline: deadline(milliseconds: 5000)))
    }

    /// One client stops reading; its queue fills and it is dropped, while the other keeps
    /// receiving every line in order.
    @Test func stalledClientIsDroppedOthersKeepReceiving() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let limit = 16 << 10
        let server = try UnixSocketServer(path: directory.path + "/g.sock", maxQueuedBytes: limit)
        defer { server.close() }
        let reader = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(server, count: 1, by: deadline(milliseconds: 5000))
        let stalled = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let stalledIDs = try acceptClients(server, count: 1, by: deadline(milliseconds: 5000))
        #expect(ids.count == 1 && stalledIDs.count == 1)
        let padding = String(repeating: "x", count: 1000)
        var dropped: [ServerEvent] = []
        var sent = 0
        // Far more than a Unix socket buffer holds (about 200 KiB) plus the queue limit.
        for sequence in 0..<10_000 where dropped.isEmpty {
            dropped = server.broadcast(line: "line seq=\(sequence) \(padding)")
            sent += 1
            // The reader drains as it goes, so its queue stays empty.
            #expect(try reader.readLine(deadline: deadline(milliseconds: 5000)) == "line seq=\(sequence) \(padding)")
            #expect(!server.wantsWritable(ids[0]))
        }
        #expect(dropped == [.dropped(stalledIDs[0], .queueOverflow(limit: limit))])
        #expect(server.clientIDs == ids)
        #expect(sent < 10_000)
        // Later lines still reach the reader.
        #expect(server.broadcast(line: "after").isEmpty)
        #expect(try reader.readLine(deadline: deadline(milliseconds: 5000)) == "after")
        // The stalled client sees what the socket held, then end of file.
        #expect(try stalled.waitForEndOfFile(deadline: deadline(milliseconds: 5000)))
    }

    /// A partial write keeps the rest queued; flushing on writability delivers all of it.
    @Test func partialWritesAreQueuedAndFlushed() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock", maxQueuedBytes: 8 << 20)
        defer { server.close() }
        let client = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let id = try #require(try acceptClients(server, count: 1, by: deadline(milliseconds: 5000)).first)
        let lines = (0..<2000).map { "line \($0) " + String(repeating: "y", count: 500) }
        for line in lines { #expect(server.send(line: line, to: id) == nil) }
        #expect(server.wantsWritable(id))  // 1 MB does not fit in the socket buffer
        let poller = try Poller()
        try poller.add(try #require(server.descriptor(of: id)), token: 1, events: .writable)
        let limit = deadline(milliseconds: 20_000)
        var received: [String] = []
        while received.count < lines.count, MonotonicClock.now() < limit {
            if try poller.wait(timeout: 0).contains(where: { $0.events.contains(.writable) }) {
                #expect(server.flush(id) == nil)
            }
            if let line = try client.readLine(deadline: MonotonicClock.now() + .milliseconds(1)) { received.append(line) }
        }
        #expect(received == lines)
        #expect(!server.wantsWritable(id))
        #expect(server.queuedBytes(id) == 0)
    }

    @Test func hangupIsCleanedUp() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock")
        defer { server.close() }
        var client: LineClient? = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let other = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(server, count: 2, by: deadline(milliseconds: 5000))
        #expect(ids.count == 2)
        try client?.send(line: "ignored request")
        client = nil  // closes the connection
        let descriptor = try #require(server.descriptor(of: ids[0]))
        #expect(becomesReadable(descriptor, by: deadline(milliseconds: 5000)))
        var event = server.receive(from: ids[0])
        if event == nil {  // the request arrived first; the EOF follows
            #expect(becomesReadable(descriptor, by: deadline(milliseconds: 5000)))
            event = server.receive(from: ids[0])
        }
        #expect(event == .dropped(ids[0], .hangup))
        #expect(server.clientIDs == [ids[1]])
        #expect(server.send(line: "x", to: ids[0]) == nil)  // unknown now: ignored
        #expect(server.broadcast(line: "to the rest").isEmpty)
        #expect(try other.readLine(deadline: deadline(milliseconds: 5000)) == "to the rest")
    }

    @Test func writingToAVanishedClientDropsOnlyIt() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let server = try UnixSocketServer(path: directory.path + "/g.sock")
        defer { server.close() }
        var gone: LineClient? = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let stays = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(server, count: 2, by: deadline(milliseconds: 5000))
        #expect(ids.count == 2)
        gone = nil
        _ = gone
        let events = server.broadcast(line: "one")
        #expect(events == [.dropped(ids[0], .failed(SystemError(operation: "send", path: server.path, errno: .brokenPipe)))])
        #expect(try stays.readLine(deadline: deadline(milliseconds: 5000)) == "one")
    }
}


/// The write path of the daemon's client hub, counted through the server's injectable writer.
@Suite struct UnixSocketServerWriteTests {
    final class Writes { var byClient: [Int32: Int] = [:] }

    /// A frame's lines (a pan `changed` and three touch moves) queued for three clients go out
    /// as one `send` per client, and each client reads all four lines in order.
    @Test func oneSendPerClientForAMultiLineFrame() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let writes = Writes()
        let server = try UnixSocketServer(path: directory.path + "/g.sock") { (descriptor, bytes) throws(SystemError) in
            writes.byClient[descriptor.rawValue, default: 0] += 1
            return try UnixSocketServer.socketWriter(descriptor, bytes)
        }
        defer { server.close() }
        let clients = try (0..<3).map { _ in try LineClient(path: server.path, deadline: deadline(milliseconds: 5000)) }
        let ids = try acceptClients(server, count: 3, by: deadline(milliseconds: 5000))
        #expect(ids.count == 3)
        let frame = ["gesture pan changed pan view=root seq=7", "touch moved 1 view=root seq=8",
                     "touch moved 2 view=root seq=9", "touch moved 3 view=root seq=10"]
        for id in ids {
            for (i, line) in frame.enumerated() {
                let merge: LineMerge = i == 0 ? .newest(.gesture(name: "pan", view: "root")) : .newest(.touch(TouchID(UInt64(i))))
                #expect(server.enqueue(Array((line + "\n").utf8), to: id, merge: merge) == nil)
            }
        }
        #expect(writes.byClient.isEmpty)   // nothing is written before the flush
        var flushed: [ClientID] = []
        server.flushAll { id, event, blocked in #expect(event == nil && !blocked); flushed.append(id) }
        #expect(flushed.sorted() == ids.sorted())
        #expect(writes.byClient.count == 3 && writes.byClient.values.allSatisfy { $0 == 1 }, "\(writes.byClient)")
        for client in clients {
            for line in frame { #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == line) }
        }
        // Nothing queued: a second flush writes nothing.
        server.flushAll { id, _, _ in Issue.record("\(id) flushed with nothing queued") }
        #expect(writes.byClient.values.reduce(0, +) == 3)
    }

    /// A burst past the soft bound is written at once; when that write finds the socket full,
    /// the next `flushAll` says so (the loop then waits for `.writable`), though it writes
    /// nothing to that client: before, nothing said it, and the client's lines waited until it
    /// sent a request.
    @Test func aSocketFoundFullByAnEarlyWriteIsReportedBlocked() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let writes = Writes()
        let server = try UnixSocketServer(path: directory.path + "/g.sock", maxQueuedBytes: 4096, softQueuedBytes: 64) {
            (descriptor, bytes) throws(SystemError) in
            writes.byClient[descriptor.rawValue, default: 0] += 1
            return .wouldBlock
        }
        defer { server.close() }
        let client = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        defer { withExtendedLifetime(client) {} }
        let id = try #require(try acceptClients(server, count: 1, by: deadline(milliseconds: 5000)).first)
        for seq in 1...3 { #expect(server.enqueue(Array("gesture tap ended tap seq=\(seq) padding padding\n".utf8), to: id) == nil) }
        #expect(writes.byClient.values.reduce(0, +) == 1 && server.wantsWritable(id))   // the early write
        var reports: [(ClientID, Bool)] = []
        server.flushAll { id, event, blocked in #expect(event == nil); reports.append((id, blocked)) }
        #expect(reports.count == 1 && reports.first?.0 == id && reports.first?.1 == true)
        #expect(writes.byClient.values.reduce(0, +) == 1)
        server.flushAll { id, _, _ in Issue.record("\(id) reported twice") }
    }

    /// A full socket (EAGAIN) keeps the lines queued and the client waits for `.writable`:
    /// `flushAll` does not try it again until `flush` is called on writability.
    @Test func aFullSocketWaitsForWritable() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let writes = Writes()
        var full = true
        let server = try UnixSocketServer(path: directory.path + "/g.sock") { (descriptor, bytes) throws(SystemError) in
            writes.byClient[descriptor.rawValue, default: 0] += 1
            return try full ? .wouldBlock : UnixSocketServer.socketWriter(descriptor, bytes)
        }
        defer { server.close() }
        let client = try LineClient(path: server.path, deadline: deadline(milliseconds: 5000))
        let id = try #require(try acceptClients(server, count: 1, by: deadline(milliseconds: 5000)).first)
        server.enqueue(Array("one\n".utf8), to: id)
        server.flushAll { _, event, blocked in #expect(event == nil && blocked) }
        #expect(server.wantsWritable(id) && server.queuedBytes(id) == 4)
        server.enqueue(Array("two\n".utf8), to: id)
        server.flushAll { id, _, _ in Issue.record("\(id) was written to while its socket is full") }
        full = false
        #expect(server.flush(id) == nil)
        #expect(!server.wantsWritable(id) && writes.byClient.values.reduce(0, +) == 2)
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "one")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "two")
    }
}
