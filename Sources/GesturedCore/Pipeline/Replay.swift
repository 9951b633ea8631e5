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
    /// of `recordings`. Each device feeds the screen the configuration assigns it; a screen
    /// without a size takes its first device's, as in the daemon.
    public static func run(recordings: [(device: DeviceDescription, events: [RawEvent])], configuration: Configuration,
                           options: Options = Options(), traced: (String) -> Void = { _ in },
                           write: (inout [UInt8]) -> Void) throws(ReplayError) {
        var seq: UInt64 = 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        // Sysnames are checked by `addDevice` before anything is replayed.
        let names = recordings.map { DeviceName($0.device.sysname) ?? "" }
        try drive(recordings: recordings, configuration: configuration, touches: options.touches,
                  trace: options.trace, traced: traced) { output, forwarded in
            for o in output {
                switch o {
                case .touch where !options.touches: continue
                case .gesture(let g) where g.state == .failed && !options.failed: continue
                case .touch, .gesture: break
                }
                seq += 1
                LineEncoder.output(o, seq: seq, format: options.format, into: &bytes)
            }
            if options.forwarded {
                for f in forwarded {
                    seq += 1
                    LineEncoder.forwarded(f, device: names[f.device.value], seq: seq, format: options.format, into: &bytes)
                }
            }
            if !bytes.isEmpty { write(&bytes) }
        }
    }

    /// Every output of the replay (touches and gestures, failed ones included), in order: what
    /// `gestured draw` pictures.
    public static func outputs(device: DeviceDescription, events: [RawEvent],
                               configuration: Configuration) throws(ReplayError) -> [GesturePipeline.Output] {
        var all: [GesturePipeline.Output] = []
        try drive(recordings: [(device, events)], configuration: configuration, touches: true, trace: false,
                  traced: { _ in }) { output, _ in all += output }
        return all
    }

    /// No udev here: the device's kind follows from INPUT_PROP_DIRECT, as udev's rules would say.
    private static func properties(_ device: DeviceDescription) -> [String: String] {
        [device.isDirect ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD": "1"]
    }

    /// The device rule that applies to the replayed device, and the screen it maps onto (the
    /// first screen's, in the `screens` form: `gestured draw` pictures one screen).
    public static func setting(of device: DeviceDescription, in configuration: Configuration) -> (rule: DeviceRule?, screen: Size) {
        let rule = configuration.devices.first { $0.matches(device, properties: properties(device)) }
        return (rule, GesturePipeline.screen(configuration: configuration, firstDevice: device, rotation: rule?.rotation ?? .none))
    }

    /// Runs the pipeline over the recordings and hands `body` the outputs of each event (then of
    /// each deadline after the last) and what pass-through devices forwarded, emptying both
    /// after each call.
    private static func drive(recordings: [(device: DeviceDescription, events: [RawEvent])], configuration: Configuration,
                              touches: Bool, trace: Bool, traced: (String) -> Void,
                              body: (inout [GesturePipeline.Output], ArraySlice<ForwardedTouch>) -> Void) throws(ReplayError) {
        var placed: [(rule: DeviceRule?, screen: Int)] = []
        for (device, _) in recordings {
            let rule = configuration.devices.first { $0.matches(device, properties: properties(device)) }
            guard let screen = configuration.screenIndex(of: device, properties: properties(device)) else {
                throw .noScreen(device.sysname)
            }
            placed.append((rule, screen))
        }
        let sizes = configuration.screenSpecs.enumerated().map { index, spec in
            let first = placed.firstIndex { $0.screen == index }
            return GesturePipeline.size(configured: spec.size, firstDevice: first.map { recordings[$0].device },
                                        rotation: first.flatMap { placed[$0].rule?.rotation } ?? .none)
        }
        var pipeline: GesturePipeline
        do { pipeline = try GesturePipeline(configuration: configuration, sizes: sizes) } catch {
            throw .configuration(error)
        }
        pipeline.reportsTouches = touches
        pipeline.tracesTransitions = trace
        var ids: [GesturePipeline.DeviceID] = []
        for (k, (device, _)) in recordings.enumerated() {
            do { ids.append(try pipeline.addDevice(device, rule: placed[k].rule, screen: placed[k].screen)) } catch {
                throw .device(error)
            }
        }
        var output: [GesturePipeline.Output] = []
        func flush() {
            if trace { for line in pipeline.drainTrace() { traced(line) } }
            body(&output, pipeline.forwarded[...])
            output.removeAll(keepingCapacity: true)
            pipeline.removeForwarded()
        }
        /// The end of recording `k`: its device goes away at its last event's time.
        func end(_ k: Int) {
            guard let end = recordings[k].events.last?.time else { return }
            pipeline.removeDevice(ids[k], now: end, into: &output)
            flush()
        }
        if recordings.count == 1 {
            for event in recordings[0].events {
                pipeline.handle(event, from: ids[0], into: &output)
                flush()
            }
            end(0)
        } else {
            var next = Array(repeating: 0, count: recordings.count)
            while let k = earliestFrame(of: recordings.map(\.events), from: next) {
                let events = recordings[k].events
                repeat {
                    pipeline.handle(events[next[k]], from: ids[k], into: &output)
                    flush()
                    next[k] += 1
                } while next[k] < events.count && !events[next[k] - 1].isFrameEnd
                if next[k] == events.count { end(k) }
            }
        }
        while let deadline = pipeline.nextDeadline {
            pipeline.advance(to: deadline, into: &output)
            flush()
        }
    }

    /// The recording whose next frame comes first: the earliest time of the event that ends
    /// it (its `SYN_REPORT`, or the recording's last event), ties to the first recording.
    private static func earliestFrame(of recordings: [[RawEvent]], from next: [Int]) -> Int? {
        var best: (Int, Instant)?
        for (k, events) in recordings.enumerated() where next[k] < events.count {
            var end = next[k]
            while end + 1 < events.count && !events[end].isFrameEnd { end += 1 }
            if best.map({ events[end].time < $0.1 }) ?? true { best = (k, events[end].time) }
        }
        return best?.0
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
