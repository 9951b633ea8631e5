import Testing
@testable import GesturedCore

struct ClientRequestTests {
    func parse(_ s: String) -> String {
        do { return "\(try ClientRequest.parse(s[...]))" } catch { return "error \(error.command): \(error.message)" }
    }

    @Test func validRequests() throws {
        #expect(try ClientRequest.parse("format json") == .format(.json))
        #expect(try ClientRequest.parse("format text\r") == .format(.text))
        #expect(try ClientRequest.parse("subscribe touches") == .subscribe(.touches))
        #expect(try ClientRequest.parse("unsubscribe failed") == .unsubscribe(.failed))
        #expect(try ClientRequest.parse("subscribe trace") == .subscribe(.trace))
        #expect(try ClientRequest.parse("filter") == .filter(nil))
        #expect(try ClientRequest.parse("ping") == .ping)
        let filter = try LineFilter(parsing: "type=tap|swipe view=button-*")
        #expect(try ClientRequest.parse("filter type=tap|swipe view=button-*") == .filter(filter))
    }

    @Test func badRequestsSayWhatIsWrong() {
        #expect(parse("") == "error : empty request")
        #expect(parse("format") == "error format: format takes one argument")
        #expect(parse("format  json") == "error format: format takes one argument")
        #expect(parse("format xml") == "error format: unknown format 'xml' (text or json)")
        #expect(parse("subscribe everything") == "error subscribe: unknown stream 'everything' (touches, failed or trace)")
        #expect(parse("filter colour=red") == "error filter: unknown filter key 'colour' (type, state, name, view, device or screen)")
        #expect(parse("filter type") == "error filter: filter term 'type' is not key=pattern")
        #expect(parse("filter type=") == "error filter: filter term 'type=' has an empty pattern")
        #expect(parse("ping pong") == "error ping: ping takes no argument")
        #expect(parse("\u{1b}[2J") == "error \u{1b}[2J: unknown request '\u{1b}[2J'")
        #expect(parse(String(repeating: "x", count: 1025)) == "error : request longer than 1024 bytes")
    }

    static func gesture(type: String = "tap", state: GestureState = .ended, name: String = "ok", view: String = "button-1") -> GesturePipeline.Output {
        .gesture(GestureEvent(type: type, state: state, name: name, view: view, time: .zero,
                              sample: GestureSample(touches: 1, location: .zero, device: "event5", values: .none), viewLocation: .zero))
    }

    static let touch = GesturePipeline.Output.touch(TouchEvent(
        update: TouchUpdate(id: TouchID(1), phase: .began, location: .zero, device: "event5", slot: 0), view: "map", time: .zero))

    @Test func subscriptionsDecideWhatReachesAClient() throws {
        var s = ClientSubscription()
        #expect(s.wants(Self.gesture()))
        #expect(!s.wants(Self.gesture(state: .failed)))
        #expect(!s.wants(Self.touch))
        s.apply(.subscribe(.failed)); s.apply(.subscribe(.touches))
        #expect(s.wants(Self.gesture(state: .failed)))
        #expect(s.wants(Self.touch))
        s.apply(.filter(try LineFilter(parsing: "type=tap|swipe view=button-*")))
        #expect(s.wants(Self.gesture(type: "swipe")))
        #expect(!s.wants(Self.gesture(type: "pan")))
        #expect(!s.wants(Self.gesture(view: "root")))
        #expect(!s.wants(Self.touch))                 // view=map is not button-*
        s.apply(.filter(try LineFilter(parsing: "state=ended")))
        #expect(s.wants(Self.touch))                  // state does not apply to touches
        #expect(!s.wants(Self.gesture(state: .failed)))
        s.apply(.unsubscribe(.touches)); s.apply(.filter(nil))
        #expect(!s.wants(Self.touch))
        #expect(s.wants(Self.gesture(state: .failed)))
    }

    @Test func answers() {
        #expect(LineEncoder.ok(command: "format", format: .json) == "{\"event\":\"ok\",\"command\":\"format\"}\n")
        #expect(LineEncoder.error(command: "subscribe", message: "unknown stream 'x' (touches or failed)", format: .text) ==
            "error command=subscribe message=\"unknown stream 'x' (touches or failed)\"\n")
    }
}

struct RequestFramerTests {
    func drain(_ f: inout RequestFramer) -> [RequestFramer.Item] {
        var out: [RequestFramer.Item] = []
        while let item = f.next() { out.append(item) }
        return out
    }

    @Test func linesSplitAcrossPieces() {
        var f = RequestFramer()
        f.append(Array("form".utf8))
        #expect(drain(&f) == [])
        f.append(Array("at json\nsubscribe touches\npi".utf8))
        #expect(drain(&f) == [.line("format json"), .line("subscribe touches")])
        f.append(Array("ng\n".utf8))
        #expect(drain(&f) == [.line("ping")])
    }

    /// `peek` then `skip` takes what `next` takes, and `skip` past the end does nothing.
    @Test func skipPassesOverThePeekedLine() {
        var f = RequestFramer()
        f.append(Array("ping\nversion\n".utf8))
        #expect(f.peek() == .line("ping"))
        f.skip()
        #expect(f.peek() == .line("version"))
        f.skip()
        f.skip()
        #expect(f.peek() == nil && !f.hasNext)
        f.append(Array("ping\n".utf8))
        #expect(f.next() == .line("ping"))
    }

    @Test func overlongLineIsReportedOnceAndSkippedToItsNewline() {
        var f = RequestFramer()
        f.append([UInt8](repeating: UInt8(ascii: "x"), count: 1500))
        f.append([UInt8](repeating: UInt8(ascii: "y"), count: 5000))
        #expect(drain(&f) == [.tooLong])
        f.append(Array("zzz\nping\n".utf8))
        #expect(drain(&f) == [.line("ping")])
        var exact = RequestFramer()
        exact.append(Array((String(repeating: "a", count: ClientRequest.maximumLength) + "\n").utf8))
        #expect(drain(&exact) == [.line(String(repeating: "a", count: ClientRequest.maximumLength))])
    }

    @Test func theTraceIsASubscriptionAndALineOfItsOwn() throws {
        var subscription = ClientSubscription()
        #expect(!subscription.trace)
        subscription.apply(try ClientRequest.parse("subscribe trace"))
        #expect(subscription.trace && !subscription.touches && !subscription.failed)
        subscription.apply(try ClientRequest.parse("unsubscribe trace"))
        #expect(!subscription.trace)
        var text: [UInt8] = [], json: [UInt8] = []
        let entry = "1.550000 single: possible → waiting (requires double to fail)"
        LineEncoder.trace(entry, format: .text, into: &text)
        LineEncoder.trace(entry, format: .json, into: &json)
        #expect(String(decoding: text, as: UTF8.self) == "trace text=\"\(entry)\"\n")
        #expect(String(decoding: json, as: UTF8.self) == "{\"event\":\"trace\",\"text\":\"\(entry)\"}\n")
    }
}
