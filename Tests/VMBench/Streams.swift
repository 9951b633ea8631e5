import GesturedCore
import GesturedSynthetic
import Glibc

/// The frames `gestured-vm-bench` writes, as a 10-slot protocol-B touchscreen sends them
/// (the repository's synthetic one: 0…4095 on both axes, `BTN_TOUCH`, and `ABS_X`/`ABS_Y` for the
/// first slot, as the kernel's pointer emulation adds them). Deterministic: the same frames in
/// every run.
enum BenchStream {
    typealias Event = (type: UInt16, code: UInt16, value: Int32)

    /// Frames per touch: all ten fingers lift and land again this often (a second at 250
    /// frames/s). After a kernel buffer overflow (`SYN_DROPPED`) gestured cancels the touches
    /// down and ignores them until they lift, so in a long touch one overflow would leave it idle
    /// for the rest of the stream; this way a reader is back on the same kind of frames within
    /// a second.
    static let touchLength = 250

    /// Ten fingers in a 5 × 2 grid, all moving in every frame: the grid travels around a circle
    /// of 600 units (about 15 units a frame), each finger with its own small wobble, so every
    /// slot changes position in every frame (the kernel drops unchanged values, and a finger
    /// that did not move would not be "moving"). All ten land in the first frame of every
    /// `touchLength` and lift in its last, and in the stream's last frame; `count` frames in all
    /// (at least 2).
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
        for frame in 0..<max(count, 2) {
            let phase = frame % touchLength
            var events: [Event] = []
            if phase == touchLength - 1 || frame == max(count, 2) - 1 {
                for finger in 0..<10 { events += PanelScript.events(.up(slot: Int32(finger))) }
                frames.append(events + [(EventCode.EV_KEY, EventCode.BTN_TOUCH, 0)])
                continue
            }
            for finger in 0..<10 {
                let (x, y) = position(finger, frame)
                let slot = Int32(finger)
                events += PanelScript.events(phase == 0 ? .down(slot: slot, id: Int32(frame / touchLength * 10 + finger + 1), x: x, y: y)
                                                        : .move(slot: slot, x: x, y: y))
            }
            if phase == 0 { events.append((EventCode.EV_KEY, EventCode.BTN_TOUCH, 1)) }
            let first = position(0, frame)
            events += [(EventCode.EV_ABS, EventCode.ABS_X, first.x), (EventCode.EV_ABS, EventCode.ABS_Y, first.y)]
            frames.append(events)
        }
        return frames
    }

    /// A one-finger tap in slot 0: the down frame and the lift frame, as the kernel writes them
    /// (`PanelScript.Style.kernel`). The position moves from tap to tap, so no two taps land on
    /// the same spot.
    static func tap(_ index: Int) -> (down: [Event], up: [Event]) {
        let x = Int32(1024 + (index % 4) * 512), y = Int32(1024 + (index / 4 % 4) * 512)
        return (PanelScript.events(.down(slot: 0, id: Int32(1000 + index), x: x, y: y), style: .kernel(touchButton: 1)),
                PanelScript.events(.up(slot: 0), style: .kernel(touchButton: 0)))
    }
}
