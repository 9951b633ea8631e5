import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// `Replay.Session.play`, the replay that pulls its recordings a piece at a time (as `gestured
/// replay` streams its files): wherever the pieces are cut, the lines are those of the same
/// recordings held whole, in the order of a whole-array reference merge; and what it holds is
/// about one piece per recording.
struct ReplaySessionTests {
    /// Random taps, pans and long presses on one device, frames 1-9 ms apart from `start` ms,
    /// cut off anywhere (a finger may still be down at the end).
    static func randomRecording(_ rng: inout SplitMix64, start: Int64, frames: Int) -> [RawEvent] {
        var events: [RawEvent] = []
        var ms = start
        var down = false
        var x: Int32 = 500, y: Int32 = 500
        for _ in 0..<frames {
            ms += 1 + Int64(rng.next() % 9)
            switch rng.next() % 10 {
            case 0 where !down:
                x = Int32(rng.next() % 999); y = Int32(rng.next() % 999)
                events += ScreensTests.contact(id: Int32(rng.next() % 1000), x: x, y: y, ms: ms); down = true
            case 1 where down:
                events += ScreensTests.contact(id: -1, ms: ms); down = false
            default:
                guard down else { continue }
                x = min(998, x + 1 + Int32(rng.next() % 21)); y = max(0, y - Int32(rng.next() % 21))
                events += ScreensTests.move(x: x, y: y, ms: ms)
            }
        }
        return events
    }

    /// The lines of `recordings` played by `Session.play`, each handed out in pieces of `cuts`
    /// events (cycled), every output and failed state included.
    static func played(_ recordings: [(device: DeviceDescription, events: [RawEvent])], cuts: [Int]) throws -> String {
        let options = Replay.Options(touches: true, failed: true)
        var session = try Replay.Session(devices: recordings.map(\.device), configuration: ScreensTests.config, touches: true,
                                         reader: options.reader)
        var lines = Replay.Lines(options: options, devices: recordings.map(\.device))
        var text: [UInt8] = []
        var offsets = [Int](repeating: 0, count: recordings.count), pieces = 0
        session.play(next: { k in
            let events = recordings[k].events
            guard offsets[k] < events.count else { return nil }
            let end = min(events.count, offsets[k] + cuts[pieces % cuts.count])
            pieces += 1
            defer { offsets[k] = end }
            return Array(events[offsets[k]..<end])
        }) { lines.take(&$0, traced: { _ in }) { text += $0; $0.removeAll(keepingCapacity: true) } }
        return String(decoding: text, as: UTF8.self)
    }

    /// The replay of whole recordings as it was written before streaming: frames merged from the
    /// arrays (the frame whose last event is earliest first, ties to the first recording), a
    /// recording's device removed right after its last frame, then the deadlines.
    static func reference(_ recordings: [(device: DeviceDescription, events: [RawEvent])]) throws -> String {
        let options = Replay.Options(touches: true, failed: true)
        var session = try Replay.Session(devices: recordings.map(\.device), configuration: ScreensTests.config, touches: true,
                                         reader: options.reader)
        var lines = Replay.Lines(options: options, devices: recordings.map(\.device))
        var text: [UInt8] = []
        func flush() { lines.take(&session, traced: { _ in }) { text += $0; $0.removeAll() } }
        var next = [Int](repeating: 0, count: recordings.count)
        while true {
            var best: (Int, Instant)?
            for (k, r) in recordings.enumerated() where next[k] < r.events.count {
                var end = next[k]
                while end + 1 < r.events.count && !r.events[end].isFrameEnd { end += 1 }
                if best.map({ r.events[end].time < $0.1 }) ?? true { best = (k, r.events[end].time) }
            }
            guard let k = best?.0 else { break }
            let events = recordings[k].events
            repeat {
                session.handle(events[next[k]], of: k); flush()
                next[k] += 1
            } while next[k] < events.count && !events[next[k] - 1].isFrameEnd
            if next[k] == events.count { session.end(k, at: events[next[k] - 1].time); flush() }
        }
        while session.fireNextDeadline() { flush() }
        for k in recordings.indices { session.finish(k); flush() }
        return String(decoding: text, as: UTF8.self)
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func piecesCutAnywhereReplayAsTheWholeRecordings(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let count = 1 + Int(rng.next() % 3)
        let devices = [ScreensTests.a, ScreensTests.b, touchscreen("event2", "Third")]
        let recordings = (0..<count).map { k in
            (device: devices[k], events: Self.randomRecording(&rng, start: Int64(rng.next() % 50), frames: 20 + Int(rng.next() % 200)))
        }
        let whole = try Self.reference(recordings)
        #expect(whole.contains("gesture "), "\(whole)")
        #expect(try Self.played(recordings, cuts: [Int.max]) == whole)
        #expect(try Self.played(recordings, cuts: [1]) == whole)
        #expect(try Self.played(recordings, cuts: [1 + Int(rng.next() % 7), 0, 1 + Int(rng.next() % 40), 3]) == whole)
    }

    /// What `play` holds: it asks for a recording's next piece only once the frames before it
    /// are played, so the events pulled and not yet played stay under a piece and a frame or
    /// two per recording, however long the recordings. An event counts as played once an output
    /// at or after its time has come out (every frame here has a touch output).
    @Test func whatIsHeldIsAboutOnePiecePerRecording() throws {
        var rng = SplitMix64(seed: 7)
        let recordings = [(device: ScreensTests.a, events: Self.randomRecording(&rng, start: 0, frames: 3000)),
                          (device: ScreensTests.b, events: Self.randomRecording(&rng, start: 3, frames: 3000))]
        let piece = 50
        var session = try Replay.Session(devices: recordings.map(\.device), configuration: ScreensTests.config, touches: true)
        var offsets = [0, 0], played = [0, 0], most = 0, calls = 0
        session.play(next: { k in
            let events = recordings[k].events
            guard offsets[k] < events.count else { return nil }
            let end = min(events.count, offsets[k] + piece)
            defer { offsets[k] = end }
            return Array(events[offsets[k]..<end])
        }) { session in
            calls += 1
            guard case .touch(let touch)? = session.batch.outputs.last else { return }
            for j in 0..<2 {
                while played[j] < offsets[j] && recordings[j].events[played[j]].time <= touch.time { played[j] += 1 }
            }
            most = max(most, offsets[0] + offsets[1] - played[0] - played[1])
        }
        #expect(offsets == recordings.map(\.events.count) && played == offsets)
        // Called for the steps that leave something (a frame's SYN_REPORT here), not every event.
        #expect(calls > 1000 && calls < offsets[0] + offsets[1])
        // A frame here is at most 5 events.
        #expect(most <= 2 * (piece + 10), "held \(most) events")
        #expect(most >= piece - 10, "held \(most) events")
    }
}
