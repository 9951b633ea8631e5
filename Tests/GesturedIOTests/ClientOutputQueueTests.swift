@testable import GesturedCore
import GesturedIO
import Glibc
import Testing

/// A slow client's queue, as transcripts: what coalescing merges (a gesture's `changed` lines, a
/// touch's moves, to the newest) and what it never touches (transitions, discrete gestures,
/// device lines, replies, a line partly written), with `seq` increasing through the gaps.
@Suite struct ClientOutputQueueTests {
    static let pan = MergeKey.gesture(name: "pan", view: "root")
    static let pinch = MergeKey.gesture(name: "zoom", view: "map")
    static let touch1 = MergeKey.touch(TouchID(1)), touch2 = MergeKey.touch(TouchID(2))

    /// A queue fed `lines` (text, merge) with each line 20 bytes long, so bounds read in lines.
    static func queue(soft: Int, hard: Int, _ lines: [(String, LineMerge)]) -> (ClientOutputQueue, overflowed: Bool) {
        var queue = ClientOutputQueue(softLimit: soft * 20, hardLimit: hard * 20)
        var overflowed = false
        for (text, merge) in lines {
            precondition(text.utf8.count <= 19)
            let padded = text + String(repeating: " ", count: 19 - text.utf8.count) + "\n"
            if !queue.enqueue(Array(padded.utf8), merge: merge) { overflowed = true }
        }
        return (queue, overflowed)
    }

    static func trimmed(_ queue: ClientOutputQueue) -> [String] {
        queue.queuedLines.map { String($0.reversed().drop { $0 == " " || $0 == "\n" }.reversed()) }
    }

    @Test func belowTheSoftBoundNothingIsMerged() {
        let lines: [(String, LineMerge)] = [("began pan 1", .barrier(Self.pan)), ("changed pan 2", .newest(Self.pan)),
                                            ("changed pan 3", .newest(Self.pan)), ("changed pan 4", .newest(Self.pan))]
        let (queue, overflowed) = Self.queue(soft: 4, hard: 8, lines)
        #expect(Self.trimmed(queue) == ["began pan 1", "changed pan 2", "changed pan 3", "changed pan 4"])
        #expect(queue.coalescedLines == 0 && !overflowed)
    }

    /// Past the soft bound each key keeps its newest line; transitions, discrete gestures,
    /// device lines and replies stay, in order; the seq numbers left are increasing.
    @Test func changedLinesAndTouchMovesCoalesceToTheNewest() {
        let lines: [(String, LineMerge)] = [
            ("device added 1", .never),
            ("began pan 2", .barrier(Self.pan)),
            ("moved t1 3", .newest(Self.touch1)),
            ("changed pan 4", .newest(Self.pan)),
            ("moved t2 5", .newest(Self.touch2)),
            ("moved t1 6", .newest(Self.touch1)),
            ("ok ping", .never),
            ("changed pan 7", .newest(Self.pan)),
            ("tap ended 8", .never),
            ("changed zoom 9", .newest(Self.pinch)),
            ("moved t1 10", .newest(Self.touch1)),
            ("changed pan 11", .newest(Self.pan)),
        ]
        let (queue, overflowed) = Self.queue(soft: 11, hard: 100, lines)
        #expect(Self.trimmed(queue) == ["device added 1", "began pan 2", "moved t2 5", "ok ping", "tap ended 8",
                                        "changed zoom 9", "moved t1 10", "changed pan 11"])
        #expect(queue.coalescedLines == 4 && !overflowed)
        let seqs = Self.trimmed(queue).compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
    }

    /// A transition separates runs: the last `changed` before `ended` stays (it carries the
    /// final values), and a touch's moves are not merged across its lift and a new touch.
    @Test func transitionsAreBarriers() {
        let lines: [(String, LineMerge)] = [
            ("began pan 1", .barrier(Self.pan)),
            ("changed pan 2", .newest(Self.pan)),
            ("changed pan 3", .newest(Self.pan)),
            ("ended pan 4", .barrier(Self.pan)),
            ("began pan 5", .barrier(Self.pan)),
            ("changed pan 6", .newest(Self.pan)),
            ("moved t1 7", .newest(Self.touch1)),
            ("ended t1 8", .barrier(Self.touch1)),
            ("began t1 9", .barrier(Self.touch1)),
            ("moved t1 10", .newest(Self.touch1)),
            ("moved t1 11", .newest(Self.touch1)),
            ("changed pan 12", .newest(Self.pan)),
        ]
        let (queue, _) = Self.queue(soft: 11, hard: 100, lines)
        #expect(Self.trimmed(queue) == ["began pan 1", "changed pan 3", "ended pan 4", "began pan 5", "moved t1 7",
                                        "ended t1 8", "began t1 9", "moved t1 11", "changed pan 12"])
    }

    /// Only unmergeable lines beyond the hard bound overflow; mergeable ones never do.
    @Test func overflowOnlyWhenUnmergeableLinesExceedTheHardBound() {
        let moves = (1...500).map { ("moved t1 \($0)", LineMerge.newest(Self.touch1)) }
        let (merged, mergedOverflow) = Self.queue(soft: 2, hard: 4, moves)
        // Coalescing runs again once the queue has grown by half the soft bound: one or two left.
        let left = Self.trimmed(merged)
        #expect(!mergedOverflow && left.last == "moved t1 500" && left.count <= 2 && merged.coalescedLines == 500 - left.count)

        let replies = (1...5).map { ("ok ping \($0)", LineMerge.never) }
        #expect(Self.queue(soft: 2, hard: 4, Array(replies.prefix(4))).overflowed == false)
        #expect(Self.queue(soft: 2, hard: 4, replies).overflowed == true)
    }

    /// One write per flush; what the socket does not take stays, and a line partly written is
    /// never merged away (the client has its first bytes).
    @Test func aPartlyWrittenLineIsNeverDropped() {
        var queue = ClientOutputQueue(softLimit: 40, hardLimit: 1000)
        _ = queue.enqueue(Array("moved t1 1 xxxxxxx\n".utf8), merge: .newest(Self.touch1))
        _ = queue.enqueue(Array("moved t1 2 xxxxxxx\n".utf8), merge: .newest(Self.touch1))
        var writes: [String] = []
        #expect(queue.flush { bytes in writes.append(String(decoding: bytes, as: UTF8.self)); return .wrote(5) })
        #expect(writes == ["moved t1 1 xxxxxxx\nmoved t1 2 xxxxxxx\n"])
        #expect(queue.isBlocked && queue.pending == 33)
        // Past the soft bound (40): the older whole moves go, the partly written one stays.
        for seq in 3...5 { _ = queue.enqueue(Array("moved t1 \(seq) xxxxxxx\n".utf8), merge: .newest(Self.touch1)) }
        #expect(queue.queuedLines == [" t1 1 xxxxxxx\n", "moved t1 5 xxxxxxx\n"])
        #expect(queue.coalescedLines == 3)
        // A full socket writes nothing; a failed write is reported and leaves the queue as it was.
        #expect(queue.flush { _ in .wouldBlock } && queue.pending == 33)
        #expect(!queue.flush { _ in .failed } && queue.pending == 33)
        writes.removeAll()
        #expect(queue.flush { bytes in writes.append(String(decoding: bytes, as: UTF8.self)); return .wrote(bytes.count) })
        #expect(writes == [" t1 1 xxxxxxx\nmoved t1 5 xxxxxxx\n"] && queue.pending == 0 && !queue.isBlocked)
    }

    @Test func mergeKeysFollowThePipelineOutput() {
        func gesture(_ state: GestureState) -> GesturePipeline.Output {
            .gesture(GestureEvent(type: "pan", state: state, name: "pan", view: "root", time: .zero,
                                  sample: GestureSample(touches: 1, location: Point(x: 0, y: 0), device: "event7", values: .none), viewLocation: Point(x: 0, y: 0)))
        }
        func touch(_ phase: TouchPhase) -> GesturePipeline.Output {
            .touch(TouchEvent(update: TouchUpdate(id: TouchID(1), phase: phase, location: Point(x: 0, y: 0),
                                                  device: "event7", slot: 0), view: nil, time: .zero))
        }
        #expect(LineMerge(gesture(.changed)) == .newest(Self.pan))
        for state in [GestureState.began, .ended, .cancelled, .failed] { #expect(LineMerge(gesture(state)) == .barrier(Self.pan)) }
        #expect(LineMerge(touch(.moved)) == .newest(Self.touch1))
        for phase in [TouchPhase.began, .ended, .cancelled] { #expect(LineMerge(touch(phase)) == .barrier(Self.touch1)) }
    }

    /// The daemon queues a step's lines for a client at once (`Delivery.Part`, trace lines and
    /// published lines apart): the same queue as the lines one by one, below the bounds and
    /// where coalescing and the hard bound act (here at a step's end, as one by one at its last
    /// line). Steps of 1 to 5 lines, cut at every place.
    @Test func aStepsLinesQueuedAtOnceGiveTheQueueOfTheLinesOneByOne() {
        let lines: [(String, LineMerge)] = [
            ("device added 1", .never), ("began pan 2", .barrier(Self.pan)), ("moved t1 3", .newest(Self.touch1)),
            ("changed pan 4", .newest(Self.pan)), ("moved t2 5", .newest(Self.touch2)), ("moved t1 6", .newest(Self.touch1)),
            ("ok ping", .never), ("changed pan 7", .newest(Self.pan)), ("tap ended 8", .never),
            ("changed zoom 9", .newest(Self.pinch)), ("moved t1 10", .newest(Self.touch1)), ("changed pan 11", .newest(Self.pan)),
        ]
        for (soft, hard) in [(20, 100), (12, 100), (2, 4)] {
            let (expected, expectedOverflow) = Self.queue(soft: soft, hard: hard, lines)
            for stepSize in 1...5 where lines.count % stepSize == 0 || soft == 20 {
                var queue = ClientOutputQueue(softLimit: soft * 20, hardLimit: hard * 20)
                var overflowed = false
                for start in stride(from: 0, to: lines.count, by: stepSize) {
                    var part = Delivery.Part()
                    part.append(Array("not this client's line\n".utf8), merge: .never)   // a line before the step's
                    for (text, merge) in lines[start..<min(start + stepSize, lines.count)] {
                        part.append(Array((text + String(repeating: " ", count: 19 - text.utf8.count) + "\n").utf8), merge: merge)
                    }
                    if !queue.enqueue(part.lines.dropFirst(), of: part.bytes) { overflowed = true }
                }
                #expect(Self.trimmed(queue) == Self.trimmed(expected), "soft \(soft), hard \(hard), steps of \(stepSize)")
                #expect(queue.coalescedLines == expected.coalescedLines && overflowed == expectedOverflow)
            }
        }
        var queue = ClientOutputQueue(softLimit: 100, hardLimit: 1000)
        #expect(queue.enqueue(Delivery.Part().lines[...], of: []) && queue.pending == 0)
    }
}
