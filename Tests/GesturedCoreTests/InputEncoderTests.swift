import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The events an input action writes to `gestured input`, as a transcript: one line per frame,
/// its events joined by spaces (`KEY_LEFTALT 1`, `ABS_X 120`, `REL_WHEEL_HI_RES -24`).
func inputTranscript(_ events: [RawEvent]) -> [String] {
    var lines: [String] = [], frame: [String] = []
    for e in events {
        switch e.type {
        case EventCode.EV_SYN: lines.append(frame.joined(separator: " ")); frame = []
        case EventCode.EV_KEY:
            let name: String
            switch e.code {
            case PointerButton.left.code: name = "BTN_LEFT"
            case PointerButton.right.code: name = "BTN_RIGHT"
            case PointerButton.middle.code: name = "BTN_MIDDLE"
            default: name = KeyName.name(of: e.code)
            }
            frame.append("\(name) \(e.value)")
        case EventCode.EV_ABS: frame.append("\(e.code == EventCode.ABS_X ? "ABS_X" : "ABS_Y") \(e.value)")
        case EventCode.EV_REL:
            let names: [UInt16: String] = [EventCode.REL_WHEEL: "REL_WHEEL", EventCode.REL_HWHEEL: "REL_HWHEEL",
                                           EventCode.REL_WHEEL_HI_RES: "REL_WHEEL_HI_RES",
                                           EventCode.REL_HWHEEL_HI_RES: "REL_HWHEEL_HI_RES"]
            frame.append("\(names[e.code] ?? "REL_\(e.code)") \(e.value)")
        default: frame.append("type\(e.type) \(e.code) \(e.value)")
        }
    }
    if !frame.isEmpty { lines.append(frame.joined(separator: " ") + " (no SYN_REPORT)") }
    return lines
}

@Suite struct InputEncoderTests {
    static func event(_ state: GestureState, name: String = "g", at p: Point = Point(x: 120.4, y: 80.6),
                      _ values: GestureValues = .none) -> GestureEvent {
        GestureEvent(type: "pan", state: state, name: name, view: "v", time: .zero,
                     sample: GestureSample(touches: 1, location: p, values: values), viewLocation: p)
    }

    static func pan(_ state: GestureState, _ dx: Double, _ dy: Double, name: String = "g") -> GestureEvent {
        event(state, name: name, at: Point(x: 300 + dx, y: 200 + dy), .pan(translation: Vector(dx: dx, dy: dy), velocity: .zero))
    }

    static func encode(_ action: InputAction, _ events: [GestureEvent], screen: Size = Size(width: 800, height: 480)) -> [String] {
        var encoder = InputEncoder(screen: screen)
        var out: [RawEvent] = []
        for e in events { encoder.encode(action, for: e, into: &out) }
        return inputTranscript(out)
    }

    /// Each press and each release is a frame; releases in reverse.
    @Test func aChordPressesInOrderAndReleasesInReverse() {
        #expect(Self.encode(InputAction(.key([29, 42, 20])), [Self.event(.ended)]) == [
            "KEY_LEFTCTRL 1", "KEY_LEFTSHIFT 1", "KEY_T 1", "KEY_T 0", "KEY_LEFTSHIFT 0", "KEY_LEFTCTRL 0",
        ])
    }

    /// The pointer moves in a frame of its own, to the rounded location; aside is the corner.
    @Test func aClickMovesFirstAndCanLeaveThePointerAside() {
        #expect(Self.encode(InputAction(.click(.right, at: nil)), [Self.event(.began)]) == [
            "ABS_X 120 ABS_Y 81", "BTN_RIGHT 1", "BTN_RIGHT 0",
        ])
        #expect(Self.encode(InputAction(.click(.left, at: Point(x: 10, y: 20)), pointerAfter: .aside), [Self.event(.ended)]) == [
            "ABS_X 10 ABS_Y 20", "BTN_LEFT 1", "BTN_LEFT 0", "ABS_X 799 ABS_Y 479",
        ])
        // Outside the screen (a view beyond it, `at` past the edge): clamped to the axis.
        #expect(Self.encode(InputAction(.click(.middle, at: Point(x: -5, y: 900))), [Self.event(.ended)]) == [
            "ABS_X 0 ABS_Y 479", "BTN_MIDDLE 1", "BTN_MIDDLE 0",
        ])
    }

    /// 50 points per detent is 2.4 high-resolution units per point; remainders carry over, and a
    /// detent goes out each time the total passes a multiple of 120. Natural: a finger moving
    /// down turns the wheel up (positive).
    @Test func aScrollAccumulatesRemaindersAndDetents() {
        let action = InputAction(.scroll(.vertical, .natural))
        #expect(Self.encode(action, [
            Self.pan(.began, 0, 10.2),    // 24.48 → 24
            Self.pan(.changed, 0, 10.4),  // 24.96 → 24 (0.96 short of a unit: nothing)
            Self.pan(.changed, 0, 30),    // 72 → 48 more
            Self.pan(.changed, 0, 55),    // 132: past 120, a detent
            Self.pan(.changed, 0, 55),    // no motion: nothing
            Self.pan(.changed, 0, -30),   // -72: back past 0 to -72
            Self.pan(.ended, 0, -60),     // -144: past -120, a detent down
        ]) == [
            "ABS_X 300 ABS_Y 200",
            "REL_WHEEL_HI_RES 24",
            "REL_WHEEL_HI_RES 48",
            "REL_WHEEL_HI_RES 60 REL_WHEEL 1",
            "REL_WHEEL_HI_RES -204 REL_WHEEL -1",
            "REL_WHEEL_HI_RES -72 REL_WHEEL -1",
        ])
    }

    /// Natural: a finger moving right shows what is on the left (negative `REL_HWHEEL`);
    /// reversed turns both wheels the other way; a vertical scroll ignores sideways travel.
    @Test func directionsAndAxes() {
        #expect(Self.encode(InputAction(.scroll(.both, .natural)), [Self.pan(.began, 0, 0), Self.pan(.changed, 50, -50)]) == [
            "ABS_X 300 ABS_Y 200", "REL_WHEEL_HI_RES -120 REL_WHEEL -1 REL_HWHEEL_HI_RES -120 REL_HWHEEL -1",
        ])
        #expect(Self.encode(InputAction(.scroll(.both, .reversed)), [Self.pan(.began, 0, 0), Self.pan(.changed, 50, -50)]) == [
            "ABS_X 300 ABS_Y 200", "REL_WHEEL_HI_RES 120 REL_WHEEL 1 REL_HWHEEL_HI_RES 120 REL_HWHEEL 1",
        ])
        #expect(Self.encode(InputAction(.scroll(.vertical, .natural), pointsPerDetent: 10),
                            [Self.pan(.began, 0, 0), Self.pan(.changed, 500, 5)]) == [
            "ABS_X 300 ABS_Y 200", "REL_WHEEL_HI_RES 60",
        ])
    }

    /// A cancelled scroll stops; the next one starts from nothing; events of a gesture that
    /// never began (a reload in the middle) send nothing; the pointer goes where the finger
    /// started (location less translation); aside after the end.
    @Test func aScrollStartsAndEndsWithItsGesture() {
        let action = InputAction(.scroll(.vertical, .natural), pointerAfter: .aside)
        #expect(Self.encode(action, [
            Self.pan(.changed, 0, 100),
            Self.pan(.began, 0, 25), Self.pan(.cancelled, 0, 0), Self.pan(.changed, 0, 100),
            Self.pan(.began, 0, 0), Self.pan(.ended, 0, 50),
        ]) == [
            "ABS_X 300 ABS_Y 200", "REL_WHEEL_HI_RES 60",
            "ABS_X 300 ABS_Y 200", "REL_WHEEL_HI_RES 120 REL_WHEEL 1", "ABS_X 799 ABS_Y 479",
        ])
    }

    /// The guard's ending: every key and button released, one frame.
    @Test func releasingEverything() {
        var capabilities = InputCapabilities()
        capabilities.keys = [56, 102]
        capabilities.buttons = [0x110, 0x111]
        #expect(inputTranscript(InputEncoder.releasingEverything(capabilities))
                == ["KEY_LEFTALT 0 KEY_HOME 0 BTN_LEFT 0 BTN_RIGHT 0"])
        #expect(InputEncoder.releasingEverything(InputCapabilities()).isEmpty)
    }
}

@Suite struct InputBudgetTests {
    /// Twenty keys or clicks in any second, the twenty-first dropped until the first is a second
    /// old; scrolls are never counted.
    @Test func twentyKeysOrClicksASecond() {
        var budget = InputBudget()
        let key = InputAction(.key([30])), scroll = InputAction(.scroll(.vertical, .natural))
        let ms = { (n: Int64) in Instant(microseconds: n * 1000) }
        var allowed = (0..<25).map { budget.allows(key, at: ms(Int64($0) * 10)) }
        #expect(allowed == Array(repeating: true, count: 20) + Array(repeating: false, count: 5))
        allowed = [budget.allows(scroll, at: ms(250)), budget.allows(key, at: ms(999))]
        #expect(allowed == [true, false])
        allowed = [budget.allows(key, at: ms(1000)), budget.allows(key, at: ms(1005)), budget.allows(key, at: ms(1010))]
        #expect(allowed == [true, false, true])
    }
}
