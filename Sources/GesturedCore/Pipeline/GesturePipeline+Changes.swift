/// The pipeline's steps besides frames and deadlines: what changes under the touches (a reload,
/// a view hidden or disabled, a rotation), and devices going (unplugged, let go by a reload, the
/// daemon stopping). Each is part of one step (`step(_:into:)`, GesturePipeline+Step.swift).
extension GesturePipeline {
    /// Devices go (one unplugged or let go, or all at shutdown); their touches are cancelled,
    /// and with them the gestures they drive. The application's touches on their clones are
    /// cancelled and lifted there, then the clones go with them: nothing more is written there.
    mutating func appendRemoval(of ids: [DeviceID], now: Instant, into batch: inout Batch) {
        let going = ids.filter { devices.position(of: $0) != nil }
        guard !going.isEmpty else { return }
        endTouches(of: going, now: now, into: &batch)
        for id in going {
            devices.remove(id)
            forwarder.removeDevice(id.value)
        }
    }

    /// The touches of devices about to go or be treated anew end: every touch the application
    /// has on their clones ends there (cancelled: the panel's touches went with it), written
    /// before the clones go, so that no compositor keeps one pressed (docs/KIOSK.md); then
    /// their touches and the gestures they drive are cancelled, and their claims' grabs let go.
    private mutating func endTouches(of going: [DeviceID], now: Instant, into batch: inout Batch) {
        for id in going { forwarder.claimAll(device: id.value) }
        for id in going { if let p = devices.position(of: id) { appendCancellation(of: p, now: now, into: &batch) } }
        settleForwarding(now: now, into: &batch)   // a lift held back has no touch left to cancel
        for id in going { if let p = devices.position(of: id) { releaseClaimGrab(of: p, into: &batch) } }
    }

    /// The touches still down on the device at position `p` are cancelled (its decoder ends
    /// them), and so are the gestures they drive.
    mutating func appendCancellation(of p: Int, now: Instant, into batch: inout Batch) {
        if devices[p].decoder.cancelAll(now: now) {
            deliver(device: p, now: now, into: &batch)
        }
    }

    /// What a reload does to the devices open before it, in their order: a kept one feeds its
    /// screen's new index; a replaced one's touches end (`endTouches`) and it is decoded anew
    /// under its id; a released one goes, its line after.
    mutating func appendDeviceChanges(_ changes: [DeviceChange], now: Instant, into batch: inout Batch) {
        for change in changes {
            switch change {
            case .keep(let id, let screen):
                if let p = devices.position(of: id) { devices[p].screen = screen }
            case .replace(let prepared):
                guard devices.position(of: prepared.id) != nil else { continue }
                endTouches(of: [prepared.id], now: now, into: &batch)
                forwarder.removeDevice(prepared.id.value)
                install(prepared, replacing: true)
            case .release(let id, let line):
                appendRemoval(of: [id], now: now, into: &batch)
                batch.deviceLines.append(line)
            }
        }
    }

    /// Replaces the view trees and recognizers with `fresh` (built already). Running gestures
    /// are cancelled; touches already down stay unrouted until they lift.
    mutating func appendReload(_ configuration: Configuration, screens fresh: [Screen], unlock freshUnlock: UnlockGestures,
                               now: Instant, into batch: inout Batch) {
        var fresh = fresh
        // The new recognizers never saw the touches down and never claim them: a touch the
        // application has goes on there unless its view's rules changed.
        let old = screens
        forwarder.carry { touch, screen in Self.carry(touch, from: old[screen], to: fresh) }
        for screen in screens.indices { run(.cancelAll, screen: screen, now: now, into: &batch) }
        collectTrace(into: &batch)   // the old engines' trace, before they go
        let anyDown = touchesDown(onScreen: nil)
        kiosk = kiosk.reloaded(configuration, now: now) { _ in anyDown }
        for screen in fresh.indices { fresh[screen].engine.tracesTransitions = tracesTransitions }
        screens = fresh
        unlock = freshUnlock
        renameTouchViews()
        reserveEventCapacity()
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

    /// A runtime change of the view with id `view` (see `GestureEngine.change(_:of:now:into:)`):
    /// hiding or disabling it cancels the gestures its recognizers and its subviews' are
    /// tracking. False, changing nothing, when no screen has such a view (ids are unique across
    /// screens).
    mutating func appendChange(_ change: ViewTree.Change, ofView view: String, now: Instant, into batch: inout Batch) -> Bool {
        for screen in screens.indices {
            guard let index = screens[screen].engine.tree.index(of: view) else { continue }
            run(.change(change, view: index), screen: screen, now: now, into: &batch)
            return true
        }
        return false
    }

    /// A device's rotation set at runtime (a kiosk turning its screen). The device's touches in
    /// progress would jump to other screen points, so the gestures they drive are cancelled
    /// (running) or failed (pending); the touches stay down, unrouted, until they lift.
    mutating func appendRotation(_ rotation: Rotation, of id: DeviceID, now: Instant, into batch: inout Batch) {
        guard let p = devices.position(of: id), devices[p].geometry.rotation != rotation else { return }
        let g = devices[p].geometry
        devices[p].geometry = DeviceGeometry(x: g.x, y: g.y, screen: g.screen, rotation: rotation, calibration: g.calibration)
        run(.cancelGestures(devices[p].touches), screen: devices[p].screen, now: now, into: &batch)
    }
}
