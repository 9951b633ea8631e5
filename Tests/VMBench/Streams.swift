import GesturedCore
import Glibc

/// The frames `gestured-vm-bench` writes, as a 10-slot protocol-B touchscreen sends them
/// (the repository's synthetic one: 0…4095 on both axes, `BTN_TOUCH`, and `ABS_X`/`ABS_Y` for the
/// first slot, as the kernel's pointer emulation adds them). Deterministic: the same frames in
/// every run.
enum BenchStream {
    typealias Event = (type: UInt16, code: UInt16, value: Int32)

    /// Ten fingers in a 5 × 2 grid, all moving in every frame: the grid travels around a circle
    /// of 600 units (about 15 units a frame), each finger with its own small wobble, so every
    /// slot changes position in every frame (the kernel drops unchanged values, and a finger
    /// that did not move would not be "moving"). Frame 0 puts all ten down, the last lifts all
    /// ten; `count` frames in all (at least 2).
    static func tenFingers(frames count: Int) -> [[Event]] {
        func home(_ finger: Int) -> (x: Double, y: Double) {
            (x: 800 + Double(finger % 5) * 600, y: 1400 + Double(finger / 5) * 1200)
        }
        func position(_ finger: Int, _ frame: Int) -> (x: Int32, y: Int32) {
            let turn = Double(frame) * 2 * Double.pi / 250
            let wobble = Double(frame) * 2 * Double.pi / 90 + Double(finger)
            let x: Double = home(finger).x + 600 * cos(turn) + 40 * cos(wobble)
            let y: Double = home(finger).y + 600 * sin(turn) + 40 * sin(wobble)
            return (Int32(x.rounded()), Int32(y.rounded()))
        }
        var frames: [[Event]] = []
        frames.reserveCapacity(count)
        for frame in 0..<max(count - 1, 1) {
            var events: [Event] = []
            for finger in 0..<10 {
                let (x, y) = position(finger, frame)
                events.append((EventCode.EV_ABS, EventCode.ABS_MT_SLOT, Int32(finger)))
                if frame == 0 { events.append((EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, Int32(finger + 1))) }
                events += [(EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X, x), (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y, y)]
            }
            if frame == 0 { events.append((EventCode.EV_KEY, EventCode.BTN_TOUCH, 1)) }
            let first = position(0, frame)
            events += [(EventCode.EV_ABS, EventCode.ABS_X, first.x), (EventCode.EV_ABS, EventCode.ABS_Y, first.y)]
            frames.append(events)
        }
        var lift: [Event] = []
        for finger in 0..<10 {
            lift += [(EventCode.EV_ABS, EventCode.ABS_MT_SLOT, Int32(finger)), (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, -1)]
        }
        frames.append(lift + [(EventCode.EV_KEY, EventCode.BTN_TOUCH, 0)])
        return frames
    }

    /// A one-finger tap in slot 0: the down frame and the lift frame. The position moves from
    /// tap to tap, so no two taps land on the same spot.
    static func tap(_ index: Int) -> (down: [Event], up: [Event]) {
        let x = Int32(1024 + (index % 4) * 512), y = Int32(1024 + (index / 4 % 4) * 512)
        let down: [Event] = [(EventCode.EV_ABS, EventCode.ABS_MT_SLOT, 0), (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, Int32(1000 + index)),
                             (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X, x), (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y, y),
                             (EventCode.EV_KEY, EventCode.BTN_TOUCH, 1), (EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_Y, y)]
        let up: [Event] = [(EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, -1), (EventCode.EV_KEY, EventCode.BTN_TOUCH, 0)]
        return (down, up)
    }
}
