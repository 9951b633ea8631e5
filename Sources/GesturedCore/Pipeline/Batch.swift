/// Everything one call of the pipeline decided, in the order it happened: the one value the
/// daemon's shell carries out (`Shell.carryOut`, in the executable) and `gestured replay`
/// prints (`Replay.Lines`), so that replay shows exactly what the daemon does.
///
/// Every entry point of `GesturePipeline` (a read's events, a deadline, a control change, a
/// rotation, a reload, a removal, shutdown, a device line) is one step (`GesturePipeline.step`,
/// GesturePipeline+Step.swift), which fills one: it empties the batch it is given first,
/// so a result can only leave through it, and nobody has a buffer to remember to drain. The
/// caller keeps one batch and hands it to every call: its arrays keep their capacity, and a
/// steady frame allocates nothing.
///
/// The shell carries a batch out in one fixed order: trace lines (before the lines they explain,
/// as replay prints them) and recognizer bugs, a control request's reply, lines for clients
/// (numbered as they are sent), the actions of those lines (which need their numbers), device
/// lines, what the clones of pass-through devices receive, the panels to grab or let go
/// (`grabs`), and the faults to log.
public struct Batch: Sendable {
    /// The answer to the control request this call applied (`ControlDesk.apply`), for the client
    /// that sent it: it goes out before the lines the request caused (docs/PROTOCOL.md).
    public internal(set) var reply: String?
    /// Lines for clients: touch and gesture outputs, in order (clients choose among them).
    public internal(set) var outputs: [GesturePipeline.Output] = []
    /// The configured actions these outputs reach, in order (`GestureLabel.action`).
    public internal(set) var actions: [ActionRequest] = []
    /// What the applications behind pass-through devices receive, in order.
    public internal(set) var forwarded: [ForwardedTouch] = []
    /// Panels to grab (`EVIOCGRAB`) or let go for the kiosk policy's claims, in order: a panel
    /// without pass-through is grabbed as soon as its screen claims, fingers down or not, so
    /// that the application reading it never sees a claimed touch (docs/KIOSK.md).
    public internal(set) var grabs: [PanelGrab] = []
    /// Faults the devices' decoders survived (`EvdevFrameDecoder.Anomaly`), for the log.
    public internal(set) var faults: [DeviceFault] = []
    /// The engines' trace: every transition with its reason while tracing.
    public internal(set) var trace: [String] = []
    /// The recognizer bugs the engines survived (typed; bounded while nobody traces), for the
    /// log and, after the trace, the clients subscribed to it.
    public internal(set) var bugs: [RecognizerBug] = []
    /// The devices that came or went (`device added|removed`), for every client, after the
    /// step's lines.
    public internal(set) var deviceLines: [DeviceLine] = []
    /// The bytes of all those lines for the connected clients: per distinct subscription, once,
    /// and who gets them (`Subscribers`). Empty when no client is registered (replay, benches).
    public internal(set) var delivery = Delivery()

    public init() {}

    /// A batch with room for the busiest step of `pipeline` (a frame where every recognizer
    /// reports, every touch of every device moves, every forwarded touch is flushed), so that a
    /// step busier than any before it does not grow it: steady frames allocate nothing. A read
    /// of several frames may still grow it once, the first time.
    public init(for pipeline: GesturePipeline) {
        let (outputs, forwarded) = pipeline.busiestStep
        self.outputs.reserveCapacity(outputs)
        self.forwarded.reserveCapacity(forwarded)
        actions.reserveCapacity(8)
    }

    /// Whether the call decided nothing at all.
    public var isEmpty: Bool {
        reply == nil && outputs.isEmpty && actions.isEmpty && forwarded.isEmpty && grabs.isEmpty && faults.isEmpty
            && trace.isEmpty && bugs.isEmpty && deviceLines.isEmpty
    }

    /// Empties every part, keeping its storage (an entry point does this first).
    mutating func removeAll() {
        reply = nil
        if !outputs.isEmpty { outputs.removeAll(keepingCapacity: true) }
        if !actions.isEmpty { actions.removeAll(keepingCapacity: true) }
        if !forwarded.isEmpty { forwarded.removeAll(keepingCapacity: true) }
        if !grabs.isEmpty { grabs.removeAll(keepingCapacity: true) }
        if !faults.isEmpty { faults.removeAll(keepingCapacity: true) }
        if !trace.isEmpty { trace.removeAll(keepingCapacity: true) }
        if !bugs.isEmpty { bugs.removeAll(keepingCapacity: true) }
        if !deviceLines.isEmpty { deviceLines.removeAll(keepingCapacity: true) }
        delivery.removeAll()
    }
}

/// A configured action to run: the output that asked for it (an index in the batch's
/// `outputs`, whose line number the action's environment carries), a gesture event that reached
/// its action's state or a `wake` line (`power.wakeAction`), and the command.
public struct ActionRequest: Hashable, Sendable {
    public var output: Int
    public var action: GestureAction
    /// Its line's seq (the last line sent to anyone when nobody received it: `GESTURE_SEQ`),
    /// set by the step (`Subscribers`).
    public internal(set) var seq: UInt64 = 0
    /// The wake action's variables (its `wake` line's), set by the step; empty for a gesture's.
    public internal(set) var variables: [ActionVariable] = []

    /// The gesture event that reached the action's state; nil for a wake action.
    public func event(in batch: Batch) -> GestureEvent? {
        guard case .gesture(let event) = batch.outputs[output] else { return nil }
        return event
    }

    /// The name the action runs under: its gesture's id, or `power.wakeAction`.
    public func name(in batch: Batch) -> String { event(in: batch)?.name ?? PowerPolicy.wakeActionName }

    /// What `gestured replay` says instead of running the action (on stderr): `replay: would run
    /// /usr/bin/touch /run/gestured/actions/kiosk-admin (admin began at 3.600000)`. A word with a
    /// space or a quote is quoted, so the command reads as it would be typed.
    public func replayNotice(in batch: Batch) -> String {
        let words = action.run.map { word in
            word.isEmpty || word.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" })
                ? "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" : word
        }
        let why: String
        switch batch.outputs[output] {
        case .gesture(let event): why = "\(event.name) \(event.state.rawValue) at \(event.time)"
        case .kiosk(let line): why = "\(PowerPolicy.wakeActionName), \(line.name) at \(line.time)"
        case .touch(let touch): why = "touch at \(touch.time)"
        }
        if let input = action.input { return "replay: would send \(input.summary) (\(why))" }
        return "replay: would run \(words.joined(separator: " ")) (\(why))"
    }
}

/// A panel to grab or to let go (`Batch.grabs`).
public struct PanelGrab: Hashable, Sendable {
    public var device: GesturePipeline.DeviceID
    /// True: take exclusive use (`EVIOCGRAB`); false: let it go.
    public var exclusive: Bool
}
