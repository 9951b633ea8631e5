/// The connected clients' subscriptions, as the core holds them: a small table keyed by the
/// shell's opaque `ClientKey` (registered at connect, updated by requests, dropped at hang-up),
/// grouped by distinct subscription (format × filter × touches × failed × trace). At the end of
/// each step it numbers the lines (`seq` counts lines sent to anyone) and encodes each line once
/// per format for the groups that want it (`Batch.delivery`), and gives each action its line's
/// seq and, for the wake action, its variables: the shell then encodes nothing.
public struct Subscribers: Sendable {
    struct Group: Sendable {
        var subscription: ClientSubscription
        /// Its clients, in ascending key order (the order the server lists them in).
        var members: [ClientKey]
    }

    var groups: [Group] = []
    private var groupOf: [ClientKey: Int] = [:]
    /// The number of the last line sent to anyone (0 before the first).
    public private(set) var seq: UInt64 = 0
    /// Scratch: one trace line.
    private var textLine: [UInt8] = []

    public init() {}

    /// How many clients are registered.
    public var count: Int { groupOf.count }

    /// A client connected: the default subscription (gesture lines, text).
    public mutating func connect(_ key: ClientKey) { set(ClientSubscription(), of: key) }

    /// A client's subscription (connecting it if it is not registered).
    public mutating func set(_ subscription: ClientSubscription, of key: ClientKey) {
        if let g = groupOf[key] {
            guard groups[g].subscription != subscription else { return }
            leave(key, group: g)
        }
        let g = groups.firstIndex { $0.subscription == subscription } ?? {
            groups.append(Group(subscription: subscription, members: []))
            return groups.count - 1
        }()
        let at = groups[g].members.firstIndex { $0 > key } ?? groups[g].members.count
        groups[g].members.insert(key, at: at)
        groupOf[key] = g
    }

    /// A client went.
    public mutating func drop(_ key: ClientKey) {
        guard let g = groupOf[key] else { return }
        leave(key, group: g)
    }

    private mutating func leave(_ key: ClientKey, group g: Int) {
        groupOf[key] = nil
        groups[g].members.removeAll { $0 == key }
        guard groups[g].members.isEmpty else { return }
        let last = groups.count - 1
        if g != last {
            groups.swapAt(g, last)
            for member in groups[g].members { groupOf[member] = g }
        }
        groups.removeLast()
    }

    /// Numbers and encodes the batch's trace, outputs and device lines for the groups, into
    /// `batch.delivery`, and gives its actions their seq (and the wake action its variables).
    mutating func deliver(into batch: inout Batch) {
        guard !groups.isEmpty || !batch.actions.isEmpty else { return }   // the batch emptied it
        while batch.delivery.storage.count < groups.count { batch.delivery.storage.append(Delivery.Part()) }
        batch.delivery.count = groups.count
        for g in groups.indices { batch.delivery.storage[g].members = groups[g].members }
        deliverTrace(into: &batch)
        var next = 0   // the next action, by output index
        for index in batch.outputs.indices {
            publish(batch.outputs[index], into: &batch.delivery)
            while next < batch.actions.count, batch.actions[next].output == index {
                batch.actions[next].seq = seq
                if case .kiosk(let event) = batch.outputs[index] {
                    batch.actions[next].variables = KioskEnvironment.variables(of: event, seq: seq)
                        .map { ActionVariable(name: $0.name, value: $0.value) }
                }
                next += 1
            }
        }
        for line in batch.deviceLines where !groups.isEmpty {
            seq += 1
            var encoded: [LineFormat: [UInt8]] = [:]
            for g in groups.indices {
                let format = groups[g].subscription.format
                let bytes = encoded[format]
                    ?? Array(LineEncoder.device(added: line.added, sysname: line.sysname, name: line.name, seq: seq,
                                                format: format).utf8)
                encoded[format] = bytes
                batch.delivery.storage[g].append(bytes, merge: .never)
            }
        }
    }

    /// The trace lines and recognizer bugs, to the groups subscribed to the trace: never
    /// numbered, never coalesced.
    private mutating func deliverTrace(into batch: inout Batch) {
        guard !batch.trace.isEmpty || !batch.bugs.isEmpty else { return }
        for g in groups.indices where groups[g].subscription.trace {
            let format = groups[g].subscription.format
            for line in batch.trace { appendTrace(line, format: format, to: &batch.delivery.storage[g]) }
            for bug in batch.bugs { appendTrace(bug.traceLine, format: format, to: &batch.delivery.storage[g]) }
            batch.delivery.storage[g].traceLines = batch.delivery.storage[g].lines.count
        }
    }

    private mutating func appendTrace(_ line: String, format: LineFormat, to part: inout Delivery.Part) {
        textLine.removeAll(keepingCapacity: true)
        LineEncoder.trace(line, format: format, into: &textLine)
        part.append(textLine, merge: .never)
    }

    /// One output, to the groups that want it: numbered once if anyone does, encoded at most
    /// once per format, straight into the first such group's part (the others copy its bytes).
    private mutating func publish(_ item: GesturePipeline.Output, into delivery: inout Delivery) {
        var numbered = false
        var merge = LineMerge.never
        var text: (part: Int, range: Range<Int>)?, json: (part: Int, range: Range<Int>)?
        for g in groups.indices where groups[g].subscription.wants(item) {
            if !numbered { seq += 1; numbered = true; merge = LineMerge(item) }
            let format = groups[g].subscription.format
            if let (p, range) = format == .text ? text : json {
                let bytes = delivery.storage[p].bytes[range]
                delivery.storage[g].append(bytes, merge: merge)
            } else {
                let start = delivery.storage[g].bytes.count
                LineEncoder.output(item, seq: seq, format: format, into: &delivery.storage[g].bytes)
                let range = start..<delivery.storage[g].bytes.count
                delivery.storage[g].lines.append(Delivery.Line(range: range, merge: merge))
                if format == .text { text = (g, range) } else { json = (g, range) }
            }
        }
    }
}

extension Subscribers {
    /// Numbers and encodes `outputs`, then `deviceLines`, for the registered clients exactly as a
    /// step does, for lines delivered outside a pipeline step (the fuzzing's client panel, the
    /// benchmark, tests). `seq` is then the last line's number, as after a step.
    public mutating func delivery(of outputs: [GesturePipeline.Output], deviceLines: [DeviceLine] = []) -> Delivery {
        var batch = Batch()
        batch.outputs = outputs
        batch.deviceLines = deviceLines
        deliver(into: &batch)
        return batch.delivery
    }

    /// Numbers one line that is no client's but is printed among theirs (replay's `forward`
    /// lines), so that the lines after it are numbered past it.
    public mutating func numberExtraLine() -> UInt64 {
        seq += 1
        return seq
    }
}
