import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Input actions under each compositor of the matrix (issue 47, CONTRACT.md §7): once the touch
/// scenarios are done, a reload gives the daemon `gestured input`, which the compositor takes up
/// as it is hotplugged, and the application (wev, `xinput test-xi2`) must receive the right
/// button where a long press was and wheel events for a two-finger pan, and none of those
/// gestures' touches (each holds its touches, `delaysTouchesBegan`). A chord's keys are
/// libinput's in InputVMTests: wev received none from `gestured input` under cage and sway
/// (Debian 12), a keyboard that comes after the window is shown getting no focus there.
extension Matrix {
    /// A long press is a right click, a two-finger pan the wheel, on a pass-through panel.
    static let inputConfig = """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(VMGuest.touchscreenName)" }, passThrough: true } ],
          views: [ { id: "root", gestures: [
              { id: "menu", type: "longPress", minimumPressDuration: 0.3, delaysTouchesBegan: true,
                action: { on: "began", input: { click: "right" } } },
              { id: "scroll", type: "pan", minimumNumberOfTouches: 2, delaysTouchesBegan: true,
                action: { input: { scroll: "vertical" } } } ] } ] }
        """

    static let btnRight = 273

    /// Whether `events` hold a down and, after it, that touch's up.
    static func hasWholeTouch(_ events: [AppTouch]) -> Bool {
        guard let down = events.firstIndex(where: { $0.phase == .down }) else { return false }
        return events[down...].contains { $0.phase == .up && $0.id == events[down].id }
    }

    /// Reloads to `inputConfig` and checks each input action in the application, with a report
    /// line for each.
    mutating func runInputActions() throws {
        _ = try session.events(within: 500) { _ in false }   // what the scenarios left unread
        try reload(Self.inputConfig)
        let line = try #require(daemon.log.split(separator: "\n").last { $0.contains("gestured input: /dev/input/") },
                                "no input device:\n\(daemon.log)")
        let node = String(line.split(separator: " ").first { $0.hasPrefix("/dev/input/event") } ?? "")
        try monitor.waitForAdd(sysname: String(node.split(separator: "/").last ?? ""), deadline: deadline(milliseconds: 20_000))
        // Where a touch at the press's place lands in the application: a tap there first (held by
        // the long press until it lifts, then flushed whole).
        let (px, py): (Int32, Int32) = (1300, 2700)
        try tap(x: px, y: py)
        let tapped = try events("the tap at the press's place", until: Self.hasWholeTouch)
        let down = try #require(tapped.first { $0.phase == .down }, "\(tapped)")
        let (tx, ty) = (try #require(down.x), try #require(down.y))
        // The long press, again until the compositor has taken up the new device.
        var seen: [AppInput] = [], touches: [AppTouch] = []
        let limit = deadline(milliseconds: 60_000)
        while !seen.contains(where: { $0.kind == .button(Self.btnRight, pressed: false) }) && MonotonicClock.now() < limit {
            try panel.frame(Touch.down(id: nextID, x: px, y: py))
            nextID += 1
            try daemonLine("gesture longPress began")
            try panel.frame(Touch.up())
            try daemonLine("gesture longPress ended")
            seen += try session.inputs(within: 3000) { $0.contains { $0.kind == .button(Self.btnRight, pressed: false) } }.inputs
            touches += try session.events(within: 200) { _ in false }.events
        }
        report("\(kind.rawValue) input click right: \(seen.map(\.description).joined(separator: ", ")); touch at \(tx),\(ty)")
        let why = "no right button: \(seen); the application's seat lines:\n\(session.seatLines.joined(separator: "\n"))\n"
            + "runner:\n\(session.log)\ndaemon:\n\(daemon.log)"
        let press = try #require(seen.first { $0.kind == .button(Self.btnRight, pressed: true) }, Comment(rawValue: why))
        #expect(seen.last?.kind == .button(Self.btnRight, pressed: false), "\(seen)")
        // Within a point of the touch: the guests' outputs are at most 2,000 pixels across, so a
        // point of the 1,000-point screen is at most 2 pixels.
        #expect(abs((press.x ?? -100) - tx) <= 2 && abs((press.y ?? -100) - ty) <= 2,
                "\(kind.rawValue): the button at \(press.x ?? -1),\(press.y ?? -1), the touch at \(tx),\(ty)")
        // No down: the long press held its touch and claimed it (cage and sway may repeat the
        // tap's lift before it, which is no touch of the press).
        #expect(!touches.contains { $0.phase == .down }, "\(kind.rawValue): the long press's touches reached the application: \(touches)")

        // A two-finger pan downwards turns the wheel.
        let id = nextID
        nextID += 2
        try panel.frame(Touch.down(slot: 0, id: id, x: 1000, y: 1000) + Touch.down(slot: 1, id: id + 1, x: 2000, y: 1000, first: false))
        for step in 1...10 {
            let y = Int32(1000 + step * 200)
            try panel.frame(Touch.move(slot: 0, x: 1000, y: y) + Touch.move(slot: 1, x: 2000, y: y))
        }
        try panel.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1))
        try daemonLine("gesture pan ended")
        let wheel = try session.inputs { $0.filter { $0.kind == .wheel }.count >= 5 }
        report("\(kind.rawValue) input scroll: \(wheel.inputs.filter { $0.kind == .wheel }.count) wheel events")
        #expect(wheel.done, "\(kind.rawValue): fewer than 5 wheel events: \(wheel.inputs)")
        let after = try session.events(within: 500) { _ in false }.events
        #expect(!after.contains { $0.phase == .down }, "\(kind.rawValue): the pan's touches reached the application: \(after)")
    }
}
