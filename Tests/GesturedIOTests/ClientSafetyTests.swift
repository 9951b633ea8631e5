import GesturedCore
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Glibc
import Testing

/// The daemon under bad clients, end to end: one that never reads while eight others read, and
/// garbage from many. The daemon must go on serving everyone else, exactly, with bounded memory.
@Suite struct ClientSafetyTests {
    /// Sends `bytes` without blocking past `limit`; returns the errno that stopped it (EPIPE or
    /// ECONNRESET once the daemon has dropped the client), or nil when all was sent.
    static func flood(_ client: LineClient, _ bytes: [UInt8], until limit: Instant) -> Errno? {
        var sent = 0
        while sent < bytes.count, MonotonicClock.now() < limit {
            let n = bytes.withUnsafeBytes {
                send(client.descriptor.rawValue, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 { sent += n; continue }
            if Errno.current == .wouldBlock || Errno.current == .interrupted {
                var p = pollfd(fd: client.descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 100)
                continue
            }
            return Errno.current
        }
        return nil
    }

    static func residentKiB(_ pid: pid_t) -> Int? {
        guard let status = try? readTextFile(path: "/proc/\(pid)/status") else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// Eight readers with different subscriptions get exactly their lines, in order, with `seq`
    /// counting lines sent to anyone (touch lines went to some only, and still count); a ninth
    /// client floods pings and never reads its answers: it is dropped when its queue (64 KiB from
    /// the config) is full, with one log line, and the daemon's memory does not grow with it.
    @Test func aStalledClientIsDroppedWhileEightOthersGetEveryLine() throws {
        guard let daemon = try RunningDaemon(config: """
            { screen: {width: 1000, height: 1000}, socket: { maxQueuedBytes: 65536 },
              views: [{id: "root", gestures: [{id: "tap", type: "tap"}]}] }
            """) else { return }
        var readers: [LineClient] = []
        var received: [[String]] = []
        for i in 0..<8 {
            let client = try daemon.connect()
            switch i % 4 {
            case 0: try client.send(line: "subscribe touches")
            case 1: try client.send(line: "format json")
            case 2: try client.send(line: "filter type=swipe")
            default: try client.send(line: "filter type=tap state=ended view=ro*")
            }
            readers.append(client)
            // The hello and the answer: the request is in force before the tap is played.
            var handshake: [String] = []
            for _ in 0..<2 { handshake.append(try client.readLine(deadline: deadline(milliseconds: 5000)) ?? "(none)") }
            received.append(handshake)
        }
        let stalled = try daemon.connect()
        let pid = try daemon.pid()
        let before = try #require(Self.residentKiB(pid))
        try daemon.play()
        let pings = Array(String(repeating: "ping\n", count: 400_000).utf8)   // 2 MB of requests, 6 MB of answers
        let stop = Self.flood(stalled, pings, until: deadline(milliseconds: 10_000))
        #expect(stop == .brokenPipe || stop == .connectionReset, "the daemon did not drop the flooding client: \(String(describing: stop))")
        let after = try #require(Self.residentKiB(pid))
        #expect(after - before < 8 * 1024 || TestEnvironment.addressSanitized, "RSS grew from \(before) KiB to \(after) KiB")

        for (i, client) in readers.enumerated() where i % 4 != 2 {   // filtered to swipes: nothing comes
            while let line = try client.readLine(deadline: deadline(milliseconds: 10_000)) {
                received[i].append(line)
                if line.hasPrefix("gesture ") || line.hasPrefix(#"{"event":"gesture""#) { break }
            }
        }
        let rest = try daemon.stop(readingRestOf: readers)
        #expect(rest == Array(repeating: [], count: 8), "lines after the tap, or a swipe-only client got one")
        func fields(_ line: String) -> String {
            line.split(separator: " ").filter { !$0.hasPrefix("time=") && !$0.hasPrefix("x=") && !$0.hasPrefix("y=")
                && !$0.hasPrefix("viewX=") && !$0.hasPrefix("viewY=") && !$0.hasPrefix("device=") && !$0.hasPrefix("slot=") }
                .joined(separator: " ")
        }
        for (i, lines) in received.enumerated() {
            switch i % 4 {
            case 0:
                #expect(lines.map(fields) == ["hello version=1 daemon=gestured", "ok command=subscribe",
                                              "touch began 1 view=root seq=1", "touch ended 1 view=root seq=2",
                                              "gesture tap ended tap view=root seq=3 touches=1 taps=1"], "client \(i)")
            case 1:
                #expect(lines.count == 3 && lines[1] == #"{"event":"ok","command":"format"}"#, "client \(i): \(lines)")
                #expect(lines.last?.hasPrefix(#"{"event":"gesture","type":"tap","state":"ended","name":"tap""#) == true
                        && lines.last?.contains(#""seq":3,"#) == true, "client \(i): \(lines)")
            case 2:
                #expect(lines == ["hello version=1 daemon=gestured", "ok command=filter"], "client \(i)")
            default:
                #expect(lines.map(fields) == ["hello version=1 daemon=gestured", "ok command=filter",
                                              "gesture tap ended tap view=root seq=3 touches=1 taps=1"], "client \(i)")
            }
        }
        // 400,000 pings are past the client's request budget (about 3,800 at once) before their
        // answers fill its 64 KiB queue: whichever comes first drops it, once, with its reason.
        let drops = daemon.log.split(separator: "\n").filter { $0.contains("stopped reading") || $0.contains("past its budget") }
        #expect(drops.count == 1 && (drops[0].hasPrefix("<4>client 9: stopped reading (65536 bytes queued), disconnected")
                                     || drops[0].hasPrefix("<4>client 9 (uid \(getuid())): sent requests past its budget")), "\(daemon.log)")
    }

    /// Random bytes, overlong lines, control requests with garbage, half-closed and abandoned
    /// sockets: every answer is a well-formed `ok` or `error` line, and afterwards the daemon
    /// still answers a new client and stops cleanly.
    @Test(arguments: [UInt64(1), 42, 0xDEAD_BEEF])
    func requestFuzzingLeavesTheDaemonUnaffected(seed: UInt64) throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-fuzz")
        let socket = directory.path + "/g.sock", stderrPath = directory.path + "/stderr"
        let process = try Subprocess(TestEnvironment.buildDirectory + "/gestured", ["run", "--socket", socket],
                                     stdout: .discard, stderr: .file(stderrPath))
        var random = SplitMix64(seed: seed)
        let words = ["ping", "format", "json", "text", "subscribe", "touches", "filter", "type=*", "hide", "show",
                     "frame", "layout", "rotate", "root", "1e308", "-0", "\u{0}", "é", "|", "=", "[", "\r"]
        for round in 0..<24 {
            let client = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))
            var bytes: [UInt8] = []
            switch round % 4 {
            case 0: bytes = (0..<Int.random(in: 1...4096, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            case 1: bytes = Array(repeating: UInt8(ascii: "a"), count: Int.random(in: 1025...70_000, using: &random)) + [10]
            default:
                for _ in 0..<Int.random(in: 1...40, using: &random) {
                    let count = Int.random(in: 0...6, using: &random)
                    let line = (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
                    bytes += Array(line.utf8) + [10]
                }
            }
            bytes += Array("ping\n".utf8)
            _ = ClientSafetyTests.flood(client, bytes, until: deadline(milliseconds: 5000))
            if round % 3 == 0 {
                shutdown(client.descriptor.rawValue, Int32(SHUT_WR))   // half-closed
            }
            if round % 3 != 2 {
                // Read what comes until the ping's answer or the end: every line must be ours.
                while let line = try client.readLine(deadline: deadline(milliseconds: 5000)) {
                    #expect(line == "hello version=1 daemon=gestured" || line.hasPrefix("ok command=")
                            || line.hasPrefix("error command=") || line.hasPrefix("{\"event\":\"ok\"")
                            || line.hasPrefix("{\"event\":\"error\""), "seed \(seed) round \(round): \(line)")
                    if line == "ok command=ping" || line == #"{"event":"ok","command":"ping"}"# { break }
                }
            }
            // round % 3 == 2: abandoned without reading.
        }
        let fresh = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))
        try fresh.send(line: "ping")
        #expect(try fresh.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try fresh.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=ping")
        process.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try process.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0), "\((try? readTextFile(path: stderrPath)) ?? "")")
    }
}
