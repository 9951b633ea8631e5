import GesturedCore

/// Lines sent at once rather than queued for the loop's flush (the tests' way of talking to
/// clients through the server).
extension UnixSocketServer {
    /// Sends `bytes` to one client now (queuing what the socket does not take).
    /// Returns `.dropped` when the client had to be disconnected.
    @discardableResult
    func send(_ bytes: [UInt8], to id: ClientID) -> ServerEvent? {
        enqueue(bytes, to: id) ?? flush(id)
    }

    /// Sends `line` followed by `\n`.
    @discardableResult
    func send(line: String, to id: ClientID) -> ServerEvent? {
        send(Array((line + "\n").utf8), to: id)
    }

    /// Sends `bytes` to every client; returns the clients dropped on the way.
    func broadcast(_ bytes: [UInt8]) -> [ServerEvent] {
        clientIDs.compactMap { send(bytes, to: $0) }
    }

    /// Sends `line` followed by `\n` to every client.
    func broadcast(line: String) -> [ServerEvent] {
        broadcast(Array((line + "\n").utf8))
    }
}
