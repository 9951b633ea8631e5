/// Multitouch protocol A: the contacts of one frame, and how they are matched to the previous
/// frame's so that a finger keeps its touch id.
///
/// Protocol A devices send every contact in every frame, each closed by `SYN_MT_REPORT`, with no
/// identity. Matching (what mtdev and libinput do for these devices, reduced to what touchscreens
/// need):
/// 1. a contact carrying `ABS_MT_TRACKING_ID` keeps the virtual slot of that id;
/// 2. the others are paired with the previous frame's contacts nearest first (greedy on the
///    distance in normalized device units), but never across more than `maximumJump` of the
///    panel's diagonal, which is a lift and a new touch rather than a move;
/// 3. what is left begins in a free virtual slot (none free: ignored, `tooManyContacts`), and
///    previous contacts without a match have lifted.
/// The decoder then diffs the virtual slots exactly as it diffs protocol B slots.
struct ContactMatcher: Sendable {
    struct Contact: Sendable {
        var position = DevicePosition(x: 0, y: 0)
        var trackingID: Int32?
        var tool = EvdevFrameDecoder.Tool.finger
        var hasData = false
    }

    /// Farther than this fraction of the normalized diagonal is not the same finger.
    static let maximumJump = 0.25

    /// The contact being assembled, and the frame's finished ones.
    var pending = Contact()
    var contacts: [Contact] = []
    /// The device's own tracking id of each virtual slot's contact, when it sends them.
    var sourceIDs: [Int32?] = []
    var nextID: Int32 = 0

    mutating func endContact() {
        if pending.hasData { contacts.append(pending) }
        pending = Contact()
    }

    mutating func discardPending() {
        pending = Contact()
        contacts.removeAll(keepingCapacity: true)
    }

    mutating func newID() -> Int32 {
        defer { nextID = nextID == Int32.max ? 0 : nextID + 1 }
        return nextID
    }
}

extension EvdevFrameDecoder {
    /// Puts the frame's protocol A contacts into the virtual slots (see `ContactMatcher`).
    mutating func assignProtocolAContacts() {
        matcher.endContact()   // a last contact without its SYN_MT_REPORT
        let contacts = matcher.contacts
        matcher.contacts.removeAll(keepingCapacity: true)
        if matcher.sourceIDs.count != slots.count { matcher.sourceIDs = Array(repeating: nil, count: slots.count) }
        var slotOf: [Int?] = Array(repeating: nil, count: contacts.count)
        var taken = Array(repeating: false, count: slots.count)

        // 1. By the device's tracking id.
        for (i, contact) in contacts.enumerated() {
            guard let id = contact.trackingID, id >= 0 else { continue }
            if let s = slots.indices.first(where: { !taken[$0] && slots[$0].trackingID >= 0 && matcher.sourceIDs[$0] == id }) {
                slotOf[i] = s; taken[s] = true
            }
        }
        // 2. Nearest first, within the jump limit, for contacts without an id.
        let xSpan = Double(xAxis.maximum) - Double(xAxis.minimum), ySpan = Double(yAxis.maximum) - Double(yAxis.minimum)
        var pairs: [(distance: Double, contact: Int, slot: Int)] = []
        for (i, contact) in contacts.enumerated() where contact.trackingID == nil {
            for s in slots.indices where !taken[s] && slots[s].trackingID >= 0 && matcher.sourceIDs[s] == nil {
                // In Double: two positions of an axis as wide as Int32 differ by more than it holds.
                let dx = (Double(contact.position.x) - Double(slots[s].position.x)) / xSpan
                let dy = (Double(contact.position.y) - Double(slots[s].position.y)) / ySpan
                let d = dx * dx + dy * dy
                if d <= ContactMatcher.maximumJump * ContactMatcher.maximumJump * 2 { pairs.append((d, i, s)) }
            }
        }
        pairs.sort { ($0.distance, $0.slot) < ($1.distance, $1.slot) }
        for pair in pairs where slotOf[pair.contact] == nil && !taken[pair.slot] {
            slotOf[pair.contact] = pair.slot; taken[pair.slot] = true
        }
        // 3. Previous contacts without a match lifted; new ones take free slots.
        for s in slots.indices where !taken[s] {
            slots[s].trackingID = -1
            matcher.sourceIDs[s] = nil
        }
        for (i, contact) in contacts.enumerated() {
            let s: Int
            if let matched = slotOf[i] {
                s = matched
            } else if let free = slots.indices.first(where: { !taken[$0] && slots[$0].reportedTrackingID < 0 }) {
                s = free; taken[s] = true
                slots[s].trackingID = matcher.newID()
                matcher.sourceIDs[s] = contact.trackingID.flatMap { $0 >= 0 ? $0 : nil }
            } else {
                count(.tooManyContacts)
                continue
            }
            slots[s].position = contact.position
            slots[s].tool = contact.tool
        }
    }
}
