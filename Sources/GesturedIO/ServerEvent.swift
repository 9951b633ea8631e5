/// A connected client of `UnixSocketServer`. Ids are never reused, unlike descriptors.
public struct ClientID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: ClientID, b: ClientID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "client \(rawValue)" }
}

/// Why a client was disconnected.
public enum DropReason: Hashable, Sendable {
    /// The client closed the connection (EOF).
    case hangup
    /// Its output queue would have grown beyond the limit (it stopped reading).
    case queueOverflow(limit: Int)
    /// A socket error, e.g. `EPIPE` or `ECONNRESET`.
    case failed(SystemError)
}

/// What happened to clients, for the executable to log.
public enum ServerEvent: Hashable, Sendable {
    case accepted(ClientID)
    /// A connection was accepted and closed at once because `maxClients` are connected.
    case refused(maxClients: Int)
    case dropped(ClientID, DropReason)
}
