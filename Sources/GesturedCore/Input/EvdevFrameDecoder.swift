/// Turns a device's raw evdev events into contact frames.
///
/// Protocols (each a `Mode`):
/// - multitouch protocol B: slots with tracking ids (`ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`,
///   `ABS_MT_POSITION_X/Y`);
/// - multitouch protocol A: no slots; each contact's values end with `SYN_MT_REPORT`, and every
///   frame lists every contact. Contacts are matched to the previous frame's (by
///   `ABS_MT_TRACKING_ID` when the device sends one, else by nearest position, see
///   `ContactMatcher`) and given virtual slots, so touch ids stay stable;
/// - single touch: `ABS_X`/`ABS_Y` with `BTN_TOUCH`. Devices with slots but without
///   `ABS_MT_TRACKING_ID`, and "fake MT" devices (libevdev's term: axes at and above
///   `ABS_MT_SLOT - 1` that are not multitouch), are read this way when they have those axes,
///   because a slot's lifetime cannot be known without tracking ids.
///
/// Events accumulate until `SYN_REPORT`, which closes a frame (the kernel's unit of "everything
/// that changed at one instant"); events after the last `SYN_REPORT` never form a frame.
///
/// Contacts whose `ABS_MT_TOOL_TYPE` is `MT_TOOL_PALM` are cancelled (or never begin), those of a
/// pen (`MT_TOOL_PEN`, `BTN_TOOL_PEN` on single-touch devices) are ignored, and with a
/// `maximumTouches` cap the contacts beyond it are ignored: each for its whole life, never half
/// tracked.
///
/// `SYN_DROPPED` means the kernel's buffer overflowed and events were lost. It yields a frame with
/// `resynchronized` set (the pipeline cancels gestures in progress); the state libevdev's sync
/// mode appends then closes a frame that ends the contacts that ended inside the gap, begins
/// those that began there, and moves those that stayed (same tracking id), so no ghost touch
/// remains. Faults that the decoder survives (values outside the advertised range, slot indices
/// out of range, tracking-id reuse, frames without `SYN_REPORT`, time going backwards, too many
/// contacts) are counted as `Anomaly`s for the caller to log; the core itself never logs.
public struct EvdevFrameDecoder: Sendable {
    public enum Mode: Hashable, Sendable {
        /// Protocol B, with this many slots.
        case slots(Int)
        /// Protocol A, tracked in this many virtual slots.
        case protocolA(Int)
        /// `ABS_X`/`ABS_Y`/`BTN_TOUCH`, one contact.
        case singleTouch
    }

    /// Per-device choices the configuration makes.
    public struct Options: Hashable, Sendable {
        /// At most this many simultaneous touches; `nil`: as many as the device has slots.
        public var maximumTouches: Int?
        public init(maximumTouches: Int? = nil) { self.maximumTouches = maximumTouches }
    }

    /// Virtual slots for protocol A devices: contacts beyond them are ignored.
    public static let protocolASlots = 16

    /// The most slots a protocol-B device is decoded with; its higher slots are out of range
    /// (`slotOutOfRange`). Touch panels have 2 to 60; the bound is for descriptions nobody
    /// checked (an evemu description may claim an `ABS_MT_SLOT` maximum of 2³¹ − 2).
    public static let maximumSlots = 256

    /// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
    enum Tool: Sendable { case finger, pen, palm }

    struct Slot: Sendable {
        /// Live tracking id, or -1 when the slot is empty (the kernel's convention).
        var trackingID: Int32 = -1
        var position = DevicePosition(x: 0, y: 0)
        var tool = Tool.finger
        /// The tracking id of the last closed frame.
        var reportedTrackingID: Int32 = -1
        var reportedPosition = DevicePosition(x: 0, y: 0)
        /// A `began` went out for the reported contact and no `ended`/`cancelled` yet.
        var active = false
    }

    public let mode: Mode
    public let options: Options
    let xAxis: AxisInfo
    let yAxis: AxisInfo
    var slots: [Slot]
    private var currentSlot = 0
    /// Protocol A: the contacts of the frame being assembled, and the one being assembled.
    var matcher = ContactMatcher()
    /// When the frame being assembled started (its first event), and the last frame's time.
    private var pendingSince: Instant?
    private var lastFrameTime: Instant?
    private var anomalyCounts = Array(repeating: 0, count: Anomaly.allCases.count)
    /// Whether any anomaly was counted since the last `takeAnomalies` (the usual read has none).
    private var anomalyCounted = false
    var hasAnomalies: Bool { anomalyCounted }
    /// The frame being assembled; `frame` after `feed` returns true.
    public private(set) var frame = ContactFrame(time: .zero)

    public init(device: DeviceDescription, options: Options = Options()) throws(Unsupported) {
        self.options = options
        let singleTouch: (AxisInfo, AxisInfo)? = if let x = device.x, let y = device.y { (x, y) } else { nil }
        if !device.isFakeMultitouch, let x = device.mtX, let y = device.mtY {
            if device.slotCount > 0 && device.hasTrackingID {
                mode = .slots(min(device.slotCount, Self.maximumSlots))
                (xAxis, yAxis) = (x, y)
            } else if device.slotCount > 0 {
                guard let (x, y) = singleTouch else { throw .slotsWithoutTrackingID }
                mode = .singleTouch
                (xAxis, yAxis) = (x, y)
            } else {
                mode = .protocolA(Self.protocolASlots)
                (xAxis, yAxis) = (x, y)
            }
        } else if let (x, y) = singleTouch {
            mode = .singleTouch
            (xAxis, yAxis) = (x, y)
        } else {
            throw .noPositionAxes
        }
        let names = mode == .singleTouch ? ("ABS_X", "ABS_Y") : ("ABS_MT_POSITION_X", "ABS_MT_POSITION_Y")
        guard xAxis.minimum < xAxis.maximum else { throw .unusableAxis(name: names.0, minimum: xAxis.minimum, maximum: xAxis.maximum) }
        guard yAxis.minimum < yAxis.maximum else { throw .unusableAxis(name: names.1, minimum: yAxis.minimum, maximum: yAxis.maximum) }
        switch mode {
        case .slots(let n), .protocolA(let n): slots = Array(repeating: Slot(), count: n)
        case .singleTouch: slots = [Slot()]
        }
        frame.changes.reserveCapacity(slots.count * 2)
    }

    /// How many slots `ContactChange.slot` ranges over.
    public var slotCount: Int { slots.count }

    /// Feeds one event. Returns true when it completed a frame with at least one change, or a
    /// `SYN_DROPPED` frame; the frame is then in `frame` until the next call.
    public mutating func feed(_ event: RawEvent) -> Bool {
        if event.type == EventCode.EV_SYN && event.code == EventCode.SYN_DROPPED {
            return dropped(at: event.time)
        }
        if event.type == EventCode.EV_SYN && event.code == EventCode.SYN_REPORT {
            pendingSince = nil
            if case .protocolA = mode { assignProtocolAContacts() }
            return closeFrame(at: event.time)
        }
        if let since = pendingSince {
            if event.time != since { count(.missingSynReport); pendingSince = event.time }
        } else {
            pendingSince = event.time
        }
        switch event.type {
        case EventCode.EV_SYN:
            if event.code == EventCode.SYN_MT_REPORT, case .protocolA = mode { matcher.endContact() }
        case EventCode.EV_ABS:
            absolute(code: event.code, value: event.value)
        case EventCode.EV_KEY where mode == .singleTouch:
            if event.code == EventCode.BTN_TOUCH {
                slots[0].trackingID = event.value != 0 ? 0 : -1
            } else if event.code == EventCode.BTN_TOOL_PEN || event.code == EventCode.BTN_TOOL_RUBBER {
                slots[0].tool = event.value != 0 ? .pen : .finger
            }
        default:
            break
        }
        return false
    }

    /// The anomalies counted since the last call, with their counts; resets them.
    public mutating func takeAnomalies() -> [(Anomaly, Int)] {
        var result: [(Anomaly, Int)] = []
        takeAnomalies { result.append(($0, $1)) }
        return result
    }

    /// Hands each anomaly counted since the last call to `each` with its count, and resets them.
    /// Nothing is built when there are none (the usual read).
    mutating func takeAnomalies(_ each: (Anomaly, Int) -> Void) {
        guard anomalyCounted else { return }
        anomalyCounted = false
        for anomaly in Anomaly.allCases where anomalyCounts[anomaly.rawValue] > 0 {
            each(anomaly, anomalyCounts[anomaly.rawValue])
            anomalyCounts[anomaly.rawValue] = 0
        }
    }

    mutating func count(_ anomaly: Anomaly) { anomalyCounts[anomaly.rawValue] += 1; anomalyCounted = true }

    private mutating func clamped(_ value: Int32, _ axis: AxisInfo) -> Int32 {
        guard value < axis.minimum || value > axis.maximum else { return value }
        count(.valueOutOfRange)
        return min(max(value, axis.minimum), axis.maximum)
    }

    private mutating func absolute(code: UInt16, value: Int32) {
        switch mode {
        case .slots(let n):
            if code == EventCode.ABS_MT_SLOT {
                currentSlot = Int(value)
                if currentSlot < 0 || currentSlot >= n { count(.slotOutOfRange) }
                return
            }
            guard currentSlot >= 0 && currentSlot < n else { return }
            switch code {
            case EventCode.ABS_MT_TRACKING_ID:
                // A new id over a live one without a -1 in between (libevdev's resync always
                // sends the -1): the kernel reused the slot, or the device is confused.
                if value >= 0 && slots[currentSlot].trackingID >= 0 && value != slots[currentSlot].trackingID {
                    count(.trackingIDReused)
                }
                slots[currentSlot].trackingID = value < 0 ? -1 : value
            case EventCode.ABS_MT_POSITION_X: slots[currentSlot].position.x = clamped(value, xAxis)
            case EventCode.ABS_MT_POSITION_Y: slots[currentSlot].position.y = clamped(value, yAxis)
            case EventCode.ABS_MT_TOOL_TYPE: slots[currentSlot].tool = Self.tool(value)
            default: break
            }
        case .protocolA:
            switch code {
            case EventCode.ABS_MT_POSITION_X: matcher.pending.position.x = clamped(value, xAxis); matcher.pending.hasData = true
            case EventCode.ABS_MT_POSITION_Y: matcher.pending.position.y = clamped(value, yAxis); matcher.pending.hasData = true
            case EventCode.ABS_MT_TRACKING_ID: matcher.pending.trackingID = value
            case EventCode.ABS_MT_TOOL_TYPE: matcher.pending.tool = Self.tool(value)
            default: break
            }
        case .singleTouch:
            if code == EventCode.ABS_X { slots[0].position.x = clamped(value, xAxis) }
            if code == EventCode.ABS_Y { slots[0].position.y = clamped(value, yAxis) }
        }
    }

    static func tool(_ value: Int32) -> Tool {
        switch value {
        case 1: .pen      // MT_TOOL_PEN
        case 2: .palm     // MT_TOOL_PALM
        default: .finger  // MT_TOOL_FINGER, and tools the kernel may add
        }
    }

    private mutating func closeFrame(at time: Instant) -> Bool {
        var time = time
        if let last = lastFrameTime, time < last { count(.timeWentBackwards); time = last }
        lastFrameTime = time
        frame.time = time
        frame.resynchronized = false
        frame.changes.removeAll(keepingCapacity: true)
        var activeCount = slots.reduce(0) { $0 + ($1.active ? 1 : 0) }
        let cap = options.maximumTouches ?? Int.max
        for index in slots.indices {
            let slot = slots[index]
            let was = slot.reportedTrackingID, now = slot.trackingID
            // The reported contact ends: lifted, or replaced by a new tracking id without a -1 in
            // between (the kernel reused the slot within one frame). It ends where last seen.
            if was >= 0 && was != now {
                if slot.active {
                    frame.changes.append(ContactChange(slot: index, phase: .ended, position: slot.reportedPosition))
                    slots[index].active = false
                    activeCount -= 1
                }
            }
            if now >= 0 && was != now {
                // A new contact: tracked unless it is a palm or a pen, or beyond the cap.
                if slot.tool == .finger {
                    if activeCount < cap {
                        frame.changes.append(ContactChange(slot: index, phase: .began, position: slot.position))
                        slots[index].active = true
                        activeCount += 1
                    } else {
                        count(.tooManyContacts)
                    }
                }
            } else if now >= 0 && slot.active {
                if slot.tool != .finger {
                    // Became a palm (or a pen): what it did is not the user's intent.
                    frame.changes.append(ContactChange(slot: index, phase: .cancelled, position: slot.reportedPosition))
                    slots[index].active = false
                    activeCount -= 1
                } else if slot.position != slot.reportedPosition {
                    frame.changes.append(ContactChange(slot: index, phase: .moved, position: slot.position))
                }
            }
            slots[index].reportedTrackingID = now
            slots[index].reportedPosition = slot.position
        }
        return !frame.changes.isEmpty
    }

    /// `SYN_DROPPED`: a frame that only says so. The contacts stay as they were reported: the
    /// resynchronized state that follows ends, begins or moves them.
    private mutating func dropped(at time: Instant) -> Bool {
        frame.time = max(time, lastFrameTime ?? time)
        frame.resynchronized = true
        frame.changes.removeAll(keepingCapacity: true)
        pendingSince = nil
        if case .protocolA = mode { matcher.discardPending() }
        return true
    }

    /// Cancels every active contact (the device is going away). Returns true when there were any.
    public mutating func cancelAll(now: Instant) -> Bool {
        frame.time = now
        frame.resynchronized = false
        frame.changes.removeAll(keepingCapacity: true)
        for index in slots.indices {
            if slots[index].active {
                frame.changes.append(ContactChange(slot: index, phase: .cancelled, position: slots[index].reportedPosition))
            }
            slots[index] = Slot()
        }
        return !frame.changes.isEmpty
    }
}
