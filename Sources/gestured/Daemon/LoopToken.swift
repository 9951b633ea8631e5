import GesturedIO

/// The daemon loop's one epoll token space. Each part owns a fixed token or a half-open range,
/// and the ranges are disjoint, so a token names exactly one watched thing whatever order the
/// loop tests them in.
enum LoopToken: Hashable {
    case listener, timer, signals, watchdog, hotplug, actionTimer
    /// An open input device (`DeviceHub`), by its token.
    case device(UInt64)
    /// An action child's pidfd or output pipe (`ActionRunner`), by its token.
    case action(UInt64)
    /// A client connection (`ClientHub`).
    case client(ClientID)
    /// A clone guard's pidfd (`DeviceHub`), by its token.
    case cloneGuard(UInt64)

    static let listenerToken: UInt64 = 1
    static let timerToken: UInt64 = 2
    static let signalsToken: UInt64 = 3
    static let watchdogToken: UInt64 = 4
    static let hotplugToken: UInt64 = 5
    static let actionTimerToken: UInt64 = 6
    /// Devices: a new token per device opened, never reused.
    static let devices: Range<UInt64> = (1 << 32)..<(1 << 40)
    /// Actions: `base + 2n` a child's pidfd, `base + 2n + 1` its output pipe.
    static let actions: Range<UInt64> = (1 << 40)..<(1 << 47)
    /// Clients: the base plus the server's client id.
    static let clients: Range<UInt64> = (1 << 48)..<(1 << 56)
    /// Clone guards: a new token per guard started, never reused.
    static let guards: Range<UInt64> = (1 << 56)..<(1 << 60)

    /// What a token watches; nil for a token no part registered.
    init?(_ token: UInt64) {
        switch token {
        case Self.listenerToken: self = .listener
        case Self.timerToken: self = .timer
        case Self.signalsToken: self = .signals
        case Self.watchdogToken: self = .watchdog
        case Self.hotplugToken: self = .hotplug
        case Self.actionTimerToken: self = .actionTimer
        case Self.devices: self = .device(token)
        case Self.actions: self = .action(token)
        case Self.clients: self = .client(ClientID(rawValue: token - Self.clients.lowerBound))
        case Self.guards: self = .cloneGuard(token)
        default: return nil
        }
    }

    /// The token of a client connection.
    static func token(of client: ClientID) -> UInt64 { clients.lowerBound + client.rawValue }
}
