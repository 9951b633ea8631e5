import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Backpressure end to end: ten fingers pan for 1,200 frames while one client subscribed to
/// touches (eleven lines a frame, about 1.3 MB in all, twenty times its 64 KiB queue limit) reads
/// one line for every ten gesture lines a second client reads. The test drives both readers'
/// pace, not the wall clock. The slow client stays connected, receives every transition in order
/// with `seq` strictly increasing, its coalesced moves end at each touch's final position, and
/// the daemon's memory stays bounded.
@Suite struct SlowClientTests {
    static let frames = 1200, fingers = 10

    /// The recording: an empty frame, then at 2.1 s (the idle start, which `RunningDaemon.play`
    /// skips) ten fingers down, moving right one unit per 10 ms frame, then lifted.
    ///
    /// 100 frames a second, not more: umockdev writes the events into the node's pty at the
    /// recording's pace whatever the daemon reads, and a daemon (a debug build, on a machine
    /// running the other suites) that falls far enough behind reads cut events: libevdev's
    /// EINVAL, or a SYN_DROPPED made of misaligned bytes, both seen at 2 ms a frame in
    /// `make test` and under load. Five times the time per frame is five times the lag it
    /// takes. The test is about the clients' pace, which it drives itself, not the frame rate.
    /// (umockdev 0.17 reads microseconds with a leading zero as octal, so every fraction stays
    /// in 0.1…0.99 s: the clock skips from x.990 to (x+1).100.)
    static func recording() -> String {
        var lines = ["# EVEMU 1.3", "E: 0.000000 0000 0000 0"]
        var (seconds, milliseconds) = (2, 100)
        func event(_ type: Int, _ code: Int, _ value: Int) {
            lines.append("E: \(seconds).\(milliseconds)000 \(hex(type)) \(hex(code)) \(value)")
        }
        func hex(_ n: Int) -> String { let h = String(n, radix: 16); return String(repeating: "0", count: 4 - h.count) + h }
        func next() {
            milliseconds += 10
            if milliseconds > 990 { seconds += 1; milliseconds = 100 }
        }
        for frame in 0...frames + 1 {
            for slot in 0..<fingers {
                event(3, 0x2f, slot)
                if frame == 0 {
                    event(3, 0x39, slot + 1)
                    event(3, 0x36, 1000 + 1500 * (slot / 5))
                }
                if frame <= frames { event(3, 0x35, 300 + 600 * (slot % 5) + frame) } else { event(3, 0x39, -1) }
            }
            if frame == 0 { event(1, 0x14a, 1) }
            if frame == frames + 1 { event(1, 0x14a, 0) }
            event(0, 0, 0)
            next()
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func field(_ name: String, of line: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    @Test func aSlowReaderStaysConnectedAndSeesEveryTransition() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-slow")
        let events = try directory.write("pan10.events", Self.recording())
        guard let daemon = try RunningDaemon(config: """
            { screen: {width: 1000, height: 1000}, socket: { maxQueuedBytes: 65536 },
              views: [{id: "root", gestures: [{id: "pan", type: "pan"}]}] }
            """) else { return }
        let slow = try daemon.connect(), fast = try daemon.connect()
        try slow.send(line: "subscribe touches")
        var slowLines: [String] = []
        for _ in 0..<2 { slowLines.append(try #require(try slow.readLine(deadline: deadline(milliseconds: 10_000)))) }
        #expect(slowLines == ["hello version=1 daemon=gestured", "ok command=subscribe"])
        let pid = try daemon.pid()
        let before = try #require(ClientSafetyTests.residentKiB(pid))
        #expect(try fast.readLine(deadline: deadline(milliseconds: 10_000)) == "hello version=1 daemon=gestured")
        try daemon.play(events)

        // The fast client reads every gesture line; the slow one reads one line per ten of them.
        var fastLines: [String] = []
        while let line = try fast.readLine(deadline: deadline(milliseconds: 15_000)) {
            fastLines.append(line)
            if fastLines.count % 10 == 0, let line = try slow.readLine(deadline: deadline(milliseconds: 5000)) {
                slowLines.append(line)
            }
            if line.hasPrefix("gesture pan ended") || line.hasPrefix("gesture pan cancelled") { break }
        }
        let after = try #require(ClientSafetyTests.residentKiB(pid))
        #expect(fastLines.last?.hasPrefix("gesture pan ended") == true, "fast client: \(fastLines.suffix(3)); \(daemon.log)")
        // Then the slow client catches up: everything up to the lifts and the pan's end.
        var ended = 0
        while ended < Self.fingers + 1, let line = try slow.readLine(deadline: deadline(milliseconds: 10_000)) {
            slowLines.append(line)
            if line.hasPrefix("touch ended") || line.hasPrefix("gesture pan ended") { ended += 1 }
        }
        try slow.send(line: "ping")
        #expect(try slow.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=ping", "the slow client was dropped: \(daemon.log)")
        try daemon.stop(readingRestOf: [slow, fast])

        let stream = Array(slowLines.dropFirst(2))
        // Strictly increasing seq, with gaps where lines were coalesced.
        let seqs = stream.compactMap { Self.field("seq", of: $0).flatMap { Int($0) } }
        #expect(seqs.count == stream.count && zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
        let moves = stream.filter { $0.hasPrefix("touch moved ") }
        #expect(moves.count < Self.fingers * Self.frames, "nothing was coalesced: the test did not make the client slow")
        #expect(!daemon.log.contains("stopped reading"), "\(daemon.log)")
        // Every transition, in order: each touch begins and ends once; the pan's began and ended
        // lines are the fast client's, same seq.
        let transitions = stream.filter { !$0.hasPrefix("touch moved ") && !$0.contains(" changed ") }
        let touchBegins = transitions.filter { $0.hasPrefix("touch began ") }.map { $0.split(separator: " ")[2] }
        let touchEnds = transitions.filter { $0.hasPrefix("touch ended ") }.map { $0.split(separator: " ")[2] }
        #expect(touchBegins == (1...Self.fingers).map { Substring(String($0)) })
        #expect(Set(touchEnds) == Set(touchBegins) && touchEnds.count == Self.fingers)
        let panTransitions = transitions.filter { $0.hasPrefix("gesture ") }
        #expect(panTransitions == fastLines.filter { $0.hasPrefix("gesture ") && !$0.contains(" changed ") })
        #expect(panTransitions.map { $0.split(separator: " ")[2] } == ["began", "ended"])
        // Coalesced to the newest: each touch's last move is where it lifted, and the pan's last
        // `changed` is the fast client's last.
        for id in touchBegins {
            let last = try #require(moves.last { $0.split(separator: " ")[2] == id })
            let lift = try #require(transitions.first { $0.hasPrefix("touch ended \(id) ") })
            #expect(Self.field("x", of: last) == Self.field("x", of: lift) && Self.field("y", of: last) == Self.field("y", of: lift),
                    "touch \(id): last move \(last), lift \(lift)")
        }
        #expect(stream.last { $0.hasPrefix("gesture pan changed") } == fastLines.last { $0.hasPrefix("gesture pan changed") })
        #expect(after - before < 8 * 1024 || TestEnvironment.addressSanitized, "RSS grew from \(before) KiB to \(after) KiB")
    }
}
