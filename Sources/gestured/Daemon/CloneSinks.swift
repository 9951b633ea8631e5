import GesturedCore
import GesturedIO
import Glibc

/// The uinput clones of pass-through devices (docs/KIOSK.md) and what they are to show: a batch's
/// forwarded touches are queued (`enqueue`) and written at the end of the loop iteration
/// (`flush`), one write per clone per iteration however many batches fed it, in the device
/// rule's `cancelStyle`.
///
/// Each clone has a guard (`CloneGuard`, a process of its own holding a duplicate of the clone's
/// descriptor): when the daemon lets the clone go or dies, the guard ends the clone's touches in
/// the application and then lets the clone go. The guards are watched through their pidfds in the
/// loop's poller (`LoopToken.guards`) and reaped here.
final class CloneSinks {
    private struct Sink {
        let clone: UinputClone
        var encoder: CloneEncoder
        let sysname: String
        /// Nil when it could not start (logged).
        var cloneGuard: CloneGuard?
    }

    private let poller: any EventPolling
    /// By `DeviceID.value` of the device each clone stands for (ids are never reused).
    private var sinks: [Sink?] = []
    private var pending: [ForwardedTouch] = []
    /// Scratch buffer reused for every write.
    private var events: [RawEvent] = []
    /// The guards by the token of their pidfd, until reaped (a guard outlives its clone's sink by
    /// the time it takes to end its touches).
    private var guards: [UInt64: CloneGuard] = [:]
    private var nextGuardToken = LoopToken.guards.lowerBound

    init(poller: any EventPolling) { self.poller = poller }

    var count: Int { sinks.count { $0 != nil } }

    /// The clone of a device whose rule says `passThrough`, or nil. When it cannot be made, the
    /// device is read without grabbing and without forwarding (a panel is never left dead):
    /// `candidate`'s rule says so then, and the reason is logged. (A device that cannot be
    /// cloned at all never gets here: `DeviceAdmission` turned its passThrough off.)
    static func make(for candidate: inout DeviceCandidate) -> UinputClone? {
        guard candidate.rule?.passThrough == true else { return nil }
        let label = "\(candidate.info.sysname) (\(candidate.info.name))"
        func fallBack(_ reason: String) -> UinputClone? {
            Log.error("\(label): passThrough: \(reason); reading it without grabbing, so the application sees every touch")
            candidate.admitted.rule!.passThrough = false
            candidate.admitted.rule!.grab = false
            return nil
        }
        do {
            let clone = try UinputClone(cloning: candidate.evdev)
            Log.info("\(label): passThrough: created \"\(clone.name)\" (\(clone.devnode ?? "node unknown")); "
                     + "the application should use it as its touchscreen")
            return clone
        } catch where error.isNoSuchFile {
            return fallBack("cannot open /dev/uinput: it does not exist (load the uinput module: modprobe uinput)")
        } catch where error.isPermissionDenied {
            return fallBack("cannot open /dev/uinput: permission denied (the service is granted it only if its configuration had "
                            + "passThrough at the last daemon-reload: run `systemctl daemon-reload && systemctl restart gestured`)")
        } catch {
            return fallBack("cannot create the clone: \(error)")
        }
    }

    /// `clone` now shows what the pipeline forwards for `device`, its cancelled touches ending as
    /// `style` says; its guard starts.
    func attach(_ clone: UinputClone, to device: GesturePipeline.DeviceID, slotCount: Int, sysname: String, style: CancelStyle) {
        while sinks.count <= device.value { sinks.append(nil) }
        sinks[device.value] = Sink(clone: clone, encoder: CloneEncoder(slotCount: slotCount, hasTouchButton: clone.hasTouchButton,
                                                                       cancelStyle: style),
                                   sysname: sysname, cloneGuard: startGuard(of: clone, slots: slotCount, style: style))
    }

    /// A reload set a device's `cancelStyle`: its encoder and its guard use it from now on, for
    /// the touches the reload itself cancels too (no re-add: nothing is cancelled for it).
    func setCancelStyle(_ style: CancelStyle, of device: GesturePipeline.DeviceID) {
        guard sinks.indices.contains(device.value), let sink = sinks[device.value], sink.encoder.cancelStyle != style else { return }
        let old = sink.encoder.cancelStyle
        sinks[device.value]!.encoder.cancelStyle = style
        do { try sink.cloneGuard?.setStyle(style) } catch {
            Log.warning("\(sink.clone.name): telling its guard the cancelStyle failed: \(error)")
        }
        Log.info("\(sink.sysname): reloaded: cancelStyle \(old.rawValue) → \(style.rawValue)")
    }

    /// A device added to the pipeline again (a reload) keeps its clone under its new id.
    func move(from old: GesturePipeline.DeviceID, to new: GesturePipeline.DeviceID) {
        guard sinks.indices.contains(old.value), let sink = sinks[old.value] else { return }
        flush()
        sinks[old.value] = nil
        while sinks.count <= new.value { sinks.append(nil) }
        sinks[new.value] = sink
    }

    /// Writes what is queued, then lets the device's clone go: with a guard, the daemon's
    /// descriptor closes and the guard ends the touches and lets the clone go
    /// `CloneGuard.readGrace` later; without one, the kernel destroys it now.
    func close(_ device: GesturePipeline.DeviceID) {
        guard sinks.indices.contains(device.value), let sink = sinks[device.value] else { return }
        flush()
        sinks[device.value] = nil
        if let cloneGuard = sink.cloneGuard {
            sink.clone.detach()
            cloneGuard.release()
        } else {
            sink.clone.close()
        }
        Log.info("\(sink.clone.name): removed with its device")
    }

    /// Starts the guard of `clone`, watched through its pidfd; nil (logged) when it cannot start:
    /// the clone then works as before, but a daemon killed with a finger down leaves that touch
    /// to the compositor's handling of a removed device.
    private func startGuard(of clone: UinputClone, slots: Int, style: CancelStyle) -> CloneGuard? {
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
        if let index = sinks.firstIndex(where: { $0?.cloneGuard === exited }) {
            sinks[index]!.cloneGuard = nil
            Log.warning("\(sinks[index]!.clone.name): its guard exited (\(status)); "
                        + "if the daemon dies with a finger down, the application may keep that touch pressed")
        } else if status != .exited(0) {
            Log.warning("clone guard \(exited.child.pid): \(status)")
        }
    }

    /// Queues a batch's forwarded touches.
    func enqueue(_ forwarded: [ForwardedTouch]) { pending += forwarded }

    /// Writes what was queued: each run of consecutive touches of one device becomes its clone's
    /// frames, in one write.
    func flush() {
        guard !pending.isEmpty else { return }
        var start = 0
        while start < pending.count {
            let id = pending[start].device
            var end = start + 1
            while end < pending.count && pending[end].device == id { end += 1 }
            if sinks.indices.contains(id.value), sinks[id.value] != nil {
                events.removeAll(keepingCapacity: true)
                sinks[id.value]!.encoder.encode(pending[start..<end], into: &events)
                do { try sinks[id.value]!.clone.write(events) } catch {
                    let sysname = sinks[id.value]!.sysname
                    Log.limited(.error, key: "\(sysname) clone write", "\(sysname): writing to its clone failed: \(error)")
                }
            }
            start = end
        }
        pending.removeAll(keepingCapacity: true)
    }
}
