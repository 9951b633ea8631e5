import GesturedCore
import Testing

/// The fair share of request lines per wakeup and the budget per client (`RequestScheduler`),
/// on a virtual clock: turns are transcripts of which client got how many lines.
struct RequestSchedulerTests {
    static func lines(_ count: Int, _ text: String = "ping") -> [UInt8] {
        Array(String(repeating: text + "\n", count: count).utf8)
    }

    @Test func turnsGoRoundRobinAFewLinesEachWithinTheWakeupsBound() {
        var scheduler = RequestScheduler<Int>()
        let now = Instant.zero
        scheduler.received(Self.lines(100), from: 1, now: now)
        scheduler.received(Self.lines(100), from: 2, now: now)
        scheduler.received(Self.lines(1), from: 3, now: now)
        #expect(scheduler.isWaiting(1) && scheduler.isWaiting(3))
        let first = scheduler.turns(now: now)
        #expect(first.map(\.client) == [1, 2, 3])
        #expect(first.map(\.items.count) == [8, 8, 1])
        #expect(!scheduler.isWaiting(3) && scheduler.isWaiting(1))
        // 2 × 92 lines left: eight each per wakeup until they are gone, never more than 64 a wakeup.
        var wakeups = 1
        while scheduler.hasWaiting {
            let turns = scheduler.turns(now: now)
            #expect(turns.reduce(0) { $0 + $1.items.count } <= 64)
            #expect(turns.allSatisfy { $0.items.count <= 8 && !$0.overBudget })
            wakeups += 1
        }
        #expect(wakeups == 1 + 12)   // 92 = 11 × 8 + 4
    }

    @Test func manyClientsShareTheWakeupsBoundInArrivalOrder() {
        var scheduler = RequestScheduler<Int>()
        for client in 0..<20 { scheduler.received(Self.lines(16), from: client, now: .zero) }
        let first = scheduler.turns(now: .zero)
        #expect(first.map(\.client) == Array(0..<8))
        let second = scheduler.turns(now: .zero)
        #expect(second.map(\.client) == Array(8..<16))
        let third = scheduler.turns(now: .zero)
        #expect(third.map(\.client) == [16, 17, 18, 19, 0, 1, 2, 3])
    }

    /// 256 KiB at once, 64 KiB a second: a line costs its bytes and 64.
    @Test func aClientPastItsBudgetGetsAnOverBudgetTurnAndTheBudgetRefills() {
        var scheduler = RequestScheduler<Int>()
        let perLine = 4 + RequestLimits.lineCost
        let affordable = RequestLimits().burst / perLine   // 3,855 pings
        scheduler.received(Self.lines(affordable), from: 1, now: .zero)
        var served = 0
        while scheduler.hasWaiting {
            for turn in scheduler.turns(now: .zero) { #expect(!turn.overBudget); served += turn.items.count }
        }
        #expect(served == affordable)
        // Broke: the next line is past the budget, unless a second has refilled it.
        var refilled = scheduler
        refilled.received(Self.lines(8), from: 1, now: Instant(microseconds: 1_000_000))
        #expect(refilled.turns(now: Instant(microseconds: 1_000_000)).map(\.overBudget) == [false])
        scheduler.received(Self.lines(1), from: 1, now: .zero)
        #expect(scheduler.turns(now: .zero).map(\.overBudget) == [true])
        #expect(!scheduler.hasWaiting)
    }

    @Test func aRemovedClientLeavesTheQueue() {
        var scheduler = RequestScheduler<Int>()
        scheduler.received(Self.lines(20), from: 1, now: .zero)
        scheduler.received(Self.lines(20), from: 2, now: .zero)
        scheduler.remove(1)
        #expect(scheduler.turns(now: .zero).map(\.client) == [2])
    }
}

/// Connection lines under churn (`ConnectionLog`): a burst per uid per window, then one summary.
struct ConnectionLogTests {
    @Test func aConnectLoopLogsABurstPerUidAndOneSummaryWhenTheWindowEnds() {
        var log = ConnectionLog()
        var logged = 0
        for index in 0..<67_803 {
            let now = Instant(microseconds: Int64(index) * 44)   // 67,803 in 3 s
            #expect(log.summaries(now: now).isEmpty)
            if log.connected(uid: 1001, now: now) { logged += 1 }
        }
        let other = log.connected(uid: 1002, now: Instant(microseconds: 1))
        #expect(other)
        #expect(logged == 5)
        #expect(log.nextSummary == Instant(microseconds: 30_000_000))
        #expect(log.summaries(now: Instant(microseconds: 29_999_999)).isEmpty)
        #expect(log.summaries(now: Instant(microseconds: 30_000_000)) == ["uid 1001: 67,803 connections in 3 s, 67,798 not logged"])
        #expect(log.nextSummary == nil)
        // A new window: a burst again.
        let again = log.connected(uid: 1001, now: Instant(microseconds: 30_000_001))
        #expect(again)
    }

    @Test func uidsBeyondTheCapacityAreCountedTogether() {
        var log = ConnectionLog(burst: 1, window: Interval(seconds: 30), capacity: 2)
        for uid: UInt32 in [1, 2, 3, 4, 3] { _ = log.connected(uid: uid, now: .zero) }
        #expect(log.summaries(now: Instant(microseconds: 30_000_000)) == ["other uids: 3 connections in 1 s, 2 not logged"])
    }
}

extension RequestSchedulerTests {
    /// Long lines are served by their bytes: one 1,000-byte filter a turn, 16 KiB of work and one
    /// line more a wakeup, so a flood of them delays another client's `ping` by one line per
    /// connection.
    @Test func longLinesAreServedOneATurnAndSixteenKiBAWakeup() {
        var scheduler = RequestScheduler<Int>()
        let filter = "filter view=" + String(repeating: "[", count: 988)   // 1,000 bytes
        for client in 0..<20 { scheduler.received(Self.lines(4, filter), from: client, now: .zero) }
        scheduler.received(Self.lines(1), from: 20, now: .zero)
        let first = scheduler.turns(now: .zero)
        #expect(first.map(\.items.count) == Array(repeating: 1, count: 16))   // 16 × 1,064 ≤ 16 KiB + a line
        let second = scheduler.turns(now: .zero)
        #expect(second.map(\.client) == Array(16...20) + Array(0..<12))   // the ping costs 69 units
        #expect(second.map(\.items.count) == Array(repeating: 1, count: 17))
    }
}
