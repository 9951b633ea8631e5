/// The kiosk policy's state (docs/KIOSK.md): each screen's lock and power, and the idle
/// clocks. Plain data the pipeline consults when a touch begins or ends and at its deadlines;
/// it says what to do by appending `KioskEvent` outputs and by `claims(screen:)`, and exposes
/// its one next deadline beside the engines'.
///
/// Nothing here costs a frame anything while no threshold is set, no screen is locked or off
/// and no claimed touch is down (`watchesTouches` is false), and nothing has a deadline then:
/// an idle daemon still never wakes.
struct KioskState: Sendable {
    /// Counts how long no touch has begun, for one list of thresholds.
    struct IdleClock: Sendable {
        /// The screen whose touches it counts (index in the pipeline's screens); nil: every screen.
        let screen: Int?
        /// Its lines' `screen=`.
        let screenID: String?
        /// Increasing.
        let thresholds: [Interval]
        /// When the last touch of its screens lifted (or counting started); nil while a touch is
        /// down there, and before counting starts.
        var since: Instant?
        /// The next threshold to reach.
        var next = 0
        /// An `idle` line was sent since the last touch: the next touch sends `active`.
        var reached = false

        var deadline: Instant? {
            guard let since, next < thresholds.count else { return nil }
            return since + thresholds[next]
        }

        func counts(_ s: Int) -> Bool { screen.map { $0 == s } ?? true }
    }

    /// One screen's lock and power.
    struct ScreenState: Sendable {
        let id: String?
        let wakeTouch: WakeTouch
        /// Run when a wake touch is claimed (`power.wakeAction`).
        let wakeAction: GestureAction?
        /// When its lock ends; nil when it is not locked.
        var lockedUntil: Instant?
        /// Said to be off (`screen off`) and not woken since.
        var off = false
    }

    private(set) var idle: [IdleClock]
    private(set) var screens: [ScreenState]
    /// The earliest lock end or idle threshold, if any.
    private(set) var nextDeadline: Instant?
    /// Whether a touch's beginning or end matters (see the type's comment).
    private(set) var watchesTouches = false
    /// Touches claimed and still down, on every screen.
    private(set) var claimedDown = 0
    private(set) var started = false

    init(configuration: Configuration) {
        let specs = configuration.screenSpecs
        screens = specs.map { spec in
            let power = spec.power ?? configuration.power
            return ScreenState(id: spec.id, wakeTouch: power.wakeTouch, wakeAction: power.wakeAction)
        }
        idle = []
        if !configuration.idle.isEmpty {
            idle.append(IdleClock(screen: nil, screenID: nil, thresholds: configuration.idle))
        }
        for (i, spec) in specs.enumerated() where !spec.idle.isEmpty {
            idle.append(IdleClock(screen: i, screenID: spec.id, thresholds: spec.idle))
        }
        update()
    }

    /// The state for a reloaded configuration: locks and power carry over to the screens of the
    /// same id; the idle clocks count again from `now` (a touch down then starts them at its
    /// lift), and a clock that had sent `idle` still sends `active` at the next touch.
    func reloaded(_ configuration: Configuration, now: Instant, touchesDown: (Int?) -> Bool) -> KioskState {
        var fresh = KioskState(configuration: configuration)
        fresh.claimedDown = claimedDown
        for i in fresh.screens.indices {
            guard let old = screens.first(where: { $0.id == fresh.screens[i].id }) else { continue }
            fresh.screens[i].lockedUntil = old.lockedUntil
            fresh.screens[i].off = old.off
        }
        let wasIdle = idle.contains { $0.reached }
        for i in fresh.idle.indices {
            fresh.idle[i].reached = wasIdle
            fresh.idle[i].since = touchesDown(fresh.idle[i].screen) ? nil : now
        }
        fresh.started = started
        fresh.update()
        return fresh
    }

    /// Starts the idle clocks at `now` (the daemon's start, a replay's first event); once. A clock
    /// not started yet starts at the first lift.
    mutating func start(at now: Instant) {
        guard !started else { return }
        started = true
        for i in idle.indices where idle[i].since == nil { idle[i].since = now }
        update()
    }

    /// Whether a touch beginning now on `screen` is claimed: the screen is locked, or off with
    /// `wakeTouch: "claim"`. (A touch that begins while a claimed one is down on its screen is
    /// claimed too: the pipeline checks that.)
    func claims(screen s: Int) -> Bool {
        screens[s].lockedUntil != nil || (screens[s].off && screens[s].wakeTouch == .claim)
    }

    /// Touches began on `screen` in a frame: the clocks counting it stop, and those that had
    /// sent `idle` send `active`.
    mutating func began(screen s: Int, now: Instant, into outputs: inout [GesturePipeline.Output]) {
        for i in idle.indices where idle[i].counts(s) {
            if idle[i].reached { outputs.append(.kiosk(KioskEvent(.active, time: now, screen: idle[i].screenID))) }
            idle[i].since = nil
            idle[i].next = 0
            idle[i].reached = false
        }
        update()
    }

    /// A touch began on a screen said to be off: it is on from now on; with `wakeTouch: "claim"`
    /// (then the touch was claimed) every client gets a `wake` line, and the screen's wake
    /// action runs for it.
    mutating func wake(screen s: Int, device: DeviceName, location: Point, now: Instant, into batch: inout Batch) {
        guard screens[s].off else { return }
        screens[s].off = false
        if screens[s].wakeTouch == .claim {
            batch.outputs.append(.kiosk(KioskEvent(.wake(device: device, location: location), time: now, screen: screens[s].id)))
            if let action = screens[s].wakeAction {
                batch.actions.append(ActionRequest(output: batch.outputs.count - 1, action: action))
            }
        }
        update()
    }

    /// Touches lifted on `screen`: each clock counting it starts when no touch is down on its
    /// screens any more (`touchesDown(clock's screen)`).
    mutating func ended(screen s: Int, now: Instant, touchesDown: (Int?) -> Bool) {
        for i in idle.indices where idle[i].counts(s) && idle[i].since == nil && !touchesDown(idle[i].screen) {
            idle[i].since = now
        }
        update()
    }

    /// Claimed touches began (positive) or ended (negative).
    mutating func claimed(_ change: Int) {
        claimedDown += change
        update()
    }

    /// Fires what is due at `deadline` (`nextDeadline`): lock ends first, screen by screen, then
    /// idle thresholds, clock by clock.
    mutating func fire(at deadline: Instant, into outputs: inout [GesturePipeline.Output]) {
        for s in screens.indices where screens[s].lockedUntil.map({ $0 <= deadline }) ?? false {
            screens[s].lockedUntil = nil
            outputs.append(.kiosk(KioskEvent(.unlock, time: deadline, screen: screens[s].id)))
        }
        for i in idle.indices {
            while let d = idle[i].deadline, d <= deadline {
                let seconds = Int(idle[i].thresholds[idle[i].next].microseconds / 1_000_000)
                outputs.append(.kiosk(KioskEvent(.idle(seconds: seconds), time: d, screen: idle[i].screenID)))
                idle[i].next += 1
                idle[i].reached = true
            }
        }
        update()
    }

    /// Locks `screens` for `seconds` from `now` (a lock in force is replaced): a `lock` line each.
    mutating func lock(_ indices: [Int], seconds: Int, now: Instant, into outputs: inout [GesturePipeline.Output]) {
        for s in indices {
            screens[s].lockedUntil = now + Interval(microseconds: Int64(seconds) * 1_000_000)
            outputs.append(.kiosk(KioskEvent(.lock(seconds: seconds), time: now, screen: screens[s].id)))
        }
        update()
    }

    /// Ends the lock of `screens` that are locked: an `unlock` line each.
    mutating func unlock(_ indices: [Int], now: Instant, into outputs: inout [GesturePipeline.Output]) {
        for s in indices where screens[s].lockedUntil != nil {
            screens[s].lockedUntil = nil
            outputs.append(.kiosk(KioskEvent(.unlock, time: now, screen: screens[s].id)))
        }
        update()
    }

    /// `screen off|on`: what the idle manager says (no line).
    mutating func setOff(_ off: Bool, screens indices: [Int]) {
        for s in indices { screens[s].off = off }
        update()
    }

    private mutating func update() {
        var earliest: Instant?
        var locked = false, off = false
        for s in screens {
            if let d = s.lockedUntil { locked = true; if earliest.map({ d < $0 }) ?? true { earliest = d } }
            if s.off { off = true }
        }
        for clock in idle {
            if let d = clock.deadline, earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        nextDeadline = earliest
        watchesTouches = !idle.isEmpty || locked || off || claimedDown > 0
    }
}
