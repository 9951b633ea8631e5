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
        static let watchdog: UInt64 = 4
        static let hotplug: UInt64 = 5
        static let actionTimer: UInt64 = 6
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
    /// Not private: the `stats` extension (Daemon+Stats.swift) reads the histogram beside it.
    let server: UnixSocketServer
    private let supervisor = Supervisor()
    /// The configuration's gesture actions: spawned, watched and reaped in this loop.
    private let actions: ActionRunner
    /// udev's netlink monitor; nil when it could not be created (no hotplug then).
    private let monitor: UdevMonitor?
    private let configPath: String?
    private var configuration: Configuration
    private var pipeline: GesturePipeline
    private var devices: [UInt64: OpenDevice] = [:]
    private var nextDeviceToken = Token.deviceBase
    private var seq: UInt64 = 0
    /// What each client asked for, and its partial request line.
    private var clients: [ClientID: ClientState] = [:]
    /// The current line in each format, reused for every line (the server copies what it
    /// queues), so publishing allocates nothing per line.
    private var textLine: [UInt8] = [], jsonLine: [UInt8] = []

    private struct ClientState {
        var subscription = ClientSubscription()
        var framer = RequestFramer()
        /// Who connected (`SO_PEERCRED`); nil when the kernel would not say (then no control).
        var peer: PeerCredentials?
    }
    /// Who may send control requests; rebuilt on reload.
    private var authority: ControlAuthority
    private var running = true
    private var armedDeadline: Instant?
    /// Scratch buffers reused for every read.
    private var events: [RawEvent] = []
    private var output: [GesturePipeline.Output] = []
    /// From a device's events read to their lines written to every client, for `stats` (Daemon+Stats.swift).
    var latency = LatencyHistogram()
    /// Clients registered for `.writable` (they have queued output).
    private var writableClients: Set<ClientID> = []

    static func run(configPath: String?, socketPath: String, trace: Bool = false) throws(CommandFailure) {
        let configuration = try loadConfiguration(configPath, logWarnings: true)
        let daemon: Daemon
        do { daemon = try Daemon(configPath: configPath, configuration: configuration, socketPath: socketPath, trace: trace) } catch {
            throw CommandFailure(ExitStatus.failure, "\(error)")
        }
        daemon.supervisor.ready(devices: daemon.devices.count, clients: daemon.server.clientCount)
        daemon.loop()
        daemon.shutdown()
    }

    private init(configPath: String?, configuration: Configuration, socketPath: String, trace: Bool) throws(StartupError) {
        self.configPath = configPath
        self.configuration = configuration
        authority = ControlAuthority(configuration.control)
        // Signals first: a SIGTERM during start-up must not kill us before the socket file can
        // be removed.
        do {
            signals = try SignalChannel()
            poller = try Poller()
            timer = try DeadlineTimer()
            actions = try ActionRunner(poller: poller)
        } catch { throw .system(error) }
        actions.configure(configuration.views)
        do { server = try ListeningSocket.open(path: socketPath, settings: configuration.socket) } catch { throw .socket(error) }

        // The monitor before the enumeration: a device added in between is seen twice (the
        // duplicate is dropped by syspath in `hotplug`) rather than never.
        do { monitor = try UdevMonitor() } catch {
            Log.warning("udev monitor: \(error); devices added later will not be seen")
            monitor = nil
        }
        var candidates: [DeviceCandidate] = []
        do {
            candidates = try UdevEnumerator.inputDevices().compactMap { DeviceCandidate.admit($0, configuration: configuration) }
        } catch {
            Log.warning("udev enumeration failed: \(error); starting without devices")
        }
        let first = candidates.first?.description
        let screen = GesturePipeline.screen(configuration: configuration, firstDevice: first,
                                            rotation: candidates.first?.rule?.rotation ?? .none)
        do { pipeline = try GesturePipeline(configuration: configuration, screen: screen) } catch {
            throw .configuration("\(error)")
        }
        pipeline.reportsTouches = false   // until a client subscribes to touches
        pipeline.tracesTransitions = trace  // `run --trace`: drained in `publish`
        Log.info("screen is \(LineEncoder.fixed(screen.width, decimals: 0))x\(LineEncoder.fixed(screen.height, decimals: 0)) points"
                 + (configuration.screen == nil ? " (from \(first.map { "device \($0.sysname)" } ?? "the fallback size"))" : ""))

        do {
            try poller.add(server.listenDescriptor, token: Token.listener, events: .readable)
            try poller.add(timer.descriptor, token: Token.timer, events: .readable)
            try poller.add(signals.descriptor, token: Token.signals, events: .readable)
            try poller.add(actions.timer.descriptor, token: Token.actionTimer, events: .readable)
            try supervisor.register(with: poller, token: Token.watchdog)
            if let monitor { try poller.add(monitor.descriptor, token: Token.hotplug, events: .readable) }
        } catch { throw .system(error) }

        for candidate in candidates { open(candidate) }
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

    /// Udev announced devices: opens those added (unless open already: the enumeration may have
    /// seen them), closes those removed, and takes up a device whose `change` shows that udev
    /// has now processed it.
    private func hotplug() {
        guard let monitor else { return }
        for event in monitor.receive() {
            let open = devices.first { $0.value.info.syspath == event.device.syspath }?.key
            switch event.action {
            case "remove":
                if let open { close(deviceToken: open, reason: "removed (udev)") }
            case "add", "change":
                guard open == nil else { continue }
                if let candidate = DeviceCandidate.admit(event.device, configuration: configuration) { self.open(candidate) }
            default:
                break
            }
        }
    }

    private func open(_ candidate: DeviceCandidate) {
        let (info, evdev, description) = (candidate.info, candidate.evdev, candidate.description)
        let id: GesturePipeline.DeviceID
        do { id = try pipeline.addDevice(description, rule: candidate.rule, fallbackCalibration: candidate.udevCalibration) } catch {
            Log.warning("\(info.sysname) (\(info.name)): not usable: \(error), ignoring")
            evdev.close()
            return
        }
        candidate.grabIfAsked()
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
        broadcast { seq, format in
            LineEncoder.device(added: true, sysname: info.sysname, name: info.name, seq: seq, format: format)
        }
    }

    private func close(deviceToken token: UInt64, reason: String) {
        guard let device = devices.removeValue(forKey: token) else { return }
        try? poller.remove(device.evdev.descriptor)
        output.removeAll(keepingCapacity: true)
        pipeline.removeDevice(device.id, now: MonotonicClock.now(), into: &output)
        publish()
        device.evdev.close()
        Log.info("\(device.info.sysname) (\(device.info.name)): \(reason), closed")
        broadcast { seq, format in
            LineEncoder.device(added: false, sysname: device.info.sysname, name: device.info.name, seq: seq, format: format)
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
        DeviceCandidate.logAnomalies(pipeline.takeAnomalies(of: device.id), sysname: device.info.sysname)
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


    /// Sends the pipeline's output to the clients that want each item (gesture lines by
    /// default; touch lines and failed states to subscribers; filters per client). An item is
    /// encoded at most once per format, and only when someone receives it.
    private func publish() {
        if pipeline.tracesTransitions { for line in pipeline.drainTrace() { Log.trace(line) } }
        guard !output.isEmpty else { return }
        // Once per batch, not per item: the server sorts its ids on every call. A client dropped
        // while sending is skipped below, as its state is gone.
        let recipients = server.clientIDs
        for item in output {
            if case .gesture(let g) = item { Log.debug("\(g.name): \(g.state.rawValue)") }
            textLine.removeAll(keepingCapacity: true)
            jsonLine.removeAll(keepingCapacity: true)
            var numbered = false
            for id in recipients {
                guard let state = clients[id], state.subscription.wants(item) else { continue }
                if !numbered { seq += 1; numbered = true }
                switch state.subscription.format {
                case .text:
                    if textLine.isEmpty { LineEncoder.output(item, seq: seq, format: .text, into: &textLine) }
                    send(textLine, to: id)
                case .json:
                    if jsonLine.isEmpty { LineEncoder.output(item, seq: seq, format: .json, into: &jsonLine) }
                    send(jsonLine, to: id)
                }
            }
            // GESTURE_SEQ: the line's seq, or the last one sent when nobody received this line.
            if case .gesture(let g) = item { actions.handle(g, seq: seq, now: MonotonicClock.now()) }
        }
        output.removeAll(keepingCapacity: true)
    }

    /// The pipeline makes touch outputs only while some client is subscribed to them.
    private func updateTouchReporting() {
        pipeline.reportsTouches = clients.values.contains { $0.subscription.touches }
    }

    /// Sends one line to every client, each in its format. `seq` counts lines sent to anyone,
    /// so a line nobody receives is neither encoded nor numbered.
    private func broadcast(_ line: (UInt64, LineFormat) -> String) {
        guard !server.clientIDs.isEmpty else { return }
        seq += 1
        var encoded: [LineFormat: [UInt8]] = [:]
        for id in server.clientIDs {
            let format = clients[id]?.subscription.format ?? .text
            let bytes = encoded[format] ?? Array(line(seq, format).utf8)
            encoded[format] = bytes
            send(bytes, to: id)
        }
    }

    private func send(_ bytes: [UInt8], to id: ClientID) {
        if let event = server.send(bytes, to: id) { report(event) } else { updateInterest(id) }
    }

    private func report(_ event: ServerEvent) {
        if case .dropped(let id, _) = event { clients[id] = nil; writableClients.remove(id); updateTouchReporting() }
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
            var state = ClientState()
            do { state.peer = try PeerCredentials.of(fd) } catch {
                Log.warning("\(id): \(error); it may listen but not control")
            }
            if let peer = state.peer { Log.debug("\(id): \(peer)") }
            clients[id] = state
            send(Array(LineEncoder.hello(format: .text).utf8), to: id)
        }
    }

    private func serviceClient(_ id: ClientID, events ready: PollEvents) {
        if ready.contains(.writable), let event = server.flush(id) { report(event); return }
        if ready.contains(.readable) || ready.contains(.hangup) || ready.contains(.error) || ready.contains(.peerClosed) {
            var received: [UInt8] = []
            let event = server.receive(from: id, into: &received)
            if !received.isEmpty { handleRequests(received, from: id) }
            if let event { report(event); return }
        }
        updateInterest(id)
    }

    /// Applies each complete request line and answers it with `ok` or `error`, in the client's
    /// (possibly just changed) format.
    private func handleRequests(_ bytes: [UInt8], from id: ClientID) {
        guard var state = clients[id] else { return }
        state.framer.append(bytes)
        while let item = state.framer.next() {
            let answer: String
            switch item {
            case .tooLong:
                answer = LineEncoder.error(command: "", message: "request longer than \(ClientRequest.maximumLength) bytes",
                                           format: state.subscription.format)
            case .line(let line):
                do {
                    let request = try ClientRequest.parse(line[...])
                    if case .control(let control) = request {
                        if let refusal = self.control(control, from: id, peer: state.peer) {
                            answer = LineEncoder.error(command: request.command, message: refusal, format: state.subscription.format)
                            break
                        }
                    }
                    state.subscription.apply(request)
                    answer = request == .stats ? statsLine(format: state.subscription.format)
                                               : LineEncoder.ok(command: request.command, format: state.subscription.format)
                    Log.debug("\(id): \(line)")
                } catch {
                    answer = LineEncoder.error(command: error.command, message: error.message, format: state.subscription.format)
                    Log.limited(.info, key: "\(id) bad request", "\(id): bad request: \(error.message)")
                }
            }
            clients[id] = state
            if case .line = item { updateTouchReporting() }
            send(Array(answer.utf8), to: id)
            // What a control request cancelled goes out after its answer.
            publish()
            guard clients[id] != nil else { return }   // dropped while answering
        }
        clients[id] = state   // the framer's progress, when there was no complete line
    }

    /// Applies a control request from an authorized peer, leaving the gesture lines it causes in
    /// `output`; returns why it was refused instead (nothing changed then).
    private func control(_ request: ControlRequest, from id: ClientID, peer: PeerCredentials?) -> String? {
        guard authority.allows(peer) else {
            Log.limited(.warning, key: "\(id) control refused",
                        "\(id) (\(peer.map { "\($0)" } ?? "unknown peer")): \(request.command) refused, not authorized to control")
            return "not authorized to control (uid \(peer.map { String($0.uid) } ?? "unknown")): only root, the daemon's user and the config's control uids and groups may"
        }
        let now = MonotonicClock.now()
        output.removeAll(keepingCapacity: true)
        pipeline.advance(to: now, into: &output)
        switch request {
        case .view(let view, let change):
            guard pipeline.change(change, ofView: view, now: now, into: &output) else { return "no view '\(view)'" }
        case .layout(let name):
            guard let layout = configuration.layouts[name] else {
                let known = configuration.layouts.keys.sorted()
                return "no layout '\(name)'" + (known.isEmpty ? " (the configuration defines none)" : " (\(known.joined(separator: ", ")))")
            }
            for entry in layout.entries {
                for change in entry.changes { _ = pipeline.change(change, ofView: entry.view, now: now, into: &output) }
            }
        case .rotate(let pattern, let rotation):
            let matching = devices.values.filter { Glob.matches(pattern, $0.info.sysname) }
            guard !matching.isEmpty else { return "no device matches '\(pattern)'" }
            for device in matching { pipeline.setRotation(rotation, of: device.id, now: now, into: &output) }
        }
        Log.info("\(id) (uid \(peer?.uid ?? 0)): \(request.command) \(Self.describe(request))")
        return nil
    }

    private static func describe(_ request: ControlRequest) -> String {
        switch request {
        case .view(let view, .frame(let f)):
            "\(view) \(LineEncoder.fixed(f.minX, decimals: 2)) \(LineEncoder.fixed(f.minY, decimals: 2)) \(LineEncoder.fixed(f.size.width, decimals: 2)) \(LineEncoder.fixed(f.size.height, decimals: 2))"
        case .view(let view, _): view
        case .layout(let name): name
        case .rotate(let device, let rotation): "\(device) \(rotation.rawValue)"
        }
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
        supervisor.reloading()
        defer { supervisor.ready(devices: devices.count, clients: server.clientCount) }
        let fresh: Configuration
        do { fresh = try loadConfiguration(configPath, logWarnings: true) } catch {
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
        authority = ControlAuthority(fresh.control)
        actions.configure(fresh.views)
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
            RecognizerBugLog.log(pipeline.takeTrace())
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
                case Token.watchdog: supervisor.watchdogFired()
                case Token.hotplug: hotplug()
                case Token.actionTimer: actions.timeouts(now: MonotonicClock.now())
                case Token.clientBase...: serviceClient(ClientID(rawValue: item.token - Token.clientBase), events: item.events)
                case ActionRunner.base..<ActionRunner.end: actions.ready(token: item.token, now: MonotonicClock.now())
                case Token.deviceBase...: readDevice(token: item.token, events: item.events)
                default: break
                }
            }
            supervisor.update(devices: devices.count, clients: server.clientCount)
        }
    }

    /// Ends running gestures with `cancelled` lines, closes devices, removes the socket file.
    private func shutdown() {
        supervisor.stopping()
        output.removeAll(keepingCapacity: true)
        for token in devices.keys.sorted() {
            if let device = devices[token] { pipeline.removeDevice(device.id, now: MonotonicClock.now(), into: &output) }
        }
        publish()
        for id in server.clientIDs { _ = server.flush(id) }
        actions.stop()
        for device in devices.values { device.evdev.close() }
        devices.removeAll()
        server.close()
        Log.info("stopped")
    }
}
