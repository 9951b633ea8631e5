@testable import gestured
import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Testing

/// The kiosk policy in the daemon's loop (`EmbeddedDaemon`: real parts and socket, virtual clock
/// and timer): what the one timer is armed at, and the lines a client reads when it fires.
@Suite struct KioskLoopTests {
    static func configuration(_ extra: String) throws -> Configuration {
        try ConfigLoader.parse("""
            { screen: { width: 1000, height: 1000 }, socket: { readTimeout: 0 }, \(extra)
              views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
            """, file: "kiosk.json5")
    }

    static func connect(_ bed: EmbeddedDaemon) throws -> LineClient {
        let client = try LineClient(path: bed.server.path, deadline: deadline(milliseconds: 5000))
        #expect(try bed.iterate { bed.server.clientCount == 1 })
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        return client
    }

    /// Without thresholds (and no read check), nothing arms the timer: zero idle wakeups.
    @Test func withoutThresholdsTheTimerStaysDisarmed() throws {
        let bed = try EmbeddedDaemon(configuration: try Self.configuration(""))
        _ = try Self.connect(bed)
        for _ in 0..<3 { try bed.iterate() }
        #expect(bed.timer.armed == nil)
    }

    /// With `idle: [60, 300]` the timer is armed at each threshold in turn, from the daemon's
    /// start; each line reaches the client when the clock gets there; then the timer is disarmed.
    @Test func theTimerIsArmedAtEachThresholdAndItsLineReachesTheClient() throws {
        let bed = try EmbeddedDaemon(configuration: try Self.configuration("idle: [60, 300],"))
        let start = bed.clock.time
        let client = try Self.connect(bed)
        #expect(bed.timer.armed == start + Interval(seconds: 60))
        bed.clock.time = start + Interval(seconds: 60)
        try bed.iterate()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "idle seconds=60 time=\(start + Interval(seconds: 60)) seq=1")
        #expect(bed.timer.armed == start + Interval(seconds: 300))
        bed.clock.time = start + Interval(seconds: 300)
        try bed.iterate()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "idle seconds=300 time=\(start + Interval(seconds: 300)) seq=2")
        #expect(bed.timer.armed == nil)
    }

    /// `lock 30` over the socket: answered, a `lock` line, the timer armed at the lock's end, and
    /// the `unlock` line when the clock gets there.
    @Test func aLockRequestArmsTheTimerAtItsEnd() throws {
        let bed = try EmbeddedDaemon(configuration: try Self.configuration(""))
        let client = try Self.connect(bed)
        let asked = bed.clock.time
        try client.send(line: "lock 30")
        #expect(try bed.iterate { bed.timer.armed != nil })
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=lock")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "lock seconds=30 time=\(asked) seq=1")
        #expect(bed.timer.armed == asked + Interval(seconds: 30))
        bed.clock.time = asked + Interval(seconds: 30)
        try bed.iterate()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "unlock time=\(asked + Interval(seconds: 30)) seq=2")
        #expect(bed.timer.armed == nil)
    }

    /// A tap while locked reaches no client as a gesture; after `unlock` over the socket, one does.
    @Test func aTapWhileLockedIsNoGestureAndOneAfterUnlockIs() throws {
        let configuration = try Self.configuration("")
        let bed = try EmbeddedDaemon(configuration: configuration)
        let client = try Self.connect(bed)
        let admitted = try DeviceAdmission.admit(DaemonLoopTests.panel, properties: ["ID_INPUT_TOUCHSCREEN": "1"],
                                                 configuration: configuration).get()
        let device = try bed.live.add(DaemonLoopTests.panel, admitted)
        func tap() throws {
            bed.live.read(DaemonLoopTests.contact(1, at: bed.clock.time), from: device)
            bed.clock.time = bed.clock.time + Interval(seconds: 0.05)
            bed.live.read(DaemonLoopTests.contact(-1, at: bed.clock.time), from: device)
            try bed.iterate()
        }
        try client.send(line: "lock 60")
        #expect(try bed.iterate { bed.live.pipeline.locks != [nil] })
        try tap()
        try client.send(line: "unlock")
        #expect(try bed.iterate { bed.live.pipeline.locks == [nil] })
        try tap()
        var lines: [String] = []
        for _ in 0..<5 { lines.append(try client.readLine(deadline: deadline(milliseconds: 5000)) ?? "(none)") }
        #expect(lines[0] == "ok command=lock" && lines[2] == "ok command=unlock", "\(lines)")
        #expect(lines[1].hasPrefix("lock seconds=60 "), "\(lines)")
        #expect(lines[3].hasPrefix("unlock "), "\(lines)")
        #expect(lines[4].hasPrefix("gesture tap ended tap "), "\(lines)")
    }
}
