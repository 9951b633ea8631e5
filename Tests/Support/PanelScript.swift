import GesturedCore

/// A panel's raw frames for tests, from a script of downs, moves and lifts: the one builder of
/// multitouch protocol B sequences (`ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`, the position, then
/// `SYN_REPORT`). Per contact of a frame: a down selects its slot, gives it a tracking id (its
/// own, or the next of the script's counter) and its position; a move selects its slot (unless
/// it stays on the slot selected last) and gives the position; a lift selects its slot and ends
/// its tracking id (-1).
public struct PanelScript: Sendable {
    public enum Contact: Sendable, Equatable {
        /// A new contact in `slot` at (x, y); `id` nil takes the script's next tracking id.
        case down(slot: Int32, id: Int32? = nil, x: Int32, y: Int32)
        /// A contact in `slot` moves to (x, y); `slot` nil: the slot selected last, no
        /// `ABS_MT_SLOT` (as a kernel writes a lone finger's moves).
        case move(slot: Int32?, x: Int32, y: Int32)
        /// The contact in `slot` lifts.
        case up(slot: Int32)

        /// The form of a contact as (slot, x, y): a nil `x` lifts it; else a down when `isNew`,
        /// a move when not.
        public static func of(slot: Int32, x: Int32?, y: Int32?, isNew: Bool) -> Contact {
            guard let x, let y else { return .up(slot: slot) }
            return isNew ? .down(slot: slot, x: x, y: y) : .move(slot: slot, x: x, y: y)
        }
    }

    /// The tracking id the next `down` without its own takes.
    public var nextTrackingID: Int32

    public init(firstTrackingID: Int32 = 1) { nextTrackingID = firstTrackingID }

    /// The events of one frame at `time`: its contacts in order, then `SYN_REPORT`.
    public mutating func frame(at time: Instant, _ contacts: [Contact]) -> [RawEvent] {
        func abs(_ code: UInt16, _ value: Int32) -> RawEvent { RawEvent(time: time, type: EventCode.EV_ABS, code: code, value: value) }
        var events: [RawEvent] = []
        events.reserveCapacity(4 * contacts.count + 1)
        for contact in contacts {
            switch contact {
            case .down(let slot, let id, let x, let y):
                let tracking = id ?? nextTrackingID
                if id == nil { nextTrackingID += 1 }
                events += [abs(EventCode.ABS_MT_SLOT, slot), abs(EventCode.ABS_MT_TRACKING_ID, tracking),
                           abs(EventCode.ABS_MT_POSITION_X, x), abs(EventCode.ABS_MT_POSITION_Y, y)]
            case .move(let slot, let x, let y):
                if let slot { events.append(abs(EventCode.ABS_MT_SLOT, slot)) }
                events += [abs(EventCode.ABS_MT_POSITION_X, x), abs(EventCode.ABS_MT_POSITION_Y, y)]
            case .up(let slot):
                events += [abs(EventCode.ABS_MT_SLOT, slot), abs(EventCode.ABS_MT_TRACKING_ID, -1)]
            }
        }
        events.append(RawEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        return events
    }

    /// One frame with explicit tracking ids, for scripts that keep no counter.
    public static func frame(at time: Instant, _ contacts: [Contact]) -> [RawEvent] {
        var script = PanelScript()
        return script.frame(at: time, contacts)
    }

    /// One frame: the contact in `slot` goes down at (x, y) with tracking id `id` or, with `id`
    /// -1, lifts.
    public static func contact(slot: Int32 = 0, id: Int32, x: Int32 = 0, y: Int32 = 0, at time: Instant) -> [RawEvent] {
        frame(at: time, [id >= 0 ? .down(slot: slot, id: id, x: x, y: y) : .up(slot: slot)])
    }
}
