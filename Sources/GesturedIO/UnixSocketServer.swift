import CLinux
import GesturedCore
import Glibc

/// The line protocol's listening socket: accepts clients and queues lines for each, bounded.
///
/// Non-blocking throughout. `enqueue` adds a line to a client's queue (`ClientOutputQueue`) and
/// `flushAll` writes each client's queue with one `send`, so the lines of one loop iteration
/// cost one system call per client. What the socket does not take stays queued; the caller asks
/// for `.writable` while `wantsWritable` is true and calls `flush`. Past `softQueuedBytes` a
/// client's `changed` lines and touch moves are coalesced to the newest; a client whose
/// unmergeable lines exceed `maxQueuedBytes` is dropped so one stalled reader cannot hold the
/// daemon's memory or slow the others. Nothing here logs: every change comes back as a
/// `ServerEvent`.
public final class UnixSocketServer {
    /// Writes bytes to a client's socket: the count written or a full socket, or the failure.
    /// Injectable (internally) so tests can count and shape the daemon's writes without
    /// `LD_PRELOAD`.
    typealias Writer = (FileDescriptor, UnsafeRawBufferPointer) throws(SystemError) -> WriteResult

    /// One non-blocking `send(2)` without SIGPIPE, retried when interrupted.
    static func socketWriter(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> WriteResult {
        do {
            return .wrote(try syscall("send", onInterrupt: .retry) {
                Glibc.send(descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            })
        } catch where error.errno == .wouldBlock {
            return .wouldBlock
        }
    }

    public let path: String
    public let listenDescriptor: FileDescriptor
    public let maxQueuedBytes: Int
    /// Past this many queued bytes a client's mergeable lines are coalesced.
    public let softQueuedBytes: Int
    public let maxClients: Int
    private let writer: Writer
    /// Takes one pending connection from the listening descriptor: `accept4`, or -1 with
    /// `errno` set. Injectable (internally) so tests can make it fail as a process out of
    /// descriptors does (EMFILE), which cannot be provoked safely inside a test process.
    typealias Acceptor = (FileDescriptor) -> Int32
    var acceptor: Acceptor = { listener in
        accept4(listener.rawValue, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }

    private final class Client {
        let descriptor: FileDescriptor
        var queue: ClientOutputQueue
        /// Bytes written to its socket since it connected (`StallWatch` compares them).
        var sent: UInt64 = 0
        init(descriptor: FileDescriptor, queue: ClientOutputQueue) { self.descriptor = descriptor; self.queue = queue }
    }

    private var clients: [ClientID: Client] = [:]
    private var nextID: UInt64 = 1
    private var isClosed = false
    /// Whether `close` removes the socket file: only when this server created it.
    private let ownsFile: Bool

    /// Binds and listens on `path`.
    ///
    /// When `path` exists: if a daemon answers a connection there, throws `.inUse`; if nothing
    /// does (`ECONNREFUSED`: a stale file left by a crash), removes it and binds. A missing
    /// parent directory is created with mode 0755.
    ///
    /// - Parameters:
    ///   - backlog: `listen(2)` backlog.
    ///   - maxQueuedBytes: per-client limit of unmergeable output (default 256 KiB).
    ///   - softQueuedBytes: per-client output past which mergeable lines are coalesced
    ///     (default a quarter of `maxQueuedBytes`).
    ///   - maxClients: connections beyond this are accepted and closed at once.
    ///   - permissions: mode of the socket file (connecting needs write permission), or nil to
    ///     keep what the umask gives. Who may read gestures is the executable's policy: touch
    ///     positions can reveal what is typed on an on-screen keyboard.
    ///   - group: group owner of the socket file, or nil to keep it.
    ///
    /// Group and mode are set after `bind`, before `listen` (so no client can connect while the
    /// file is still the creator's), through a descriptor of the bound file itself, never through
    /// its path (`settle`): `chmod(path)` would follow a symlink swapped in by anyone who may write
    /// the directory, and a root daemon would then open up any file to everyone.
    public convenience init(path: String, backlog: Int32 = 16, maxQueuedBytes: Int = 256 << 10, softQueuedBytes: Int? = nil,
                            maxClients: Int = 64, permissions: mode_t? = nil, group: gid_t? = nil) throws(SocketServerError) {
        try self.init(path: path, backlog: backlog, maxQueuedBytes: maxQueuedBytes, softQueuedBytes: softQueuedBytes,
                      maxClients: maxClients, permissions: permissions, group: group, writer: Self.socketWriter)
    }

    /// `init(path:…)` writing through `writer`.
    init(path: String, backlog: Int32 = 16, maxQueuedBytes: Int = 256 << 10, softQueuedBytes: Int? = nil,
         maxClients: Int = 64, permissions: mode_t? = nil, group: gid_t? = nil,
         writer: @escaping Writer, afterBind: (String) -> Void = { _ in }) throws(SocketServerError) {
        self.path = path
        self.maxQueuedBytes = maxQueuedBytes
        self.softQueuedBytes = min(softQueuedBytes ?? maxQueuedBytes / 4, maxQueuedBytes)
        self.writer = writer
        self.maxClients = maxClients
        self.ownsFile = true
        listenDescriptor = try UnixListener.listen(at: path, backlog: backlog, permissions: permissions, group: group,
                                                   afterBind: afterBind)
    }

    /// Serves on a listening socket someone else created (socket activation: the service
    /// manager bound it and keeps it across restarts). The descriptor is made non-blocking;
    /// `close` closes it but leaves the socket file, which is not ours to remove.
    ///
    /// - Parameters:
    ///   - descriptor: a listening `AF_UNIX` stream socket (see
    ///     `SocketActivation.validateListeningUnixStream`).
    ///   - path: where it is bound, for messages.
    public init(adopting descriptor: FileDescriptor, path: String, maxQueuedBytes: Int = 256 << 10,
                softQueuedBytes: Int? = nil, maxClients: Int = 64) throws(SocketServerError) {
        self.path = path
        self.maxQueuedBytes = maxQueuedBytes
        self.softQueuedBytes = min(softQueuedBytes ?? maxQueuedBytes / 4, maxQueuedBytes)
        self.writer = Self.socketWriter
        self.maxClients = maxClients
        self.ownsFile = false
        listenDescriptor = try UnixListener.adopt(descriptor, path: path)
    }

    deinit { close() }

    /// How many clients are connected.
    public var clientCount: Int { clients.count }

    /// The connected clients, oldest first.
    public var clientIDs: [ClientID] { clients.keys.sorted() }

    /// The client's socket, to register with the poller (token of the caller's choosing).
    public func descriptor(of client: ClientID) -> FileDescriptor? { clients[client]?.descriptor }

    /// Accepts one pending connection. Returns nil when none is pending; call it until then.
    public func accept() throws(SystemError) -> ServerEvent? {
        while true {
            let fd: Int32
            do { fd = try syscall("accept4", path: path, onInterrupt: .retry) { acceptor(listenDescriptor) } } catch {
                switch error.errno {
                case .wouldBlock: return nil
                case .connectionAborted: continue   // the connection went away before we took it; the next one
                default: throw error
                }
            }
            let descriptor = FileDescriptor(rawValue: fd)
            if clients.count >= maxClients {
                try? descriptor.close()
                return .refused(maxClients: maxClients)
            }
            let id = ClientID(rawValue: nextID)
            nextID += 1
            clients[id] = Client(descriptor: descriptor,
                                 queue: ClientOutputQueue(softLimit: softQueuedBytes, hardLimit: maxQueuedBytes))
            return .accepted(id)
        }
    }

    /// Queues one line (its bytes, ending with `\n`) for the client, to go out with the next
    /// `flushAll` or `flush`. Returns `.dropped` when the client had to be disconnected: its
    /// unmergeable lines overflow `maxQueuedBytes`. Past the soft bound one write is tried at once
    /// (unless the socket is known full), so a burst from a fast reader is not mistaken for a
    /// stall.
    @discardableResult
    public func enqueue(_ bytes: [UInt8], to id: ClientID, merge: LineMerge = .never) -> ServerEvent? {
        enqueue(to: id, count: bytes.count) { $0.enqueue(bytes, merge: merge) }
    }
    /// A step's lines for the client (a `Delivery.Part`'s), queued at once: one look-up and one
    /// append a step, not one a line.
    @discardableResult
    public func enqueue(_ lines: ArraySlice<Delivery.Line>, of bytes: [UInt8], to id: ClientID) -> ServerEvent? {
        guard let first = lines.first, let last = lines.last else { return nil }
        return enqueue(to: id, count: last.range.upperBound - first.range.lowerBound) { $0.enqueue(lines, of: bytes) }
    }
    private func enqueue(to id: ClientID, count: Int, _ append: (inout ClientOutputQueue) -> Bool) -> ServerEvent? {
        guard let client = clients[id] else { return nil }
        if client.queue.pending + count > softQueuedBytes, !client.queue.isBlocked {
            if let event = flush(client, id: id) { return event }
            if client.queue.isBlocked { blockedEarly.append(id) }   // flushAll reports it
        }
        guard append(&client.queue) else { return drop(id, .queueOverflow(limit: maxQueuedBytes)) }
        return nil
    }

    /// Writes each client's queued lines with one write, except for clients whose socket is full
    /// (they wait for `.writable`). `report` gets each client written to, with `.dropped` when
    /// it failed, and whether its socket is full now, so the caller can update its interest in
    /// `.writable`; also, first, each client whose socket an early write of `enqueue` (past the
    /// soft bound) found full, which it does not write to.
    public func flushAll(_ report: (ClientID, ServerEvent?, _ blocked: Bool) -> Void) {
        // Those an early write of `enqueue` left with a full socket: flushAll skips them below.
        for id in blockedEarly where clients[id]?.queue.isBlocked == true { report(id, nil, true) }
        blockedEarly.removeAll(keepingCapacity: true)
        flushing.removeAll(keepingCapacity: true)
        for (id, client) in clients where client.queue.pending > 0 && !client.queue.isBlocked { flushing.append((id, client)) }
        for (id, client) in flushing {
            let event = flush(client, id: id)
            report(id, event, event == nil && client.queue.isBlocked)
        }
        flushing.removeAll(keepingCapacity: true)
    }
    private var flushing: [(ClientID, Client)] = []
    private var blockedEarly: [ClientID] = []

    /// Whether the socket did not take all of the client's output: register `.writable`
    /// interest while true.
    public func wantsWritable(_ id: ClientID) -> Bool { clients[id].map { $0.queue.isBlocked } ?? false }

    /// Number of bytes queued for the client.
    func queuedBytes(_ id: ClientID) -> Int { clients[id]?.queue.pending ?? 0 }

    /// What the client has not read yet, here and in its socket (`SIOCOUTQ`, in the kernel's
    /// accounting: zero exactly when the peer has read every byte written), and the bytes written
    /// to it since it connected: what `StallWatch` judges a client by.
    public func readingStatus(_ id: ClientID) -> (unread: Int, sent: UInt64)? {
        guard let client = clients[id] else { return nil }
        var inSocket: Int32 = 0
        do { try syscall("ioctl(TIOCOUTQ)", path: path, onInterrupt: .retry) { ioctl(client.descriptor.rawValue, UInt(TIOCOUTQ), &inSocket) } } catch { inSocket = 0 }
        return (client.queue.pending + Int(inSocket), client.sent)
    }

    /// Writes the client's queued output with one write (call on `.writable`, or to send now).
    @discardableResult
    public func flush(_ id: ClientID) -> ServerEvent? {
        guard let client = clients[id] else { return nil }
        return flush(client, id: id)
    }
    private func flush(_ client: Client, id: ClientID) -> ServerEvent? {
        let descriptor = client.descriptor, writer = self.writer
        var failure: SystemError?
        let flushed = client.queue.flush { bytes in
            do throws(SystemError) {
                let result = try writer(descriptor, bytes)
                if case .wrote(let written) = result, written > 0 { client.sent &+= UInt64(written) }
                return result
            } catch {
                failure = error
                return .failed
            }
        }
        guard !flushed, let failure else { return nil }
        return drop(id, .failed(SystemError(operation: failure.operation, path: path, errno: failure.errno)))
    }

    /// Reads and discards what the client sent (call on `.readable`, `.hangup` or `.error`);
    /// returns `.dropped` on EOF or a socket error.
    @discardableResult
    func receive(from id: ClientID) -> ServerEvent? {
        var discarded: [UInt8] = []
        return receive(from: id, into: &discarded)
    }

    /// Appends what the client sent to `data` (call on `.readable`, `.hangup` or `.error`);
    /// returns `.dropped` on EOF or a socket error. Reads at most `limit` bytes per call so a
    /// client that floods the socket cannot monopolize the loop (it stays readable).
    @discardableResult
    public func receive(from id: ClientID, into data: inout [UInt8], limit: Int = 64 << 10) -> ServerEvent? {
        guard let client = clients[id] else { return nil }
        var buffer = [UInt8](repeating: 0, count: min(4096, max(1, limit)))
        var total = 0
        while total < limit {
            let count: Int
            do {
                count = try syscall("recv", path: path, onInterrupt: .retry) {
                    buffer.withUnsafeMutableBytes {
                        recv(client.descriptor.rawValue, $0.baseAddress, min($0.count, limit - total), Int32(MSG_DONTWAIT))
                    }
                }
            } catch {
                return error.errno == .wouldBlock ? nil : drop(id, .failed(error))
            }
            if count == 0 { return drop(id, .hangup) }
            total += count
            data.append(contentsOf: buffer[..<count])
        }
        return nil
    }

    /// Disconnects a client (its descriptor leaves any epoll set when closed).
    @discardableResult
    public func disconnect(_ id: ClientID) -> Bool {
        guard let client = clients.removeValue(forKey: id) else { return false }
        try? client.descriptor.close()
        return true
    }

    /// Disconnects every client, closes the socket and removes its file if this server
    /// created it (an adopted socket's file belongs to whoever bound it).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for id in clientIDs { disconnect(id) }
        try? listenDescriptor.close()
        // A file already gone (removed by hand, or the directory with it) is what was wanted.
        if ownsFile { _ = try? syscall("unlink", path: path, onInterrupt: .retry) { unlink(path) } }
    }

    // MARK: - Private

    private func drop(_ id: ClientID, _ reason: DropReason) -> ServerEvent? {
        disconnect(id) ? .dropped(id, reason) : nil
    }
}
