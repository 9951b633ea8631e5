/// What a client may ask, one request per line (docs/PROTOCOL.md, "Requests").
///
/// Parsing is strict: a line is at most `maximumLength` bytes, words are separated by single
/// spaces, and anything unknown is an error naming what was wrong. The daemon answers every
/// request with an `ok` or an `error` line.
public enum ClientRequest: Hashable, Sendable {
    case format(LineFormat)
    case subscribe(Stream)
    case unsubscribe(Stream)
    /// Replaces the client's filter; `nil` clears it.
    case filter(LineFilter?)
    case ping
    /// Changes the region map or a device: only for authorized peers.
    case control(ControlRequest)
    /// The daemon's latency histogram, answered with one `stats` line (see `LatencyHistogram`).
    case stats

    /// Line kinds a client receives only when it subscribes.
    public enum Stream: String, Hashable, Sendable, CaseIterable {
        case touches, failed, trace
    }

    /// The longest request line accepted, in bytes (without the newline).
    public static let maximumLength = 1024

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var command: String
        public var message: String
        public var description: String { message }
    }

    /// The request's name, as `ok`/`error` lines repeat it.
    public var command: String {
        switch self {
        case .format: "format"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .filter: "filter"
        case .ping: "ping"
        case .control(let c): c.command
        case .stats: "stats"
        }
    }

    public static func parse(_ line: Substring) throws(ParseError) -> ClientRequest {
        var text = line
        if text.hasSuffix("\r") { text = text.dropLast() }
        guard text.utf8.count <= maximumLength else {
            throw ParseError(command: "", message: "request longer than \(maximumLength) bytes")
        }
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard let verb = words.first, !verb.isEmpty else { throw ParseError(command: "", message: "empty request") }
        let arguments = words.dropFirst()
        let command = String(verb)
        func one() throws(ParseError) -> Substring {
            guard arguments.count == 1, let a = arguments.first, !a.isEmpty else {
                throw ParseError(command: command, message: "\(command) takes one argument")
            }
            return a
        }
        switch verb {
        case "format":
            let a = try one()
            guard let format = LineFormat(rawValue: String(a)) else {
                throw ParseError(command: command, message: "unknown format '\(a)' (text or json)")
            }
            return .format(format)
        case "subscribe", "unsubscribe":
            let a = try one()
            guard let stream = Stream(rawValue: String(a)) else {
                throw ParseError(command: command, message: "unknown stream '\(a)' (touches, failed or trace)")
            }
            return verb == "subscribe" ? .subscribe(stream) : .unsubscribe(stream)
        case "filter":
            guard !arguments.isEmpty else { return .filter(nil) }
            do { return .filter(try LineFilter(parsing: arguments.joined(separator: " "))) } catch {
                throw ParseError(command: command, message: error.message)
            }
        case "ping":
            guard arguments.isEmpty else { throw ParseError(command: command, message: "ping takes no argument") }
            return .ping
        case "stats":
            guard arguments.isEmpty else { throw ParseError(command: command, message: "stats takes no argument") }
            return .stats
        default:
            if let control = try ControlRequest.parse(verb: verb, arguments: arguments) { return .control(control) }
            throw ParseError(command: command, message: "unknown request '\(verb)'")
        }
    }
}

/// Which lines a client wants: terms `key=pattern` separated by spaces, all of which must match
/// (`type=tap|swipe state=ended view=button-*`). A pattern is a glob (`*`, `?`, `[...]`);
/// `|` separates alternatives. Keys: `type`, `state`, `name`, `view`, `device`, `screen` (an
/// empty value in the single form). Gesture lines are matched on every key; touch lines on
/// `view`, `device` and `screen` only (the others do not apply to
/// them and are ignored); `hello`, `device`, `ok`, `error` and the kiosk lines (`wake`, `lock`,
/// `unlock`, `idle`, `active`) are always sent.
public struct LineFilter: Hashable, Sendable, CustomStringConvertible {
    public enum Key: String, Hashable, Sendable, CaseIterable {
        case type, state, name, view, device, screen
    }

    public struct Term: Hashable, Sendable {
        public var key: Key
        /// Compiled once, when the filter is parsed: it is matched against every line.
        public var alternatives: [Glob]
    }

    public struct ParseError: Error, Hashable, Sendable { public var message: String }

    public var terms: [Term]

    public init(parsing text: String) throws(ParseError) {
        terms = []
        for word in text.split(separator: " ") {
            guard let eq = word.firstIndex(of: "=") else {
                throw ParseError(message: "filter term '\(word)' is not key=pattern")
            }
            let keyText = word[..<eq], pattern = word[word.index(after: eq)...]
            guard let key = Key(rawValue: String(keyText)) else {
                throw ParseError(message: "unknown filter key '\(keyText)' (type, state, name, view, device or screen)")
            }
            guard !pattern.isEmpty else { throw ParseError(message: "filter term '\(word)' has an empty pattern") }
            terms.append(Term(key: key, alternatives: pattern.split(separator: "|", omittingEmptySubsequences: false).map { Glob(String($0)) }))
        }
        guard !terms.isEmpty else { throw ParseError(message: "empty filter") }
    }

    public var description: String {
        terms.map { "\($0.key.rawValue)=\($0.alternatives.map(\.pattern).joined(separator: "|"))" }.joined(separator: " ")
    }

    public func matches(_ event: GestureEvent) -> Bool {
        terms.allSatisfy { term in
            let value: String = switch term.key {
            case .type: event.type
            case .state: event.state.rawValue
            case .name: event.name
            case .view: event.view
            case .device: event.sample.device.description
            case .screen: event.screen ?? ""
            }
            return term.alternatives.contains { $0.matches(value) }
        }
    }

    public func matches(_ touch: TouchEvent) -> Bool {
        terms.allSatisfy { term in
            let value: String
            switch term.key {
            case .view: value = touch.view ?? ""
            case .device: value = touch.update.device.description
            case .screen: value = touch.screen ?? ""
            case .type, .state, .name: return true
            }
            return term.alternatives.contains { $0.matches(value) }
        }
    }
}

/// One client's choices: encoding, subscriptions, filter. Decides whether an output reaches it.
public struct ClientSubscription: Hashable, Sendable {
    public var format: LineFormat = .text
    public var touches = false
    public var failed = false
    /// Every recognizer transition with its reason (`trace` lines, as `--trace` logs them).
    public var trace = false
    public var filter: LineFilter?

    public init() {}

    /// Applies a request (the daemon answers it with an `ok` line).
    public mutating func apply(_ request: ClientRequest) {
        switch request {
        case .format(let f): format = f
        case .subscribe(.touches): touches = true
        case .subscribe(.failed): failed = true
        case .unsubscribe(.touches): touches = false
        case .unsubscribe(.failed): failed = false
        case .subscribe(.trace): trace = true
        case .unsubscribe(.trace): trace = false
        case .filter(let f): filter = f
        case .ping, .control, .stats: break
        }
    }

    public func wants(_ output: GesturePipeline.Output) -> Bool {
        switch output {
        case .touch(let t): touches && (filter?.matches(t) ?? true)
        case .gesture(let g): (g.state != .failed || failed) && (filter?.matches(g) ?? true)
        case .kiosk: true
        }
    }
}
