import CEvdev
@testable import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// `EvdevDeliveredState` keeps what libevdev would keep: the same events applied one by one to a
/// libevdev device with `libevdev_set_event_value` (how the reader kept libevdev's state before)
/// and recorded in the state, which is then written into a second, identical device, leave the
/// two devices with the same state, the resync's starting point.
struct EvdevDeliveredStateTests {
    /// A panel in memory with `slots` slots (0: no slots, like a protocol-A panel), two keys and
    /// a pressure axis; `BTN_LEFT` and `ABS_MT_ORIENTATION` are codes it lacks.
    static func panel(slots: Int) -> OpaquePointer {
        let device = libevdev_new()!
        // Invalid slot indexes are part of the streams: libevdev reports each as a bug.
        libevdev_set_device_log_function(device, { _, _, _, _, _, _, _, _ in }, LIBEVDEV_LOG_ERROR, nil)
        libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_TOUCH), nil)
        libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_TOOL_FINGER), nil)
        func axis(_ code: Int32, _ max: Int32) {
            var info = input_absinfo(value: 0, minimum: 0, maximum: max, fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &info)
        }
        axis(ABS_X, 4095); axis(ABS_Y, 4095)
        if slots > 0 { axis(ABS_MT_SLOT, Int32(slots - 1)) }
        axis(ABS_MT_POSITION_X, 4095); axis(ABS_MT_POSITION_Y, 4095)
        axis(ABS_MT_TRACKING_ID, 65535); axis(ABS_MT_PRESSURE, 255)
        return device
    }

    /// Every key, axis and slot value of the device, and its current slot.
    static func snapshot(_ device: OpaquePointer) -> [Int32] {
        var values = (0..<UInt32(KEY_CNT)).map { libevdev_get_event_value(device, UInt32(EV_KEY), $0) }
        values += (0..<UInt32(ABS_CNT)).map { libevdev_get_event_value(device, UInt32(EV_ABS), $0) }
        for slot in 0..<max(0, libevdev_get_num_slots(device)) {
            values += (UInt32(ABS_MT_SLOT) + 1...UInt32(ABS_MT_TOOL_Y)).map { libevdev_get_slot_value(device, UInt32(slot), $0) }
        }
        return values + [libevdev_get_current_slot(device)]
    }

    /// A random event of the kinds a panel sends, with the odd ones libevdev sanitizes: slot
    /// indexes out of range, tracking ids −1 → −1 and N → M, codes the device lacks.
    static func randomEvent(slots: Int, _ rng: inout SplitMix64) -> (type: UInt16, code: UInt16, value: Int32) {
        switch rng.next() % 10 {
        case 0: (UInt16(EV_KEY), UInt16([BTN_TOUCH, BTN_TOOL_FINGER, BTN_LEFT][Int(rng.next() % 3)]), Int32(rng.next() % 3))
        case 1: (UInt16(EV_ABS), UInt16(ABS_MT_SLOT), Int32(rng.next() % UInt64(slots + 3)) - 1)
        case 2, 3: (UInt16(EV_ABS), UInt16(ABS_MT_TRACKING_ID), rng.next() % 2 == 0 ? -1 : Int32(rng.next() % 100))
        case 4: (UInt16(EV_ABS), UInt16([ABS_X, ABS_Y, ABS_MT_ORIENTATION][Int(rng.next() % 3)]), Int32(rng.next() % 4096))
        case 5: (UInt16(EV_ABS), UInt16(ABS_MT_PRESSURE), Int32(rng.next() % 256))
        case 6: (UInt16(EV_SYN), UInt16(SYN_REPORT), 0)
        default: (UInt16(EV_ABS), UInt16(rng.next() % 2 == 0 ? ABS_MT_POSITION_X : ABS_MT_POSITION_Y), Int32(rng.next() % 4096))
        }
    }

    @Test(arguments: [0, 1, 2, 10], 0..<25)
    func theStateWrittenIntoLibevdevIsWhatLibevdevWouldHaveKept(slots: Int, seed: UInt64) {
        let reference = Self.panel(slots: slots), written = Self.panel(slots: slots)
        defer { libevdev_free(reference); libevdev_free(written) }
        var state = EvdevDeliveredState(from: written)
        var rng = SplitMix64(seed: seed &* 7919 &+ UInt64(slots))
        for _ in 0..<400 {
            let event = Self.randomEvent(slots: slots, &rng)
            if event.type == UInt16(EV_ABS) || event.type == UInt16(EV_KEY) {
                _ = libevdev_set_event_value(reference, UInt32(event.type), UInt32(event.code), event.value)
            }
            state.apply(type: event.type, code: event.code, value: event.value)
        }
        #expect(Self.snapshot(written) != Self.snapshot(reference), "the stream changed nothing: it tests nothing")
        state.write(to: written)
        #expect(Self.snapshot(written) == Self.snapshot(reference))
    }

    /// After a resync libevdev holds the kernel's state, which the reader delivered: reading it
    /// back makes it the state the next events build on.
    @Test func readingBackTakesLibevdevsState() {
        let device = Self.panel(slots: 4), copy = Self.panel(slots: 4)
        defer { libevdev_free(device); libevdev_free(copy) }
        var state = EvdevDeliveredState(from: copy)
        _ = libevdev_set_event_value(device, UInt32(EV_ABS), UInt32(ABS_MT_SLOT), 2)
        _ = libevdev_set_event_value(device, UInt32(EV_ABS), UInt32(ABS_MT_TRACKING_ID), 7)
        _ = libevdev_set_event_value(device, UInt32(EV_KEY), UInt32(BTN_TOUCH), 1)
        state.read(from: device)
        state.write(to: copy)
        #expect(Self.snapshot(copy) == Self.snapshot(device))
        #expect(libevdev_get_current_slot(copy) == 2)
    }
}
