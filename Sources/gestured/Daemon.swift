import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// `gestured run`: the event loop. One thread, one epoll set; it sleeps in `epoll_wait` with no
/// timeout, so it wakes only for a device event, a client, a signal, or the one timerfd armed at
/// the pipeline's next deadline. All decisions are the pure pipeline's; this moves bytes.
final class Daemon {
    /// epoll tokens: fixed ones, then devices and clients in their own ranges.
    private enum Token {
        static let listener: UInt64 = 1
        static let timer: UInt64 = 2
        static let signals: UInt64 = 3
        static let deviceBase: UInt64 = 1 << 32
        static let clientBase: UInt64 = 1 << 48
    }

    private struct OpenDevice {
        let info: InputDeviceInfo
        let evdev: EvdevDevice
        let id: GesturePipeline.DeviceID
        /// False when the kernel's CLOCK_MONOTONIC timestamps could not be had (umockdev): frames
        /// are then stamped with their read time, so event times and deadlines share one clock.
        let monotonic: Bool
    }

    private let poller: Poller
    private let timer: DeadlineTimer
    private let signals: SignalChannel
    let server: UnixSocketServer
    private let configPath: String?
    private var configuration: Configuration
    private var pipeline: GesturePipeline
    private var devices: [UInt64: OpenDevice] = [:]
    private var nextDeviceToken = Token.deviceBase
    private var seq: UInt64 = 0
    private var running = true
    private var armedDeadline: Instant?
    /// Scratch buffers reused for every read.
    private var events: [RawEvent] = []
    private var output: [GesturePipeline.Output] = []
    /// From a device's events read to their lines written to every client, for `stats` (Daemon+Stats.swift).
    var latency = LatencyHistogram()
    /// Clients registered for `.writable` (they have queued output).
    private var writableClients: Set<ClientID> = []
    /// Partial request lines by client (Daemon+Stats.swift).
    var pendingRequests: [ClientID: [UInt8]] = [:]

    static func run(configPath: String?, socketPath: String) throws(CommandFailure) {
        let configuration = try loadConfiguration(configPath)
        let daemon: Daemon
        do { daemon = try Daemon(configPath: configPath, configuration: configuration, socketPath: socketPath) } catch {
            throw CommandFailure(ExitStatus.failure, "\(error)")
        }
        daemon.loop()
        daemon.shutdown()
    }

    private init(configPath: String?, configuration: Configuration, socketPath: String) throws(StartupError) {
        self.configPath = configPath
        self.configuration = configuration
        // Signals first: a SIGTERM during start-up must not kill us before the socket file can
        // be removed.
        do {
            signals = try SignalChannel()
            poller = try Poller()
            timer = try DeadlineTimer()
        } catch { throw .system(error) }
        do { server = try UnixSocketServer(path: socketPath) } catch { throw .socket(error) }

        var candidates: [InputDeviceInfo] = []
        do { candidates = try UdevEnumerator.inputDevices().filter(\.isTouchscreen) } catch {
            Log.warning("udev enumeration failed: \(error); starting without devices")
        }
        let first = candidates.lazy.compactMap { info -> DeviceDescription? in
            guard let device = try? EvdevDevice(path: info.devnode) else { return nil }
            defer { device.close() }
            return device.description(sysname: info.sysname)
        }.first
        let rule = first.flatMap { d in configuration.devices.first { $0.matches(d) } }
        let screen = GesturePipeline.screen(configuration: configuration, firstDevice: first, rotation: rule?.rotation ?? .none)
        do { pipeline = try GesturePipeline(configuration: configuration, screen: screen) } catch {
            throw .configuration("\(error)")
        }
        Log.info("screen is \(LineEncoder.fixed(screen.width, decimals: 0))x\(LineEncoder.fixed(screen.height, decimals: 0)) points"
                 + (configuration.screen == nil ? " (from \(first.map { "device \($0.sysname)" } ?? "the fallback size"))" : ""))

        do {
            try poller.add(server.listenDescriptor, token: Token.listener, events: .readable)
            try poller.add(timer.descriptor, token: Token.timer, events: .readable)
            try poller.add(signals.descriptor, token: Token.signals, events: .readable)
        } catch { throw .system(error) }

        for info in candidates { open(info) }
        if devices.isEmpty { Log.info("no touchscreen found; waiting for clients on \(socketPath)") }
        Log.info("listening on \(socketPath)")
    }

    enum StartupError: Error, CustomStringConvertible {
        case system(SystemError)
        case socket(SocketServerError)
        case configuration(String)
        var description: String {
            switch self {
            case .system(let e): "\(e)"
            case .socket(let e): "\(e)"
            case .configuration(let e): e
            }
        }
    }

    // MARK: Devices

    private func open(_ info: InputDeviceInfo) {
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(path: info.devnode) } catch {
            Log.warning("\(info.sysname) (\(info.name)): cannot open: \(error), ignoring")
            return
        }
        let description = evdev.description(sysname: info.sysname)
        let rule = configuration.devices.first { $0.matches(description) }
        if rule?.ignore == true {
            Log.info("\(info.sysname) (\(info.name)): ignored by the configuration")
            evdev.close()
            return
        }
        let id: GesturePipeline.DeviceID
        do { id = try pipeline.addDevice(description, rule: rule) } catch {
            Log.warning("\(info.sysname) (\(info.name)): not usable: \(error), ignoring")
            evdev.close()
            return
        }
        if rule?.grab == true {
            do { try evdev.grab(true) } catch {
                Log.warning("\(info.sysname) (\(info.name)): exclusive grab failed: \(error); reading it shared")
            }
        }
        let monotonic = evdev.setMonotonicClock()
        if !monotonic {
            Log.warning("\(info.sysname): cannot switch event timestamps to CLOCK_MONOTONIC; stamping frames with their read time instead")
        }
        let token = nextDeviceToken
        nextDeviceToken += 1
        do { try poller.add(evdev.descriptor, token: token, events: .readable) } catch {
            Log.warning("\(info.sysname): cannot watch: \(error), ignoring")
            var discarded: [GesturePipeline.Output] = []
            pipeline.removeDevice(id, now: MonotonicClock.now(), into: &discarded)
            evdev.close()
            return
        }
        devices[token] = OpenDevice(info: info, evdev: evdev, id: id, monotonic: monotonic)
        Log.info("\(info.sysname) (\(info.name)): using it, \(description.slotCount) slots")
        broadcast { seq in LineEncoder.device(added: true, sysname: info.sysname, name: info.name, seq: seq, format: .text) }
    }

    private func close(deviceToken token: UInt64, reason: String) {
        guard let device = devices.removeValue(forKey: token) else { return }
        try? poller.remove(device.evdev.descriptor)
        output.removeAll(keepingCapacity: true)
        pipeline.removeDevice(device.id, now: MonotonicClock.now(), into: &output)
        publish()
        device.evdev.close()
        Log.info("\(device.info.sysname) (\(device.info.name)): \(reason), closed")
        broadcast { seq in
            LineEncoder.device(added: false, sysname: device.info.sysname, name: device.info.name, seq: seq, format: .text)
        }
    }

    private func readDevice(token: UInt64, events ready: PollEvents) {
        guard let device = devices[token] else { return }
        events.removeAll(keepingCapacity: true)
        let status: EvdevDevice.ReadStatus
        do { status = try device.evdev.read(into: &events) } catch {
            close(deviceToken: token, reason: "read failed: \(error)")
            return
        }
        // The latency clock starts once the events are read: the read itself is the kernel's
        // (or, under umockdev, the emulator's) time, not the daemon's.
        let readStart = MonotonicClock.now()
        if !device.monotonic {
            let now = MonotonicClock.now()
            for i in events.indices { events[i].time = now }
        }
        output.removeAll(keepingCapacity: true)
        for event in events { pipeline.handle(event, from: device.id, into: &output) }
        publish()
        latency.record(MonotonicClock.now() - readStart)
        switch status {
        case .drained:
            if ready.contains(.hangup) || ready.contains(.error) { close(deviceToken: token, reason: "hung up") }
        case .resynced:
            Log.limited(.warning, key: "\(device.info.sysname) SYN_DROPPED",
                        "\(device.info.sysname): events dropped by the kernel (SYN_DROPPED); touches cancelled and resynchronized")
        case .gone:
            close(deviceToken: token, reason: "removed")
        }
    }

    // MARK: Clients and output


    /// Sends the pipeline's output to every client: gesture lines, except failed states, which
    /// no client can ask for yet; touch lines are for subscribers, and there are none yet.
    private func publish() {
        for item in output {
            switch item {
            case .gesture(let g) where g.state != .failed:
                Log.debug("\(g.name): \(g.state.rawValue)")
                broadcast { seq in LineEncoder.gesture(g, seq: seq, format: .text) }
            case .gesture, .touch:
                continue
            }
        }
        output.removeAll(keepingCapacity: true)
    }

    /// Sends one line to every client. `seq` counts lines sent to anyone, so a line nobody
    /// receives is neither encoded nor numbered.
    private func broadcast(_ line: (UInt64) -> String) {
        guard !server.clientIDs.isEmpty else { return }
        seq += 1
        for event in server.broadcast(Array(line(seq).utf8)) { report(event) }
        for id in server.clientIDs { updateInterest(id) }
    }

    private func report(_ event: ServerEvent) {
        if case .dropped(let id, _) = event { writableClients.remove(id) }
        switch event {
        case .accepted(let id): Log.info("\(id): connected")
        case .refused(let max): Log.limited(.warning, key: "client limit", "client refused: \(max) clients are connected already")
        case .dropped(let id, .hangup): Log.info("\(id): disconnected")
        case .dropped(let id, .queueOverflow(let limit)): Log.warning("\(id): stopped reading (\(limit) bytes queued), disconnected")
        case .dropped(let id, .failed(let error)): Log.info("\(id): \(error), disconnected")
        }
    }

    /// Registers `.writable` interest while the client has queued output. epoll_ctl only runs
    /// when that changes: calling it for every client after every line cost a system call per
    /// client per line on the frame path.
    private func updateInterest(_ id: ClientID) {
        guard let fd = server.descriptor(of: id) else { writableClients.remove(id); return }
        let writable = server.wantsWritable(id)
        guard writable != writableClients.contains(id) else { return }
        let events: PollEvents = writable ? [.readable, .writable] : .readable
        try? poller.modify(fd, token: Token.clientBase + id.rawValue, events: events)
        if writable { writableClients.insert(id) } else { writableClients.remove(id) }
    }

    private func accept() {
        while true {
            let event: ServerEvent?
            do { event = try server.accept() } catch {
                Log.limited(.warning, key: "accept", "accept failed: \(error)")
                return
            }
            guard let event else { return }
            report(event)
            guard case .accepted(let id) = event, let fd = server.descriptor(of: id) else { continue }
            do { try poller.add(fd, token: Token.clientBase + id.rawValue, events: .readable) } catch {
                Log.warning("\(id): cannot watch: \(error), disconnecting")
                server.disconnect(id)
                continue
            }
            if let dropped = server.send(Array(LineEncoder.hello(format: .text).utf8), to: id) { report(dropped) }
            updateInterest(id)
        }
    }

    private func serviceClient(_ id: ClientID, events ready: PollEvents) {
        if ready.contains(.writable), let event = server.flush(id) { report(event) }
        if ready.contains(.readable) || ready.contains(.hangup) || ready.contains(.error) || ready.contains(.peerClosed),
           let event = receiveRequests(from: id) {
            report(event)
            return
        }
        updateInterest(id)
    }

    // MARK: Signals and time

    private func handleSignals() {
        let received: [Int32]
        do { received = try signals.read() } catch { Log.error("signalfd: \(error)"); running = false; return }
        for signal in received {
            switch signal {
            case SIGHUP: reload()
            case SIGINT, SIGTERM:
                Log.info("signal \(signal): stopping")
                running = false
            default: break
            }
        }
    }

    private func reload() {
        let fresh: Configuration
        do { fresh = try loadConfiguration(configPath) } catch {
            for line in error.lines { Log.error(line) }
            Log.error("reload failed; the previous configuration stays in force")
            return
        }
        output.removeAll(keepingCapacity: true)
        do { try pipeline.reload(configuration: fresh, now: MonotonicClock.now(), into: &output) } catch {
            Log.error("reload failed: \(error); the previous configuration stays in force")
            return
        }
        configuration = fresh
        publish()
        Log.info("configuration reloaded from \(configPath ?? "the embedded default")")
    }

    private func fireDeadlines() {
        _ = try? timer.acknowledge()
        output.removeAll(keepingCapacity: true)
        pipeline.advance(to: MonotonicClock.now(), into: &output)
        publish()
    }

    private func armTimer() {
        let deadline = pipeline.nextDeadline
        guard deadline != armedDeadline else { return }
        do { try timer.arm(at: deadline); armedDeadline = deadline } catch {
            Log.limited(.error, key: "timerfd", "cannot arm the deadline timer: \(error)")
        }
    }

    // MARK: Loop

    private func loop() {
        while running {
            armTimer()
            let ready: [PollResult]
            do { ready = try poller.wait(timeout: -1) } catch {
                Log.error("epoll_wait: \(error)")
                return
            }
            for item in ready {
                switch item.token {
                case Token.listener: accept()
                case Token.timer: armedDeadline = nil; fireDeadlines()
                case Token.signals: handleSignals()
                case Token.clientBase...: serviceClient(ClientID(rawValue: item.token - Token.clientBase), events: item.events)
                case Token.deviceBase...: readDevice(token: item.token, events: item.events)
                default: break
                }
            }
        }
    }

    /// Ends running gestures with `cancelled` lines, closes devices, removes the socket file.
    private func shutdown() {
        output.removeAll(keepingCapacity: true)
        for token in devices.keys.sorted() {
            if let device = devices[token] { pipeline.removeDevice(device.id, now: MonotonicClock.now(), into: &output) }
        }
        publish()
        for id in server.clientIDs { _ = server.flush(id) }
        for device in devices.values { device.evdev.close() }
        devices.removeAll()
        server.close()
        Log.info("stopped")
    }
}
