/// The pipeline's entry points besides frames and deadlines: what changes under the touches
/// (a reload, a view hidden or disabled, a rotation), and devices going (unplugged, let go by a
/// reload, the daemon stopping). Each fills one `Batch`, as frames and deadlines do.
extension GesturePipeline {
    /// Forgets a device; its touches are cancelled, and with them the gestures they drive. The
    /// application's touches on its clone are cancelled and lifted there, then the clone goes
    /// with it: nothing more is written there.
    public mutating func removeDevice(_ id: DeviceID, now: Instant, into batch: inout Batch) {
        batch.removeAll()
        appendRemoval(of: id, now: now, into: &batch)
        collectTrace(into: &batch)
    }

    mutating func appendRemoval(of id: DeviceID, now: Instant, into batch: inout Batch) {
        guard contains(id) else { return }
        // Every touch the application has on the clone ends there first (cancelled: the panel's
        // touches went with it), written before the clone goes, so that no compositor keeps one
        // pressed (docs/KIOSK.md).
        forwarder.claimAll(device: id.value)
        forwarder.decide(now: now, into: &batch.forwarded)
        appendCancellation(of: id.value, now: now, into: &batch)
        releaseClaimGrab(of: id.value, into: &batch)
        devices[id.value] = nil
        forwarder.removeDevice(id.value)
    }

    /// Cancels the touches still down on a device and the gestures they drive, as if it had
    /// been unplugged, but keeps it: the end of a recording (`Replay.Session.end`), whose
    /// device then stays until the pending deadlines have fired, as a device that stays plugged
    /// in the daemon does (a tap's lift held back by a double tap is let go when it fails).
    public mutating func cancelTouches(of id: DeviceID, now: Instant, into batch: inout Batch) {
        batch.removeAll()
        guard contains(id) else { return }
        appendCancellation(of: id.value, now: now, into: &batch)
        collectTrace(into: &batch)
    }

    private mutating func appendCancellation(of index: Int, now: Instant, into batch: inout Batch) {
        if devices[index]!.decoder.cancelAll(now: now) {
            deliver(device: index, now: now, into: &batch)
        }
    }

    /// Cancels and lifts every touch forwarded to a clone (of `device`, or of all): the clone is
    /// about to go, or to serve other rules (a reload that changed the device's treatment). The
    /// touches stay down but are never forwarded again.
    public mutating func cancelForwarded(device: DeviceID? = nil, now: Instant, into batch: inout Batch) {
        batch.removeAll()
        forwarder.claimAll(device: device?.value)
        forwarder.decide(now: now, into: &batch.forwarded)
    }

    /// The daemon stops: the application first sees every forwarded touch cancelled and lifted,
    /// then every device goes (its touches cancelled, their gestures ending `cancelled`), in the
    /// order they were added.
    public mutating func shutdown(now: Instant, into batch: inout Batch) {
        batch.removeAll()
        forwarder.claimAll()
        forwarder.decide(now: now, into: &batch.forwarded)
        for index in devices.indices where devices[index] != nil {
            appendRemoval(of: DeviceID(value: index), now: now, into: &batch)
        }
        collectTrace(into: &batch)
    }

    /// Replaces the view trees and recognizers. Running gestures are cancelled; touches already
    /// down stay unrouted until they lift. `sizes` are the new screens' (`ReloadPlan.sizes`, as
    /// the daemon gives them); without, `ScreenSizing`'s rule with the screens before and no
    /// device. Throws, changing nothing, when the new engines cannot be built.
    public mutating func reload(configuration: Configuration, sizes: [Size]? = nil, now: Instant,
                                into batch: inout Batch) throws(GestureEngine.BuildError) {
        let sizes = sizes ?? ScreenSizing.sizes(for: configuration, devices: [], previous: screens)
        var fresh = try Self.build(configuration, sizes: sizes)
        let freshUnlock = try UnlockGestures(configuration, sizes: sizes)
        batch.removeAll()
        // The new recognizers never saw the touches down and never claim them: a touch the
        // application has goes on there unless its view's rules changed.
        let old = screens
        forwarder.carry { touch, screen in Self.carry(touch, from: old[screen], to: fresh) }
        for screen in screens.indices {
            clearScratch()
            screens[screen].engine.cancelAll(now: now, into: &gestureEvents, ownership: &ownership)
            emit(screen: screen, into: &batch)
        }
        collectTrace(into: &batch)
        let anyDown = touchesDown(onScreen: nil)
        kiosk = kiosk.reloaded(configuration, now: now) { _ in anyDown }
        for screen in fresh.indices { fresh[screen].engine.tracesTransitions = tracesTransitions }
        screens = fresh
        unlock = freshUnlock
        renameTouchViews()
        reserveEventCapacity()
        forwarder.decide(now: now, into: &batch.forwarded)
        settleClaimGrabs(into: &batch)
    }

    /// Whether a touch's rules survive a reload: its screen is still there (by id) and the view
    /// it began in still exists (by id) and still forwards touches as it did. A touch outside
    /// every view had no rule and keeps none.
    private static func carry(_ touch: TouchID, from old: Screen, to fresh: [Screen]) -> TouchForwarder.Carry {
        guard let screen = fresh.firstIndex(where: { $0.id == old.id }) else { return .claim }
        guard let view = old.engine.view(of: touch) else { return .keep(screen: screen) }
        let node = old.engine.tree.nodes[view]
        guard let now = fresh[screen].engine.tree.index(of: node.id),
              fresh[screen].engine.tree.nodes[now].forwardsTouches == node.forwardsTouches else { return .claim }
        return .keep(screen: screen)
    }

    /// Applies a runtime change to a view (see `GestureEngine.change(_:of:now:into:)`): hiding
    /// or disabling it cancels the gestures its recognizers and its subviews' are tracking.
    /// Returns false, changing nothing, when no view has the id `view`. View ids are unique
    /// across screens: the view is looked up in every screen.
    public mutating func change(_ change: ViewTree.Change, ofView view: String, now: Instant,
                                into batch: inout Batch) -> Bool {
        batch.removeAll()
        defer { collectTrace(into: &batch) }
        return appendChange(change, ofView: view, now: now, into: &batch)
    }

    mutating func appendChange(_ change: ViewTree.Change, ofView view: String, now: Instant, into batch: inout Batch) -> Bool {
        for screen in screens.indices {
            guard let index = screens[screen].engine.tree.index(of: view) else { continue }
            clearScratch()
            screens[screen].engine.change(change, of: index, now: now, into: &gestureEvents, ownership: &ownership)
            emit(screen: screen, into: &batch)
            forwarder.decide(now: now, into: &batch.forwarded)
            return true
        }
        return false
    }

    /// Moves a device to another screen without cancelling anything: after a reload whose
    /// screens kept its screen's id and size but not its index.
    public mutating func setScreen(_ screen: Int, of id: DeviceID) {
        guard contains(id) else { return }
        screenOfDevice[id.value] = screen
    }

    /// Sets a device's rotation at runtime (a kiosk turning its screen). The device's touches in
    /// progress would jump to other screen points, so the gestures they drive are cancelled
    /// (running) or failed (pending); the touches stay down, unrouted, until they lift.
    public mutating func setRotation(_ rotation: Rotation, of id: DeviceID, now: Instant, into batch: inout Batch) {
        batch.removeAll()
        appendRotation(rotation, of: id, now: now, into: &batch)
        collectTrace(into: &batch)
    }

    mutating func appendRotation(_ rotation: Rotation, of id: DeviceID, now: Instant, into batch: inout Batch) {
        guard contains(id), devices[id.value]!.geometry.rotation != rotation else { return }
        let g = devices[id.value]!.geometry
        devices[id.value]!.geometry = DeviceGeometry(x: g.x, y: g.y, screen: g.screen, rotation: rotation,
                                                     calibration: g.calibration)
        let screen = screenOfDevice[id.value]
        clearScratch()
        screens[screen].engine.cancelGestures(involving: devices[id.value]!.touches, now: now, into: &gestureEvents,
                                              ownership: &ownership)
        emit(screen: screen, into: &batch)
        forwarder.decide(now: now, into: &batch.forwarded)
    }
}
