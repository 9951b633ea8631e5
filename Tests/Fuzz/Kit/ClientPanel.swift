import GesturedCore

/// Clients as the daemon's client hub serves them, without sockets: each has a subscription
/// (format, touches, failed, filter) and receives what the core's `Subscribers` delivers to it. Checks, per
/// line received: it parses in the client's format, its `seq` is above the client's last one,
/// and the client was meant to get it: its subscription, evaluated again here from the line's
/// own fields with `ReferenceGlob`, wants exactly the lines it received.
public struct ClientPanel {
    public var subscriptions: [ClientSubscription]
    private var subscribers = Subscribers()
    private var lastSeq: [UInt64]
    /// Lines each client received.
    public private(set) var received: [Int]
    /// Scratch: the current output's lines.
    private var text: [UInt8] = [], json: [UInt8] = []

    public init(_ subscriptions: [ClientSubscription]) {
        self.subscriptions = subscriptions
        lastSeq = Array(repeating: 0, count: subscriptions.count)
        received = Array(repeating: 0, count: subscriptions.count)
    }

    /// The seq of the last line sent to anyone.
    public var seq: UInt64 { subscribers.seq }

    /// Publishes one output to every client and checks what each got: exactly the clients
    /// whose subscription wants it (judged again here from the output's fields), each with a
    /// `seq` above its last. With `lines`, also the lines themselves: the output's two encodings
    /// checked (`LineCheck`), and each client's line that encoding byte for byte.
    public mutating func publish(_ output: GesturePipeline.Output, lines: Bool = true) throws(Violation) {
        let delivered = deliver([output], deviceLines: [])
        let fields = Self.fields(of: output)
        if lines { _ = try LineCheck.check(output, seq: subscribers.seq, text: &text, json: &json) }
        for client in subscriptions.indices {
            let got = delivered.first { $0.0 == client }?.1
            let wanted = Self.wants(subscriptions[client], fields)
            try require((got != nil) == wanted,
                        "client \(client) \(got == nil ? "did not get" : "got") a line its subscription \(describe(subscriptions[client])) \(wanted ? "wants" : "does not want"): \(fields.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
            guard let got else { continue }
            if lines {
                let expected = subscriptions[client].format == .json ? json : text
                try require(got == expected, "client \(client) got \(show(got)) where the output encodes as \(show(expected))")
            }
            try require(subscribers.seq > lastSeq[client], "seq \(subscribers.seq) after \(lastSeq[client]) for client \(client): \(show(got))")
            lastSeq[client] = subscribers.seq
            received[client] += 1
        }
    }

    /// The fields a filter looks at, as the output's line carries them (`kind` is the line kind).
    static func fields(of output: GesturePipeline.Output) -> [String: String] {
        switch output {
        case .gesture(let g):
            ["kind": "gesture", "type": g.type, "state": g.state.rawValue, "name": g.name, "view": g.view,
             "device": g.sample.device.description, "screen": g.screen ?? ""]
        case .touch(let t):
            ["kind": "touch", "view": t.view ?? "", "device": t.update.device.description, "screen": t.screen ?? ""]
        case .kiosk(let k):
            ["kind": k.name, "screen": k.screen ?? "", "always": "yes"]
        }
    }

    /// Sends a line every client gets (a `device` line), as the hub broadcasts it.
    public mutating func broadcast(added: Bool, sysname: String, name: String) throws(Violation) {
        let delivered = deliver([], deviceLines: [DeviceLine(added: added, sysname: sysname, name: name)])
        try require(delivered.count == subscriptions.count, "a device line reached \(delivered.count) of \(subscriptions.count) clients")
        for (client, bytes) in delivered {
            let line = try ProtocolLine.parse(bytes, json: subscriptions[client].format == .json)
            try LineCheck.expect(line, ["action": added ? "added" : "removed", "sysname": sysname, "name": name], bytes)
            guard let seq = line.seq else { throw Violation("a device line without seq: \(show(bytes))") }
            try require(seq > lastSeq[client], "seq \(seq) after \(lastSeq[client]) for client \(client): \(show(bytes))")
            lastSeq[client] = seq
        }
    }

    /// Registers the clients' subscriptions as they are now (clients are numbered by index) and
    /// delivers the lines: each client's line, in client order.
    private mutating func deliver(_ outputs: [GesturePipeline.Output], deviceLines: [DeviceLine]) -> [(Int, [UInt8])] {
        for client in subscriptions.indices { subscribers.set(subscriptions[client], of: ClientKey(UInt64(client))) }
        var delivered: [(Int, [UInt8])] = []
        for part in subscribers.delivery(of: outputs, deviceLines: deviceLines).parts {
            for member in part.members {
                for line in part.published { delivered.append((Int(member.value), Array(part.bytes[line.range]))) }
            }
        }
        return delivered.sorted { $0.0 < $1.0 }
    }

    /// Whether `subscription` wants the line, judged from the line's fields (docs/PROTOCOL.md,
    /// "Requests"): touch lines only when subscribed and matched on view, device and screen;
    /// failed gesture lines only when subscribed; every term of the filter must match, one of
    /// its `|` alternatives each.
    static func wants(_ subscription: ClientSubscription, _ line: [String: String]) -> Bool {
        if line["always"] == "yes" { return true }   // kiosk lines go to every client
        let touch = line["kind"] == "touch"
        if touch && !subscription.touches { return false }
        if line["kind"] == "gesture" && line["state"] == "failed" && !subscription.failed { return false }
        guard let filter = subscription.filter else { return true }
        return filter.terms.allSatisfy { term in
            let key = term.key.rawValue
            if touch && !["view", "device", "screen"].contains(key) { return true }
            let value = line[key] ?? ""
            return term.alternatives.contains { ReferenceGlob.matches($0.pattern, value) }
        }
    }
}

func describe(_ s: ClientSubscription) -> String {
    "{\(s.format.rawValue)\(s.touches ? " touches" : "")\(s.failed ? " failed" : "")\(s.filter.map { " filter \($0)" } ?? "")}"
}
