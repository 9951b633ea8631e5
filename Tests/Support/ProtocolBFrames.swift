import GesturedCore

/// Raw multitouch protocol B frames for tests: per contact `(slot, x, y)` an `ABS_MT_SLOT`, then
/// its position (after a new `ABS_MT_TRACKING_ID` when the contacts are new) or, with a nil x, a
/// lift (`ABS_MT_TRACKING_ID -1`); then `SYN_REPORT`. Tracking ids count up from `nextTrackingID`.
public struct ProtocolBFrames: Sendable {
    public var nextTrackingID: Int32

    public init(firstTrackingID: Int32 = 100) { nextTrackingID = firstTrackingID }

    /// The events of one frame at `time`.
    public mutating func frame(at time: Instant, _ contacts: [(slot: Int32, x: Int32?, y: Int32?)],
                               isNew: Bool = false) -> [RawEvent] {
        func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
            RawEvent(time: time, type: type, code: code, value: value)
        }
        var events: [RawEvent] = []
        for c in contacts {
            events.append(event(EventCode.EV_ABS, EventCode.ABS_MT_SLOT, c.slot))
            if let x = c.x, let y = c.y {
                if isNew {
                    events.append(event(EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, nextTrackingID))
                    nextTrackingID += 1
                }
                events.append(event(EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X, x))
                events.append(event(EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y, y))
            } else {
                events.append(event(EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, -1))
            }
        }
        events.append(event(EventCode.EV_SYN, EventCode.SYN_REPORT, 0))
        return events
    }
}
