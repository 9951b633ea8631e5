import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Input actions against a real kernel (CONTRACT.md §7): the daemon's `gestured input` device,
/// read by `libinput debug-events` as a compositor reads it. A long press on a uinput
/// touchscreen is a right click at its position, a two-finger pan turns the wheel, a
/// two-finger tap sends a key chord.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct InputVMTests {
    /// One panel (read, not passed through) on a 1000×1000 screen, with the gestures given.
    static func config(_ gestures: String) -> String { """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(VMGuest.touchscreenName)" } } ],
          views: [ { id: "root", gestures: [ \(gestures) ] } ] }
        """
    }

    /// The daemon, a client of its lines, and libinput on `gestured input` once it is listed.
    struct Setup {
        let daemon: VMDaemon
        let client: LineClient
        let libinput: LibinputEvents
        let monitor: UdevInputMonitor
    }

    static func start(_ gestures: String) throws -> Setup {
        let monitor = try UdevInputMonitor()
        let daemon = try VMDaemon(config: config(gestures))
        let client = try daemon.connect()
        // "gestured input: /dev/input/eventN (…)"
        let log = daemon.log
        let line = try #require(log.split(separator: "\n").first { $0.contains("gestured input: /dev/input/") }, "no device:\n\(log)")
        let node = String(line.split(separator: " ").first { $0.hasPrefix("/dev/input/event") } ?? "")
        try monitor.waitForAdd(sysname: String(node.split(separator: "/").last!), deadline: deadline(milliseconds: 20_000))
        let libinput = try LibinputEvents(node: node, in: daemon.directory, options: ["--show-keycodes"])
        try #require(try libinput.lines(until: { $0.contains("DEVICE_ADDED") }) != nil,
                     "libinput never listed gestured input: \((try? readTextFile(path: daemon.directory.path + "/libinput.stderr")) ?? "")")
        return Setup(daemon: daemon, client: client, libinput: libinput, monitor: monitor)
    }

    /// libinput's absolute position (`debug-events` prints it on a 100×100 screen) in points
    /// on the 1000-point screen.
    static func position(_ line: String) -> (x: Double, y: Double)? {
        guard let slash = line.lastIndex(of: "/") else { return nil }
        let x = line[..<slash].split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { Double($0) }
        let y = line[line.index(after: slash)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Double($0) }
        guard let x, let y else { return nil }
        return (x * 10, y * 10)
    }

    /// A long press is BTN_RIGHT pressed and released, after an absolute motion within a point of
    /// where the daemon saw the press.
    @Test func aLongPressIsARightClickWhereItWas() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start(#"{ id: "menu", type: "longPress", minimumPressDuration: 0.3, action: { on: "began", input: { click: "right" } } }"#)
        try screen.frame(Touch.down(id: 1, x: 1237, y: 2900))
        let began = try #require(try setup.client.lines(until: { $0.hasPrefix("gesture longPress began") })?.last?.text,
                                 "no long press:\n\(setup.daemon.log)")
        let seen = try #require(try setup.libinput.lines(until: { _ in false }, stopOn: "released"), "no button at libinput")
        try screen.frame(Touch.up())
        let motion = try #require(seen.first { $0.contains("POINTER_MOTION_ABSOLUTE") }, "no motion: \(seen)")
        let at = try #require(Self.position(motion), "\(motion)")
        let x = try #require(Line.field("x", in: began).flatMap(Double.init)), y = try #require(Line.field("y", in: began).flatMap(Double.init))
        #expect(abs(at.x - x) <= 1 && abs(at.y - y) <= 1, "libinput at \(at), the press at \(x), \(y): \(seen)")
        let buttons = seen.filter { $0.contains("POINTER_BUTTON") }
        #expect(buttons.count == 2 && buttons.allSatisfy { $0.contains("BTN_RIGHT") }, "\(seen)")
        #expect(buttons.first?.contains("pressed") == true && buttons.last?.contains("released") == true, "\(seen)")
        try setup.daemon.stop()
        setup.libinput.stop()
        withExtendedLifetime(setup.monitor) {}
    }

    /// A two-finger tap sends its chord: KEYBOARD_KEY pressed in order, released in reverse.
    @Test func aChordIsKeyboardKeys() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start(#"{ id: "close", type: "tap", numberOfTouchesRequired: 2, action: { input: { key: "alt+F4" } } }"#)
        try screen.frame(Touch.down(slot: 0, id: 1, x: 1000, y: 1000) + Touch.down(slot: 1, id: 2, x: 2000, y: 1000, first: false))
        try screen.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1))
        let seen = try #require(try setup.libinput.lines(until: { $0.contains("KEY_LEFTALT") && $0.contains("released") }),
                                "no keys at libinput:\n\(setup.daemon.log)")
        let keys = seen.filter { $0.contains("KEYBOARD_KEY") }.map { line in
            (line.contains("KEY_LEFTALT") ? "alt" : line.contains("KEY_F4") ? "f4" : "?") + (line.contains("released") ? " up" : " down")
        }
        #expect(keys == ["alt down", "f4 down", "f4 up", "alt up"], "\(seen)")
        try setup.daemon.stop()
        setup.libinput.stop()
        withExtendedLifetime(setup.monitor) {}
    }

    /// A two-finger pan downwards (natural) turns the wheel: libinput's wheel events, scrolling up.
    @Test func aTwoFingerPanIsTheWheel() throws {
        let screen = try VMGuest.makeTouchscreen()
        let setup = try Self.start(#"{ id: "scroll", type: "pan", minimumNumberOfTouches: 2, action: { input: { scroll: "vertical" } } }"#)
        try screen.frame(Touch.down(slot: 0, id: 1, x: 1000, y: 1000) + Touch.down(slot: 1, id: 2, x: 2000, y: 1000, first: false))
        for step in 1...10 {   // 4095 units are 1000 points: 200 units ≈ 49 points a step, about ten detents in all
            let y = Int32(1000 + step * 200)
            try screen.frame(Touch.move(slot: 0, x: 1000, y: y) + Touch.move(slot: 1, x: 2000, y: y))
        }
        try screen.frame(Touch.up(slot: 0, last: false) + Touch.up(slot: 1))
        try #require(try setup.client.lines(until: { $0.hasPrefix("gesture pan ended") }) != nil, "no pan:\n\(setup.daemon.log)")
        var wheel = 0
        let seen = try #require(try setup.libinput.lines(until: { line in
            if line.contains("POINTER_SCROLL_WHEEL") || line.contains("POINTER_AXIS") { wheel += 1 }
            return wheel >= 5
        }), "fewer than 5 wheel events at libinput")
        #expect(seen.contains { $0.contains("POINTER_MOTION_ABSOLUTE") }, "the pointer moves to the pan first: \(seen)")
        try setup.daemon.stop()
        setup.libinput.stop()
        withExtendedLifetime(setup.monitor) {}
    }
}
