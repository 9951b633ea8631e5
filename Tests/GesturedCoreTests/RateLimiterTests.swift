@testable import GesturedCore
import Testing

/// The daemon's log rate limiter (`Log.limited`) and the engine's bounded recognizer-bug trace:
/// nothing a client or a misbehaving recognizer triggers grows without bound.
@Suite struct RateLimiterTests {
    static func at(_ ms: Int64) -> Instant { Instant(microseconds: ms * 1000) }

    @Test func aBurstThenQuietThenTheCountOfWhatWasHeldBack() {
        var limiter = RateLimiter(burst: 5, window: Interval(seconds: 30))
        let logs = (0..<7).map { limiter.admit(key: "k", now: Self.at(Int64($0))).logs }
        #expect(logs == [true, true, true, true, true, false, false])
        #expect(limiter.admit(key: "k", now: Self.at(29_999)) == .init(logs: false, suppressed: []))
        #expect(limiter.admit(key: "k", now: Self.at(30_000))
                == .init(logs: true, suppressed: [.init(key: "k", count: 3)]))
    }

    /// 10,000 clients connect, each sends a bad request (logged under "client N bad request",
    /// the daemon's key) and goes away, 1 ms apart: all inside one window. The limiter never
    /// holds more than its capacity plus the overflow key; the first `capacity` clients are
    /// logged, then five under the overflow key, then nothing, and the count of what was held
    /// back is reported once the window has passed, when every key is forgotten.
    @Test func tenThousandClientsThatComeAndGoKeepItBounded() {
        var limiter = RateLimiter()
        var logged = 0, largest = 0
        for client in 0..<10_000 {
            let admission = limiter.admit(key: "client \(client) bad request", now: Self.at(Int64(client)))
            if admission.logs { logged += 1 }
            #expect(admission.suppressed.isEmpty)
            largest = max(largest, limiter.keyCount)
        }
        #expect(largest == limiter.capacity + 1)
        #expect(logged == limiter.capacity + limiter.burst)
        let later = limiter.admit(key: "client 10000 bad request", now: Self.at(10_000 + 30_000))
        #expect(later.logs)
        #expect(later.suppressed == [.init(key: RateLimiter.overflowKey, count: 10_000 - limiter.capacity - limiter.burst)])
        #expect(limiter.keyCount == 1)
    }

    /// Clients spread over hours (one every 100 ms, 10,000 of them): keys are forgotten once
    /// their window has passed (swept at most every half window), so the limiter holds one and
    /// a half windows' worth at most (450), not 10,000.
    @Test func expiredKeysAreForgotten() {
        var limiter = RateLimiter(capacity: 100_000)
        var largest = 0
        for client in 0..<10_000 {
            #expect(limiter.admit(key: "client \(client) bad request", now: Self.at(Int64(client) * 100)).logs)
            largest = max(largest, limiter.keyCount)
        }
        #expect(largest <= 451)
        #expect(largest >= 300)
        _ = limiter.admit(key: "device", now: Self.at(10_000 * 100 + 30_000))
        #expect(limiter.keyCount == 1)
    }

    /// A recognizer bug on every frame: with tracing off, the engine keeps at most
    /// `untracedCapacity` entries between drains and counts them all; traced, it keeps them all.
    @Test func recognizerBugsAreBoundedWhenNotTracing() throws {
        var engine = try GestureEngine(views: [ViewSpec(id: "root", gestures: [tap("tap")])],
                                       screen: Size(width: 100, height: 100))
        for _ in 0..<10_000 { engine.recognizerBug(0, proposal: .cancel) }
        #expect(engine.recognizerBugs == 10_000)
        #expect(engine.bugs.count == GestureEngine.untracedCapacity)
        var trace: [String] = [], bugs: [RecognizerBug] = []
        engine.drainTrace(into: &trace, bugs: &bugs)
        #expect(trace.isEmpty)
        #expect(bugs.first == RecognizerBug(recognizer: "tap", proposal: "cancel", phase: "possible"))
        #expect(bugs.first?.traceLine == "recognizer bug: tap: proposal cancel in phase possible")
        #expect(engine.bugs.isEmpty)
        engine.tracesTransitions = true
        for _ in 0..<1_000 { engine.recognizerBug(0, proposal: .cancel) }
        #expect(engine.bugs.count == 1_000)
    }
}
