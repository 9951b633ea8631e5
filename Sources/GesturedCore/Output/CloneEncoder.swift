/// The evdev events that make a uinput clone show `ForwardedTouch`es (multitouch protocol B).
///
/// Why each rule:
/// - a new frame starts whenever a slot already written in the current frame comes again: a
///   flushed touch's down and moves stay separate frames in their order, and a cancel (the slot's
///   tool becomes `MT_TOOL_PALM`: libinput's `TOUCH_CANCEL`) is a frame before the slot's lift;
/// - a down writes `ABS_MT_TOOL_TYPE = MT_TOOL_FINGER` before `ABS_MT_TRACKING_ID`: libinput 1.22
///   reads the slot's tool when it sees the tracking id, and would ignore a new touch in a slot
///   whose last touch was cancelled as a palm (TESTING.md §5);
/// - `BTN_TOUCH` follows whether any clone slot is down, when the device has it;
/// - a cancel is written as `cancelStyle` says (the device rule's `cancelStyle`): the palm frame,
///   or nothing (`lift`: the lift that always follows it is then all the application sees).
public struct CloneEncoder: Sendable {
    public static let MT_TOOL_FINGER: Int32 = 0
    public static let MT_TOOL_PALM: Int32 = 2

    /// How a cancelled touch ends; a reload may change it while touches are down.
    public var cancelStyle: CancelStyle
    private var down: [Bool]
    private var downCount = 0
    private let hasButton: Bool
    private var written: [Bool]

    /// - Parameters: slotCount: the clone's slots; hasTouchButton: whether it has `BTN_TOUCH`;
    ///   cancelStyle: how a cancelled touch ends.
    public init(slotCount: Int, hasTouchButton: Bool, cancelStyle: CancelStyle = .default) {
        down = Array(repeating: false, count: max(slotCount, 1))
        written = down
        hasButton = hasTouchButton
        self.cancelStyle = cancelStyle
    }

    /// Appends the events for `touches` (of this clone, in order) to `out`, each frame ended by
    /// `SYN_REPORT`. Times are the touches'; the kernel stamps what is written anyway. Allocates
    /// nothing once `out` has grown (no closures: their captured state would be boxed).
    public mutating func encode(_ touches: ArraySlice<ForwardedTouch>, into out: inout [RawEvent]) {
        guard let first = touches.first else { return }
        var time = first.time
        var open = false
        for touch in touches where down.indices.contains(touch.slot) {
            if case .cancel = touch.kind, cancelStyle == .lift { continue }
            if written[touch.slot] { endFrame(at: time, into: &out); open = false }
            time = touch.time
            let wasAny = downCount > 0
            Self.abs(EventCode.ABS_MT_SLOT, Int32(touch.slot), time, &out)
            switch touch.kind {
            case .down(let id, let p):
                Self.abs(EventCode.ABS_MT_TOOL_TYPE, Self.MT_TOOL_FINGER, time, &out)
                Self.abs(EventCode.ABS_MT_TRACKING_ID, id, time, &out)
                Self.abs(EventCode.ABS_MT_POSITION_X, p.x, time, &out)
                Self.abs(EventCode.ABS_MT_POSITION_Y, p.y, time, &out)
                if !down[touch.slot] { down[touch.slot] = true; downCount += 1 }
            case .move(let p):
                Self.abs(EventCode.ABS_MT_POSITION_X, p.x, time, &out)
                Self.abs(EventCode.ABS_MT_POSITION_Y, p.y, time, &out)
            case .cancel:
                Self.abs(EventCode.ABS_MT_TOOL_TYPE, Self.MT_TOOL_PALM, time, &out)
            case .up:
                Self.abs(EventCode.ABS_MT_TRACKING_ID, -1, time, &out)
                if down[touch.slot] { down[touch.slot] = false; downCount -= 1 }
            }
            if hasButton && wasAny != (downCount > 0) {
                out.append(RawEvent(time: time, type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH, value: downCount > 0 ? 1 : 0))
            }
            written[touch.slot] = true
            open = true
        }
        if open { endFrame(at: time, into: &out) }
    }

    /// The events that end every touch of a clone with `slotCount` slots whatever the encoder
    /// wrote last: the style's cancel on every slot, then every slot's lift and `BTN_TOUCH 0`,
    /// each a frame. The guard of a clone writes them when the daemon is gone (`CloneGuard`),
    /// knowing nothing of which slots are down: the kernel drops a lift of a slot already up (a
    /// value that does not change), and libinput reports nothing for a palm on an idle slot.
    public static func endingEverySlot(slotCount: Int, hasTouchButton: Bool, cancelStyle: CancelStyle) -> [RawEvent] {
        var out: [RawEvent] = []
        let slots = 0..<max(slotCount, 1)
        if cancelStyle == .palm {
            for slot in slots {
                abs(EventCode.ABS_MT_SLOT, Int32(slot), .zero, &out)
                abs(EventCode.ABS_MT_TOOL_TYPE, MT_TOOL_PALM, .zero, &out)
            }
            out.append(RawEvent(time: .zero, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        }
        for slot in slots {
            abs(EventCode.ABS_MT_SLOT, Int32(slot), .zero, &out)
            abs(EventCode.ABS_MT_TRACKING_ID, -1, .zero, &out)
        }
        if hasTouchButton { out.append(RawEvent(time: .zero, type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH, value: 0)) }
        out.append(RawEvent(time: .zero, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        return out
    }

    /// The frames that press one touch at `position` in slot 0 of a fresh clone and those that
    /// end it as the forwarder ends a touch a gesture claims (`cancel`, then `up`), in
    /// `cancelStyle`: what `gestured doctor --probe-cancel` writes, so that it measures what the
    /// daemon does.
    public static func claimedTouch(trackingID: Int32, at position: DevicePosition, slotCount: Int, hasTouchButton: Bool,
                                    cancelStyle: CancelStyle) -> (press: [RawEvent], end: [RawEvent]) {
        var encoder = CloneEncoder(slotCount: slotCount, hasTouchButton: hasTouchButton, cancelStyle: cancelStyle)
        let device = GesturePipeline.DeviceID(value: 0), touch = TouchID(UInt64(bitPattern: Int64(trackingID)))
        func touched(_ kind: ForwardedTouch.Kind) -> ForwardedTouch {
            ForwardedTouch(device: device, time: .zero, touch: touch, slot: 0, kind: kind)
        }
        var press: [RawEvent] = [], end: [RawEvent] = []
        encoder.encode([touched(.down(trackingID: trackingID, position: position))], into: &press)
        encoder.encode([touched(.cancel), touched(.up)], into: &end)
        return (press, end)
    }

    private static func abs(_ code: UInt16, _ value: Int32, _ time: Instant, _ out: inout [RawEvent]) {
        out.append(RawEvent(time: time, type: EventCode.EV_ABS, code: code, value: value))
    }

    private mutating func endFrame(at time: Instant, into out: inout [RawEvent]) {
        out.append(RawEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        for i in written.indices { written[i] = false }
    }
}
