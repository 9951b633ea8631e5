import GesturedCore

/// A panel's raw frames for tests, from a script of downs, moves and lifts: the one builder of
/// multitouch protocol B sequences (`ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`, the position, then
/// `SYN_REPORT`). Per contact of a frame: a down selects its slot, gives it a tracking id (its
/// own, or the next of the script's counter) and its position; a move selects its slot (unless
/// it stays on the slot selected last) and gives the position; a lift selects its slot and ends
/// its tracking id (-1). `Style.kernel` adds what a kernel driver writes besides (for uinput).
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

    /// What a contact's events carry besides the slots.
    public enum Style: Sendable, Equatable {
        /// The slots alone: what the decoder reads.
        case slots
        /// As a touchscreen's kernel driver writes it (input-mt's pointer emulation), for a uinput
        /// device: the single-touch `ABS_X`/`ABS_Y` after each position, and `BTN_TOUCH` set to
        /// `touchButton` (1 as the first contact lands, 0 as the last lifts; nil: unchanged).
        case kernel(touchButton: Int32?)
    }

    /// One event without its time, as a uinput device is written.
    public typealias Event = (type: UInt16, code: UInt16, value: Int32)

    /// The tracking id the next `down` without its own takes.
    public var nextTrackingID: Int32

    public init(firstTrackingID: Int32 = 1) { nextTrackingID = firstTrackingID }

    /// The events of one frame at `time`: its contacts in order, then `SYN_REPORT`.
    public mutating func frame(at time: Instant, _ contacts: [Contact]) -> [RawEvent] {
        var events: [RawEvent] = []
        events.reserveCapacity(4 * contacts.count + 1)
        for contact in contacts {
            var contact = contact
            if case .down(let slot, nil, let x, let y) = contact {
                contact = .down(slot: slot, id: nextTrackingID, x: x, y: y)
                nextTrackingID += 1
            }
            for e in Self.events(contact) { events.append(RawEvent(time: time, type: e.type, code: e.code, value: e.value)) }
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

    /// The events of one contact in `style`, without `SYN_REPORT` (a uinput device's `frame`
    /// writes it). A down's `id` must be given.
    public static func events(_ contact: Contact, style: Style = .slots) -> [Event] {
        let button: Int32?
        let pointer: Bool
        switch style {
        case .slots: (button, pointer) = (nil, false)
        case .kernel(let touchButton): (button, pointer) = (touchButton, true)
        }
        var events: [Event] = []
        func position(_ x: Int32, _ y: Int32) {
            events += [(EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X, x), (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y, y)]
            if let button { events.append((EventCode.EV_KEY, EventCode.BTN_TOUCH, button)) }
            if pointer { events += [(EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_Y, y)] }
        }
        switch contact {
        case .down(let slot, let id, let x, let y):
            precondition(id != nil, "PanelScript.events: a down needs its tracking id")
            events += [(EventCode.EV_ABS, EventCode.ABS_MT_SLOT, slot), (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, id ?? -1)]
            position(x, y)
        case .move(let slot, let x, let y):
            if let slot { events.append((EventCode.EV_ABS, EventCode.ABS_MT_SLOT, slot)) }
            position(x, y)
        case .up(let slot):
            events += [(EventCode.EV_ABS, EventCode.ABS_MT_SLOT, slot), (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, -1)]
            if let button { events.append((EventCode.EV_KEY, EventCode.BTN_TOUCH, button)) }
        }
        return events
    }
}
