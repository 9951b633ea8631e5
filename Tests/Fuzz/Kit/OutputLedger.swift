import GesturedCore

/// Follows a pipeline's outputs and forwarded touches in order and checks their life cycles
/// (docs/PROTOCOL.md, docs/KIOSK.md):
/// - a continuous gesture goes `began`, `changed`…, then exactly one `ended` or `cancelled`; a
///   discrete one (tap, swipe, stroke) is one `ended` line; `failed` only while not running;
/// - a touch goes `began`, `moved`…, then one `ended` or `cancelled`, with an id never used
///   before (ids grow), on one device and slot, no two live touches in one slot;
/// - on a clone, a touch goes `down`, `move`…, at most one `cancel` (nothing after it but the
///   `up`), then exactly one `up`, in a slot no other live touch holds, with a tracking id no
///   other live touch of the clone has;
/// - every number is finite (the encoder prints a non-finite one as 0, which would hide it);
/// - with `monotonic`, times never go backwards within a stream: the clients' lines, and each
///   clone's touches. Not across them: one step may fire a deadline and then handle a frame (a
///   read that comes after a deadline the timer has not fired yet, or a `SYN_DROPPED`), and its
///   batch holds the lines of both instants before the touches of both.
/// `checkSettled` then says nothing is running, down or held.
public struct OutputLedger {
    struct Running { var type: String }
    struct LiveTouch { var device: DeviceName; var slot: Int }
    struct LiveForward { var slot: Int; var trackingID: Int32; var cancelled: Bool }
    struct Clone { var live: [UInt64: LiveForward] = [:]; var finished: Set<UInt64> = [] }

    private var running: [String: Running] = [:]
    private var types: [String: String] = [:]
    private var touches: [UInt64: LiveTouch] = [:]
    private var lastTouchID: UInt64 = 0
    private var clones: [Int: Clone] = [:]
    /// The latest time seen per stream: `lines` for the clients' lines, a clone's device index.
    private var lastTimes: [Int: Instant] = [:]
    private static let lines = -1
    private let monotonic: Bool
    public private(set) var gestureCount = 0
    public private(set) var forwardedCount = 0

    public init(monotonic: Bool) { self.monotonic = monotonic }

    static let discrete: Set<String> = ["tap", "swipe", "stroke"]

    private mutating func check(time: Instant, stream: Int = Self.lines,
                                _ what: @autoclosure () -> String) throws(Violation) {
        if monotonic, let last = lastTimes[stream] {
            try require(time >= last, "time went backwards from \(last) to \(time): \(what())")
        }
        lastTimes[stream] = max(lastTimes[stream] ?? time, time)
    }

    public mutating func take(_ output: GesturePipeline.Output) throws(Violation) {
        switch output {
        case .gesture(let g): try take(g)
        case .touch(let t): try take(t)
        case .kiosk(let k): try check(time: k.time, "\(k.name) at \(k.time)")
        }
    }

    mutating func take(_ g: GestureEvent) throws(Violation) {
        gestureCount += 1
        let key = (g.screen ?? "") + "\u{0}" + g.name
        let what = "\(g.type) \(g.state.rawValue) \(g.name) on \(g.view) at \(g.time)"
        try check(time: g.time, what)
        if let type = types[key] { try require(type == g.type, "gesture \(g.name) changed type from \(type): \(what)") }
        types[key] = g.type
        for v in [g.sample.location.x, g.sample.location.y, g.viewLocation.x, g.viewLocation.y] {
            try require(v.isFinite, "non-finite location: \(what) \(g.sample.location) \(g.viewLocation)")
        }
        try checkValues(g.sample.values, what)
        let isRunning = running[key] != nil
        if Self.discrete.contains(g.type) {
            try require(g.state == .ended || g.state == .failed, "discrete gesture in state \(g.state.rawValue): \(what)")
            try require(!isRunning, "discrete gesture while running: \(what)")
            return
        }
        switch g.state {
        case .began:
            try require(!isRunning, "began twice without an end: \(what)")
            running[key] = Running(type: g.type)
        case .changed:
            try require(isRunning, "changed without began: \(what)")
        case .ended, .cancelled:
            try require(isRunning, "\(g.state.rawValue) without began: \(what)")
            running[key] = nil
        case .failed:
            try require(!isRunning, "failed while running: \(what)")
        }
        if g.state == .began || g.state == .changed || g.state == .ended {
            try require(g.sample.touches >= 1, "a running gesture with \(g.sample.touches) touches: \(what)")
        }
    }

    private func checkValues(_ values: GestureValues, _ what: String) throws(Violation) {
        let numbers: [Double]
        switch values {
        case .none: numbers = []
        case .tap(let taps): try require(taps >= 1, "tap with \(taps) taps: \(what)"); numbers = []
        case .swipe: numbers = []
        case .pan(let t, let v), .screenEdgePan(let t, let v, _): numbers = [t.dx, t.dy, v.dx, v.dy]
        case .pinch(let scale, let velocity):
            try require(scale >= 0, "negative pinch scale \(scale): \(what)"); numbers = [scale, velocity]
        case .rotation(let rotation, let velocity): numbers = [rotation, velocity]
        case .longPress(let duration):
            try require(duration.microseconds >= 0, "negative long press duration: \(what)"); numbers = []
        case .stroke(_, let score):
            try require(score >= 0 && score <= 1, "stroke score \(score) outside 0…1: \(what)"); numbers = [score]
        }
        for n in numbers { try require(n.isFinite, "non-finite value in \(values): \(what)") }
    }

    mutating func take(_ t: TouchEvent) throws(Violation) {
        let u = t.update
        let what = "touch \(u.phase.rawValue) \(u.id) \(u.device) slot \(u.slot) at \(t.time)"
        try check(time: t.time, what)
        try require(u.location.x.isFinite && u.location.y.isFinite, "non-finite touch location \(u.location): \(what)")
        switch u.phase {
        case .began:
            try require(u.id.value > lastTouchID, "touch id \(u.id) not above the last one, \(lastTouchID): \(what)")
            lastTouchID = u.id.value
            try require(!touches.values.contains { $0.device == u.device && $0.slot == u.slot },
                        "two live touches in one slot: \(what)")
            touches[u.id.value] = LiveTouch(device: u.device, slot: u.slot)
        case .moved, .ended, .cancelled:
            guard let live = touches[u.id.value] else { throw Violation("\(u.phase.rawValue) of a touch that is not down: \(what)") }
            try require(live.device == u.device && live.slot == u.slot,
                        "touch changed device or slot from \(live.device) \(live.slot): \(what)")
            if u.phase != .moved { touches[u.id.value] = nil }
        }
    }

    public mutating func take(_ f: ForwardedTouch) throws(Violation) {
        forwardedCount += 1
        let what = "forward \(f.kind) \(f.touch) device \(f.device.value) slot \(f.slot) at \(f.time)"
        try check(time: f.time, stream: f.device.value, what)
        var clone = clones[f.device.value] ?? Clone()
        defer { clones[f.device.value] = clone }
        let id = f.touch.value
        switch f.kind {
        case .down(let trackingID, _):
            try require(clone.live[id] == nil && !clone.finished.contains(id), "a second down for one touch: \(what)")
            try require(!clone.live.values.contains { $0.slot == f.slot }, "down in a clone slot another touch holds: \(what)")
            try require(!clone.live.values.contains { $0.trackingID == trackingID },
                        "down with a tracking id another live touch has: \(what)")
            try require(trackingID >= 0, "down with a negative tracking id: \(what)")
            clone.live[id] = LiveForward(slot: f.slot, trackingID: trackingID, cancelled: false)
        case .move:
            guard let live = clone.live[id] else { throw Violation("move of a touch not down on the clone: \(what)") }
            try require(live.slot == f.slot, "move in another slot than the down's, \(live.slot): \(what)")
            try require(!live.cancelled, "move after cancel: \(what)")
        case .cancel:
            guard let live = clone.live[id] else { throw Violation("cancel of a touch not down on the clone: \(what)") }
            try require(live.slot == f.slot, "cancel in another slot than the down's, \(live.slot): \(what)")
            try require(!live.cancelled, "cancel twice: \(what)")
            clone.live[id]!.cancelled = true
        case .up:
            guard let live = clone.live[id] else { throw Violation("up of a touch not down on the clone: \(what)") }
            try require(live.slot == f.slot, "up in another slot than the down's, \(live.slot): \(what)")
            clone.live[id] = nil
            clone.finished.insert(id)
        }
    }

    /// A device went away with its clone: what it held ends with it (the kernel lifts it).
    public mutating func removeClone(_ device: GesturePipeline.DeviceID) {
        clones[device.value] = nil
    }

    /// Nothing running, no touch down, nothing held on a clone.
    public func checkSettled(_ when: String) throws(Violation) {
        if let (key, r) = running.first {
            throw Violation("\(when): \(r.type) gesture \(key.split(separator: "\u{0}").last ?? "") began and never ended")
        }
        if let (id, t) = touches.first { throw Violation("\(when): touch \(id) on \(t.device) slot \(t.slot) never ended") }
        for (device, clone) in clones {
            if let (id, f) = clone.live.first {
                throw Violation("\(when): the application holds touch \(id) in slot \(f.slot) of device \(device)'s clone")
            }
        }
    }
}
