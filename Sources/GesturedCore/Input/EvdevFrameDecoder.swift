/// Turns a device's raw evdev events into contact frames.
///
/// Speaks multitouch protocol B (slots with tracking ids: `ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`,
/// `ABS_MT_POSITION_X/Y`) and single-touch devices (`ABS_X`/`ABS_Y` with `BTN_TOUCH`). Events
/// accumulate until `SYN_REPORT`, which closes a frame (the kernel's unit of "everything that
/// changed at one instant"); events after the last `SYN_REPORT` never form a frame.
///
/// `SYN_DROPPED` means the kernel's buffer overflowed and events were lost: every active contact
/// is cancelled at once (its true fate is unknown), and the state the I/O shell resynchronizes
/// afterwards (libevdev's sync mode) starts new contacts. Slot indices outside the device's
/// range are ignored rather than trusted.
public struct EvdevFrameDecoder: Sendable {
    public enum Mode: Hashable, Sendable {
        /// Protocol B, with this many slots.
        case slots(Int)
        /// `ABS_X`/`ABS_Y`/`BTN_TOUCH`, one contact.
        case singleTouch
    }

    /// Why a device cannot be decoded.
    public enum Unsupported: Error, Hashable, Sendable, CustomStringConvertible {
        case noPositionAxes
        case slotsWithoutTrackingID
        case protocolA
        public var description: String {
            switch self {
            case .noPositionAxes: "no ABS_MT_POSITION_X/Y or ABS_X/Y axes"
            case .slotsWithoutTrackingID: "MT slots without ABS_MT_TRACKING_ID"
            case .protocolA: "multitouch protocol A (no slots) is not supported yet"
            }
        }
    }

    private struct Slot: Sendable {
        /// Live tracking id, or -1 when the slot is empty (the kernel's convention).
        var trackingID: Int32 = -1
        var position = DevicePosition(x: 0, y: 0)
        /// What was last reported in a frame.
        var reportedTrackingID: Int32 = -1
        var reportedPosition = DevicePosition(x: 0, y: 0)
    }

    public let mode: Mode
    private var slots: [Slot]
    private var currentSlot = 0
    /// Single-touch: BTN_TOUCH state.
    private var touchDown = false
    /// The frame being assembled; `frame` after `feed` returns true.
    public private(set) var frame = ContactFrame(time: .zero)

    public init(device: DeviceDescription) throws(Unsupported) {
        if device.mtX != nil, device.mtY != nil {
            guard device.slotCount > 0 else { throw .protocolA }
            guard device.hasTrackingID else { throw .slotsWithoutTrackingID }
            mode = .slots(device.slotCount)
            slots = Array(repeating: Slot(), count: device.slotCount)
        } else if device.x != nil, device.y != nil {
            mode = .singleTouch
            slots = [Slot()]
        } else {
            throw .noPositionAxes
        }
        frame.changes.reserveCapacity(slots.count * 2)
    }

    /// Feeds one event. Returns true when it completed a frame with at least one change; the
    /// frame is then in `frame` until the next call.
    public mutating func feed(_ event: RawEvent) -> Bool {
        switch event.type {
        case EventCode.EV_SYN:
            if event.code == EventCode.SYN_REPORT { return closeFrame(at: event.time) }
            if event.code == EventCode.SYN_DROPPED { return cancelAll(at: event.time) }
        case EventCode.EV_ABS:
            absolute(code: event.code, value: event.value)
        case EventCode.EV_KEY where event.code == EventCode.BTN_TOUCH:
            if case .singleTouch = mode {
                touchDown = event.value != 0
                slots[0].trackingID = touchDown ? 0 : -1
            }
        default:
            break
        }
        return false
    }

    private mutating func absolute(code: UInt16, value: Int32) {
        switch mode {
        case .slots(let count):
            switch code {
            case EventCode.ABS_MT_SLOT:
                currentSlot = Int(value)
            case EventCode.ABS_MT_TRACKING_ID where slots.indices.contains(currentSlot):
                slots[currentSlot].trackingID = value < 0 ? -1 : value
            case EventCode.ABS_MT_POSITION_X where currentSlot >= 0 && currentSlot < count:
                slots[currentSlot].position.x = value
            case EventCode.ABS_MT_POSITION_Y where currentSlot >= 0 && currentSlot < count:
                slots[currentSlot].position.y = value
            default:
                break
            }
        case .singleTouch:
            if code == EventCode.ABS_X { slots[0].position.x = value }
            if code == EventCode.ABS_Y { slots[0].position.y = value }
        }
    }

    private mutating func closeFrame(at time: Instant) -> Bool {
        frame.time = time
        frame.changes.removeAll(keepingCapacity: true)
        for index in slots.indices {
            let slot = slots[index]
            let was = slot.reportedTrackingID, now = slot.trackingID
            switch (was >= 0, now >= 0) {
            case (false, false):
                continue
            case (false, true):
                frame.changes.append(ContactChange(slot: index, phase: .began, position: slot.position))
            case (true, false):
                frame.changes.append(ContactChange(slot: index, phase: .ended, position: slot.reportedPosition))
            case (true, true) where was != now:
                // A new tracking id without a -1 in between: the kernel reused the slot for a new
                // contact within one frame. The old contact ended where it was last seen.
                frame.changes.append(ContactChange(slot: index, phase: .ended, position: slot.reportedPosition))
                frame.changes.append(ContactChange(slot: index, phase: .began, position: slot.position))
            case (true, true):
                guard slot.position != slot.reportedPosition else { continue }
                frame.changes.append(ContactChange(slot: index, phase: .moved, position: slot.position))
            }
            slots[index].reportedTrackingID = now
            slots[index].reportedPosition = slot.position
        }
        return !frame.changes.isEmpty
    }

    private mutating func cancelAll(at time: Instant) -> Bool {
        frame.time = time
        frame.changes.removeAll(keepingCapacity: true)
        for index in slots.indices where slots[index].reportedTrackingID >= 0 {
            frame.changes.append(ContactChange(slot: index, phase: .cancelled,
                                               position: slots[index].reportedPosition))
            slots[index].reportedTrackingID = -1
        }
        // What follows (libevdev's resync) describes the current state from scratch.
        for index in slots.indices { slots[index].trackingID = -1 }
        touchDown = false
        return !frame.changes.isEmpty
    }

    /// Cancels every active contact (the device is going away).
    public mutating func cancelAll(now: Instant) -> Bool { cancelAll(at: now) }
}
