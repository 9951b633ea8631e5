import GesturedCore
import GesturedIO
import Glibc

/// Pass-through devices (docs/KIOSK.md): each has a uinput clone; the pipeline decides what the
/// application gets (`GesturePipeline.forwarded`) and the hub only writes it.
extension DeviceHub {
    /// The clone of a candidate whose rule says `passThrough`, or nil. When the clone cannot be
    /// made, the device is read without grabbing and without forwarding (a panel is never left
    /// dead): `candidate.rule` is changed to say so, and the reason is logged.
    func makeClone(_ candidate: inout DeviceCandidate) -> UinputClone? {
        guard var rule = candidate.rule, rule.passThrough else { return nil }
        let label = "\(candidate.info.sysname) (\(candidate.info.name))"
        func fallBack(_ reason: String) -> UinputClone? {
            Log.error("\(label): passThrough: \(reason); reading it without grabbing, so the application sees every touch")
            rule.passThrough = false
            rule.grab = false
            candidate = DeviceCandidate(info: candidate.info, evdev: candidate.evdev, description: candidate.description,
                                        rule: rule, udevCalibration: candidate.udevCalibration, screen: candidate.screen)
            return nil
        }
        if let reason = candidate.description.cloneRefusal { return fallBack(reason) }
        do {
            let clone = try UinputClone(cloning: candidate.evdev)
            Log.info("\(label): passThrough: created \"\(clone.name)\" (\(clone.devnode ?? "node unknown")); "
                     + "the application should use it as its touchscreen")
            let slots = min(candidate.description.slotCount, rule.maximumTouches ?? Int.max)
            let needing = configuration.gestures(needingMoreThan: slots, screen: candidate.screen)
            if !needing.isEmpty {
                Log.warning("\(label): passThrough: it reports at most \(slots) touches, and "
                            + needing.map { "\"\($0.id)\" needs \($0.touches)" }.joined(separator: ", ")
                            + ": they can never recognize on it, and their touches all reach the application")
            }
            return clone
        } catch where error.errno.rawValue == ENOENT {
            return fallBack("cannot open /dev/uinput: it does not exist (load the uinput module: modprobe uinput)")
        } catch where error.errno.rawValue == EACCES || error.errno.rawValue == EPERM {
            return fallBack("cannot open /dev/uinput: permission denied (the service needs DeviceAllow=/dev/uinput rw)")
        } catch {
            return fallBack("cannot create the clone: \(error)")
        }
    }

    /// Writes what the pipeline decided to forward, per clone, then empties it. The loop calls it
    /// at the end of every iteration, whatever fed the pipeline (a read, a deadline, a control
    /// request); what changes or closes clones (reload, removal, shutdown) calls it first.
    func writeForwarded() {
        guard !live.pipeline.forwarded.isEmpty else { return }
        writeRuns()
        live.pipeline.removeForwarded()
    }

    /// Each run of consecutive forwards of one device becomes that clone's frames, one write.
    private func writeRuns() {
        let forwarded = live.pipeline.forwarded
        var start = 0
        while start < forwarded.count {
            let id = forwarded[start].device
            var end = start + 1
            while end < forwarded.count && forwarded[end].device == id { end += 1 }
            if let token = devices.first(where: { $0.value.id == id && $0.value.clone != nil })?.key {
                cloneEvents.removeAll(keepingCapacity: true)
                devices[token]!.encoder!.encode(forwarded[start..<end], into: &cloneEvents)
                do { try devices[token]!.clone!.write(cloneEvents) } catch {
                    Log.limited(.error, key: "\(devices[token]!.info.sysname) clone write",
                                "\(devices[token]!.info.sysname): writing to its clone failed: \(error)")
                }
            }
            start = end
        }
    }
}

/// The clones' guards (`CloneGuard`): a process per clone that ends its touches in the
/// application when the daemon dies, started with the clone and reaped through its pidfd.
extension DeviceHub {
    /// Starts the guard of `clone`, watched through its pidfd; nil (logged) when it cannot start:
    /// the clone then works as before, but a daemon killed with a finger down leaves that touch
    /// to the compositor's handling of a removed device.
    func startGuard(of clone: UinputClone, slots: Int, style: CancelStyle) -> CloneGuard? {
        do {
            let started = try CloneGuard(of: clone, slotCount: slots, style: style)
            let token = nextGuardToken
            nextGuardToken += 1
            try poller.add(started.pidfd, token: token, events: .readable)
            guards[token] = started
            return started
        } catch {
            Log.warning("\(clone.name): cannot start its guard: \(error); if the daemon dies with a finger down, "
                        + "the application may keep that touch pressed")
            return nil
        }
    }

    /// Lets a clone go: with a guard, the daemon's descriptor closes and the guard ends the
    /// touches and destroys the clone `CloneGuard.readGrace` later; without one, it is destroyed now.
    func letGo(_ clone: UinputClone, guardedBy cloneGuard: CloneGuard?) {
        guard let cloneGuard else { clone.close(); return }
        clone.detach()
        cloneGuard.release()
    }

    /// A guard exited: reaped, and logged unless it ended because its clone was let go.
    func reapGuard(token: UInt64) {
        guard let exited = guards[token] else { return }
        let status: ChildProcess.Status?
        do { status = try exited.reap() } catch {
            Log.warning("clone guard \(exited.child.pid): \(error)")
            return
        }
        guard let status else { return }
        try? poller.remove(exited.pidfd)
        guards[token] = nil
        if let open = devices.first(where: { $0.value.cloneGuard === exited })?.key {
            devices[open]!.cloneGuard = nil
            Log.warning("\(devices[open]!.clone?.name ?? devices[open]!.info.name): its guard exited (\(status)); "
                        + "if the daemon dies with a finger down, the application may keep that touch pressed")
        } else if status != .exited(0) {
            Log.warning("clone guard \(exited.child.pid): \(status)")
        }
    }

    /// A reload set a device's `cancelStyle`: its encoder and its guard use it from now on, for
    /// the touches the reload itself cancels too.
    func setCancelStyle(_ style: CancelStyle, token: UInt64) {
        guard let device = devices[token], let old = device.encoder?.cancelStyle, old != style else { return }
        devices[token]!.encoder!.cancelStyle = style
        do { try device.cloneGuard?.setStyle(style) } catch {
            Log.warning("\(device.clone?.name ?? device.info.name): telling its guard the cancelStyle failed: \(error)")
        }
        Log.info("\(device.info.sysname) (\(device.info.name)): reloaded: cancelStyle \(old.rawValue) → \(style.rawValue)")
    }
}
