import GesturedConfig
import GesturedCore
import GesturedSynthetic

/// The `requests` fuzz target: what clients send on the socket, through the daemon's decision
/// parts (`RequestFramer`, `ClientRequest`, `ControlDesk`, `Subscribers`) while a scripted
/// stream of touches runs through a pipeline with views, layouts and two devices.
///
/// Input: records `[c, n, n bytes]`: the bytes go to client `c % 3` (client 2 may not control),
/// then the stream moves on `c >> 2 & 3` frames. Checks that
/// - the framer cuts the byte stream into the lines a plain split makes, with one `tooLong`
///   per line over `ClientRequest.maximumLength` bytes;
/// - every request gets one answer, in the client's format as the request leaves it, that
///   parses (`ProtocolLine`): `ok command=VERB` for a request that applies, `error` naming
///   the request otherwise (and then the subscription is unchanged), `stats` for `stats`;
/// - an accepted filter prints back to itself, and its globs match every subject as
///   `ReferenceGlob` does (the time limit of the run catches a matcher that backtracks);
/// - every output of the stream and of control requests reaches exactly the clients whose
///   subscription wants it, parses, and has a `seq` above the client's last (`ClientPanel`);
///   gestures and touches live and end as `OutputLedger` says, and once the stream lifts every
///   finger and its deadlines pass, nothing runs.
public enum RequestTarget {
    static let configurationText = """
        {
          screen: { width: 1280, height: 800 },
          views: [
            { id: "root", gestures: [
                { id: "tap", type: "tap", requireToFail: ["doubleTap"] },
                { id: "doubleTap", type: "tap", numberOfTapsRequired: 2 },
                { id: "hold", type: "longPress" },
                { id: "drag", type: "pan" } ],
              subviews: [
                { id: "map-canvas-with-a-long-identifier", frame: [0, 100, 1280, 600], gestures: [
                    { id: "zoom", type: "pinch", recognizeSimultaneouslyWith: ["spin"] },
                    { id: "spin", type: "rotation" },
                    { id: "mapPan", type: "pan", minimumNumberOfTouches: 2 } ] },
                { id: "toolbar-button-primary-action", frame: [0, 0, 400, 100], gestures: [
                    { id: "buttonTap", type: "tap" } ] },
                { id: "overlay", frame: [400, 0, 200, 200], isHidden: true, gestures: [
                    { id: "overlaySwipe", type: "swipe", direction: ["left", "right"] } ] },
              ] },
          ],
          layouts: {
            day: { "map-canvas-with-a-long-identifier": { isHidden: false }, overlay: { isHidden: true } },
            night: { "map-canvas-with-a-long-identifier": { isHidden: true }, overlay: { isHidden: false },
                     "toolbar-button-primary-action": { frame: [0, 0, 1280, 48], isUserInteractionEnabled: false } },
          },
        }
        """
    static let configuration: Configuration = {
        do { return try ConfigLoader.parse(configurationText, file: "requests-fuzz.json5") } catch {
            preconditionFailure("the requests target's configuration is invalid: \(error)")
        }
    }()
    static let devices = [DeviceTable.device(0, 0, sysname: "event0"), DeviceTable.device(1, 0, sysname: "event1")]
    static let screen = Size(width: 1280, height: 800)
    /// Client 2 holds no right (uid 65534); the others every one.
    static func caller(_ client: Int) -> ControlDesk.Caller {
        client == 2 ? ControlDesk.Caller(uid: 65534, rights: []) : ControlDesk.Caller(uid: 0, rights: Set(Right.allCases))
    }
    /// Subjects every accepted glob is compared on: the values lines carry.
    static let subjects = ["", "tap", "doubleTap", "pinch", "began", "ended", "cancelled", "failed", "root", "event0", "event1",
                           "map-canvas-with-a-long-identifier", "toolbar-button-primary-action", "overlay", "[", "*", "a]b", "é-ü"]

    struct Client {
        var framer = RequestFramer()
        var sent: [UInt8] = []
        var items: [RequestFramer.Item] = []
    }

    public static func run(_ bytes: [UInt8]) throws(Violation) {
        var input = FuzzInput(bytes)
        var pipeline: ControlledPipeline
        do { pipeline = try ControlledPipeline(configuration: configuration, devices: devices, screen: screen) } catch {
            throw Violation("the requests target's pipeline cannot be built: \(error)")
        }
        var script = TouchScript()
        var clients = [Client](repeating: Client(), count: 3)
        var panel = ClientPanel([ClientSubscription](repeating: ClientSubscription(), count: 3))
        var ledger = OutputLedger(monotonic: true)
        func take(_ step: PipelineStep) throws(Violation) {
            if let bug = step.bugs.first { throw Violation("the engine reported a bug of its own: \(bug)") }
            for output in step.outputs { try ledger.take(output); try panel.publish(output) }
        }
        while !input.isAtEnd {
            let c = input.byte()
            let client = Int(c) % 3
            let chunk = Array(input.take(Int(input.byte())))
            clients[client].sent += chunk
            clients[client].framer.append(chunk)
            while let item = clients[client].framer.next() {
                clients[client].items.append(item)
                try take(try answer(item, client: client, panel: &panel, pipeline: &pipeline, now: script.now))
            }
            for _ in 0..<Int(c >> 2 & 3) {
                let frame = script.nextFrame()
                for (k, event) in frame { try take(pipeline.feed(event, device: k)) }
                // A frame that changes nothing does not move the pipeline's clock: time does.
                if let time = frame.first?.1.time { try take(pipeline.advance(to: time)) }
            }
        }
        for (k, event) in script.liftAll() { try take(pipeline.feed(event, device: k)) }
        while let deadline = pipeline.nextDeadline { try take(pipeline.advance(to: deadline)) }
        try ledger.checkSettled("every finger lifted and every deadline passed")
        for (n, client) in clients.enumerated() { try checkFraming(client, n) }
    }

    /// The reference split: complete lines, each over the limit one `tooLong`, and a
    /// `tooLong` for an unfinished line already over it.
    static func checkFraming(_ client: Client, _ n: Int) throws(Violation) {
        var expected: [RequestFramer.Item] = []
        let parts = client.sent.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() {
            let complete = i < parts.count - 1
            if part.count > ClientRequest.maximumLength { expected.append(.tooLong) }
            else if complete { expected.append(.line(String(decoding: part, as: UTF8.self))) }
        }
        try require(client.items == expected, "client \(n): the framer gave \(client.items.count) items where a split gives \(expected.count)")
    }

    /// Answers one request item of `client` and checks the answer; returns what a control
    /// request made the pipeline produce, for the caller to publish.
    static func answer(_ item: RequestFramer.Item, client: Int, panel: inout ClientPanel, pipeline: inout ControlledPipeline,
                       now: Instant) throws(Violation) -> PipelineStep {
        let before = panel.subscriptions[client]
        var step = PipelineStep()
        let caller = caller(client)
        let outcome = ControlDesk.answer(item, subscription: &panel.subscriptions[client], caller: caller, control: { request, format in
            // Applied: the batch answers it (`ok`, or an `error` saying why the pipeline refused).
            step = pipeline.apply(request, format: format, now: now).step
        }, stats: { format in LineEncoder.stats(LatencyHistogram(), format: format) })
        let after = panel.subscriptions[client]
        guard let reply = outcome.answer ?? step.reply else { throw Violation("no answer to \(item) for client \(client)") }
        try require((outcome.answer == nil) == (step.reply != nil), "\(item): answered twice or by neither the desk nor the batch")
        let answer = Array(reply.utf8)
        let line = try ProtocolLine.parse(answer, json: after.format == .json)
        let what = "answer to \(item) for client \(client)"
        switch item {
        case .tooLong:
            try require(line.kind == "error" && line["command"] == "", "\(what): \(show(answer))")
            try require(after == before, "\(what): an overlong line changed the subscription")
        case .line(let text):
            let parsed = Result { () throws(ClientRequest.ParseError) in try ClientRequest.parse(text[...]) }
            switch parsed {
            case .failure(let error):
                try require(line.kind == "error" && line["command"] == error.command && line["message"] == error.message,
                            "\(what): \(show(answer)) for the parse error \(error.command): \(error.message)")
                try require(outcome.badRequest == error.message, "\(what): the bad request is not reported for the log")
                try require(after == before, "\(what): a bad request changed the subscription")
            case .success(let request):
                let verb = String(text.split(separator: " ", omittingEmptySubsequences: false).first ?? "")
                try require(request.command == verb || text.hasSuffix("\r"), "\(what): the request \(request) is named \(request.command) for the verb \(verb)")
                if let right = request.right, !caller.rights.contains(right) {
                    try require(line.kind == "error" && line["message"] == right.refusal(command: request.refusalName, uid: caller.uid)
                                && outcome.refused == right, "\(what): \(show(answer)) for a request without its right")
                    try require(after == before, "\(what): a refused request changed the subscription")
                } else if line.kind == "error" {
                    guard case .control = request else { throw Violation("\(what): \(show(answer)) for a request that parsed") }
                    try require(after == before, "\(what): a refused control request changed the subscription")
                } else if request == .stats {
                    try require(line.kind == "stats", "\(what): \(show(answer))")
                } else {
                    try require(line.kind == "ok" && line["command"] == request.command && outcome.accepted == text,
                                "\(what): \(show(answer))")
                }
                if case .filter(let filter?) = request, line.kind == "ok" {
                    try require(after.filter == filter, "\(what): the subscription's filter is not the request's")
                    try checkFilter(filter)
                }
            }
        }
        return step
    }

    static func checkFilter(_ filter: LineFilter) throws(Violation) {
        let printed = filter.description
        let again = Result { () throws(LineFilter.ParseError) in try LineFilter(parsing: printed) }
        guard case .success(let reparsed) = again, reparsed == filter else {
            throw Violation("the filter does not print back to itself: \(printed)")
        }
        for term in filter.terms {
            for pattern in term.alternatives {
                for subject in subjects {
                    let matched = pattern.matches(subject), reference = ReferenceGlob.matches(pattern.pattern, subject)
                    try require(matched == reference, "glob \(pattern) on \"\(subject)\": \(matched), the reference says \(reference)")
                }
            }
        }
    }
}

/// The touches the requests target's pipeline sees, frame by frame on device 0 (device 1 takes
/// a tap now and then): a tap on the root, a double tap on the toolbar button, two fingers
/// pinching and turning on the map, a long press, a drag; then again, 10 ms per frame.
struct TouchScript {
    private(set) var now = Instant(seconds: 1, microseconds: 0)
    private var frame = 0
    private var nextID: Int32 = 1
    static let cycle = 80

    /// Device units of the synthetic touchscreen (0…4095) for screen points on 1280 × 800.
    static func units(_ x: Double, _ y: Double) -> (Int32, Int32) { (Int32(x / 1280 * 4095), Int32(y / 800 * 4095)) }

    mutating func nextFrame() -> [(Int, RawEvent)] {
        defer { frame += 1; now = now + Interval(microseconds: 10_000) }
        let t = frame % Self.cycle
        var events: [(Int, UInt16, Int32)] = []
        func add(_ contact: PanelScript.Contact, device: Int = 0) {
            events += PanelScript.events(contact).map { (device, $0.code, $0.value) }
        }
        func down(_ slot: Int32, _ x: Double, _ y: Double, device: Int = 0) {
            let (ux, uy) = Self.units(x, y)
            add(.down(slot: slot, id: nextID, x: ux, y: uy), device: device)
            nextID += 1
        }
        func move(_ slot: Int32, _ x: Double, _ y: Double) {
            let (ux, uy) = Self.units(x, y)
            add(.move(slot: slot, x: ux, y: uy))
        }
        func up(_ slot: Int32, device: Int = 0) { add(.up(slot: slot), device: device) }
        switch t {
        case 0: down(0, 640, 750)
        case 5: up(0)
        case 20, 26: down(0, 200, 50)
        case 23, 29: up(0)
        case 40: down(0, 500, 400); down(1, 700, 400)
        case 41...54:
            let k = Double(t - 40)
            move(0, 500 - 8 * k, 400 - 3 * k); move(1, 700 + 8 * k, 400 + 3 * k)
        case 55: up(0); up(1)
        case 60: down(0, 900, 700); down(0, 100, 100, device: 1)
        case 62: up(0, device: 1)
        case 61...69: move(0, 900 + Double(t - 60), 700)
        case 70: up(0)
        case 71: down(0, 100, 700)
        case 72...78: move(0, 100 + 40 * Double(t - 71), 700 - 10 * Double(t - 71))
        case 79: up(0)
        default: break
        }
        var result: [(Int, RawEvent)] = events.map { ($0.0, RawEvent(time: now, type: EventCode.EV_ABS, code: $0.1, value: $0.2)) }
        for device in Set(events.map(\.0)).sorted() {
            result.append((device, RawEvent(time: now, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)))
        }
        if result.isEmpty {
            // A frame that changes nothing still passes time for the deadlines.
            result.append((0, RawEvent(time: now, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)))
        }
        return result
    }

    /// Every slot of both devices lifted.
    mutating func liftAll() -> [(Int, RawEvent)] {
        now = now + Interval(microseconds: 100_000)
        return (0..<2).flatMap { device in
            PipelineScenario.lift(slots: 10, at: now).map { (device, $0) }
        }
    }
}
