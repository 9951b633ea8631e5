/// The unlock gesture of each screen (`lock.unlockGesture`, docs/KIOSK.md "The touch lock"):
/// while a screen is locked its touches are claimed, and those that began during the lock go
/// to this gesture's own engine instead of nowhere; when the gesture ends, the screen's lock
/// ends. It is the only gesture that runs while locked: the screen's view tree never sees
/// those touches, and the unlock engine's own events are not lines (only the `unlock` is).
///
/// One engine per screen that has an unlock gesture, beside the screen's engine, with its own
/// deadlines (a long press's timer), which the pipeline fires in time order with the others.
struct UnlockGestures: Sendable {
    /// By screen index; nil for a screen without an unlock gesture.
    private(set) var engines: [GestureEngine?]
    /// Scratch: one engine call's events, and ownership facts (unused: nothing is forwarded).
    private var events: [GestureEvent] = []
    private var ownership: [TouchOwnership] = []

    init(_ configuration: Configuration, sizes: [Size]) throws(GestureEngine.BuildError) {
        var engines: [GestureEngine?] = []
        for (i, spec) in configuration.screenSpecs.enumerated() {
            guard let views = configuration.lock(ofScreen: i).unlockViews else { engines.append(nil); continue }
            engines.append(try GestureEngine(views: views, screen: sizes[i], screenID: spec.id))
        }
        self.engines = engines
    }

    /// Whether screen `s` has an unlock gesture.
    func has(screen s: Int) -> Bool { engines.indices.contains(s) && engines[s] != nil }

    /// The earliest deadline of any unlock engine, and its screen.
    var nextDeadline: (Int, Instant)? {
        var earliest: (Int, Instant)?
        // By index, asked in place: a loop over the engines copied each (a large value) first.
        for i in engines.indices {
            if let d = engines[i]?.nextDeadline, earliest.map({ d < $0.1 }) ?? true { earliest = (i, d) }
        }
        return earliest
    }

    /// Feeds screen `s`'s unlocking touches of a frame; whether the unlock gesture ended.
    mutating func handle(_ updates: [TouchUpdate], screen s: Int, now: Instant) -> Bool {
        guard engines[s] != nil else { return false }
        clear()
        engines[s]?.handle(updates, now: now, into: &events, ownership: &ownership)
        return ended()
    }

    /// Fires screen `s`'s unlock engine at `deadline`; whether the unlock gesture ended.
    mutating func advance(screen s: Int, to deadline: Instant) -> Bool {
        guard engines[s] != nil else { return false }
        clear()
        engines[s]?.advance(to: deadline, into: &events, ownership: &ownership)
        return ended()
    }

    private mutating func clear() {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        if !ownership.isEmpty { ownership.removeAll(keepingCapacity: true) }
    }

    private func ended() -> Bool { events.contains { $0.state == .ended } }
}
