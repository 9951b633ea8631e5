import CEvdev

/// What a reader has delivered of a device's state: the value of each key and absolute axis,
/// and of each slot's multitouch axes, as libevdev would hold it had it read those events itself.
///
/// libevdev needs that state only to resynchronize after `SYN_DROPPED` (the events it synthesizes
/// are the difference between it and the kernel's state). Applying every event read to it with
/// `libevdev_set_event_value` would make each event a library call (and each `ABS_MT_SLOT` a
/// re-read of every multitouch axis of the slot), most of the read path's work
/// (docs/PERFORMANCE.md, "Why the hot paths look as they do"). Here an event is a store into an
/// array; the state goes into libevdev only when a drop needs it (`write(to:)`), and is read
/// back after the resync (`read(from:)`).
///
/// The rules are those of `libevdev_set_event_value`, which the reader called for each event
/// before: an out-of-range slot index, or a tracking id going −1 → −1 or N → M, changes nothing
/// (`sanitize_event` does not pass them); a key is pressed or not; events of codes the device
/// lacks are stored and never written back (libevdev refuses them).
/// `EvdevDeliveredStateTests` checks the two against each other on random streams.
struct EvdevDeliveredState {
    fileprivate static let keyCount = Int(KEY_CNT), absoluteCount = Int(ABS_CNT)
    fileprivate static let slotCode = Int(ABS_MT_SLOT), trackingCode = Int(ABS_MT_TRACKING_ID)
    /// The tracking id of a slot without a touch.
    fileprivate static let noTouch: Int32 = -1
    /// The per-slot codes, `ABS_MT_SLOT + 1` … `ABS_MT_TOOL_Y` (libevdev's `ABS_MT_MAX`).
    fileprivate static let firstSlotCode = Int(ABS_MT_SLOT) + 1, lastSlotCode = Int(ABS_MT_TOOL_Y)
    fileprivate static let slotCodes = lastSlotCode - firstSlotCode + 1

    private var keys: [Int32]
    private var absolute: [Int32]
    /// `slotCount × slotCodes` values, slot-major.
    private var slots: [Int32]
    /// 0 for a device without slots (libevdev's −1: protocol A, or fake multitouch).
    private let slotCount: Int
    private var currentSlot = 0

    /// The state libevdev holds for `device` now.
    init(from device: OpaquePointer) {
        slotCount = max(0, Int(libevdev_get_num_slots(device)))
        keys = Array(repeating: 0, count: Self.keyCount)
        absolute = Array(repeating: 0, count: Self.absoluteCount)
        slots = Array(repeating: 0, count: slotCount * Self.slotCodes)
        read(from: device)
    }

    /// Takes one event read from the device (EV_KEY and EV_ABS; the rest is not state here).
    mutating func apply(type: UInt16, code: UInt16, value: Int32) {
        withApplier { $0.apply(type: type, code: code, value: value) }
    }

    /// Runs `body` with the state open for applying a read's events: the arrays are reached
    /// through pointers taken once a read, not checked for uniqueness and bounds at every event.
    /// Every index is checked against the arrays' sizes before it is used.
    mutating func withApplier<R>(_ body: (inout Applier) -> R) -> R {
        let (slotCount, current) = (self.slotCount, currentSlot)
        var last = current
        let result = keys.withUnsafeMutableBufferPointer { keys in
            absolute.withUnsafeMutableBufferPointer { absolute in
                slots.withUnsafeMutableBufferPointer { slots in
                    var applier = Applier(keys: keys, absolute: absolute, slots: slots, slotCount: slotCount, currentSlot: current)
                    defer { last = applier.currentSlot }
                    return body(&applier)
                }
            }
        }
        currentSlot = last
        return result
    }

    /// The state's arrays during `withApplier`.
    struct Applier {
        let keys: UnsafeMutableBufferPointer<Int32>
        let absolute: UnsafeMutableBufferPointer<Int32>
        let slots: UnsafeMutableBufferPointer<Int32>
        let slotCount: Int
        var currentSlot: Int

        mutating func apply(type: UInt16, code: UInt16, value: Int32) {
            let code = Int(code)
            if type == UInt16(EV_KEY) {
                if code < EvdevDeliveredState.keyCount { keys[code] = value != 0 ? 1 : 0 }
                return
            }
            guard type == UInt16(EV_ABS), code < EvdevDeliveredState.absoluteCount else { return }
            if slotCount > 0 && code >= EvdevDeliveredState.slotCode && code <= EvdevDeliveredState.lastSlotCode {
                if code == EvdevDeliveredState.slotCode {
                    guard value >= 0 && Int(value) < slotCount else { return }
                    currentSlot = Int(value)
                    absolute[code] = value
                    return
                }
                let index = currentSlot * EvdevDeliveredState.slotCodes + code - EvdevDeliveredState.firstSlotCode
                if code == EvdevDeliveredState.trackingCode
                    && (value == EvdevDeliveredState.noTouch) == (slots[index] == EvdevDeliveredState.noTouch) { return }
                slots[index] = value
            }
            absolute[code] = value
        }
    }

    /// Puts this state into libevdev, so that a resync synthesizes the difference from it.
    func write(to device: OpaquePointer) {
        let key = UInt32(EV_KEY), abs = UInt32(EV_ABS)
        for code in 0..<Self.keyCount where libevdev_has_event_code(device, key, UInt32(code)) != 0 {
            _ = libevdev_set_event_value(device, key, UInt32(code), keys[code])
        }
        for code in 0..<Self.absoluteCount where libevdev_has_event_code(device, abs, UInt32(code)) != 0 {
            guard slotCount == 0 || code < Self.slotCode || code > Self.lastSlotCode else { continue }
            _ = libevdev_set_event_value(device, abs, UInt32(code), absolute[code])
        }
        guard slotCount > 0 else { return }
        for code in Self.firstSlotCode...Self.lastSlotCode where libevdev_has_event_code(device, abs, UInt32(code)) != 0 {
            for slot in 0..<slotCount {
                _ = libevdev_set_slot_value(device, UInt32(slot), UInt32(code), slots[slot * Self.slotCodes + code - Self.firstSlotCode])
            }
        }
        // Last: libevdev takes the current slot's axes as the axes' values.
        _ = libevdev_set_event_value(device, abs, UInt32(Self.slotCode), Int32(currentSlot))
    }

    /// Takes libevdev's state (at open, and after a resync has delivered the kernel's).
    mutating func read(from device: OpaquePointer) {
        for code in 0..<Self.keyCount { keys[code] = libevdev_get_event_value(device, UInt32(EV_KEY), UInt32(code)) }
        for code in 0..<Self.absoluteCount { absolute[code] = libevdev_get_event_value(device, UInt32(EV_ABS), UInt32(code)) }
        guard slotCount > 0 else { return }
        for slot in 0..<slotCount {
            for code in Self.firstSlotCode...Self.lastSlotCode {
                slots[slot * Self.slotCodes + code - Self.firstSlotCode] = libevdev_get_slot_value(device, UInt32(slot), UInt32(code))
            }
        }
        currentSlot = max(0, Int(libevdev_get_current_slot(device)))
    }
}
