/// Who may hold one more connection to the daemon's socket: the decision part of accepting, so
/// that a few users cannot lock out everyone else: without a cap per user, one user's idle
/// connections could fill `maxClients` and keep every other client out, control clients
/// included.
///
/// - A user (`SO_PEERCRED` uid) may hold at most `maximumPerUser` connections.
/// - Peers that may send control requests are exempt from that cap and have
///   `reservedForControl` connections beyond `maximumClients` that nobody else can take, so a
///   kiosk app can always tell the daemon about its screen.
/// - A peer whose credentials are unknown counts as one user of its own kind and never controls.
public struct ConnectionPolicy: Hashable, Sendable {
    /// Connections beyond `maximumClients` kept for peers that may control: enough for a kiosk
    /// app and an admin's shell at once, with room to spare.
    public static let reservedForControl = 4

    public var maximumClients: Int
    public var maximumPerUser: Int

    public init(maximumClients: Int, maximumPerUser: Int) {
        self.maximumClients = maximumClients
        self.maximumPerUser = maximumPerUser
    }

    /// The connections the server may hold at most: what `admit` can ever allow.
    public var hardLimit: Int { maximumClients + Self.reservedForControl }

    /// One connected peer, as `admit` counts it.
    public struct Peer: Hashable, Sendable {
        /// nil when the kernel would not say.
        public var uid: UInt32?
        public var mayControl: Bool
        public init(uid: UInt32?, mayControl: Bool) { self.uid = uid; self.mayControl = mayControl }
    }

    public enum Refusal: Hashable, Sendable, CustomStringConvertible {
        /// `maximumClients` connections are held (and, for a control peer, the reserve too).
        case full(maximum: Int)
        /// The peer's user holds `maximum` connections already.
        case perUser(uid: UInt32?, maximum: Int)

        public var description: String {
            switch self {
            case .full(let maximum): "\(maximum) clients are connected already"
            case .perUser(let uid, let maximum):
                "\(uid.map { "uid \($0)" } ?? "a peer of unknown uid") holds \(maximum) connections already (socket.maxClientsPerUser)"
            }
        }
    }

    /// Whether `peer` may hold one more connection beside the `connected` ones; nil: it may.
    public func admit(_ peer: Peer, connected: some Sequence<Peer>) -> Refusal? {
        var total = 0, sameUser = 0
        for other in connected {
            total += 1
            if other.uid == peer.uid && !other.mayControl { sameUser += 1 }
        }
        if peer.mayControl { return total < hardLimit ? nil : .full(maximum: hardLimit) }
        if total >= maximumClients { return .full(maximum: maximumClients) }
        if sameUser >= maximumPerUser { return .perUser(uid: peer.uid, maximum: maximumPerUser) }
        return nil
    }
}

/// Finds clients that leave what the daemon sent them unread: a connection that never reads is
/// otherwise indistinguishable from a quiet listener and holds its slot forever. Pure: the shell
/// passes `now` and, per client, how much it leaves unread (its socket's `SIOCOUTQ`: zero once
/// the peer has read everything) and how many bytes it was sent so far; it disconnects whom
/// `check` names.
///
/// A client is stalled when, over a whole `timeout`, it had unread bytes, read none of them (the
/// unread amount never went down) and was sent nothing new: only then is "it does not read" sure.
/// A client that is sent lines all the time and does not read fills its queue and is dropped by
/// the queue's limit instead (`ClientOutputQueue`).
///
/// Checks happen only while some client has unread bytes (`nextCheck`): a daemon whose clients
/// have read everything never wakes for this, and the frame path only calls `wrote`.
public struct StallWatch<ID: Hashable & Sendable>: Sendable {
    public let timeout: Interval

    /// One client as a check sees it.
    public struct Status: Sendable {
        public var id: ID
        /// Bytes it has not read yet.
        public var unread: Int
        /// Bytes it was sent since it connected.
        public var sent: UInt64
        public init(id: ID, unread: Int, sent: UInt64) { self.id = id; self.unread = unread; self.sent = sent }
    }

    private struct Watched: Sendable {
        /// Since when it has made no progress (nothing read, nothing new sent).
        var since: Instant
        var unread: Int
        var sent: UInt64
    }

    private var watched: [ID: Watched] = [:]
    public private(set) var nextCheck: Instant?

    public init(timeout: Interval) { self.timeout = timeout }

    /// How many clients had unread bytes at the last check.
    public var count: Int { watched.count }

    /// Something was written to some client at `now`: a check is due within `timeout`.
    public mutating func wrote(now: Instant) {
        if nextCheck == nil { nextCheck = now + timeout }
    }

    /// At or after `nextCheck`: the clients stalled for `timeout` (the caller disconnects them).
    public mutating func check(now: Instant, clients: some Sequence<Status>) -> [ID] {
        var stalled: [ID] = []
        var next: [ID: Watched] = [:]
        for client in clients where client.unread > 0 {
            var entry = Watched(since: now, unread: client.unread, sent: client.sent)
            if let old = watched[client.id], old.sent == client.sent, client.unread >= old.unread {
                guard now - old.since < timeout else { stalled.append(client.id); continue }
                entry.since = old.since
            }
            next[client.id] = entry
        }
        watched = next
        nextCheck = watched.isEmpty ? nil : now + timeout
        return stalled
    }
}
