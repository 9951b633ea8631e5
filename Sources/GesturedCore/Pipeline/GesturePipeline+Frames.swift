/// A device's frames within a step: its raw events fed to its decoder, each frame it completes
/// turned into touch updates with stable ids (claimed touches taken out for the kiosk policy),
/// run through its screen's engine, and what the application behind a pass-through device gets.
extension GesturePipeline {
    /// A read's worth of raw events of the device at position `p`, appended to `batch`: each
    /// frame they complete is a frame step. The device is reached in place once per frame, not
    /// once per event (each access to `devices` checks its storage is unshared), and never copied
    /// out and back: a copy would share the decoder's buffers and so copy them.
    mutating func step(_ events: ArraySlice<RawEvent>, from p: Int, into batch: inout Batch) {
        var index = events.startIndex
        while let (time, resynchronized) = Self.feed(events, from: &index, to: &devices[p]) {
            frame(of: p, time: time, resynchronized: resynchronized, into: &batch)
        }
    }

    /// One raw event of the device at position `p` (replay feeds events one at a time).
    mutating func step(_ event: RawEvent, from p: Int, into batch: inout Batch) {
        guard devices[p].decoder.feed(event) else { return }
        let (time, resynchronized) = (devices[p].decoder.frame.time, devices[p].decoder.frame.resynchronized)
        frame(of: p, time: time, resynchronized: resynchronized, into: &batch)
    }

    /// The frame the device at position `p` completed: its due deadlines fired first, then its
    /// touch updates delivered.
    private mutating func frame(of p: Int, time: Instant, resynchronized: Bool, into batch: inout Batch) {
        fireDeadlines(upTo: time, into: &batch)
        if resynchronized {
            // Events of this device were lost: what its gestures in progress were doing is
            // unknown. Its touches stay down, unrouted, until the resynchronized state ends or
            // moves them; other devices' gestures go on. The application is cancelled out of
            // them too.
            forwarder.claimAll(device: devices[p].id.value)
            run(.cancelGestures(devices[p].touches), screen: devices[p].screen, now: time, into: &batch)
        }
        deliver(device: p, now: time, into: &batch)
    }

    /// Feeds the device's decoder the events from `index` on until one completes a frame, and
    /// returns that frame's time and whether events were lost before it, `index` past the
    /// event; nil when the events ran out first. The device is reached in place (`&devices[p]`).
    private static func feed(_ events: ArraySlice<RawEvent>, from index: inout Int,
                             to device: inout Device) -> (time: Instant, resynchronized: Bool)? {
        while index < events.endIndex {
            let event = events[index]
            index += 1
            if device.decoder.feed(event) { return (device.decoder.frame.time, device.decoder.frame.resynchronized) }
        }
        return nil
    }

    /// The device's current frame as touch updates with stable ids (new ones for touches that
    /// began), and the view id each touch was hit-tested to (nil for those that began: the engine
    /// hit-tests them). The device is reached in place, as in `feed(_:to:)`.
    ///
    /// A touch that begins while `claimsNew` is claimed: it and its later changes go to `claimed`
    /// instead of `updates`, and, when `unlocks` (its screen is locked and has an unlock
    /// gesture), to `unlocking` as well.
    private static func touchUpdates(of device: inout Device, nextTouchID: inout UInt64, into updates: inout [TouchUpdate],
                                     views updateViews: inout [Int?], positions: inout [DevicePosition],
                                     claimsNew: Bool, claimed: inout [ClaimedChange], unlocks: Bool,
                                     unlocking: inout [TouchUpdate]) {
        let geometry = device.geometry
        let sysname = device.name
        for change in device.decoder.frame.changes {
            let phase: TouchPhase
            let id: TouchID
            let view: Int?
            switch change.phase {
            case .began:
                id = TouchID(nextTouchID); nextTouchID += 1
                device.touchInSlot[change.slot] = SlotTouch(id: id, view: nil, claimed: claimsNew, unlocking: claimsNew && unlocks)
                if claimsNew {
                    claimed.append(ClaimedChange(began: true, location: geometry.point(for: change.position)))
                    if unlocks {
                        unlocking.append(TouchUpdate(id: id, phase: .began, location: geometry.point(for: change.position),
                                                     device: sysname, slot: change.slot))
                    }
                    continue
                }
                phase = .began
                view = nil // hit-tested by the engine
            case .moved, .ended, .cancelled:
                guard let existing = device.touchInSlot[change.slot] else { continue }
                if existing.claimed {
                    if existing.unlocking {
                        let phase: TouchPhase = change.phase == .moved ? .moved : change.phase == .ended ? .ended : .cancelled
                        unlocking.append(TouchUpdate(id: existing.id, phase: phase, location: geometry.point(for: change.position),
                                                     device: sysname, slot: change.slot))
                    }
                    if change.phase != .moved {
                        device.touchInSlot[change.slot] = nil
                        claimed.append(ClaimedChange(began: false, location: geometry.point(for: change.position)))
                    }
                    continue
                }
                id = existing.id
                view = existing.view
                phase = change.phase == .moved ? .moved : change.phase == .ended ? .ended : .cancelled
                if phase != .moved { device.touchInSlot[change.slot] = nil }
            }
            updates.append(TouchUpdate(id: id, phase: phase, location: geometry.point(for: change.position),
                                       device: sysname, slot: change.slot))
            updateViews.append(view)
            positions.append(change.position)
        }
    }

    /// Turns the device's current frame into touch updates with stable ids, runs the engine on
    /// them, and appends the touch and gesture outputs, then the forwarder's decision
    /// (`conclude`).
    mutating func deliver(device p: Int, now: Instant, into batch: inout Batch) {
        updates.removeAll(keepingCapacity: true)
        updateViews.removeAll(keepingCapacity: true)
        updatePositions.removeAll(keepingCapacity: true)
        let screen = devices[p].screen, index = devices[p].id.value
        let watching = kiosk.watchesTouches
        let claimsNew = watching && (kiosk.claims(screen: screen) || claimedTouchDown(onScreen: screen))
        let unlocks = claimsNew && kiosk.screens[screen].lockedUntil != nil && unlock.has(screen: screen)
        Self.touchUpdates(of: &devices[p], nextTouchID: &nextTouchID, into: &updates, views: &updateViews,
                          positions: &updatePositions, claimsNew: claimsNew, claimed: &claimedChanges, unlocks: unlocks,
                          unlocking: &unlockUpdates)
        if watching { applyKiosk(screen: screen, device: p, now: now, into: &batch) }
        guard !updates.isEmpty else { return }
        // The forwarder takes the frame in but writes nothing before the arbiter's facts: a touch
        // claimed in this frame gets its cancel, not this frame's move first.
        let forwards = forwarder.forwards(device: index)
        if forwards {
            for (i, update) in updates.enumerated() {
                if update.phase == .began {
                    forwarder.began(update.id, device: index, screen: screen, at: updatePositions[i])
                } else {
                    forwarder.updated(update.id, phase: update.phase, at: updatePositions[i])
                }
            }
        }
        // Touch lines carry the view the touch was hit-tested to, so began needs the engine first.
        callEngine(.frame, screen: screen, now: now)
        for (i, update) in updates.enumerated() {
            if update.phase == .began {
                let view = screens[screen].engine.view(of: update.id).map { viewBase[screen] + $0 }
                devices[p].touchInSlot[update.slot]?.view = view
                updateViews[i] = view
            }
            if reportsTouches {
                batch.outputs.append(.touch(TouchEvent(update: update, view: updateViews[i].map { viewNames[$0] }, time: now,
                                                       screen: screens[screen].id)))
            }
        }
        conclude(screen: screen, now: now, into: &batch)
    }
}
