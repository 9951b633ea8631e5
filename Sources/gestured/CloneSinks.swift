import GesturedCore
import GesturedIO
import Glibc

/// The uinput clones of pass-through devices (docs/KIOSK.md) and what they are to show: a batch's
/// forwarded touches are queued (`enqueue`) and written at the end of the loop iteration
/// (`flush`), one write per clone per iteration however many batches fed it.
final class CloneSinks {
    private struct Sink {
        let clone: UinputClone
        var encoder: CloneEncoder
        let sysname: String
    }

    /// By `DeviceID.value` of the device each clone stands for (ids are never reused).
    private var sinks: [Sink?] = []
    private var pending: [ForwardedTouch] = []
    /// Scratch buffer reused for every write.
    private var events: [RawEvent] = []

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
        } catch where error.errno.rawValue == ENOENT {
            return fallBack("cannot open /dev/uinput: it does not exist (load the uinput module: modprobe uinput)")
        } catch where error.errno.rawValue == EACCES || error.errno.rawValue == EPERM {
            return fallBack("cannot open /dev/uinput: permission denied (the service is granted it only if its configuration had "
                            + "passThrough at the last daemon-reload: run `systemctl daemon-reload && systemctl restart gestured`)")
        } catch {
            return fallBack("cannot create the clone: \(error)")
        }
    }

    /// `clone` now shows what the pipeline forwards for `device`.
    func attach(_ clone: UinputClone, to device: GesturePipeline.DeviceID, slotCount: Int, sysname: String) {
        while sinks.count <= device.value { sinks.append(nil) }
        sinks[device.value] = Sink(clone: clone, encoder: CloneEncoder(slotCount: slotCount, hasTouchButton: clone.hasTouchButton),
                                   sysname: sysname)
    }

    /// A device added to the pipeline again (a reload) keeps its clone under its new id.
    func move(from old: GesturePipeline.DeviceID, to new: GesturePipeline.DeviceID) {
        guard sinks.indices.contains(old.value), let sink = sinks[old.value] else { return }
        flush()
        sinks[old.value] = nil
        while sinks.count <= new.value { sinks.append(nil) }
        sinks[new.value] = sink
    }

    /// Writes what is queued, then closes the device's clone (the kernel destroys it).
    func close(_ device: GesturePipeline.DeviceID) {
        guard sinks.indices.contains(device.value), let sink = sinks[device.value] else { return }
        flush()
        sinks[device.value] = nil
        sink.clone.close()
        Log.info("\(sink.clone.name): removed with its device")
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
