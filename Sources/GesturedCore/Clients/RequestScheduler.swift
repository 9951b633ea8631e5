/// Serves the clients' request lines fairly: a bounded amount per client and in all per loop
/// wakeup, round-robin, the rest left for the next wakeup; and a budget of work per client over
/// time, past which the client is disconnected.
///
/// The loop reads a client (at most `RequestLimits.bytesPerRead`) only while none of its lines wait
/// here (`isWaiting`): a client that sends faster than it is served is not read, its socket
/// fills, and its writes block in its own process, not in the daemon. Each wakeup, `turns` takes
/// lines of each waiting client in arrival order, up to `linesPerTurn` lines and `unitsPerTurn`
/// units of work (a line costs its bytes plus `lineCost`; the first line of a turn is always
/// taken), and no more than `linesPerWakeup` lines and `unitsPerWakeup` units in all; a client
/// with lines left goes to the back of the queue. So a wakeup parses at most `unitsPerWakeup`
/// bytes and one line more, every line linear to parse (a filter's glob included), and another
/// client's `ping` waits for at most one turn of each client ahead of it: a line of 1,000 bytes
/// per flooding connection (swift-nio's `maxMessagesPerRead`; sd-event's per-source rate limit).
///
/// Pure: the caller passes `now` and performs what the turns say.
public struct RequestScheduler<Client: Hashable & Sendable>: Sendable {
    /// One client's lines for this wakeup, in order. `overBudget`: the client spent more than
    /// its budget; disconnect it instead of serving them.
    public struct Turn: Hashable, Sendable {
        public var client: Client
        public var items: [RequestFramer.Item]
        public var overBudget: Bool
    }

    private struct Entry: Sendable {
        var framer = RequestFramer()
        /// In `order` (lines wait).
        var queued = false
        /// Units left in its budget, in millionths (refilled at each turn).
        var level: Int64
        var refilled: Instant
    }

    public let limits: RequestLimits
    private var entries: [Client: Entry] = [:]
    /// The clients with lines waiting, from `head` on, in the order they are served.
    private var order: [Client] = []
    private var head = 0

    public init(limits: RequestLimits = RequestLimits()) { self.limits = limits }

    /// Whether some client has lines waiting: the loop waits for nothing before serving them.
    public var hasWaiting: Bool { head < order.count }

    /// Whether this client's lines wait: do not read it until they are served.
    public func isWaiting(_ client: Client) -> Bool { entries[client]?.queued ?? false }

    /// Bytes read from `client`: complete lines queue it for a turn.
    public mutating func received(_ bytes: [UInt8], from client: Client, now: Instant) {
        var entry = entries[client] ?? Entry(level: Int64(limits.burst) * 1_000_000, refilled: now)
        entry.framer.append(bytes)
        if !entry.queued, entry.framer.hasNext {
            entry.queued = true
            order.append(client)
        }
        entries[client] = entry
    }

    /// Forgets a client (gone, and its lines served or dropped).
    public mutating func remove(_ client: Client) {
        guard entries.removeValue(forKey: client) != nil else { return }
        if let index = order[head...].firstIndex(of: client) { order.remove(at: index) }
    }

    /// This wakeup's turns: each waiting client once at most, in queue order, while the wakeup's
    /// budget of lines lasts. A client that overspends its budget gets a turn with `overBudget`
    /// and leaves the queue (its other lines are forgotten with `remove`).
    public mutating func turns(now: Instant) -> [Turn] {
        var turns: [Turn] = []
        var left = limits.linesPerWakeup, unitsLeft = limits.unitsPerWakeup
        var visits = order.count - head
        while left > 0, unitsLeft > 0, visits > 0, head < order.count {
            visits -= 1
            let client = order[head]
            head += 1
            guard var entry = entries[client] else { continue }
            var items: [RequestFramer.Item] = []
            var cost = 0
            while items.count < min(limits.linesPerTurn, left), let next = entry.framer.peek() {
                let units = RequestLimits.lineCost + (next.byteCount ?? ClientRequest.maximumLength)
                guard items.isEmpty || (cost + units <= limits.unitsPerTurn && units <= unitsLeft) else { break }
                items.append(next)
                entry.framer.skip()
                cost += units
                unitsLeft -= units
            }
            left -= items.count
            let over = !spend(cost, from: &entry, now: now)
            if entry.framer.hasNext, !over { order.append(client) } else { entry.queued = false }
            entries[client] = entry
            turns.append(Turn(client: client, items: items, overBudget: over))
        }
        if head > 64, head * 2 > order.count { order.removeFirst(head); head = 0 }
        return turns
    }

    /// Refills the client's budget for the time since its last turn, then takes `cost` units;
    /// false when that leaves it below zero.
    private func spend(_ cost: Int, from entry: inout Entry, now: Instant) -> Bool {
        let capacity = Int64(limits.burst) * 1_000_000
        let elapsed = max(0, (now - entry.refilled).microseconds)
        let refill = elapsed >= capacity / Int64(max(1, limits.rate)) ? capacity : elapsed * Int64(limits.rate)
        entry.level = min(capacity, entry.level + refill)
        entry.refilled = now
        entry.level -= Int64(cost) * 1_000_000
        return entry.level >= 0
    }
}

extension RequestFramer.Item {
    /// The line's bytes (nil for an overlong one, which cost `maximumLength` to skip).
    var byteCount: Int? {
        switch self {
        case .line(let line): line.utf8.count
        case .tooLong: nil
        }
    }
}

/// The bounds (docs/RELIABILITY.md, "Hostile clients and configurations").
public struct RequestLimits: Hashable, Sendable {
    /// Lines one client has served per turn (one turn per wakeup).
    public var linesPerTurn = 8
    /// Lines served per wakeup, across every client.
    public var linesPerWakeup = 64
    /// Units of work (a line: its bytes and `lineCost`) one client has served per turn: one
    /// line of 1,000 bytes, or eight short ones.
    public var unitsPerTurn = 2 << 10
    /// Units served per wakeup, across every client (and one line more).
    public var unitsPerWakeup = 16 << 10
    /// Bytes read from one client's socket per wakeup: eight of the longest request lines.
    public var bytesPerRead = 8 * ClientRequest.maximumLength
    /// The work a client may have served: at most `burst` units at once, refilled at `rate`
    /// units per second. A line costs its bytes plus `lineCost`, so a flood of `ping` and a
    /// flood of 1,000-byte filters are both bounded (256 KiB is about 3,800 pings or 240
    /// long filters at once, then 1,000 pings or 60 long filters a second).
    public var burst = 256 << 10
    public var rate = 64 << 10
    public static let lineCost = 64

    public init() {}
}
