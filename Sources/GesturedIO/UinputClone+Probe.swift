import CEvdev
import GesturedCore
import Glibc

extension UinputClone {
    /// A small uinput touchscreen of `gestured doctor --probe-cancel`'s own, made the way a
    /// pass-through clone is (`template(cloning:)`): direct touch, `BTN_TOUCH`, `ABS_X`/`ABS_Y`
    /// and the protocol B axes over `0...axisMaximum`, `slots` slots, named `<name> (gestured)` so
    /// that a compositor takes it as it takes the daemon's clones, and the daemon (which ignores
    /// clones) leaves it alone. Closing it destroys it.
    public convenience init(probeNamed name: String, axisMaximum: Int32, slots: Int,
                            uinputPath path: String = "/dev/uinput") throws(SystemError) {
        guard let device = libevdev_new() else {
            throw SystemError(operation: "libevdev_new", errno: .outOfMemory)
        }
        defer { libevdev_free(device) }
        libevdev_set_name(device, name)
        libevdev_enable_property(device, UInt32(INPUT_PROP_DIRECT))
        libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_TOUCH), nil)
        // 16 units per millimetre: a 256 mm panel, so libinput knows its size.
        for code in [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y] {
            var axis = input_absinfo(value: 0, minimum: 0, maximum: axisMaximum, fuzz: 0, flat: 0, resolution: 16)
            libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &axis)
        }
        var slot = input_absinfo(value: 0, minimum: 0, maximum: Int32(slots - 1), fuzz: 0, flat: 0, resolution: 0)
        libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(ABS_MT_SLOT), &slot)
        var tracking = input_absinfo(value: 0, minimum: 0, maximum: 0xFFFF, fuzz: 0, flat: 0, resolution: 0)
        libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(ABS_MT_TRACKING_ID), &tracking)
        try self.init(cloning: device, uinputPath: path)
    }
}
