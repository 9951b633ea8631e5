import GesturedCore

/// The `stats` request: the daemon's own read-to-written latency histogram, answered
/// in the asking client's format through the request handling of ClientHub.swift.
extension ClientHub {
    /// The answer to `stats`.
    func statsLine(format: LineFormat) -> String { LineEncoder.stats(latency, format: format) }
}
