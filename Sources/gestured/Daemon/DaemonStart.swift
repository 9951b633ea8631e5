import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// Starting `gestured run`: the real resources (signals, epoll, the timers, the socket, udev) and
/// the parts around them, each given what it uses; then the loop (Daemon.swift).
extension Daemon {
    static func run(configPath: String?, socketPath: String, trace: Bool = false) throws(CommandFailure) {
        let configuration = try loadConfiguration(configPath, logWarnings: true)
        let daemon: Daemon
        let parts: Parts
        do { (daemon, parts) = try start(configPath: configPath, configuration: configuration, socketPath: socketPath, trace: trace) } catch {
            throw CommandFailure(ExitStatus.failure, "\(error)")
        }
        parts.supervisor.ready(devices: parts.devices.count, clients: parts.clients.count)
        daemon.run()
        daemon.shutdown()
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

    private static func start(configPath: String?, configuration: Configuration, socketPath: String,
                              trace: Bool) throws(StartupError) -> (Daemon, Parts) {
        let clock = MonotonicClock.system
        // Signals first: a SIGTERM during start-up must not kill us before the socket file can
        // be removed.
        let signals: SignalChannel, poller: Poller, timer: DeadlineTimer, actions: ActionRunner
        do {
            signals = try SignalChannel()
            poller = try Poller()
            timer = try DeadlineTimer()
            actions = try ActionRunner(poller: poller)
        } catch { throw .system(error) }
        actions.configure(configuration)
        // Every client is a descriptor: room for all the socket settings allow, and the devices,
        // clones, actions and the loop's own beside them.
        let needed = configuration.socket.connectionPolicy.hardLimit + DescriptorLimit.reserve
        switch DescriptorLimit.raise(toAtLeast: needed) {
        case .enough: break
        case .short(let limit):
            Log.warning("the open-file limit is \(limit) (hard limit); \(needed) would fit socket.maxClients and the rest "
                        + "(raise LimitNOFILE, or lower socket.maxClients); clients beyond it are turned away")
        }
        let server: UnixSocketServer
        do { server = try ListeningSocket.open(path: socketPath, settings: configuration.socket) } catch { throw .socket(error) }

        let (hotplug, candidates) = Hotplug.start(configuration: configuration)
        // Each screen without a configured size takes its first device's.
        let sizes = GesturePipeline.sizes(for: configuration, devices: candidates.map { ($0.description, $0.admitted) })
        for (index, spec) in configuration.screenSpecs.enumerated() {
            let first = candidates.first { $0.screen == index }
            Log.info((spec.id.map { "screen \($0)" } ?? "screen")
                     + " is \(LineEncoder.fixed(sizes[index].width, decimals: 0))x\(LineEncoder.fixed(sizes[index].height, decimals: 0)) points"
                     + (spec.size == nil ? " (from \(first.map { "device \($0.info.sysname)" } ?? "the fallback size"))" : ""))
        }
        var pipeline: GesturePipeline
        do { pipeline = try GesturePipeline(configuration: configuration, sizes: sizes) } catch {
            throw .configuration("\(error)")
        }
        pipeline.startIdleClock(at: clock.now())   // idle lines count from the daemon's start
        let authority = ControlAuthority(configuration.control)
        let clients = ClientHub(server: server, poller: poller, clock: clock, authority: authority, settings: configuration.socket)
        clients.logsTrace = trace  // `run --trace`; clients may subscribe to the trace as well
        let clones = CloneSinks(poller: poller)
        let shell = Shell(clients: clients, actions: actions, clones: clones, clock: clock)
        let live = LivePipeline(pipeline, shell: shell)
        live.setReporting(clients.reporting)   // no touch outputs until a client subscribes to them
        let devices = DeviceHub(poller: poller, live: live, clones: clones, shell: shell, clock: clock, configuration: configuration)
        shell.grabPanel = { [unowned devices] id, exclusive in devices.grabForClaims(id, exclusive) }
        let requests = ClientRequests(clients: clients, live: live, clock: clock, configuration: configuration, authority: authority)
        let supervisor = Supervisor()
        do {
            try poller.add(server.listenDescriptor, token: LoopToken.listenerToken, events: .readable)
            try poller.add(timer.descriptor, token: LoopToken.timerToken, events: .readable)
            try poller.add(signals.descriptor, token: LoopToken.signalsToken, events: .readable)
            try poller.add(actions.timer.descriptor, token: LoopToken.actionTimerToken, events: .readable)
            try supervisor.register(with: poller, token: LoopToken.watchdogToken)
            if let monitor = hotplug.monitor { try poller.add(monitor.descriptor, token: LoopToken.hotplugToken, events: .readable) }
        } catch { throw .system(error) }

        for candidate in candidates { devices.open(candidate) }
        if devices.count == 0 { Log.info("no touchscreen found; waiting for clients on \(socketPath)") }
        Log.info("listening on \(socketPath)")
        let parts = Parts(live: live, clients: clients, requests: requests, devices: devices, clones: clones, actions: actions,
                          supervisor: supervisor, hotplug: hotplug)
        return (Daemon(parts: parts, poller: poller, timer: timer, clock: clock, signals: signals, configPath: configPath), parts)
    }
}
