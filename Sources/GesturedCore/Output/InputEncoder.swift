/// The evdev events that make the virtual device `gestured input` send what a gesture's input
/// action says (`InputAction`), the way `CloneEncoder` makes a clone show forwarded touches.
///
/// Why each rule:
/// - every key press and every release is a frame of its own (`SYN_REPORT`): a reader that
///   updates its modifiers frame by frame (xkbcommon in a compositor) then sees `alt` down before
///   `Home`, and releases come in reverse, so no modifier is up while its key is down;
/// - a click moves the pointer first, in a frame of its own, so that the compositor's pointer
///   focus is the surface under the gesture before the button goes down (a button in the same
///   frame as the motion may reach the surface the pointer was over);
/// - a scroll moves the pointer to where the gesture began (the wheel goes to the surface under
///   the pointer), then turns its translation into high-resolution wheel units (120 per detent,
///   `REL_WHEEL_HI_RES`) and whole detents (`REL_WHEEL`) as the kernel's own drivers do: a
///   detent each time the high-resolution total passes a multiple of 120. The remainders carry
///   over between frames, so a slow finger scrolls as far as a fast one;
/// - every button and key it pressed is released by the same call; `releasingEverything` is
///   what a guard writes when the daemon is gone mid-chord.
///
/// Screen points map to the device's axes one to one: the device's `ABS_X` runs from 0 to the
/// screen's width less one point, which libinput maps to the output's width exactly.
public struct InputEncoder: Sendable {
    /// The screen the absolute pointer spans (the first screen's size).
    public let screen: Size
    /// Per gesture (by id), the scroll in progress: the translation already turned into wheel
    /// motion, and the high-resolution units already sent per axis.
    private var scrolls: [String: ScrollProgress] = [:]

    private struct ScrollProgress {
        var translation = Vector.zero
        var hiRes = (vertical: 0, horizontal: 0)
        var exact = (vertical: 0.0, horizontal: 0.0)
    }

    public init(screen: Size) { self.screen = screen }

    /// The largest `ABS_X` and `ABS_Y` of the device (the minimum is 0).
    public var axisMaximum: (x: Int32, y: Int32) {
        (Int32(max(screen.width.rounded(), 1)) - 1, Int32(max(screen.height.rounded(), 1)) - 1)
    }

    /// Appends the events for `action` reached by `event` to `out`, whole frames.
    public mutating func encode(_ action: InputAction, for event: GestureEvent, into out: inout [RawEvent]) {
        let time = event.time
        switch action.kind {
        case .key(let codes):
            for code in codes { key(code, 1, time, &out) }
            for code in codes.reversed() { key(code, 0, time, &out) }
        case .click(let button, let at):
            move(to: at ?? event.sample.location, time, &out)
            key(button.code, 1, time, &out)
            key(button.code, 0, time, &out)
            if action.pointerAfter == .aside { moveAside(time, &out) }
        case .scroll(let axes, let direction):
            scroll(action, axes, direction, event, &out)
        }
    }

    private mutating func scroll(_ action: InputAction, _ axes: ScrollAxes, _ direction: ScrollDirection,
                                 _ event: GestureEvent, _ out: inout [RawEvent]) {
        let name = event.name
        switch event.state {
        case .began:
            scrolls[name] = ScrollProgress()
            move(to: event.sample.location - translation(of: event), event.time, &out)
        case .changed, .ended:
            break
        case .cancelled, .failed:
            scrolls[name] = nil
            return
        }
        guard var progress = scrolls[name] else { return }
        let now = translation(of: event)
        let delta = now - progress.translation
        progress.translation = now
        // Natural: the content follows the finger. A finger moving down shows what is above:
        // the wheel turns up (positive REL_WHEEL); a finger moving right shows what is on the
        // left (negative REL_HWHEEL).
        let sign = direction == .natural ? 1.0 : -1.0
        let unitsPerPoint = Double(InputAction.hiResPerDetent) / action.pointsPerDetent
        var frame = false
        if axes.vertical {
            progress.exact.vertical += sign * delta.dy * unitsPerPoint
            frame = wheel(&progress.hiRes.vertical, toward: progress.exact.vertical, hiRes: EventCode.REL_WHEEL_HI_RES,
                          detent: EventCode.REL_WHEEL, event.time, &out) || frame
        }
        if axes.horizontal {
            progress.exact.horizontal -= sign * delta.dx * unitsPerPoint
            frame = wheel(&progress.hiRes.horizontal, toward: progress.exact.horizontal, hiRes: EventCode.REL_HWHEEL_HI_RES,
                          detent: EventCode.REL_HWHEEL, event.time, &out) || frame
        }
        if frame { syn(event.time, &out) }
        switch event.state {
        case .ended:
            scrolls[name] = nil
            if action.pointerAfter == .aside { moveAside(event.time, &out) }
        case .began, .changed, .cancelled, .failed:
            scrolls[name] = progress
        }
    }

    /// Sends the whole high-resolution units between `sent` and `exact` (truncated toward
    /// zero), and a detent for each multiple of 120 they cross; false when nothing was due.
    private func wheel(_ sent: inout Int, toward exact: Double, hiRes: UInt16, detent: UInt16,
                       _ time: Instant, _ out: inout [RawEvent]) -> Bool {
        let target = Int(exact.rounded(.towardZero))
        guard target != sent else { return false }
        let per = InputAction.hiResPerDetent
        let detents = target / per - sent / per
        out.append(RawEvent(time: time, type: EventCode.EV_REL, code: hiRes, value: Int32(target - sent)))
        if detents != 0 { out.append(RawEvent(time: time, type: EventCode.EV_REL, code: detent, value: Int32(detents))) }
        sent = target
        return true
    }

    private func translation(of event: GestureEvent) -> Vector {
        switch event.sample.values {
        case .pan(let translation, _), .screenEdgePan(let translation, _, _): translation
        case .none, .tap, .swipe, .pinch, .rotation, .longPress, .stroke: .zero
        }
    }

    private func move(to p: Point, _ time: Instant, _ out: inout [RawEvent]) {
        let limit = axisMaximum
        let x = Int32(min(max(p.x.rounded(), 0), Double(limit.x)))
        let y = Int32(min(max(p.y.rounded(), 0), Double(limit.y)))
        out.append(RawEvent(time: time, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: x))
        out.append(RawEvent(time: time, type: EventCode.EV_ABS, code: EventCode.ABS_Y, value: y))
        syn(time, &out)
    }

    /// The bottom-right corner: the one place a touch kiosk's content rarely reacts to hover.
    private func moveAside(_ time: Instant, _ out: inout [RawEvent]) {
        move(to: Point(x: screen.width, y: screen.height), time, &out)
    }

    private func key(_ code: UInt16, _ value: Int32, _ time: Instant, _ out: inout [RawEvent]) {
        out.append(RawEvent(time: time, type: EventCode.EV_KEY, code: code, value: value))
        syn(time, &out)
    }

    private func syn(_ time: Instant, _ out: inout [RawEvent]) {
        out.append(RawEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
    }

    /// The events that release every key and button `capabilities` has, each a frame: the
    /// device's guard writes them when the daemon is gone, knowing nothing of what is down (the
    /// kernel drops the release of a key that is up).
    public static func releasingEverything(_ capabilities: InputCapabilities) -> [RawEvent] {
        var out: [RawEvent] = []
        for code in capabilities.keys + capabilities.buttons {
            out.append(RawEvent(time: .zero, type: EventCode.EV_KEY, code: code, value: 0))
        }
        if !out.isEmpty { out.append(RawEvent(time: .zero, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)) }
        return out
    }
}
