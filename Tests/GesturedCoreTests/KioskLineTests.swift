import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The kiosk lines in both encodings, compared whole, and against the field-by-field reference
/// encoder.
struct KioskLineTests {
    static let events: [KioskEvent] = [
        KioskEvent(.wake(device: "event5", location: Point(x: 412, y: 233.5)), time: Instant(microseconds: 9_002_120_000)),
        KioskEvent(.lock(seconds: 30), time: Instant(microseconds: 9_100_000_000), screen: "customer"),
        KioskEvent(.unlock, time: Instant(microseconds: 9_130_000_000), screen: "customer"),
        KioskEvent(.idle(seconds: 120), time: Instant(microseconds: 5_120_000_000)),
        KioskEvent(.active, time: Instant(microseconds: 5_230_500_000)),
        KioskEvent(.wake(device: "event6", location: Point(x: 1, y: 2)), time: .zero, screen: "with space"),
    ]

    @Test func textAndJSON() {
        let text = Self.events.enumerated().map { LineEncoder.output(.kiosk($1), seq: UInt64($0 + 1), format: .text) }
        #expect(text == [
            "wake device=event5 x=412.00 y=233.50 time=9002.120000 seq=1\n",
            "lock seconds=30 screen=customer time=9100.000000 seq=2\n",
            "unlock screen=customer time=9130.000000 seq=3\n",
            "idle seconds=120 time=5120.000000 seq=4\n",
            "active time=5230.500000 seq=5\n",
            "wake device=event6 screen=\"with space\" x=1.00 y=2.00 time=0.000000 seq=6\n",
        ])
        let json = Self.events.enumerated().map { LineEncoder.output(.kiosk($1), seq: UInt64($0 + 1), format: .json) }
        #expect(json == [
            #"{"event":"wake","device":"event5","x":412.00,"y":233.50,"time":9002.120000,"seq":1}"# + "\n",
            #"{"event":"lock","seconds":30,"screen":"customer","time":9100.000000,"seq":2}"# + "\n",
            #"{"event":"unlock","screen":"customer","time":9130.000000,"seq":3}"# + "\n",
            #"{"event":"idle","seconds":120,"time":5120.000000,"seq":4}"# + "\n",
            #"{"event":"active","time":5230.500000,"seq":5}"# + "\n",
            #"{"event":"wake","device":"event6","screen":"with space","x":1.00,"y":2.00,"time":0.000000,"seq":6}"# + "\n",
        ])
    }

    @Test func theReferenceEncoderAgrees() {
        for event in Self.events {
            for format in LineFormat.allCases {
                var reference: [UInt8] = []
                ReferenceLineEncoder.kiosk(event, seq: 7, format: format, into: &reference)
                #expect(LineEncoder.output(.kiosk(event), seq: 7, format: format) == String(decoding: reference, as: UTF8.self))
            }
        }
    }

    /// Kiosk lines reach every client, whatever it subscribed to or filters, and never merge.
    @Test func everyClientGetsThem() throws {
        var filtered = ClientSubscription()
        filtered.filter = try LineFilter(parsing: "type=nothing screen=elsewhere")
        for event in Self.events {
            #expect(ClientSubscription().wants(.kiosk(event)))
            #expect(filtered.wants(.kiosk(event)))
            #expect(LineMerge(.kiosk(event)) == .never)
        }
    }
}

/// `listen --exec`'s variables for kiosk lines.
struct KioskEnvironmentTests {
    @Test func eachFieldBecomesAKioskVariable() throws {
        let idle = try #require(KioskEnvironment.variables(ofTextLine: "idle seconds=120 screen=\"front door\" time=5120.000000 seq=41\n"))
        #expect(idle.map { "\($0.name)=\($0.value)" } == [
            "KIOSK_EVENT=idle", "KIOSK_SECONDS=120", "KIOSK_SCREEN=front door", "KIOSK_TIME=5120.000000", "KIOSK_SEQ=41",
            "KIOSK_LINE=idle seconds=120 screen=\"front door\" time=5120.000000 seq=41",
        ])
        let wake = try #require(KioskEnvironment.variables(ofTextLine: "wake device=event5 x=412.00 y=233.50 time=1.000000 seq=2"))
        #expect(wake.map(\.name) == ["KIOSK_EVENT", "KIOSK_DEVICE", "KIOSK_X", "KIOSK_Y", "KIOSK_TIME", "KIOSK_SEQ", "KIOSK_LINE"])
    }

    /// The variables made from an event are those its line gives, for every kind, with and
    /// without a screen (one whose name needs quoting).
    @Test func anEventsVariablesAreItsLines() {
        let kinds: [KioskEvent.Kind] = [.wake(device: "event5", location: Point(x: 412, y: 233.505)), .lock(seconds: 3600),
                                        .unlock, .idle(seconds: 120), .active]
        for kind in kinds {
            for screen in [nil, "front door", "a\"b"] as [String?] {
                let event = KioskEvent(kind, time: Instant(microseconds: 5_120_000_017), screen: screen)
                let line = LineEncoder.output(.kiosk(event), seq: 41, format: .text)
                let fromLine = (KioskEnvironment.variables(ofTextLine: line) ?? []).map { "\($0.name)=\($0.value)" }
                let fromEvent = KioskEnvironment.variables(of: event, seq: 41).map { "\($0.name)=\($0.value)" }
                #expect(!fromLine.isEmpty && fromEvent == fromLine, "\(line)")
            }
        }
    }

    @Test func otherLinesAreNotKioskLines() {
        #expect(KioskEnvironment.variables(ofTextLine: "gesture tap ended tap view=root time=1.000000 seq=1") == nil)
        #expect(KioskEnvironment.variables(ofTextLine: "ok command=lock") == nil)
        #expect(KioskEnvironment.variables(ofTextLine: "device added event5 name=x seq=1") == nil)
        #expect(KioskEnvironment.variables(ofTextLine: "idle stray seconds=1") == nil)
        #expect(GestureEnvironment.variables(ofTextLine: "idle seconds=1 time=1.000000 seq=1") == nil)
    }
}
