import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The decisions of the daemon's client hub and control part, without sockets or a subprocess:
/// who receives which line with which seq (`Subscribers`), what each request line is answered
/// and what a control request changes (`ControlDesk`).
struct DaemonPartsTests {
    typealias Run = GesturePipelineTests.Run
    static let panel = GesturePipelineTests.panel

    /// Delivers `item` to the clients registered in `subscribers` (`Subscribers.delivery`) and
    /// adds each client's lines to `received`; returns the seq after it.
    static func deliver(_ item: GesturePipeline.Output, with subscribers: inout Subscribers,
                        to received: inout [UInt64: [String]]) -> UInt64 {
        collect(subscribers.delivery(of: [item]), into: &received)
        return subscribers.seq
    }

    /// Each member's published lines, without their newline.
    static func collect(_ delivery: Delivery, into received: inout [UInt64: [String]]) {
        for part in delivery.parts {
            for member in part.members {
                received[member.value, default: []] += part.published.map {
                    String(decoding: part.bytes[$0.range].dropLast(), as: UTF8.self)
                }
            }
        }
    }

    /// A tap's touch lines and its gesture line, the touch lines with a lift of the touch at 40 ms.
    static func tapOutputs() throws -> [GesturePipeline.Output] {
        var run = try Run()
        let a = try run.pipeline.addDevice(panel)
        var outputs = Decisions()
        for e in contactEvents(id: 1, x: 500, y: 500, ms: 0) + contactEvents(id: -1, ms: 40) {
            run.pipeline.handle(e, from: a, into: &outputs)
        }
        return outputs.outputs
    }

    @Test func eachClientGetsWhatItSubscribedToNumberedByLinesSentToAnyone() throws {
        var subscribers = Subscribers()
        var touchesInJSON = ClientSubscription(), swipes = ClientSubscription()
        touchesInJSON.apply(.subscribe(.touches))
        touchesInJSON.apply(.format(.json))
        swipes.apply(.filter(try LineFilter(parsing: "type=swipe")))
        subscribers.connect(ClientKey(1))
        subscribers.set(touchesInJSON, of: ClientKey(2))
        subscribers.set(swipes, of: ClientKey(3))
        var received: [UInt64: [String]] = [:]
        var seqs: [UInt64] = []
        for item in try Self.tapOutputs() { seqs.append(Self.deliver(item, with: &subscribers, to: &received)) }
        #expect(received[1] == [
            "gesture tap ended tap view=root device=event3 time=0.040000 seq=3 touches=1 x=500.00 y=500.00 viewX=500.00 viewY=500.00 taps=1",
        ])
        let json = received[2] ?? []
        #expect(json.count == 3)
        #expect(json.first?.hasPrefix("{\"event\":\"touch\",\"phase\":\"began\"") == true, "\(json)")
        #expect(json.last?.contains("\"seq\":3") == true, "\(json)")
        #expect(received[3, default: []].isEmpty)
        #expect(seqs == [1, 2, 3])
        #expect(subscribers.seq == 3)
    }

    @Test func aLineNobodyWantsIsNeitherNumberedNorSent() throws {
        var subscribers = Subscribers()
        subscribers.connect(ClientKey(7))
        var received: [UInt64: [String]] = [:]
        let outputs = try Self.tapOutputs()   // touch began, touch ended, tap ended
        // Nobody subscribed to touches: the touch lines take no number.
        #expect(outputs.map { Self.deliver($0, with: &subscribers, to: &received) } == [0, 0, 1])
        #expect(received[7]?.count == 1 && received[7]?[0].contains(" seq=1 ") == true, "\(received)")
        // A client that went gets nothing, and its line is nobody's.
        var gone = Subscribers()
        gone.connect(ClientKey(1))
        gone.drop(ClientKey(1))
        #expect(gone.delivery(of: [outputs[2]]).isEmpty)
        #expect(gone.seq == 0)
    }

    @Test func deviceLinesAreNumberedOnceForEveryClientAndNotAtAllForNobody() {
        let line = DeviceLine(added: true, sysname: "event5", name: "Panel")
        var nobody = Subscribers()
        #expect(nobody.delivery(of: [], deviceLines: [line]).isEmpty)
        #expect(nobody.seq == 0)
        var subscribers = Subscribers()
        var json = ClientSubscription()
        json.format = .json
        subscribers.connect(ClientKey(1))
        subscribers.set(json, of: ClientKey(2))
        subscribers.connect(ClientKey(3))
        var received: [UInt64: [String]] = [:]
        Self.collect(subscribers.delivery(of: [], deviceLines: [line]), into: &received)
        let text = LineEncoder.device(added: true, sysname: "event5", name: "Panel", seq: 1, format: .text)
        let inJSON = LineEncoder.device(added: true, sysname: "event5", name: "Panel", seq: 1, format: .json)
        #expect(received == [1: [String(text.dropLast())], 2: [String(inJSON.dropLast())], 3: [String(text.dropLast())]])
        #expect(subscribers.seq == 1)
    }

    // MARK: Requests

    @Test func requestLinesAreAnsweredInTheClientsFormat() {
        var subscription = ClientSubscription()
        var applied: [ControlRequest] = []
        func answer(_ item: RequestFramer.Item, rights: Set<Right> = Set(Right.allCases)) -> ControlDesk.Outcome {
            ControlDesk.answer(item, subscription: &subscription, caller: .init(uid: 1000, rights: rights),
                               control: { request, _ in applied.append(request) }, stats: { "stats \($0)\n" })
        }
        #expect(answer(.line("ping")) == .init(answer: "ok command=ping\n", accepted: "ping"))
        #expect(answer(.line("frobnicate")).badRequest != nil)
        #expect(answer(.line("frobnicate")).answer?.hasPrefix("error ") == true)
        #expect(answer(.tooLong).answer == "error command=\"\" message=\"request longer than 1024 bytes\"\n")
        #expect(answer(.line("stats")) == .init(answer: "stats text\n", accepted: "stats"))
        #expect(answer(.line("format json")).answer == "{\"event\":\"ok\",\"command\":\"format\"}\n")
        #expect(subscription.format == .json)
        let refused = answer(.line("hide root"), rights: [.screen])
        #expect(refused.accepted == nil && refused.badRequest == nil && refused.refused == .views && applied.isEmpty)
        #expect(refused.answer == "{\"event\":\"error\",\"command\":\"hide\",\"message\":\"hide needs the views right, which uid 1000 "
                + "does not hold: root, the daemon's user and the configuration's control or permissions.views uids and groups hold it\"}\n")
        #expect(answer(.line("hide root"), rights: [.views]) == .init(answer: nil, accepted: "hide root"))
        #expect(applied == [.view("root", .hidden(true))])
        #expect(answer(.line("subscribe touches"), rights: [.views, .screen, .lock]).refused == .touches)
        #expect(!subscription.touches)
        #expect(answer(.line("subscribe touches")).accepted == "subscribe touches")
        #expect(subscription.touches)
    }

    /// The right each request needs, as a table: every control verb, every stream.
    @Test func eachRequestNeedsItsRight() throws {
        let table: [(String, Right?)] = [
            ("show a", .views), ("hide a", .views), ("enable a", .views), ("disable a", .views), ("frame a 0 0 1 1", .views),
            ("layout night", .views), ("rotate event5 90", .views), ("screen off", .screen), ("screen on s", .screen),
            ("lock 30", .lock), ("unlock", .lock), ("subscribe touches", .touches), ("subscribe trace", .touches),
            ("subscribe failed", nil), ("unsubscribe touches", nil), ("unsubscribe trace", nil), ("format json", nil),
            ("filter type=tap", nil), ("ping", nil), ("stats", nil),
        ]
        for (line, right) in table { #expect(try ClientRequest.parse(line[...]).right == right, "\(line)") }
        #expect(Set(table.compactMap { $0.1 }) == Set(Right.allCases))
        var verbs: Set<String> = []
        for (line, _) in table {
            if case .control(let request)? = try? ClientRequest.parse(line[...]) { verbs.insert(request.command) }
        }
        #expect(verbs == Set(ControlRequest.verbs), "every control verb is in the table")
    }

    @Test func controlChangesThePipelineOrSaysWhyNot() throws {
        var run = try Run()
        let a = try run.pipeline.addDevice(Self.panel)
        var output = Batch()
        let now = Instant(microseconds: 0)
        let devices = [ControlDesk.Device(sysname: "event3", id: a)]
        let layouts = [ControlDesk.ScreenLayouts(screen: nil, layouts: [
            "small": Layout(entries: [.init(view: "corner", changes: [.frame(frame(0, 0, 10, 10))])]),
        ])]
        func apply(_ r: ControlRequest) -> String? {
            ControlDesk.apply(r, to: &run.pipeline, layouts: layouts, devices: devices, now: now, into: &output)
        }
        #expect(apply(.view("nowhere", .hidden(true))) == "no view 'nowhere'")
        #expect(apply(.layout("big")) == "no layout 'big' (small)")
        #expect(ControlDesk.apply(.layout("big"), to: &run.pipeline, layouts: [], devices: devices, now: now, into: &output)
                == "no layout 'big' (the configuration defines none)")
        #expect(apply(.rotate(device: "event9", .quarter)) == "no device matches 'event9'")
        #expect(apply(.layout("small", screen: "operator")) == "no screen 'operator' (the configuration has no screens)")
        #expect(apply(.layout("small")) == nil)
        let corner = run.pipeline.engine.tree.index(of: "corner")!
        #expect(run.pipeline.engine.tree.nodes[corner].frame == frame(0, 0, 10, 10))
        #expect(apply(.rotate(device: "event*", .quarter)) == nil)
        #expect(run.pipeline.geometry(of: a)?.rotation == .quarter)
        #expect(output.outputs.isEmpty)
        #expect(output.reply == "ok command=rotate\n")
        #expect(ControlDesk.describe(.view("corner", .frame(frame(1, 2, 3, 4)))) == "corner 1.00 2.00 3.00 4.00")
    }
}
