import GesturedCore
import GesturedSynthetic
import GesturedTestSupport
import Glibc

/// The frames the soak writes into its touchscreen (the repository's synthetic one: 10 slots,
/// 0…4095 on both axes, `BTN_TOUCH`, `ABS_X`/`ABS_Y` for pointer emulation), deterministic for a
/// seed. A cycle of scenes, each a few hundred frames, so that every recognizer of the soak's
/// configuration begins, changes, ends, fails and is cancelled again and again:
/// - ten fingers landing, then moving together while they spread and turn (pan, pinch, rotation
///   all at once), then lifting;
/// - taps and double taps here and there, one in the view that forwards nothing;
/// - two fingers pinching and turning;
/// - a quick one-finger flick (a swipe), and one from the left edge (the edge pan);
/// - one finger held still (a long press, depending on the frame rate), then dragged.
struct SoakStream {
    typealias Event = (type: UInt16, code: UInt16, value: Int32)

    private var rng: SplitMix64
    private var scene = 0
    private var step = 0
    private var length = 0
    private var down = [Bool](repeating: false, count: 10)
    private var nextTrackingID: Int32 = 1
    private var origin = (x: 2048.0, y: 2048.0)

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Which fingers are down now (after the last frame).
    var fingersDown: Int { down.filter { $0 }.count }

    /// The next frame's events (its `SYN_REPORT` is the writer's).
    mutating func next() -> [Event] {
        if step >= length { startScene() }
        defer { step += 1 }
        let last = step == length - 1
        switch scene {
        case 0: return tenFingers(last: last)
        case 1: return taps()
        case 2: return twoFingers(last: last)
        case 3: return flick(fromEdge: false, last: last)
        case 4: return flick(fromEdge: true, last: last)
        default: return holdAndDrag(last: last)
        }
    }

    /// A frame that lifts every finger down (the end of the stream, or before an unplug).
    mutating func liftAll() -> [Event] {
        var events: [Event] = []
        for slot in down.indices where down[slot] { events += lift(slot) }
        if !events.isEmpty { events.append((EventCode.EV_KEY, EventCode.BTN_TOUCH, 0)) }
        step = length
        return events
    }

    /// Forgets the fingers (the device was unplugged: the new one starts with none down).
    mutating func reset() { down = Array(repeating: false, count: 10); step = length }

    private mutating func startScene() {
        scene = Int(rng.next() % 6)
        step = 0
        length = [240, 120, 160, 12, 14, 220][scene]
        origin = (x: 700 + Double(rng.next() % 2600), y: 700 + Double(rng.next() % 2600))
    }

    private mutating func land(_ slot: Int, _ x: Double, _ y: Double) -> [Event] {
        down[slot] = true
        defer { nextTrackingID = nextTrackingID == Int32.max ? 1 : nextTrackingID + 1 }
        return PanelScript.events(.down(slot: Int32(slot), id: nextTrackingID, x: Self.axis(x), y: Self.axis(y)))
    }

    private func move(_ slot: Int, _ x: Double, _ y: Double) -> [Event] {
        PanelScript.events(.move(slot: Int32(slot), x: Self.axis(x), y: Self.axis(y)))
    }

    /// A position on the panel's 0…4095 axes.
    private static func axis(_ value: Double) -> Int32 { Int32(min(max(value, 0), 4095).rounded()) }

    private mutating func lift(_ slot: Int) -> [Event] {
        down[slot] = false
        return PanelScript.events(.up(slot: Int32(slot)))
    }

    /// `BTN_TOUCH` follows whether any finger is down, as the kernel's pointer emulation sends it.
    private func touchButton(before: Int, _ events: [Event]) -> [Event] {
        let after = fingersDown
        if before == 0 && after > 0 { return events + [(EventCode.EV_KEY, EventCode.BTN_TOUCH, 1)] }
        if before > 0 && after == 0 { return events + [(EventCode.EV_KEY, EventCode.BTN_TOUCH, 0)] }
        return events
    }

    private mutating func tenFingers(last: Bool) -> [Event] {
        let before = fingersDown
        let t = Double(step)
        let spread = 1 + 0.4 * sin(t / 40), turn = t / 90, shift = (x: 3 * t * cos(t / 70), y: 3 * t * sin(t / 70))
        var events: [Event] = []
        for finger in 0..<10 {
            let angle = Double(finger) * 2 * Double.pi / 10 + turn
            let x = origin.x + shift.x * 0.2 + 500 * spread * cos(angle), y = origin.y + shift.y * 0.2 + 500 * spread * sin(angle)
            if last { events += lift(finger) } else if step == 0 { events += land(finger, x, y) } else { events += move(finger, x, y) }
        }
        return touchButton(before: before, events)
    }

    private mutating func taps() -> [Event] {
        let before = fingersDown
        let k = step % 20
        var events: [Event] = []
        // A tap every 20 frames; every third one lands twice in a row (a double tap), one in ten in the
        // view that forwards nothing (the top-left corner).
        let corner = step / 20 % 10 == 0
        let (x, y) = corner ? (200.0, 200.0) : (origin.x + Double(step / 20) * 90, origin.y)
        let double = step / 20 % 3 == 0
        if k == 0 || (double && k == 8) { events = land(0, x, y) }
        if k == 3 || (double && k == 11) { events = lift(0) }
        if step == length - 1 && down[0] { events += lift(0) }
        return touchButton(before: before, events)
    }

    private mutating func twoFingers(last: Bool) -> [Event] {
        let before = fingersDown
        let t = Double(step)
        let radius = 300 + 4 * t, angle = t / 50
        var events: [Event] = []
        for finger in 0..<2 {
            let a = angle + Double(finger) * Double.pi
            let x = origin.x + radius * cos(a), y = origin.y + radius * sin(a)
            if last { events += lift(finger) } else if step == 0 { events += land(finger, x, y) } else { events += move(finger, x, y) }
        }
        return touchButton(before: before, events)
    }

    private mutating func flick(fromEdge: Bool, last: Bool) -> [Event] {
        let before = fingersDown
        let x = (fromEdge ? 5.0 : origin.x) + Double(step) * 120, y = origin.y
        let events = last ? lift(0) : step == 0 ? land(0, x, y) : move(0, x, y)
        return touchButton(before: before, events)
    }

    private mutating func holdAndDrag(last: Bool) -> [Event] {
        let before = fingersDown
        let drag = max(0, step - 150)
        let x = origin.x + Double(drag) * 15, y = origin.y + Double(drag) * 5
        // Still for 150 frames: the kernel drops repeated values, so a held finger sends nothing.
        let events = last ? lift(0) : step == 0 ? land(0, x, y) : step >= 150 ? move(0, x, y) : []
        return touchButton(before: before, events)
    }
}
