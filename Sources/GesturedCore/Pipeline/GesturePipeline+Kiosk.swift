/// The kiosk policy in the pipeline (docs/KIOSK.md): touches claimed while their screen is
/// locked or off, the `wake`, `lock`, `unlock`, `idle` and `active` lines, and the control
/// requests that lock, unlock and say a screen's power.
///
/// A claimed touch is taken out of a frame before the engine and the forwarder see it: it
/// starts no gesture, makes no touch line and never reaches the application. A touch that
/// begins while a claimed touch is down on its screen is claimed too, so a sequence is claimed
/// or not as a whole.
extension GesturePipeline {
    /// The lock of each screen (by index), nil when it is not locked: when it ends.
    public var locks: [Instant?] { kiosk.screens.map(\.lockedUntil) }

    /// Whether each screen (by index) is said to be off.
    public var screensOff: [Bool] { kiosk.screens.map(\.off) }

    /// Whether a touch that is claimed is down on `screen`.
    func claimedTouchDown(onScreen s: Int) -> Bool {
        guard kiosk.claimedDown > 0 else { return false }
        for d in devices.indices where devices[d].screen == s {
            if devices[d].touchInSlot.contains(where: { $0?.claimed == true }) { return true }
        }
        return false
    }

    /// Whether any touch is down on `screen` (nil: on any screen).
    func touchesDown(onScreen s: Int?) -> Bool {
        for d in devices.indices where s.map({ devices[d].screen == $0 }) ?? true {
            if devices[d].touchInSlot.contains(where: { $0 != nil }) { return true }
        }
        return false
    }

    /// A frame's touches as the kiosk policy sees them: beginnings (`active`, a wake), claimed
    /// touches counted, lifts (idle clocks start). Its lines come before the frame's touch and
    /// gesture lines.
    mutating func applyKiosk(screen: Int, device p: Int, now: Instant, into batch: inout Batch) {
        var began: Point?
        var anyEnded = false
        var claimed = 0
        for change in claimedChanges {
            if change.began { claimed += 1; if began == nil { began = change.location } } else { claimed -= 1; anyEnded = true }
        }
        claimedChanges.removeAll(keepingCapacity: true)
        for update in updates {
            switch update.phase {
            case .began: if began == nil { began = update.location }
            case .ended, .cancelled: anyEnded = true
            case .moved: break
            }
        }
        if claimed != 0 { kiosk.claimed(claimed) }
        if !unlockUpdates.isEmpty {
            // The unlock gesture ends a lock still in force; a finger of it still down after
            // the lock ended goes on to the engine until it lifts, and ends nothing.
            if unlock.handle(unlockUpdates, screen: screen, now: now), kiosk.screens[screen].lockedUntil != nil {
                kiosk.unlock([screen], now: now, into: &batch.outputs)
            }
            unlockUpdates.removeAll(keepingCapacity: true)
        }
        if let location = began {
            kiosk.began(screen: screen, now: now, into: &batch.outputs)
            kiosk.wake(screen: screen, device: devices[p].name, location: location, now: now, into: &batch)
        }
        if anyEnded {
            let down = (0..<screens.count).map { touchesDown(onScreen: $0) }
            kiosk.ended(screen: screen, now: now) { scope in scope.map { down[$0] } ?? down.contains(true) }
        }
    }

    /// `lock SECONDS [SCREEN]` on the screens `indices`: their `lock` lines, then the sequences in
    /// progress there end for the application (cancelled and lifted on the clones) and their
    /// gestures are cancelled; those touches stay down, unrouted, until they lift, and every
    /// touch that begins while the lock holds is claimed. The step settles the grabs after it.
    mutating func appendLock(screens indices: [Int], seconds: Int, now: Instant, into batch: inout Batch) {
        kiosk.lock(indices, seconds: seconds, now: now, into: &batch.outputs)
        // Every screen's touches are claimed before any gesture is cancelled: the forwarder's
        // first decision then ends them all, in the order they began.
        for d in devices.indices where indices.contains(devices[d].screen) { forwarder.claimAll(device: devices[d].id.value) }
        for s in indices {
            var touches: [TouchID] = []
            for d in devices.indices where devices[d].screen == s {
                for case let touch? in devices[d].touchInSlot where !touch.claimed { touches.append(touch.id) }
            }
            if !touches.isEmpty { run(.cancelGestures(touches), screen: s, now: now, into: &batch) }
        }
    }

    /// `unlock [SCREEN]`: an `unlock` line for each of `indices` that was locked.
    mutating func appendUnlock(screens indices: [Int], now: Instant, into batch: inout Batch) {
        kiosk.unlock(indices, now: now, into: &batch.outputs)
    }

    /// `screen off|on [SCREEN]`.
    mutating func setScreensOff(_ off: Bool, screens indices: [Int]) { kiosk.setOff(off, screens: indices) }

    /// Grabs or lets go of the panels that the application reads directly (neither `grab` nor
    /// `passThrough`), so that a claimed sequence never reaches it: such a panel is grabbed
    /// while the next sequence on its screen would be claimed (locked, or said to be off with
    /// `wakeTouch: "claim"`), and let go once nothing is claimed there and its claimed touches
    /// have lifted.
    ///
    /// The grab begins as soon as the screen claims, also with fingers down: waiting for them
    /// to lift would let every touch that begins meanwhile reach the application, for as long as
    /// one of them stays down. A finger down when the grab begins stops where it is for the
    /// application (the kernel gives a grab every later event and ends nothing for the other
    /// readers); it moves on and lifts there if it is still down when the grab ends, which
    /// happens as soon as nothing is claimed any more, whatever unclaimed fingers are down
    /// (docs/KIOSK.md, "Without pass-through"). A screen found off only when a sequence begins
    /// (its `dpms` or `bl_power`, read then) is on again by the end of that frame: the
    /// application already has the wake touch's beginning, and a grab then would only keep its
    /// lift from it, so that sequence is not grabbed.
    mutating func settleClaimGrabs(into batch: inout Batch) {
        guard kiosk.watchesTouches || claimGrabsHeld > 0 else { return }
        for d in devices.indices where devices[d].grabsForClaims {
            // Held while the screen claims, and while a claimed touch made under the grab is down.
            let want = kiosk.claims(screen: devices[d].screen)
                || (devices[d].grabbedForClaims && devices[d].touchInSlot.contains { $0?.claimed == true })
            guard want != devices[d].grabbedForClaims else { continue }
            devices[d].grabbedForClaims = want
            claimGrabsHeld += want ? 1 : -1
            batch.grabs.append(PanelGrab(device: devices[d].id, exclusive: want))
        }
    }

    /// The device at position `p` goes: a grab held for the claims is let go first (the device
    /// may stay open, re-added for a reloaded configuration).
    mutating func releaseClaimGrab(of p: Int, into batch: inout Batch) {
        guard devices[p].grabbedForClaims else { return }
        devices[p].grabbedForClaims = false
        claimGrabsHeld -= 1
        batch.grabs.append(PanelGrab(device: devices[p].id, exclusive: false))
    }

    /// Whether a touch is down on `screen`: while one is, no sequence begins there.
    public func hasTouchesDown(onScreen screen: Int) -> Bool { touchesDown(onScreen: screen) }
}
