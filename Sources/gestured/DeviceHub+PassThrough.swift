import GesturedCore
import GesturedIO
import Glibc

/// Pass-through devices (docs/KIOSK.md): each has a uinput clone; the pipeline decides what the
/// application gets (`GesturePipeline.forwarded`) and the hub only writes it.
extension DeviceHub {
    /// The clone of a candidate whose rule says `passThrough`, or nil. When the clone cannot be
    /// made, the device is read without grabbing and without forwarding (a panel is never left
    /// dead): `candidate`'s rule is changed to say so, and the reason is logged. (A device that
    /// cannot be cloned at all never gets here: `DeviceAdmission` turned its passThrough off.)
    func makeClone(_ candidate: inout DeviceCandidate) -> UinputClone? {
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
        } catch where error.errno.rawValue == ENOENT {
            return fallBack("cannot open /dev/uinput: it does not exist (load the uinput module: modprobe uinput)")
        } catch where error.errno.rawValue == EACCES || error.errno.rawValue == EPERM {
            return fallBack("cannot open /dev/uinput: permission denied (the service needs DeviceAllow=/dev/uinput rw)")
        } catch {
            return fallBack("cannot create the clone: \(error)")
        }
    }

    /// Queues what a batch forwards, to be written at the end of the loop iteration
    /// (`writeForwarded`): one write per clone per iteration, however many batches.
    func enqueueForwarded(_ forwarded: [ForwardedTouch]) {
        pendingForwarded += forwarded
    }

    /// Writes what was queued for the clones, then empties the queue. The loop calls it at the
    /// end of every iteration; what changes or closes clones (reload, removal, shutdown) calls
    /// it first.
    func writeForwarded() {
        guard !pendingForwarded.isEmpty else { return }
        writeRuns()
        pendingForwarded.removeAll(keepingCapacity: true)
    }

    /// Each run of consecutive forwards of one device becomes that clone's frames, one write.
    private func writeRuns() {
        var start = 0
        while start < pendingForwarded.count {
            let id = pendingForwarded[start].device
            var end = start + 1
            while end < pendingForwarded.count && pendingForwarded[end].device == id { end += 1 }
            if let token = devices.first(where: { $0.value.id == id && $0.value.clone != nil })?.key {
                cloneEvents.removeAll(keepingCapacity: true)
                devices[token]!.encoder!.encode(pendingForwarded[start..<end], into: &cloneEvents)
                do { try devices[token]!.clone!.write(cloneEvents) } catch {
                    Log.limited(.error, key: "\(devices[token]!.info.sysname) clone write",
                                "\(devices[token]!.info.sysname): writing to its clone failed: \(error)")
                }
            }
            start = end
        }
    }
}
