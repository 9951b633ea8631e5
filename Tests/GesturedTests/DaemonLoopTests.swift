@testable import gestured
import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// The daemon's loop itself, embedded (`EmbeddedDaemon`: its real parts, a real socket, a virtual
/// clock and timer): what it arms its one timer at, and what a deadline does once the clock
/// reaches it, as transcripts without a subprocess or a sleep.
@Suite struct DaemonLoopTests {
    static let panel = DeviceDescription(sysname: "event3", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                         mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true)
    static let configuration = try! ConfigLoader.parse("""
        { screen: { width: 1000, height: 1000 },
          views: [ { id: "root", gestures: [ { id: "hold", type: "longPress", minimumPressDuration: 0.5 } ] } ] }
        """, file: "loop.json5")
    /// The same without the read check, whose wakeups would mix with the deadlines'.
    static let deadlinesOnly = try! ConfigLoader.parse("""
        { screen: { width: 1000, height: 1000 }, socket: { readTimeout: 0 },
          views: [ { id: "root", gestures: [ { id: "hold", type: "longPress", minimumPressDuration: 0.5 } ] } ] }
        """, file: "loop.json5")

    static func contact(_ id: Int32, at time: Instant) -> [RawEvent] {
        PanelScript.contact(id: id, x: 500, y: 500, at: time)
    }

    /// An idle daemon wakes once after it last wrote to a client, to see that the client read it
    /// (`socket.readTimeout`), then never again: its timer stays disarmed.
    @Test func anIdleLoopWakesOnceToSeeItsLinesReadThenNever() throws {
        let bed = try EmbeddedDaemon(configuration: Self.configuration)
        let client = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        let connected = bed.clock.time
        #expect(try bed.iterate { bed.server.clientCount == 1 })
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(bed.timer.armed == connected + SocketSettings.defaultReadTimeout)
        bed.clock.time = bed.timer.armed!
        for _ in 0..<3 { try bed.iterate() }
        #expect(bed.timer.armed == nil)
        #expect(bed.server.clientCount == 1)
    }

    /// A finger rests: the loop arms its timer at the long press's deadline, and when the
    /// virtual clock reaches it, the `began` line goes to the client, stamped with the deadline;
    /// the lift ends it, and the timer is disarmed again.
    @Test func aDeadlineFiresWhenTheClockReachesItAndItsLineReachesTheClient() throws {
        let bed = try EmbeddedDaemon(configuration: Self.deadlinesOnly)
        let client = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        #expect(try bed.iterate { bed.server.clientCount == 1 })
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let admitted = try DeviceAdmission.admit(Self.panel, properties: ["ID_INPUT_TOUCHSCREEN": "1"],
                                                 configuration: Self.deadlinesOnly).get()
        let device = try bed.live.add(Self.panel, admitted)
        let down = bed.clock.time
        bed.live.read(Self.contact(1, at: down), from: device)
        try bed.iterate()
        #expect(bed.timer.armed == down + Interval(seconds: 0.5))
        bed.clock.time = down + Interval(seconds: 0.2)
        try bed.iterate()                      // not yet: nothing fires
        bed.clock.time = down + Interval(seconds: 0.5)
        try bed.iterate()
        let began = try #require(try client.readLine(deadline: deadline(milliseconds: 5000)))
        #expect(began.hasPrefix("gesture longPress began hold "), "\(began)")
        #expect(began.contains(" time=\(down + Interval(seconds: 0.5)) "), "\(began)")
        bed.clock.time = down + Interval(seconds: 0.8)
        bed.live.read(Self.contact(-1, at: bed.clock.time), from: device)
        try bed.iterate()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000))?.hasPrefix("gesture longPress ended hold ") == true)
        #expect(bed.timer.armed == nil)
    }
}
