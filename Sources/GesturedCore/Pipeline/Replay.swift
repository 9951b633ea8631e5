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
        public init(format: LineFormat = .text, touches: Bool = false, failed: Bool = false, trace: Bool = false) {
            self.format = format; self.touches = touches; self.failed = failed; self.trace = trace
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
        var seq: UInt64 = 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        try drive(device: device, events: events, configuration: configuration, touches: options.touches,
                  trace: options.trace, traced: traced) { output in
            for o in output {
                switch o {
                case .touch where !options.touches: continue
                case .gesture(let g) where g.state == .failed && !options.failed: continue
                case .touch, .gesture: break
                }
                seq += 1
                LineEncoder.output(o, seq: seq, format: options.format, into: &bytes)
            }
            if !bytes.isEmpty { write(&bytes) }
        }
    }

    /// Every output of the replay (touches and gestures, failed ones included), in order: what
    /// `gestured draw` pictures.
    public static func outputs(device: DeviceDescription, events: [RawEvent],
                               configuration: Configuration) throws(ReplayError) -> [GesturePipeline.Output] {
        var all: [GesturePipeline.Output] = []
        try drive(device: device, events: events, configuration: configuration, touches: true, trace: false,
                  traced: { _ in }) { all += $0 }
        return all
    }

    /// The device rule that applies to the replayed device, and the screen it maps onto.
    public static func setting(of device: DeviceDescription, in configuration: Configuration) -> (rule: DeviceRule?, screen: Size) {
        // No udev here: the device's kind follows from INPUT_PROP_DIRECT, as udev's rules would say.
        let properties = [device.isDirect ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD": "1"]
        let rule = configuration.devices.first { $0.matches(device, properties: properties) }
        return (rule, GesturePipeline.screen(configuration: configuration, firstDevice: device, rotation: rule?.rotation ?? .none))
    }

    /// Runs the pipeline over `events` and hands `body` the outputs of each event (then of each
    /// deadline after the last), emptying them after each call.
    private static func drive(device: DeviceDescription, events: [RawEvent], configuration: Configuration,
                              touches: Bool, trace: Bool, traced: (String) -> Void,
                              body: (inout [GesturePipeline.Output]) -> Void) throws(ReplayError) {
        let (rule, screen) = setting(of: device, in: configuration)
        var pipeline: GesturePipeline
        do { pipeline = try GesturePipeline(configuration: configuration, screen: screen) } catch {
            throw .configuration(error)
        }
        pipeline.reportsTouches = touches
        pipeline.tracesTransitions = trace
        let id: GesturePipeline.DeviceID
        do { id = try pipeline.addDevice(device, rule: rule) } catch { throw .device(error) }
        var output: [GesturePipeline.Output] = []
        func flush() {
            if trace { for line in pipeline.drainTrace() { traced(line) } }
            body(&output)
            output.removeAll(keepingCapacity: true)
        }
        for event in events {
            pipeline.handle(event, from: id, into: &output)
            flush()
        }
        if let end = events.last?.time {
            pipeline.removeDevice(id, now: end, into: &output)
            flush()
        }
        while let deadline = pipeline.nextDeadline {
            pipeline.advance(to: deadline, into: &output)
            flush()
        }
    }
}

public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    case configuration(GestureEngine.BuildError)
    case device(EvdevFrameDecoder.Unsupported)
    public var description: String {
        switch self {
        case .configuration(let e): "configuration: \(e)"
        case .device(let e): "device not usable: \(e)"
        }
    }
}
