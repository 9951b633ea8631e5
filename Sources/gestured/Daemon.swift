import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// `gestured run`: the event loop. One thread, one epoll set with one token space
/// (`LoopToken`); it sleeps in `epoll_wait` with no timeout, so it wakes only for a device event,
/// a client, a signal, or the one timerfd armed at the pipeline's next deadline. The loop owns
/// the set and the signals and timers; the parts do the rest: `DeviceHub` (devices, hotplug),
/// `ClientHub` (clients, numbering, publishing), `Control` (control requests), `ActionRunner`,
/// `Supervisor`. All decisions are the pure pipeline's; this moves bytes.
final class Daemon {
    private let poller: Poller
    private let timer: DeadlineTimer
    private let signals: SignalChannel
    private let supervisor = Supervisor()
    /// The configuration's gesture actions: spawned, watched and reaped in this loop.
    private let actions: ActionRunner
    private let live: LivePipeline
    private let devices: DeviceHub
    private let clients: ClientHub
    private let control: Control
    private let configPath: String?
    private var running = true
    private var armedDeadline: Instant?

    static func run(configPath: String?, socketPath: String, trace: Bool = false) throws(CommandFailure) {
        let configuration = try loadConfiguration(configPath, logWarnings: true)
        let daemon: Daemon
        do { daemon = try Daemon(configPath: configPath, configuration: configuration, socketPath: socketPath, trace: trace) } catch {
            throw CommandFailure(ExitStatus.failure, "\(error)")
        }
        daemon.supervisor.ready(devices: daemon.devices.count, clients: daemon.clients.count)
        daemon.loop()
        daemon.shutdown()
    }

    private init(configPath: String?, configuration: Configuration, socketPath: String, trace: Bool) throws(StartupError) {
        self.configPath = configPath
        // Signals first: a SIGTERM during start-up must not kill us before the socket file can
        // be removed.
        do {
            signals = try SignalChannel()
            poller = try Poller()
            timer = try DeadlineTimer()
            actions = try ActionRunner(poller: poller)
        } catch { throw .system(error) }
        actions.configure(configuration.allViews)
        let server: UnixSocketServer
        do { server = try ListeningSocket.open(path: socketPath, settings: configuration.socket) } catch { throw .socket(error) }

        let (monitor, candidates) = DeviceHub.discover(configuration: configuration)
        // Each screen without a configured size takes its first device's.
        var sizes: [Size] = []
        for (index, spec) in configuration.screenSpecs.enumerated() {
            let first = candidates.first { $0.screen == index }
            let size = GesturePipeline.size(configured: spec.size, firstDevice: first?.description,
                                            rotation: first?.rule?.rotation ?? .none)
            sizes.append(size)
            Log.info((spec.id.map { "screen \($0)" } ?? "screen")
                     + " is \(LineEncoder.fixed(size.width, decimals: 0))x\(LineEncoder.fixed(size.height, decimals: 0)) points"
                     + (spec.size == nil ? " (from \(first.map { "device \($0.info.sysname)" } ?? "the fallback size"))" : ""))
        }
        do { live = LivePipeline(try GesturePipeline(configuration: configuration, sizes: sizes)) } catch {
            throw .configuration("\(error)")
        }
        live.pipeline.reportsTouches = false   // until a client subscribes to touches
        clients = ClientHub(server: server, poller: poller, live: live, actions: actions)
        clients.logsTrace = trace  // `run --trace`; clients may subscribe to the trace as well
        devices = DeviceHub(poller: poller, monitor: monitor, live: live, clients: clients, configuration: configuration)
        control = Control(configuration: configuration, live: live) { [unowned devices] in devices.controlDevices }
        clients.control = control

        do {
            try poller.add(server.listenDescriptor, token: LoopToken.listenerToken, events: .readable)
            try poller.add(timer.descriptor, token: LoopToken.timerToken, events: .readable)
            try poller.add(signals.descriptor, token: LoopToken.signalsToken, events: .readable)
            try poller.add(actions.timer.descriptor, token: LoopToken.actionTimerToken, events: .readable)
            try supervisor.register(with: poller, token: LoopToken.watchdogToken)
            if let monitor { try poller.add(monitor.descriptor, token: LoopToken.hotplugToken, events: .readable) }
        } catch { throw .system(error) }

        for candidate in candidates { devices.open(candidate) }
        if devices.count == 0 { Log.info("no touchscreen found; waiting for clients on \(socketPath)") }
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
        defer { supervisor.ready(devices: devices.count, clients: clients.count) }
        let fresh: Configuration
        do { fresh = try loadConfiguration(configPath, logWarnings: true) } catch {
            for line in error.lines { Log.error(line) }
            Log.error("reload failed; the previous configuration stays in force")
            return
        }
        do { try devices.reload(fresh) } catch {
            Log.error("reload failed: \(error); the previous configuration stays in force")
            return
        }
        control.configure(fresh)
        actions.configure(fresh.allViews)
        Log.info("configuration reloaded from \(configPath ?? "the embedded default")")
    }

    private func fireDeadlines() {
        _ = try? timer.acknowledge()
        live.output.removeAll(keepingCapacity: true)
        live.pipeline.advance(to: MonotonicClock.now(), into: &live.output)
        clients.publish()
    }

    private func armTimer() {
        let deadline = live.pipeline.nextDeadline
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
                switch LoopToken(item.token) {
                case .listener: clients.accept()
                case .timer: armedDeadline = nil; fireDeadlines()
                case .signals: handleSignals()
                case .watchdog: supervisor.watchdogFired()
                case .hotplug: devices.hotplug()
                case .actionTimer: actions.timeouts(now: MonotonicClock.now())
                case .device(let token): devices.read(token: token, events: item.events)
                case .action(let token): actions.ready(token: token, now: MonotonicClock.now())
                case .client(let id): clients.service(id, events: item.events)
                case .cloneGuard(let token): devices.reapGuard(token: token)
                case nil: break
                }
            }
            // What this iteration's reads, deadlines and control requests decided for the clones,
            // then for the clients, each in one write.
            devices.writeForwarded()
            clients.publishTrace(live.pipeline.drainTrace())   // what no batch took, e.g. recognizer bugs
            clients.flush()
            supervisor.update(devices: devices.count, clients: clients.count)
        }
    }

    /// Ends running gestures with `cancelled` lines, closes devices, removes the socket file.
    private func shutdown() {
        supervisor.stopping()
        devices.closeAll()
        clients.flushAll()
        actions.stop()
        clients.server.close()
        Log.info("stopped")
    }
}
