/// What the bridge's shell must do, in order: the one way out of `MQTTBridge`.
public enum BridgeAction: Hashable, Sendable, CustomStringConvertible {
    case publish(Publication)
    /// Subscribe to a topic filter (at QoS 1).
    case subscribe(String)
    /// One request line to the daemon, without its newline.
    case send(String)
    case log(LogPriority, String)

    public enum LogPriority: Int, Hashable, Sendable {
        case error = 3, warning = 4, info = 6
    }

    /// One transcript line: `publish …`, `subscribe …`, `send …`, `log<4> …`.
    public var description: String {
        switch self {
        case .publish(let publication): "publish \(publication)"
        case .subscribe(let filter): "subscribe \(filter)"
        case .send(let line): "send \(line)"
        case .log(let priority, let message): "log<\(priority.rawValue)> \(message)"
        }
    }
}

/// The time of day for the last-touch sensor, from the shell's wall clock (seconds since the
/// epoch, UTC): ISO 8601 as Home Assistant's timestamp sensors read it.
enum Timestamp {
    static func iso8601(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))+00:00"
    }
}
