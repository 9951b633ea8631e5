import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// The daemon's open input devices: opening what the core admits (`DeviceCandidate`), one
/// reader per device feeding the pipeline, closing them (unplugged, failing, let go by a
/// reload). Hotplug finds devices (`Hotplug`, whose decisions the loop hands here: this part
/// knows nothing of it), a reload's plan is carried out in DeviceHub+Reload.swift, and the
/// clones of pass-through devices are `CloneSinks`'.
final class DeviceHub {
    struct OpenDevice {
        let info: InputDeviceInfo
        let evdev: EvdevDevice
        let id: GesturePipeline.DeviceID
        let description: DeviceDescription
        /// How the configuration treats it (reload compares the new treatment with this one).
        var treatment: DeviceTreatment
        /// Nil when the kernel's CLOCK_MONOTONIC timestamps are had; else (umockdev) frames are
        /// stamped with their read time, so event times and deadlines share one clock.
        var readTimes: ReadTimeStamps?
    }

    let poller: any EventPolling
    let live: LivePipeline
    let clones: CloneSinks
    let clock: any Clock
    /// The rules devices are admitted by; replaced on reload.
    var configuration: Configuration
    /// By epoll token (`LoopToken.devices`). Not private: reload (DeviceHub+Reload.swift)
    /// updates them.
    var devices: [UInt64: OpenDevice] = [:]
    private var nextToken = LoopToken.devices.lowerBound
    /// Scratch buffer reused for every read.
    private var events: [RawEvent] = []
    /// The screens' power attributes, read when a sequence may begin.
    let power: ScreenPower

    var count: Int { devices.count }

    init(poller: any EventPolling, live: LivePipeline, clones: CloneSinks, clock: any Clock,
         configuration: Configuration) {
        self.poller = poller
        self.live = live
        self.clones = clones
        self.clock = clock
        self.configuration = configuration
        power = ScreenPower(configuration: configuration)
    }

    /// Whether a device at `syspath` is open.
    func isOpen(syspath: String) -> Bool { token(ofSyspath: syspath) != nil }

    func token(ofSyspath syspath: String) -> UInt64? { devices.first { $0.value.info.syspath == syspath }?.key }

    func open(_ candidate: DeviceCandidate) {
        let (info, evdev, description) = (candidate.info, candidate.evdev, candidate.description)
        var candidate = candidate
        let clone = CloneSinks.make(for: &candidate)
        let prepared: GesturePipeline.PreparedDevice
        do { prepared = try live.prepare(description, candidate.admitted) } catch {
            Log.warning("\(info.sysname) (\(info.name)): not usable: \(error), ignoring")
            clone?.close()
            evdev.close()
            return
        }
        candidate.grabIfAsked()
        let monotonic = evdev.setMonotonicClock()
        if !monotonic {
            // umockdev's emulated devices never switch (docs/TESTING.md): expected there, so not
            // a warning in `make demo` and the tests; a real device that cannot is one.
            let emulated = getenv("UMOCKDEV_DIR") != nil
            let message = "\(info.sysname): cannot switch event timestamps to CLOCK_MONOTONIC\(emulated ? " (an emulated device, umockdev)" : ""); "
                + "stamping frames with their read time instead"
            if emulated { Log.info(message) } else { Log.warning(message) }
        }
        let token = nextToken
        nextToken += 1
        do { try poller.add(evdev.descriptor, token: token, events: .readable) } catch {
            Log.warning("\(info.sysname): cannot watch: \(error), ignoring")
            clone?.close()
            evdev.close()
            return
        }
        if let clone {
            clones.attach(clone, to: prepared.id, slotCount: description.slotCount, sysname: info.sysname,
                          style: candidate.rule?.cancelStyle ?? .default)
            warnOfGesturesBeyond(candidate)
        }
        let screen = live.pipeline.screens[candidate.screen]
        devices[token] = OpenDevice(info: info, evdev: evdev, id: prepared.id, description: description,
                                    treatment: DeviceTreatment(candidate.admitted, screenID: screen.id, screenSize: screen.size),
                                    readTimes: monotonic ? nil : ReadTimeStamps())
        Log.info("\(info.sysname) (\(info.name)): using it, \(description.slotCount) slots\(screen.id.map { " on screen \($0)" } ?? "")")
        // One step: the device is read from now on, and every client is told.
        live.add(prepared, line: DeviceLine(added: true, sysname: info.sysname, name: info.name))
    }

    /// A passed-through panel that reports fewer touches than some gesture needs: those can never
    /// recognize on it, and all their touches reach the application.
    private func warnOfGesturesBeyond(_ candidate: DeviceCandidate) {
        let (slots, needing) = configuration.gesturesBeyond(candidate.description, rule: candidate.rule, screen: candidate.screen)
        guard !needing.isEmpty else { return }
        Log.warning("\(candidate.info.sysname) (\(candidate.info.name)): passThrough: it reports at most \(slots) touches, and "
                    + needing.map { "\"\($0.id)\" needs \($0.touches)" }.joined(separator: ", ")
                    + ": they can never recognize on it, and their touches all reach the application")
    }

    /// Lets a device go: its touches are cancelled (their gestures end), the application's
    /// touches end on its clone, every client is told (one step), then the clone and the node
    /// close.
    /// (Taken out of the table first: a device unplugged has no grab to let go.)
    func close(token: UInt64, reason: String) {
        guard let device = devices.removeValue(forKey: token) else { return }
        live.remove(device.id, now: clock.now(), line: DeviceLine(added: false, sysname: device.info.sysname, name: device.info.name))
        release(device, reason: reason)
    }

    /// The shell's part of letting a device go, once the pipeline has (its step carried out,
    /// the clone's touches ended): it stops being watched, its clone and its node close.
    func release(_ device: OpenDevice, reason: String) {
        try? poller.remove(device.evdev.descriptor)
        clones.close(device.id)
        device.evdev.close()
        Log.info("\(device.info.sysname) (\(device.info.name)): \(reason), closed")
    }

    /// Lets the device at `syspath` go, if it is open.
    func close(syspath: String, reason: String) {
        if let token = token(ofSyspath: syspath) { close(token: token, reason: reason) }
    }

    /// Reads what a device has and feeds the pipeline; returns when the read ended, the start of
    /// its lines' latency (`ClientHub.read(at:)`), nil when nothing was fed.
    func read(token: UInt64, events ready: PollEvents) -> Instant? {
        // One look-up, and only the fields a read needs: the whole `OpenDevice` copied out of
        // the table (its strings and description retained and released) cost more than the
        // decoder's work on a frame's first ten events.
        guard let entry = devices.index(forKey: token) else { return nil }
        let (evdev, id) = (devices.values[entry].evdev, devices.values[entry].id)
        events.removeAll(keepingCapacity: true)
        let status: EvdevDevice.ReadStatus
        do { status = try evdev.read(into: &events) } catch {
            close(token: token, reason: "read failed: \(error)")
            return nil
        }
        // The latency clock starts once the events are read: the read itself is the kernel's
        // (or, under umockdev, the emulator's) time, not the daemon's.
        let readStart = clock.now()
        if devices.values[entry].readTimes != nil { devices.values[entry].readTimes!.stamp(&events, readAt: readStart) }
        live.read(events, from: id, screenOff: power.beforeRead(of: id, live: live))
        switch status {
        case .drained:
            if ready.contains(.hangup) || ready.contains(.error) { close(token: token, reason: "hung up") }
        case .resynced:
            let sysname = devices[token]?.info.sysname ?? "a device"
            Log.limited(.warning, key: "\(sysname) SYN_DROPPED",
                        "\(sysname): events dropped by the kernel (SYN_DROPPED); touches cancelled and resynchronized")
        case .gone:
            close(token: token, reason: "removed")
        }
        return readStart
    }

    /// Grabs or lets go of a panel the application reads directly, for a sequence the kiosk
    /// policy claims (`Batch.grabs`); a device already closed has nothing to let go.
    func grabForClaims(_ id: GesturePipeline.DeviceID, _ exclusive: Bool) {
        guard let device = devices.values.first(where: { $0.id == id }) else { return }
        do {
            try device.evdev.grab(exclusive)
            Log.info("\(device.info.sysname): \(exclusive ? "grabbed (EVIOCGRAB) until the claimed sequence ends" : "let go after the claimed sequence")")
        } catch {
            Log.warning("\(device.info.sysname) (\(device.info.name)): \(exclusive ? "grab for a claimed sequence" : "releasing the claim's grab") failed: \(error); "
                        + "the application \(exclusive ? "sees" : "may not see") the panel's touches")
        }
    }

    /// The daemon is stopping: the application sees every forwarded touch cancelled and lifted,
    /// every device's touches are cancelled (their gestures end `cancelled`), then the clones
    /// and the devices close.
    func closeAll() {
        live.shutdown(now: clock.now())
        for (_, device) in devices.sorted(by: { $0.key < $1.key }) {
            clones.close(device.id)
            device.evdev.close()
        }
        devices.removeAll()
    }
}
