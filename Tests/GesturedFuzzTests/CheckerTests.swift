import GesturedCore
import GesturedFuzzKit
import Testing

/// The fuzz targets' checks catch what they are meant to: a checker that passes everything would
/// make every fuzz run pass.
struct CheckerTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func aWellFormedGestureLineParsesInBothEncodings() throws {
        let text = #"gesture tap ended double view=root device=event5 time=1330495944.417034 seq=7 touches=1 x=512.25 y=300.50 viewX=512.25 viewY=300.50 taps=2"# + "\n"
        let json = #"{"event":"gesture","type":"tap","state":"ended","name":"double","view":"root","device":"event5","time":1330495944.417034,"seq":7,"touches":1,"x":512.25,"y":300.50,"viewX":512.25,"viewY":300.50,"taps":2}"# + "\n"
        let line = try ProtocolLine.parse(text: Self.bytes(text), json: Self.bytes(json))
        #expect(line.seq == 7)
        #expect(line["name"] == "double")
    }

    @Test(arguments: [
        // Wrong decimals, negative zero, an exponent, a missing field, an unescaped control
        // character, a leading zero, two spaces, a key out of order.
        "gesture tap ended t view=root device=event5 time=1.41703 seq=7 touches=1 x=1.00 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "gesture tap ended t view=root device=event5 time=1.417030 seq=7 touches=1 x=-0.00 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "gesture tap ended t view=root device=event5 time=1.417030 seq=7 touches=1 x=9e18 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "gesture tap ended t view=root device=event5 time=1.417030 seq=7 touches=1 x=1.00 y=1.00 viewX=1.00 taps=1\n",
        "gesture tap ended \"t\u{1}\" view=root device=event5 time=1.417030 seq=7 touches=1 x=1.00 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "gesture tap ended t view=root device=event5 time=01.417030 seq=7 touches=1 x=1.00 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "gesture tap ended t view=root  device=event5 time=1.417030 seq=7 touches=1 x=1.00 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "gesture tap ended t device=event5 view=root time=1.417030 seq=7 touches=1 x=1.00 y=1.00 viewX=1.00 viewY=1.00 taps=1\n",
        "touch began 1 view=root device=event0 slot=0 x=1.00 y=1.00 time=1.000000\n",
        "ok command=ping",
    ])
    func aMalformedTextLineIsCaught(_ line: String) {
        #expect(throws: Violation.self) { try ProtocolLine.parse(Self.bytes(line), json: false) }
    }

    @Test(arguments: [
        #"{"event":"ok","command":"ping",}"# + "\n",
        #"{"event":"ok","command":"ping","command":"ping"}"# + "\n",
        "{\"event\":\"error\",\"command\":\"x\",\"message\":\"a\u{1}b\"}\n",
        #"{"event":"stats","reads":01,"p50Us":1,"p90Us":1,"p99Us":1,"p999Us":1,"maxUs":1}"# + "\n",
        #"{"command":"ping","event":"ok"}"# + "\n",
    ])
    func aMalformedJSONLineIsCaught(_ line: String) {
        #expect(throws: Violation.self) { try ProtocolLine.parse(Self.bytes(line), json: true) }
    }

    @Test func encodingsThatDisagreeAreCaught() {
        let text = "ok command=ping\n", json = #"{"event":"ok","command":"pong"}"# + "\n"
        #expect(throws: Violation.self) { try ProtocolLine.parse(text: Self.bytes(text), json: Self.bytes(json)) }
    }

    @Test(arguments: [
        ("*", "", true), ("a*b", "axxb", true), ("a*b", "axxc", false), ("?", "é", true), ("[a-c]x", "bx", true),
        ("[!a-c]x", "bx", false), ("[^a]", "b", true), ("[]]", "]", true), ("[a-]", "-", true), ("[", "[", true),
        ("[ab", "[ab", true), ("[z-a]", "m", false), ("**a**", "a", true), ("*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
    ] as [(String, String, Bool)])
    func theReferenceGlobMatchesAsDocumented(_ pattern: String, _ subject: String, _ expected: Bool) {
        #expect(ReferenceGlob.matches(pattern, subject) == expected)
    }

    @Test func aGestureThatNeverEndsIsCaught() throws {
        var ledger = OutputLedger(monotonic: true)
        let label = GestureLabel(type: "pan", name: "drag", view: "root")
        let began = GestureEvent(label: label, state: .began, time: Instant(microseconds: 1),
                                 sample: GestureSample(touches: 1, location: .zero, device: "event0", values: .pan(translation: .zero, velocity: .zero)),
                                 viewLocation: .zero)
        try ledger.take(.gesture(began))
        #expect(throws: Violation.self) { try ledger.checkSettled("end") }
        #expect(throws: Violation.self) { try ledger.take(.gesture(began)) }
    }

    @Test func linesThatGoBackInTimeAreCaught() throws {
        var ledger = OutputLedger(monotonic: true)
        let label = GestureLabel(type: "pan", name: "drag", view: "root")
        let sample = GestureSample(touches: 1, location: .zero, device: "event0", values: .pan(translation: .zero, velocity: .zero))
        try ledger.take(.gesture(GestureEvent(label: label, state: .began, time: Instant(microseconds: 2_000), sample: sample,
                                              viewLocation: .zero)))
        #expect(throws: Violation.self) {
            try ledger.take(.gesture(GestureEvent(label: label, state: .changed, time: Instant(microseconds: 1_000),
                                                  sample: sample, viewLocation: .zero)))
        }
    }
}
