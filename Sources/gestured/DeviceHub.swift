import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// The daemon's input devices: admission (`DeviceCandidate`), hotplug through udev's monitor,
/// and one reader per open device feeding the pipeline. What devices did goes to the client hub.
///
/// Each open device is one `OpenDevice`: its reader and, for a pass-through device, its sink (a
/// uinput clone the touches the core decides to forward are written to, in the loop iteration
/// that read them: DeviceHub+PassThrough.swift).
final class DeviceHub {
    struct OpenDevice {
        let info: InputDeviceInfo
        let evdev: EvdevDevice
        var id: GesturePipeline.DeviceID
        let description: DeviceDescription
        /// How the configuration treats it (reload compares the new treatment with this one).
        var treatment: DeviceTreatment
        /// False when the kernel's CLOCK_MONOTONIC timestamps could not be had (umockdev): frames
        /// are then stamped with their read time, so event times and deadlines share one clock.
        let monotonic: Bool
        /// The uinput clone of a pass-through device, and the state of what it shows.
        var clone: UinputClone?
        var encoder: CloneEncoder?
        /// The clone's guard process: it ends the clone's touches if the daemon dies.
        var cloneGuard: CloneGuard?
    }

    let poller: Poller
    /// udev's netlink monitor; nil when it could not be created (no hotplug then).
    let monitor: UdevMonitor?
    let live: LivePipeline
    let clients: ClientHub
    /// The rules devices are admitted by; replaced on reload.
    var configuration: Configuration
    /// Not private: reload (DeviceHub+Reload.swift) updates them.
    var devices: [UInt64: OpenDevice] = [:]
    private var nextToken = LoopToken.devices.lowerBound
    /// Scratch buffer reused for every read.
    private var events: [RawEvent] = []
    /// Scratch buffer reused for every write to a clone.
    var cloneEvents: [RawEvent] = []
    /// The clones' guards by the token of their pidfd, until reaped (DeviceHub+PassThrough.swift).
    var guards: [UInt64: CloneGuard] = [:]
    var nextGuardToken = LoopToken.guards.lowerBound

    var count: Int { devices.count }

    /// The open devices as control requests match them, in the order they were opened.
    var controlDevices: [ControlDesk.Device] {
        devices.keys.sorted().map { ControlDesk.Device(sysname: devices[$0]!.info.sysname, id: devices[$0]!.id) }
    }

    /// The udev monitor, then the devices present now that the configuration admits.
    ///
    /// The monitor before the enumeration: a device added in between is seen twice (the
    /// duplicate is dropped by syspath in `hotplug`) rather than never.
    static func discover(configuration: Configuration) -> (UdevMonitor?, [DeviceCandidate]) {
        var monitor: UdevMonitor?
        do { monitor = try UdevMonitor() } catch {
            Log.warning("udev monitor: \(error); devices added later will not be seen")
        }
        var candidates: [DeviceCandidate] = []
        do {
            candidates = try UdevEnumerator.inputDevices().compactMap { DeviceCandidate.admit($0, configuration: configuration) }
        } catch {
            Log.warning("udev enumeration failed: \(error); starting without devices")
        }
        return (monitor, candidates)
    }

    init(poller: Poller, monitor: UdevMonitor?, live: LivePipeline, clients: ClientHub, configuration: Configuration) {
        self.poller = poller
        self.monitor = monitor
        self.live = live
        self.clients = clients
        self.configuration = configuration
    }

    /// Udev announced devices: opens those added (unless open already: the enumeration may have
    /// seen them), closes those removed, and takes up a device whose `change` shows that udev
    /// has now processed it.
    func hotplug() {
        guard let monitor else { return }
        for event in monitor.receive() {
            let open = devices.first { $0.value.info.syspath == event.device.syspath }?.key
            switch event.action {
            case "remove":
                if let open { close(token: open, reason: "removed (udev)") }
            case "add", "change":
                guard open == nil else { continue }
                if let candidate = DeviceCandidate.admit(event.device, configuration: configuration) { self.open(candidate) }
            default:
                break
            }
        }
    }

    func open(_ candidate: DeviceCandidate) {
        let (info, evdev, description) = (candidate.info, candidate.evdev, candidate.description)
        var candidate = candidate
        let clone = makeClone(&candidate)
        let id: GesturePipeline.DeviceID
        do {
            id = try live.pipeline.addDevice(description, rule: candidate.rule, fallbackCalibration: candidate.udevCalibration,
                                             screen: candidate.screen)
        } catch {
            Log.warning("\(info.sysname) (\(info.name)): not usable: \(error), ignoring")
            clone?.close()
            evdev.close()
            return
        }
        candidate.grabIfAsked()
        let monotonic = evdev.setMonotonicClock()
        if !monotonic {
            Log.warning("\(info.sysname): cannot switch event timestamps to CLOCK_MONOTONIC; stamping frames with their read time instead")
        }
        let token = nextToken
        nextToken += 1
        do { try poller.add(evdev.descriptor, token: token, events: .readable) } catch {
            Log.warning("\(info.sysname): cannot watch: \(error), ignoring")
            var discarded: [GesturePipeline.Output] = []
            live.pipeline.removeDevice(id, now: MonotonicClock.now(), into: &discarded)
            clone?.close()
            evdev.close()
            return
        }
        let treatment = DeviceTreatment(rule: candidate.rule, udevCalibration: candidate.udevCalibration,
                                        screen: live.pipeline.screens[candidate.screen])
        let style = candidate.rule?.cancelStyle ?? .default
        devices[token] = OpenDevice(info: info, evdev: evdev, id: id, description: description, treatment: treatment,
                                    monotonic: monotonic, clone: clone,
                                    encoder: clone.map { CloneEncoder(slotCount: description.slotCount, hasTouchButton: $0.hasTouchButton,
                                                                      cancelStyle: style) },
                                    cloneGuard: clone.flatMap { startGuard(of: $0, slots: description.slotCount, style: style) })
        let screen = live.pipeline.screens[candidate.screen].id.map { " on screen \($0)" } ?? ""
        Log.info("\(info.sysname) (\(info.name)): using it, \(description.slotCount) slots\(screen)")
        clients.broadcast { seq, format in
            LineEncoder.device(added: true, sysname: info.sysname, name: info.name, seq: seq, format: format)
        }
    }

    func close(token: UInt64, reason: String) {
        guard let device = devices.removeValue(forKey: token) else { return }
        try? poller.remove(device.evdev.descriptor)
        live.output.removeAll(keepingCapacity: true)
        live.pipeline.removeDevice(device.id, now: MonotonicClock.now(), into: &live.output)
        clients.publish()
        writeForwarded()
        if let clone = device.clone {
            letGo(clone, guardedBy: device.cloneGuard)
            Log.info("\(clone.name): removed with its device")
        }
        device.evdev.close()
        Log.info("\(device.info.sysname) (\(device.info.name)): \(reason), closed")
        clients.broadcast { seq, format in
            LineEncoder.device(added: false, sysname: device.info.sysname, name: device.info.name, seq: seq, format: format)
        }
    }

    /// Reads what a device has, feeds the pipeline and publishes what it made.
    func read(token: UInt64, events ready: PollEvents) {
        guard let device = devices[token] else { return }
        events.removeAll(keepingCapacity: true)
        let status: EvdevDevice.ReadStatus
        do { status = try device.evdev.read(into: &events) } catch {
            close(token: token, reason: "read failed: \(error)")
            return
        }
        // The latency clock starts once the events are read: the read itself is the kernel's
        // (or, under umockdev, the emulator's) time, not the daemon's.
        let readStart = MonotonicClock.now()
        if !device.monotonic { for i in events.indices { events[i].time = readStart } }   // their read time
        live.output.removeAll(keepingCapacity: true)
        live.handle(events, from: device.id)
        clients.publish()
        clients.read(at: readStart)   // its latency is recorded once the lines are written
        DeviceCandidate.logAnomalies(live.pipeline.takeAnomalies(of: device.id), sysname: device.info.sysname)
        switch status {
        case .drained:
            if ready.contains(.hangup) || ready.contains(.error) { close(token: token, reason: "hung up") }
        case .resynced:
            Log.limited(.warning, key: "\(device.info.sysname) SYN_DROPPED",
                        "\(device.info.sysname): events dropped by the kernel (SYN_DROPPED); touches cancelled and resynchronized")
        case .gone:
            close(token: token, reason: "removed")
        }
    }

    /// Cancels every device's touches (their gestures end `cancelled`), publishes that, and
    /// closes the devices: the daemon is stopping.
    func closeAll() {
        // The application first sees every forwarded touch cancelled and lifted, then the clones go.
        live.pipeline.cancelForwarded(now: MonotonicClock.now())
        writeForwarded()
        live.output.removeAll(keepingCapacity: true)
        for token in devices.keys.sorted() {
            if let device = devices[token] { live.pipeline.removeDevice(device.id, now: MonotonicClock.now(), into: &live.output) }
        }
        clients.publish()
        for device in devices.values {
            if let clone = device.clone { letGo(clone, guardedBy: device.cloneGuard) }
            device.evdev.close()
        }
        devices.removeAll()
    }
}
