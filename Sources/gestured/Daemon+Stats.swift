import GesturedCore
import GesturedIO
import Glibc

/// The `stats` request: the daemon's own read-to-written latency histogram (issue 8).
///
/// Kept apart from Daemon.swift on purpose: request handling is being wired into the daemon
/// separately, and when it lands, `receiveRequests(from:)` gives way to it; what stays is
/// `statsLine(format:)` and the recording in `readDevice`.
extension Daemon {
    /// The answer to `stats`.
    func statsLine(format: LineFormat) -> String { LineEncoder.stats(latency, format: format) }

    /// Reads what a client sent, like `UnixSocketServer.receive(from:)`, and answers each
    /// complete `stats` line; other requests are still ignored, as before. A hang-up or a
    /// failure drops the client, as `receive` does.
    func receiveRequests(from id: ClientID) -> ServerEvent? {
        guard let fd = server.descriptor(of: id) else { pendingRequests[id] = nil; return nil }
        var chunk = [UInt8](repeating: 0, count: 4096)
        var received = pendingRequests.removeValue(forKey: id) ?? []
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { received.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { server.disconnect(id); return .dropped(id, .hangup) }
            let error = Errno.current
            if error.rawValue == EINTR { continue }
            if error.rawValue == EAGAIN { break }
            server.disconnect(id)
            return .dropped(id, .failed(SystemError(operation: "recv", errno: error)))
        }
        var start = 0
        while let newline = received[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: received[start..<newline], as: UTF8.self)
            start = newline + 1
            if case .stats? = try? ClientRequest.parse(line[...]) {
                if let dropped = server.send(Array(statsLine(format: .text).utf8), to: id) { return dropped }
            }
        }
        // Keep a partial line for the next read, bounded like a request (ClientRequest.maximumLength).
        let rest = received[start...]
        if !rest.isEmpty, rest.count <= ClientRequest.maximumLength { pendingRequests[id] = Array(rest) }
        return nil
    }
}
