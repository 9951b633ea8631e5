import GesturedCore

/// Messages waiting for the broker while it is away: bounded in count, each stamped with when it
/// was queued, so that on reconnection the stale ones are dropped rather than sent late.
struct Outbox {
    private var queue: [(publication: Publication, queued: Instant)] = []
    private var head = 0
    let capacity: Int
    /// Dropped for age or for room, since the bridge started.
    private(set) var dropped = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { queue.count - head }

    /// Queues `publication`; when full, drops the oldest.
    mutating func append(_ publication: Publication, now: Instant) {
        if count == capacity { head += 1; dropped += 1 }
        queue.append((publication, now))
        if head > capacity { queue.removeFirst(head); head = 0 }
    }

    /// Everything queued, oldest first, without what waited longer than `maximumAge`; and how many
    /// of those were dropped.
    mutating func drain(now: Instant, maximumAge: Interval) -> (fresh: [Publication], stale: Int) {
        let waiting = queue[head...]
        queue = []; head = 0
        let fresh = waiting.filter { now - $0.queued <= maximumAge }.map(\.publication)
        let stale = waiting.count - fresh.count
        dropped += stale
        return (fresh, stale)
    }
}
