/// `gestured replay`: the daemon's pipeline over a recording, on a virtual clock taken from the
/// event timestamps. Deadlines fire at their exact virtual instants, pending ones after the last
/// event. Same input, same configuration: byte-identical lines.
///
/// A recording ends as a device that goes away: at the last event's time the device is removed
/// as the daemon removes an unplugged one, so touches still down are cancelled and so are the
/// gestures they drive. Every `began` then has its `ended` or `cancelled`, however the recording
/// was cut; pending deadlines (a tap waiting out a double tap's window) still fire after it.
public struct Replay: Sendable {
    public struct Options: Hashable, Sendable {
        public var format: LineFormat = .text
        /// Also print touch lines (`replay --touches`).
        public var touches = false
        /// Also print failed states.
        public var failed = false
        /// Trace every arbiter transition with its reason (`replay --trace`).
        public var trace = false
        /// Also print what the application behind each pass-through device receives
        /// (`replay --forwarded`: `forward` lines).
        public var forwarded = false
        public init(format: LineFormat = .text, touches: Bool = false, failed: Bool = false, trace: Bool = false,
                    forwarded: Bool = false) {
            self.format = format; self.touches = touches; self.failed = failed; self.trace = trace
            self.forwarded = forwarded
        }

        /// The replay's reader as a client of the daemon: what it subscribes to and in which
        /// format (trace lines go to `traced`, not into the lines).
        public var reader: ClientSubscription {
            var subscription = ClientSubscription()
            subscription.format = format
            subscription.touches = touches
            subscription.failed = failed
            return subscription
        }
    }

    /// Replays `events` of one device through a pipeline built from `configuration`, calling
    /// `emit` with each line (newline-terminated), in order.
    public static func run(device: DeviceDescription, events: [RawEvent], configuration: Configuration,
                           options: Options = Options(), emit: (String) -> Void,
                           traced: (String) -> Void = { _ in }) throws(ReplayError) {
        try run(device: device, events: events, configuration: configuration, options: options, traced: traced) { bytes in
            var start = bytes.startIndex
            for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
                emit(String(decoding: bytes[start...i], as: UTF8.self))
                start = i + 1
            }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Replays as `run(device:events:configuration:options:emit:)` does, but encodes the lines
    /// into one reused byte buffer and hands it to `write` after each event, which drains it
    /// (or lets it grow; `gestured replay` writes it out 64 KiB at a time). No `String` per line.
    /// With `options.trace`, `traced` gets each trace line, before the lines of the same event.
    public static func run(device: DeviceDescription, events: [RawEvent], configuration: Configuration,
                           options: Options = Options(), traced: (String) -> Void = { _ in },
                           write: (inout [UInt8]) -> Void) throws(ReplayError) {
        try run(recordings: [(device, events)], configuration: configuration, options: options, traced: traced, write: write)
    }

    /// Replays several recordings, one device each, interleaved by time: frame by frame (a
    /// frame is the events up to its `SYN_REPORT`), the earliest frame first, ties in the order
    /// of `recordings` (`Session.play`). Each device feeds the screen the configuration assigns
    /// it; a screen without a size takes its first device's, as in the daemon.
    public static func run(recordings: [(device: DeviceDescription, events: [RawEvent])], configuration: Configuration,
                           options: Options = Options(), traced: (String) -> Void = { _ in },
                           notice: (String) -> Void = { _ in }, write: (inout [UInt8]) -> Void) throws(ReplayError) {
        var session = try Session(devices: recordings.map(\.device), configuration: configuration,
                                  touches: options.touches, trace: options.trace, reader: options.reader)
        for line in session.notices { notice(line) }
        if options.forwarded {
            for (k, refusal) in session.passThroughRefusals.enumerated() {
                guard let refusal else { continue }
                notice("\(recordings[k].device.sysname) (\(recordings[k].device.name)): no forward lines: \(refusal)")
            }
        }
        var lines = Lines(options: options, devices: recordings.map(\.device))
        session.play(next: whole(recordings.map(\.events))) { lines.take(&$0, traced: traced, write: write) }
    }

    /// Every output of the replay (touches and gestures, failed ones included), in order: what
    /// `gestured draw` pictures.
    public static func outputs(device: DeviceDescription, events: [RawEvent],
                               configuration: Configuration) throws(ReplayError) -> [GesturePipeline.Output] {
        var all: [GesturePipeline.Output] = []
        var session = try Session(devices: [device], configuration: configuration, touches: true)
        session.play(next: whole([events])) { all += $0.batch.outputs }
        return all
    }

    /// A `Session.play` source of recordings held whole: each is one piece.
    static func whole(_ recordings: [[RawEvent]]) -> (Int) -> [RawEvent]? {
        var given = [Bool](repeating: false, count: recordings.count)
        return { k in
            guard !given[k] else { return nil }
            given[k] = true
            return recordings[k]
        }
    }

    /// The lines of a replay: each step's batch printed as the daemon's shell carries it out, in
    /// the same order (trace, lines, forwarded touches): the lines are those the pipeline's
    /// `Subscribers` delivered to the session's reader (`Session(reader:)`, `options.reader`),
    /// numbered and filtered as for a client of the daemon, copied into one reused byte buffer
    /// that `write` drains (or lets grow). No `String` per line.
    public struct Lines {
        private let options: Options
        /// The devices' names in `forward` lines, by recording.
        private let names: [DeviceName]
        private var bytes: [UInt8] = []

        public init(options: Options, devices: [DeviceDescription]) {
            self.options = options
            // Sysnames are checked by `Session`'s `addDevice` before anything is replayed.
            names = devices.map { DeviceName($0.sysname) ?? "" }
            bytes.reserveCapacity(1 << 16)
        }

        /// Prints the session's last step (its trace lines go to `traced` first), and hands the
        /// bytes to `write` when there are any.
        public mutating func take(_ session: inout Session, traced: (String) -> Void, write: (inout [UInt8]) -> Void) {
            precondition(session.hasReader, "a replay's lines are its reader's: make the session with `reader: options.reader`")
            if options.trace {
                for line in session.batch.trace { traced(line) }
                for bug in session.batch.bugs { traced(bug.traceLine) }
            }
            if let (encoded, lines) = session.readerLines {
                for line in lines { bytes += encoded[line.range] }
            }
            if options.forwarded {
                for f in session.batch.forwarded {
                    let seq = session.numberExtraLine()
                    LineEncoder.forwarded(f, device: names[f.device.value], seq: seq, format: options.format, into: &bytes)
                }
            }
            if !bytes.isEmpty { write(&bytes) }
        }
    }

    /// No udev here: the device's kind follows from INPUT_PROP_DIRECT, as udev's rules would say.
    static func properties(_ device: DeviceDescription) -> [String: String] {
        [device.isDirect ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD": "1"]
    }

    /// The device rule that applies to the replayed device (as `DeviceAdmission` gives it: none
    /// when the rule ignores it), and the screen it maps onto (the first screen's, in the
    /// `screens` form: `gestured draw` pictures one screen).
    public static func setting(of device: DeviceDescription, in configuration: Configuration) -> (rule: DeviceRule?, screen: Size) {
        let admitted = try? DeviceAdmission.admit(device, properties: properties(device), configuration: configuration,
                                                  selecting: false).get()
        let rule = admitted?.rule
        return (rule, GesturePipeline.screen(configuration: configuration, firstDevice: device, rotation: rule?.rotation ?? .none))
    }
}

extension RawEvent {
    /// A `SYN_REPORT`: the end of a frame.
    var isFrameEnd: Bool { type == EventCode.EV_SYN && code == EventCode.SYN_REPORT }
}

public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    case configuration(GestureEngine.BuildError)
    case device(EvdevFrameDecoder.Unsupported)
    /// No screen of the configuration takes the device (its sysname).
    case noScreen(String)
    public var description: String {
        switch self {
        case .configuration(let e): "configuration: \(e)"
        case .device(let e): "device not usable: \(e)"
        case .noScreen(let sysname): "\(sysname): no screen of the configuration takes this device (no devices rule matches it and no screen says devices: \"rest\")"
        }
    }
}
