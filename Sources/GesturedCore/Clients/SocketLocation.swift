/// Where a client (`listen`, `ctl`, `doctor`) finds the daemon's socket, as root or not:
/// `--socket PATH`, else `$GESTURED_SOCKET`, else the system socket when it exists, else
/// `$XDG_RUNTIME_DIR/gestured.sock` (a daemon run by a user for themselves). The installed
/// service's socket comes first whoever asks, so a kiosk user's hook reaches the service without
/// options; the daemon itself (`gestured run`) keeps its own default.
///
/// Pure: the environment and "does this path exist" are arguments, so the order is tested as data.
public enum SocketLocation {
    /// The installed service's socket (gestured.socket, `RuntimeDirectory=gestured`).
    public static let system = "/run/gestured/gestured.sock"
    /// The environment variable a client reads when `--socket` is not given.
    public static let variable = "GESTURED_SOCKET"

    /// One place looked at.
    public enum Candidate: Hashable, Sendable {
        case option(String)
        case variable(String)
        case system(String)
        case runtime(String)

        public var path: String {
            switch self {
            case .option(let p), .variable(let p), .system(let p), .runtime(let p): p
            }
        }
    }

    /// The path to connect to, and every path looked at on the way, in order (the last is it).
    public struct Resolution: Hashable, Sendable {
        public var path: String?
        public var tried: [Candidate]
        public init(path: String?, tried: [Candidate]) { self.path = path; self.tried = tried }

        /// What to say when connecting to `path` failed with `reason`, or when there was none to
        /// connect to: every path tried, and how to name another.
        public func failure(_ reason: String) -> String {
            var parts: [String] = []
            for candidate in tried {
                switch candidate {
                case .option(let p): parts.append("\(p) (--socket): \(reason)")
                case .variable(let p): parts.append("\(p) ($\(SocketLocation.variable)): \(reason)")
                case .system(let p): parts.append(p == path ? "\(p): \(reason)" : "\(p): does not exist")
                case .runtime(let p): parts.append("\(p) ($XDG_RUNTIME_DIR): \(reason)")
                }
            }
            if path == nil { parts.append("$XDG_RUNTIME_DIR is not set") }
            let given = tried.contains { if case .option = $0 { true } else if case .variable = $0 { true } else { false } }
            return "cannot reach the daemon: " + parts.joined(separator: "; ")
                + (given ? "" : " (give the socket's path with --socket PATH or $\(SocketLocation.variable))")
        }
    }

    /// - Parameters:
    ///   - option: `--socket`'s value.
    ///   - environment: a variable's value (nil or empty: unset).
    ///   - exists: whether something is at a path (a path it may not look into counts: the
    ///     connection then says why it is refused, which is the useful answer).
    public static func resolve(option: String?, environment: (String) -> String?, exists: (String) -> Bool) -> Resolution {
        if let option { return Resolution(path: option, tried: [.option(option)]) }
        if let value = environment(variable), !value.isEmpty { return Resolution(path: value, tried: [.variable(value)]) }
        if exists(system) { return Resolution(path: system, tried: [.system(system)]) }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else {
            return Resolution(path: nil, tried: [.system(system)])
        }
        let path = runtime + "/gestured.sock"
        return Resolution(path: path, tried: [.system(system), .runtime(path)])
    }
}
