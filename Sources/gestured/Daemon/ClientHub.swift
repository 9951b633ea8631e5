import GesturedCore
import GesturedIO
import Glibc

/// The daemon's clients: the socket server, who may connect (`ConnectionPolicy`), each client's
/// subscription (mirrored in the core's `Subscribers`, which numbers and encodes each step's
/// lines), the queuing of those lines per client, clients that stop reading (`StallWatch`), which request lines are served
/// when (`RequestScheduler`, ClientHub+Requests.swift) and which connections are logged
/// (`ConnectionLog`). Complete request lines go back to the loop (`serveRequests`), which hands
/// them to `ClientRequests`; this part knows no other part.
final class ClientHub {
    struct ClientState {
        var subscription = ClientSubscription()
        /// Who connected (`SO_PEERCRED`, taken at connect and kept for the connection); nil
        /// when the kernel would not say (then no control).
        var peer: PeerCredentials?
        /// How `policy` counts it (whether it could control when it connected).
        var connection = ConnectionPolicy.Peer(uid: nil, mayControl: false)
        /// False once it hung up with request lines not served yet: they still apply, and its
        /// state stays until they are served.
        var connected = true
        /// Whether its connection was logged (`ConnectionLog`): its disconnection is then too.
        var logged = false
    }

    let server: UnixSocketServer
    let poller: any EventPolling
    let clock: any Clock
    /// Who may control, as the configuration in force says: peers that may have the reserve
    /// of connections (`ConnectionPolicy`). Replaced on reload.
    var authority: ControlAuthority
    /// What each client asked for, who it is.
    var clients: [ClientID: ClientState] = [:]
    /// What the core's table of subscriptions (`Subscribers`, in the pipeline) must learn, in
    /// order: a client connected or changed its subscription (the subscription) or went (nil).
    /// Data, not a call into the pipeline: a client dropped while a batch is carried out must
    /// not change the core under it. The loop and `ClientRequests` hand them on
    /// (`takeSubscriptionChanges`, `LivePipeline.apply`).
    var subscriptionChanges: [SubscriptionChange] = []
    /// What each client's descriptor is registered for (`.readable` unless its request lines
    /// wait, `.writable` while it has queued output).
    var interest: [ClientID: PollEvents] = [:]
    /// Each client's request lines, served a bounded amount per wakeup, round-robin.
    var scheduler = RequestScheduler<ClientID>()
    /// Which connections are logged, and the summary of those that were not.
    var connectionLog = ConnectionLog()
    /// From a device's events read to their lines written to every client, for `stats`
    /// (ClientHub+Stats.swift); the device hub records it.
    var latency = LatencyHistogram()
    /// When this wakeup's device reads ended: their lines are written at its end (`flush`),
    /// where their latency is recorded.
    private var readStarts: [Instant] = []

    var count: Int { server.clientCount }
    /// `run --trace`: the trace is logged (at debug priority), whether or not a client asks for it.
    var logsTrace = false
    /// How many clients subscribe to touch lines and to the trace (`reporting`).
    private var touchSubscribers = 0, traceSubscribers = 0
    /// Who may hold one more connection (per-user cap, the control peers' reserve).
    let policy: ConnectionPolicy
    /// Clients that leave what they were sent unread (nil: `socket.readTimeout` 0, never).
    private var stalls: StallWatch<ClientID>?
    /// While the process is out of descriptors, the listener is not watched until then (or
    /// until a client goes): accept would fail again at once, and the loop would spin.
    private var acceptPausedUntil: Instant?
    /// How long accepting pauses when the process is out of descriptors.
    static let acceptPause = Interval(seconds: 1)

    init(server: UnixSocketServer, poller: any EventPolling, clock: any Clock, authority: ControlAuthority,
         settings: SocketSettings = SocketSettings()) {
        self.server = server
        self.poller = poller
        self.clock = clock
        self.authority = authority
        policy = settings.connectionPolicy
        stalls = settings.readTimeout.map { StallWatch(timeout: $0) }
    }

    /// What the pipeline must make for the clients: touch outputs while some client subscribes
    /// to them, the trace while it is logged or some client subscribes to it.
    var reporting: GesturePipeline.Reporting {
        GesturePipeline.Reporting(touches: touchSubscribers > 0, trace: logsTrace || traceSubscribers > 0)
    }

    /// The subscription changes since they were last taken, in order.
    func takeSubscriptionChanges() -> [SubscriptionChange] {
        defer { subscriptionChanges.removeAll() }
        return subscriptionChanges
    }

    /// A client's subscription, if it is connected.
    func subscription(of id: ClientID) -> ClientSubscription? { clients[id]?.subscription }

    /// Who a client is (`SO_PEERCRED` at connect), nil when the kernel would not say.
    func peer(of id: ClientID) -> PeerCredentials? { clients[id]?.peer }

    /// Replaces a client's subscription (a request changed it).
    func setSubscription(_ subscription: ClientSubscription, of id: ClientID) {
        guard let old = clients[id]?.subscription, clients[id]!.connected else { return }
        touchSubscribers += (subscription.touches ? 1 : 0) - (old.touches ? 1 : 0)
        traceSubscribers += (subscription.trace ? 1 : 0) - (old.trace ? 1 : 0)
        clients[id]!.subscription = subscription
        subscriptionChanges.append(SubscriptionChange(client: id, subscription: subscription))
    }

    /// When this part next has something to do without any descriptor waking it: accepting
    /// again after running out of descriptors, checking clients that left lines unread, the
    /// summary of connections not logged.
    /// Read before every wait: the earliest of three optionals, without building an array.
    var nextWake: Instant? {
        earliest(earliest(acceptPausedUntil, stalls?.nextCheck), connectionLog.nextSummary)
    }

    private func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Does what `nextWake` was for, if it is due.
    func wake(now: Instant) {
        if let until = acceptPausedUntil, until <= now { resumeAccepting() }
        for line in connectionLog.summaries(now: now) { Log.info(line) }
        guard let due = stalls?.nextCheck, due <= now else { return }
        let statuses = server.clientIDs.compactMap { id in
            server.readingStatus(id).map { StallWatch<ClientID>.Status(id: id, unread: $0.unread, sent: $0.sent) }
        }
        for id in stalls!.check(now: now, clients: statuses) {
            Log.limited(.warning, key: "\(id) stalled",
                        "\(id): left what it was sent unread for \(LineEncoder.fixed(stalls!.timeout.seconds, decimals: 0)) s (socket.readTimeout), disconnected")
            server.disconnect(id)
            dropped(id)
        }
    }

    /// Queues a step's lines (`Batch.delivery`, numbered and encoded by the core once per
    /// distinct subscription) for each client of each part, with their merges, so that a slow
    /// client's queue coalesces them; a control request's reply goes to its sender after its
    /// trace lines and before its other lines (docs/PROTOCOL.md). A client dropped while queuing
    /// is skipped, as the server no longer holds it.
    func deliver(_ delivery: Delivery, reply: String?, to requester: ClientID?) {
        var replied = reply == nil
        for part in delivery.parts {
            for key in part.members {
                let id = ClientID(rawValue: key.value)
                if let event = server.enqueue(part.traced, of: part.bytes, to: id) { report(event) }
                if !replied, id == requester, let reply { self.reply(reply, to: id); replied = true }
                if let event = server.enqueue(part.published, of: part.bytes, to: id) { report(event) }
            }
        }
        if !replied, let reply, let requester { self.reply(reply, to: requester) }
    }

    /// The engines' trace and recognizer bugs, for the log: trace lines with `run --trace`, bugs
    /// as errors always (`RecognizerBugLog`). Clients subscribed to the trace get both in the
    /// step's delivery.
    func logTrace(_ lines: [String], bugs: [RecognizerBug]) {
        if logsTrace { for line in lines { Log.trace(line) } }
        if !bugs.isEmpty { RecognizerBugLog.log(bugs) }
    }

    /// Queues a line; every client's lines of one loop iteration go out in one write (`flush`).
    func send(_ bytes: [UInt8], to id: ClientID) {
        if let event = server.enqueue(bytes, to: id) { report(event) }
    }

    /// Queues the answer to a client's request.
    func reply(_ line: String, to id: ClientID) { send(Array(line.utf8), to: id) }

    /// A device's events were read at `start`; their lines go out with this wakeup's `flush`.
    func read(at start: Instant) { readStarts.append(start) }

    /// Writes what this loop iteration queued: one write per client. Called once per wakeup.
    func flush() {
        var wrote = false
        server.flushAll { id, event, blocked in
            wrote = true
            // Only a client whose socket just filled needs `.writable` now (flushAll writes to
            // none that was blocked): `updateInterest`'s look-ups are not free (docs/PERFORMANCE.md).
            if let event { report(event) } else if blocked { updateInterest(id) }
        }
        if wrote, stalls?.nextCheck == nil { stalls?.wrote(now: clock.now()) }
        guard !readStarts.isEmpty else { return }
        let now = clock.now()
        for start in readStarts { latency.record(now - start) }
        readStarts.removeAll(keepingCapacity: true)
    }

    /// Logs what happened to a client (its disconnection only when its connection was logged:
    /// `ConnectionLog`) and forgets one that went.
    func report(_ event: ServerEvent) {
        var logged = false, uid = "unknown uid"
        if case .dropped(let id, _) = event {
            logged = clients[id]?.logged ?? false
            uid = ConnectionLog.key(uid: clients[id]?.peer?.uid)
            dropped(id)
        }
        switch event {
        case .accepted(let id): Log.info("\(id): connected")
        case .refused(let max): Log.limited(.warning, key: "client limit", "client refused: \(max) clients are connected already")
        case .dropped(let id, .hangup): if logged { Log.info("\(id): disconnected") }
        case .dropped(let id, .queueOverflow(let limit)):
            Log.limited(.warning, key: "\(uid) stopped reading", "\(id): stopped reading (\(limit) bytes queued), disconnected")
        case .dropped(let id, .failed(let error)): if logged { Log.info("\(id): \(error), disconnected") }
        }
    }

    /// Forgets a client the server let go; a descriptor is free again, so accepting resumes.
    /// One whose request lines wait stays, not connected, until they are served.
    func dropped(_ id: ClientID) {
        if let gone = clients[id]?.subscription, clients[id]!.connected {
            if gone.touches { touchSubscribers -= 1 }
            if gone.trace { traceSubscribers -= 1 }
        }
        subscriptionChanges.append(SubscriptionChange(client: id, subscription: nil))
        if scheduler.isWaiting(id) { clients[id]?.connected = false } else {
            clients[id] = nil
            scheduler.remove(id)
        }
        interest[id] = nil
        if acceptPausedUntil != nil { resumeAccepting() }
    }

    /// Out of descriptors (EMFILE, ENFILE) or kernel memory: accept fails at once for every
    /// pending connection while the listener stays readable. Stop watching it for a while.
    func pauseAccepting(_ error: SystemError, now: Instant) {
        Log.limited(.warning, key: "accept paused",
                    "accept failed: \(error); not accepting for \(LineEncoder.fixed(Self.acceptPause.seconds, decimals: 0)) s "
                    + "or until a client goes (raise LimitNOFILE, or lower socket.maxClients)")
        try? poller.modify(server.listenDescriptor, token: LoopToken.listenerToken, events: [])
        acceptPausedUntil = now + Self.acceptPause
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        try? poller.modify(server.listenDescriptor, token: LoopToken.listenerToken, events: .readable)
    }

    /// Registers what the client's descriptor waits for: `.readable` unless its request lines
    /// wait (`RequestScheduler`), `.writable` while it has queued output. epoll_ctl only runs
    /// when that changes: calling it for every client after every line would cost a system call
    /// per client per line on the frame path.
    func updateInterest(_ id: ClientID) {
        guard let fd = server.descriptor(of: id) else { interest[id] = nil; return }
        var events: PollEvents = scheduler.isWaiting(id) ? [] : .readable
        if server.wantsWritable(id) { events.insert(.writable) }
        guard events != interest[id] ?? .readable else { return }
        try? poller.modify(fd, token: LoopToken.token(of: id), events: events)
        interest[id] = events
    }

    /// Sends what is queued, as far as each client takes it: the daemon is stopping.
    func flushAll() {
        for id in server.clientIDs { _ = server.flush(id) }
    }
}

/// A change of the core's table of subscriptions (`ClientHub.subscriptionChanges`): `client`
/// connected or changed to `subscription`, or went (nil).
struct SubscriptionChange {
    let client: ClientID
    let subscription: ClientSubscription?
}
