import GesturedCore
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Glibc

/// The client that keeps reading: subscribed to touches and failed states, it drains its socket
/// whenever it is readable and checks the transcript (`TranscriptCheck`).
final class FaithfulReader {
    let client: LineClient
    var check = TranscriptCheck()
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    init(socket: String) throws {
        client = try LineClient(path: socket, deadline: deadline(milliseconds: 30_000))
        guard try client.readLine(deadline: deadline(milliseconds: 30_000)) == "hello version=1 daemon=gestured" else {
            throw SoakFailure("no hello from the daemon")
        }
        try client.send(line: "subscribe touches")
        try client.send(line: "subscribe failed")
    }

    var descriptor: Int32 { client.descriptor.rawValue }

    /// Reads what is there without waiting; false once the daemon closed the connection.
    @discardableResult
    func drain() -> Bool {
        while true {
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffer += scratch[0..<count]
                continue
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            break
        }
        var start = 0
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[start..<newline], as: UTF8.self)
            check.take(line[...])
            start = newline + 1
        }
        buffer.removeSubrange(0..<start)
        return true
    }
}

/// A client that comes and goes: it connects, perhaps asks for JSON, touches or a filter, and
/// then reads, stalls (reads nothing for a while, so its queue fills and is coalesced, or it is
/// dropped at the limit), sends garbage (random bytes, an overlong line, a half line) or hangs up.
final class ChurnClient {
    enum Mode { case reader, staller, garbage }
    let client: LineClient
    let mode: Mode
    /// The frame at which it hangs up.
    let leaveAt: Int
    private var scratch = [UInt8](repeating: 0, count: 1 << 14)
    private(set) var closedByDaemon = false

    init(socket: String, frame: Int, rng: inout SplitMix64) throws {
        client = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))
        mode = [.reader, .staller, .garbage][Int(rng.next() % 3)]
        leaveAt = frame + 50 + Int(rng.next() % 3000)
        let requests = ["", "format json", "subscribe touches", "subscribe failed", "filter type=pan|pinch state=began|ended",
                        "filter view=root* device=event*", "subscribe trace", "ping", "stats", "hide root", "show root"]
        for _ in 0..<Int(rng.next() % 3) {
            let request = requests[Int(rng.next() % UInt64(requests.count))]
            if !request.isEmpty { send(Array((request + "\n").utf8)) }
        }
    }

    var descriptor: Int32 { client.descriptor.rawValue }

    /// Sends without waiting; what the socket does not take is dropped (this client misbehaves
    /// anyway).
    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }

    /// One turn of the soak's loop for this client.
    func turn(frame: Int, rng: inout SplitMix64) {
        switch mode {
        case .reader: drain()
        case .staller: if rng.next() % 500 == 0 { drain() }
        case .garbage:
            drain()
            guard rng.next() % 40 == 0 else { return }
            switch rng.next() % 4 {
            case 0: send((0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            case 1: send(Array(repeating: UInt8(ascii: "x"), count: 3000) + [UInt8(ascii: "\n")])
            case 2: send(Array("filter view=*r*o*o*t*X|ro?t name=[a-z]*\n".utf8))
            default: send(Array("subscribe tou".utf8))
            }
        }
    }

    private func drain() {
        while true {
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { closedByDaemon = true }
            if count < 0 && errno == EINTR { continue }
            return
        }
    }
}

struct SoakFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
