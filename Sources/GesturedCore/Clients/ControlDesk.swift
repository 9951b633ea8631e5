/// What the daemon does with a client's request lines, as data: the answer to each line and the
/// changes a control request makes to the pipeline. The daemon's shell adds only sockets, the
/// clock, the peer's authority and logging, so both are tested without a socket or a subprocess.
public enum ControlDesk {
    /// One request line handled.
    public struct Outcome: Hashable, Sendable {
        /// The `ok`, `error` or `stats` line to send back, in the client's (possibly just changed)
        /// format.
        public var answer: String
        /// The request line, when it was applied (the daemon logs it).
        public var accepted: String?
        /// Why the line was not a valid request, when it was not (the daemon logs it, rate-limited).
        public var badRequest: String?
    }

    /// Answers one framed request item, applying it to the client's subscription.
    ///
    /// - Parameters:
    ///   - control: applies a control request, returning why it was refused (nothing changed
    ///     then) or nil.
    ///   - stats: the `stats` line in a format.
    public static func answer(_ item: RequestFramer.Item, subscription: inout ClientSubscription,
                              control: (ControlRequest) -> String?, stats: (LineFormat) -> String) -> Outcome {
        let line: String
        switch item {
        case .tooLong:
            return Outcome(answer: LineEncoder.error(command: "", message: "request longer than \(ClientRequest.maximumLength) bytes",
                                                     format: subscription.format))
        case .line(let l): line = l
        }
        let request: ClientRequest
        do { request = try ClientRequest.parse(line[...]) } catch {
            return Outcome(answer: LineEncoder.error(command: error.command, message: error.message, format: subscription.format),
                           badRequest: error.message)
        }
        if case .control(let c) = request, let refusal = control(c) {
            return Outcome(answer: LineEncoder.error(command: request.command, message: refusal, format: subscription.format))
        }
        subscription.apply(request)
        let answer = request == .stats ? stats(subscription.format)
                                       : LineEncoder.ok(command: request.command, format: subscription.format)
        return Outcome(answer: answer, accepted: line)
    }

    /// A device the daemon has open, as `rotate` matches it.
    public struct Device: Hashable, Sendable {
        public var sysname: String
        public var id: GesturePipeline.DeviceID
        public init(sysname: String, id: GesturePipeline.DeviceID) { self.sysname = sysname; self.id = id }
    }

    /// Applies a control request of an authorized peer at `now`: first the deadlines due by then
    /// fire, then the change; the gesture lines both cause are appended to `output`. Returns why
    /// the request cannot apply instead (no such view, layout or device); deadlines may still
    /// have fired then.
    public static func apply(_ request: ControlRequest, to pipeline: inout GesturePipeline,
                             layouts: [String: Layout], devices: [Device], now: Instant,
                             into output: inout [GesturePipeline.Output]) -> String? {
        pipeline.advance(to: now, into: &output)
        switch request {
        case .view(let view, let change):
            guard pipeline.change(change, ofView: view, now: now, into: &output) else { return "no view '\(view)'" }
        case .layout(let name):
            guard let layout = layouts[name] else {
                let known = layouts.keys.sorted()
                return "no layout '\(name)'" + (known.isEmpty ? " (the configuration defines none)" : " (\(known.joined(separator: ", ")))")
            }
            for entry in layout.entries {
                for change in entry.changes { _ = pipeline.change(change, ofView: entry.view, now: now, into: &output) }
            }
        case .rotate(let pattern, let rotation):
            let matching = devices.filter { Glob.matches(pattern, $0.sysname) }
            guard !matching.isEmpty else { return "no device matches '\(pattern)'" }
            for device in matching { pipeline.setRotation(rotation, of: device.id, now: now, into: &output) }
        }
        return nil
    }

    /// The request's arguments as the daemon's log repeats them.
    public static func describe(_ request: ControlRequest) -> String {
        switch request {
        case .view(let view, .frame(let f)):
            "\(view) \(LineEncoder.fixed(f.minX, decimals: 2)) \(LineEncoder.fixed(f.minY, decimals: 2)) \(LineEncoder.fixed(f.size.width, decimals: 2)) \(LineEncoder.fixed(f.size.height, decimals: 2))"
        case .view(let view, _): view
        case .layout(let name): name
        case .rotate(let device, let rotation): "\(device) \(rotation.rawValue)"
        }
    }
}
