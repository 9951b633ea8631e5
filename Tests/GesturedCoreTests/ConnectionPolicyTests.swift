import Testing
@testable import GesturedCore

/// Who may hold a connection (security review: 64 idle connections from one user locked out
/// everyone else, control clients included) and who is a connection that never reads.
struct ConnectionPolicyTests {
    typealias Peer = ConnectionPolicy.Peer
    let policy = ConnectionPolicy(maximumClients: 8, maximumPerUser: 3)

    @Test func oneUserHoldsAtMostItsShareAndOthersStillGetIn() {
        var connected: [Peer] = []
        for _ in 0..<3 {
            #expect(policy.admit(Peer(uid: 1000, mayControl: false), connected: connected) == nil)
            connected.append(Peer(uid: 1000, mayControl: false))
        }
        #expect(policy.admit(Peer(uid: 1000, mayControl: false), connected: connected) == .perUser(uid: 1000, maximum: 3))
        #expect(policy.admit(Peer(uid: 1001, mayControl: false), connected: connected) == nil)
        // Peers of unknown uid are one user among themselves.
        connected += [Peer(uid: nil, mayControl: false), Peer(uid: nil, mayControl: false), Peer(uid: nil, mayControl: false)]
        #expect(policy.admit(Peer(uid: nil, mayControl: false), connected: connected) == .perUser(uid: nil, maximum: 3))
    }

    /// The socket full of listeners: nobody else gets in, but a control peer does, up to the
    /// reserve; its own connections do not count against its user's share.
    @Test func aFullSocketStillTakesControlPeersUpToTheReserve() {
        var connected = (0..<8).map { Peer(uid: UInt32(2000 + $0 / 3), mayControl: false) }
        #expect(policy.admit(Peer(uid: 3000, mayControl: false), connected: connected) == .full(maximum: 8))
        for _ in 0..<ConnectionPolicy.reservedForControl {
            #expect(policy.admit(Peer(uid: 0, mayControl: true), connected: connected) == nil)
            connected.append(Peer(uid: 0, mayControl: true))
        }
        #expect(policy.admit(Peer(uid: 0, mayControl: true), connected: connected) == .full(maximum: 12))
        #expect(policy.hardLimit == 12)
    }

    @Test func refusalsSayWhy() {
        #expect("\(ConnectionPolicy.Refusal.perUser(uid: 1000, maximum: 16))"
                == "uid 1000 holds 16 connections already (socket.maxClientsPerUser)")
        #expect("\(ConnectionPolicy.Refusal.full(maximum: 64))" == "64 clients are connected already")
    }
}

struct StallWatchTests {
    typealias Status = StallWatch<Int>.Status
    let timeout = Interval(seconds: 30)
    func at(_ seconds: Double) -> Instant { Instant(microseconds: Int64(seconds * 1_000_000)) }

    /// A client that never reads its hello is named after two checks with no progress; one
    /// that read everything is forgotten, and then nothing is due: no wakeup on an idle daemon.
    @Test func aClientThatNeverReadsIsNamedAndAReaderIsNot() {
        var watch = StallWatch<Int>(timeout: timeout)
        #expect(watch.nextCheck == nil)
        watch.wrote(now: at(0))                          // the hellos went out
        #expect(watch.nextCheck == at(30))
        #expect(watch.check(now: at(30), clients: [Status(id: 1, unread: 31, sent: 31), Status(id: 2, unread: 0, sent: 31)]) == [])
        #expect(watch.count == 1 && watch.nextCheck == at(60))
        #expect(watch.check(now: at(59.9), clients: [Status(id: 1, unread: 31, sent: 31)]) == [])
        #expect(watch.check(now: at(60), clients: [Status(id: 1, unread: 31, sent: 31)]) == [1])
        #expect(watch.count == 0 && watch.nextCheck == nil)
    }

    /// Lines keep coming and the client keeps some unread at every check: it is not judged
    /// (its queue's limit drops it if it really stopped); reading some counts as progress too.
    @Test func newLinesOrBytesReadRestartTheWait() {
        var watch = StallWatch<Int>(timeout: timeout)
        watch.wrote(now: at(0))
        var sent: UInt64 = 100
        for t in stride(from: 30.0, through: 300, by: 30) {
            sent += 50
            #expect(watch.check(now: at(t), clients: [Status(id: 7, unread: 40, sent: sent)]) == [])
        }
        #expect(watch.check(now: at(330), clients: [Status(id: 7, unread: 30, sent: sent)]) == [])   // read 10
        #expect(watch.check(now: at(359.9), clients: [Status(id: 7, unread: 30, sent: sent)]) == [])
        #expect(watch.check(now: at(360), clients: [Status(id: 7, unread: 30, sent: sent)]) == [7])  // none since 330
    }

    @Test func aClientThatLeftIsForgotten() {
        var watch = StallWatch<Int>(timeout: timeout)
        watch.wrote(now: at(0))
        #expect(watch.check(now: at(30), clients: [Status(id: 1, unread: 31, sent: 31)]) == [])
        #expect(watch.check(now: at(60), clients: [Status]()) == [])
        #expect(watch.nextCheck == nil)
    }
}
