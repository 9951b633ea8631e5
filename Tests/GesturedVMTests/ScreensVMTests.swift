import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Two touch panels on two screens of one daemon, with a real kernel and udevd (the QEMU guest
/// of `make test-vm`, docs/VM-TESTS.md): uinput devices told apart by name.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct ScreensVMTests {
    static let config = """
        { screens: [
            { id: "front", width: 1000, height: 1000,
              devices: [ { match: { name: "gestured vm panel A" } }, { match: { name: "gestured vm panel C" } } ],
              views: [ { id: "frontRoot", gestures: [ { id: "frontTap", type: "tap" }, { id: "frontDrag", type: "pan" } ] } ] },
            { id: "back", width: 1000, height: 1000,
              devices: [ { match: { name: "gestured vm panel B" } } ],
              views: [ { id: "backRoot", gestures: [ { id: "backDrag", type: "pan" }, { id: "backTap", type: "tap" } ] } ] },
        ] }
        """

    /// A tap on panel A while a finger pans on panel B: independent gestures, each with its
    /// device and `screen=`; a third panel plugged in later lands on its rule's screen.
    @Test func aTapOnOnePanelAndAPanOnTheOtherAndAThirdPluggedIn() throws {
        let a = try VMGuest.makeTouchscreen(name: "gestured vm panel A")
        let b = try VMGuest.makeTouchscreen(name: "gestured vm panel B")
        let daemon = try VMDaemon(config: Self.config)
        let client = try daemon.connect()
        #expect(daemon.log.contains("\(a.sysname) (gestured vm panel A): using it, 10 slots on screen front"), "\(daemon.log)")
        #expect(daemon.log.contains("\(b.sysname) (gestured vm panel B): using it, 10 slots on screen back"), "\(daemon.log)")

        try b.frame(Touch.down(id: 1, x: 1000, y: 2000))
        try a.frame(Touch.down(id: 2, x: 2048, y: 2048))
        for step in 1...4 { try b.frame(Touch.move(x: 1000 + Int32(step) * 60, y: 2000)) }
        try a.frame(Touch.up())
        for step in 5...8 { try b.frame(Touch.move(x: 1000 + Int32(step) * 60, y: 2000)) }
        try b.frame(Touch.up())
        // Until both panels' gestures are in: the daemon may read one panel's queue before the
        // other's in a wakeup, so the two gestures' lines may come in either order.
        var tapSeen = false, panEnded = false
        let lines = try #require(try client.lines(until: { line in
            if line.hasPrefix("gesture tap ") { tapSeen = true }
            if line.hasPrefix("gesture pan ended ") { panEnded = true }
            return tapSeen && panEnded
        }), "stderr:\n\(daemon.log)")
        let gestures = lines.map(\.text).filter { $0.hasPrefix("gesture ") }
        let tap = gestures.filter { $0.hasPrefix("gesture tap ") }
        #expect(tap.count == 1 && tap[0].hasPrefix("gesture tap ended frontTap view=frontRoot device=\(a.sysname) screen=front "),
                "\(gestures)")
        let pan = gestures.filter { $0.hasPrefix("gesture pan ") }
        #expect(pan.first?.hasPrefix("gesture pan began backDrag view=backRoot device=\(b.sysname) screen=back ") == true, "\(gestures)")
        #expect(pan.allSatisfy { $0.contains(" backDrag ") && $0.contains(" screen=back ") }, "\(gestures)")

        let c = try VMGuest.makeTouchscreen(name: "gestured vm panel C")
        let added = try #require(try client.lines(until: { $0.hasPrefix("device added ") }, within: 5000), "stderr:\n\(daemon.log)")
        #expect(added.last?.text.hasPrefix("device added \(c.sysname) ") == true)
        try Touch.tap(on: c, id: 3)
        let third = try #require(try client.lines(until: { $0.hasPrefix("gesture ") }), "stderr:\n\(daemon.log)")
        #expect(third.last?.text.hasPrefix("gesture tap ended frontTap view=frontRoot device=\(c.sysname) screen=front ") == true,
                "\(third.map(\.text))")
        try daemon.stop()
        withExtendedLifetime((a, b, c)) {}
    }
}
