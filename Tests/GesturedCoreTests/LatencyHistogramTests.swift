@testable import GesturedCore
import Testing

/// The `stats` request and the latency histogram behind it.
@Suite struct LatencyHistogramTests {
    @Test func percentilesAreNearestRankInMicroseconds() {
        var h = LatencyHistogram()
        for us in 1...100 { h.record(Interval(microseconds: Int64(us))) }
        #expect(h.count == 100)
        #expect(h.percentile(0.5) == Interval(microseconds: 50))
        #expect(h.percentile(0.99) == Interval(microseconds: 99))
        #expect(h.percentile(1) == Interval(microseconds: 100))
        #expect(h.maximum == Interval(microseconds: 100))
    }

    @Test func samplesBeyondTheLimitReportTheMaximum() {
        var h = LatencyHistogram()
        h.record(Interval(microseconds: 5))
        h.record(Interval(microseconds: 250_000))
        #expect(h.percentile(0.5) == Interval(microseconds: 5))
        #expect(h.percentile(0.99) == Interval(microseconds: 250_000))
    }

    @Test func emptyHistogramIsZero() {
        #expect(LatencyHistogram().percentile(0.99) == .zero)
        #expect(LineEncoder.stats(LatencyHistogram(), format: .text)
                == "stats reads=0 p50Us=0 p90Us=0 p99Us=0 p999Us=0 maxUs=0\n")
    }

    @Test func statsLine() {
        var h = LatencyHistogram()
        for us in [10, 20, 30, 40] { h.record(Interval(microseconds: Int64(us))) }
        #expect(LineEncoder.stats(h, format: .text) == "stats reads=4 p50Us=20 p90Us=40 p99Us=40 p999Us=40 maxUs=40\n")
        #expect(LineEncoder.stats(h, format: .json)
                == #"{"event":"stats","reads":4,"p50Us":20,"p90Us":40,"p99Us":40,"p999Us":40,"maxUs":40}"# + "\n")
    }

    @Test func statsRequestParses() throws {
        #expect(try ClientRequest.parse("stats") == .stats)
        #expect(ClientRequest.stats.command == "stats")
        #expect(throws: ClientRequest.ParseError.self) { try ClientRequest.parse("stats now") }
    }
}
