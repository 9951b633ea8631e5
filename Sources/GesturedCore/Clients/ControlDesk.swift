/// What the daemon does with a client's request lines, as data: the answer to each line and the
/// changes a control request makes to the pipeline. The daemon's shell adds only sockets, the
/// clock, the peer's authority and logging, so both are tested without a socket or a subprocess.
public enum ControlDesk {
    /// One request line handled.
    public struct Outcome: Hashable, Sendable {
        /// The `ok`, `error` or `stats` line to send back, in the client's (possibly just changed)
        /// format; nil for a control request that went to the pipeline, whose batch carries its
        /// answer (`Batch.reply`) ahead of the lines it caused.
        public var answer: String?
        /// The request line, when it was applied (the daemon logs it).
        public var accepted: String?
        /// Why the line was not a valid request, when it was not (the daemon logs it, rate-limited).
        public var badRequest: String?
        /// The right the peer lacked, when it was refused for that (the daemon logs it).
        public var refused: Right?
    }

    /// The sender of request lines: its uid (nil when the kernel would not say) and its rights
    /// (`RightsPolicy.rights`).
    public struct Caller: Hashable, Sendable {
        public var uid: UInt32?
        public var rights: Set<Right>
        public init(uid: UInt32?, rights: Set<Right>) { self.uid = uid; self.rights = rights }
    }

    /// Answers one framed request item, applying it to the client's subscription. A request
    /// that needs a right `caller` does not hold (`ClientRequest.right`) is answered with an
    /// `error` naming the right and changes nothing.
    ///
    /// - Parameters:
    ///   - control: hands a control request of a peer that holds its right to the pipeline
    ///     (`apply`, whose batch answers it).
    ///   - stats: the `stats` line in a format.
    public static func answer(_ item: RequestFramer.Item, subscription: inout ClientSubscription, caller: Caller,
                              control: (ControlRequest, LineFormat) -> Void, stats: (LineFormat) -> String) -> Outcome {
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
        if let right = request.right, !caller.rights.contains(right) {
            let message = right.refusal(command: request.refusalName, uid: caller.uid)
            return Outcome(answer: LineEncoder.error(command: request.command, message: message, format: subscription.format),
                           refused: right)
        }
        if case .control(let c) = request {
            control(c, subscription.format)
            return Outcome(answer: nil, accepted: line)
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

    /// The layouts of one screen (`ScreenSpec.layouts`); `screen` is nil in the single form.
    public struct ScreenLayouts: Hashable, Sendable {
        public var screen: String?
        public var layouts: [String: Layout]
        public init(screen: String?, layouts: [String: Layout]) { self.screen = screen; self.layouts = layouts }
    }

    /// Every screen's layouts, in the configuration's order.
    public static func layouts(of configuration: Configuration) -> [ScreenLayouts] {
        configuration.screenSpecs.map { ScreenLayouts(screen: $0.id, layouts: $0.layouts) }
    }

    /// Applies a control request of an authorized peer at `now`: first the deadlines due by then
    /// fire, then the change; `batch` holds what both decided (one entry point of the pipeline,
    /// like a frame), and its `reply` answers the request in `format`: `ok`, or an `error` saying
    /// why it cannot apply (no such view, layout, screen or device; deadlines may still have
    /// fired then), which is also returned.
    ///
    /// View ids are unique across screens, so a view request needs no screen. `layout NAME`
    /// applies the layout of every screen that has one by that name; `layout NAME SCREEN` that
    /// screen's only.
    public static func apply(_ request: ControlRequest, to pipeline: inout GesturePipeline,
                             layouts: [ScreenLayouts], devices: [Device], format: LineFormat = .text, now: Instant,
                             into batch: inout Batch) -> String? {
        pipeline.step(.control(request, layouts: layouts, devices: devices, format: format, now: now), into: &batch)
    }

    /// The request's change, within the pipeline's step (`GesturePipeline.step`, which fired the
    /// due deadlines first and answers it): why it cannot apply, or nil.
    static func decide(_ request: ControlRequest, to pipeline: inout GesturePipeline, layouts: [ScreenLayouts],
                       devices: [Device], now: Instant, into batch: inout Batch) -> String? {
        switch request {
        case .view(let view, let change):
            guard pipeline.appendChange(change, ofView: view, now: now, into: &batch) else { return "no view '\(view)'" }
        case .layout(let name, let screen):
            var candidates = layouts
            if let screen {
                candidates = layouts.filter { $0.screen == screen }
                guard !candidates.isEmpty else {
                    let known = layouts.compactMap(\.screen)
                    return "no screen '\(screen)'" + (known.isEmpty ? " (the configuration has no screens)" : " (\(known.joined(separator: ", ")))")
                }
            }
            let found = candidates.compactMap { $0.layouts[name] }
            guard !found.isEmpty else {
                let known = Set(candidates.flatMap(\.layouts.keys)).sorted()
                return "no layout '\(name)'" + (known.isEmpty ? " (the configuration defines none)" : " (\(known.joined(separator: ", ")))")
            }
            for layout in found {
                for entry in layout.entries {
                    for change in entry.changes { _ = pipeline.appendChange(change, ofView: entry.view, now: now, into: &batch) }
                }
            }
        case .rotate(let pattern, let rotation):
            let matching = devices.filter { Glob.matches(pattern, $0.sysname) }
            guard !matching.isEmpty else { return "no device matches '\(pattern)'" }
            for device in matching { pipeline.appendRotation(rotation, of: device.id, now: now, into: &batch) }
        case .screenPower(let on, let screen):
            switch screens(screen, of: pipeline) {
            case .failure(let refusal): return refusal.message
            case .success(let indices): pipeline.setScreensOff(!on, screens: indices)
            }
        case .lock(let seconds, let screen):
            switch screens(screen, of: pipeline) {
            case .failure(let refusal): return refusal.message
            case .success(let indices): pipeline.appendLock(screens: indices, seconds: seconds, now: now, into: &batch)
            }
        case .unlock(let screen):
            switch screens(screen, of: pipeline) {
            case .failure(let refusal): return refusal.message
            case .success(let indices): pipeline.appendUnlock(screens: indices, now: now, into: &batch)
            }
        }
        return nil
    }

    private struct Refusal: Error { var message: String }

    /// The screens a kiosk request names: every screen without an id, else the one with it.
    private static func screens(_ id: String?, of pipeline: GesturePipeline) -> Result<[Int], Refusal> {
        guard let id else { return .success(Array(pipeline.screens.indices)) }
        if let index = pipeline.screens.firstIndex(where: { $0.id == id }) { return .success([index]) }
        let known = pipeline.screens.compactMap(\.id)
        return .failure(Refusal(message: "no screen '\(id)'"
                                + (known.isEmpty ? " (the configuration has no screens)" : " (\(known.joined(separator: ", ")))")))
    }

    /// The request's arguments as the daemon's log repeats them.
    public static func describe(_ request: ControlRequest) -> String {
        switch request {
        case .view(let view, .frame(let f)):
            "\(view) \(LineEncoder.fixed(f.minX, decimals: 2)) \(LineEncoder.fixed(f.minY, decimals: 2)) \(LineEncoder.fixed(f.size.width, decimals: 2)) \(LineEncoder.fixed(f.size.height, decimals: 2))"
        case .view(let view, _): view
        case .layout(let name, let screen): screen.map { "\(name) \($0)" } ?? name
        case .rotate(let device, let rotation): "\(device) \(rotation.rawValue)"
        case .screenPower(let on, let screen): (on ? "on" : "off") + (screen.map { " \($0)" } ?? "")
        case .lock(let seconds, let screen): "\(seconds)" + (screen.map { " \($0)" } ?? "")
        case .unlock(let screen): screen ?? ""
        }
    }
}
