import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// `gestured run`: the event loop. One thread, one poller with one token space (`LoopToken`); it
/// sleeps with no timeout, so it wakes only for a device event, a client, a signal, or the one
/// timer armed at the earliest of the pipeline's next deadline and the client hub's next wake.
/// The loop owns the poller, the timer, the clock and the signals and dispatches to the parts,
/// which know each other only downward (no cycle): `ClientRequests` → `ClientHub`,
/// `LivePipeline`; `DeviceHub` → `LivePipeline`, `CloneSinks`, `Shell`; `LivePipeline` → `Shell` →
/// `ClientHub`, `ActionRunner`, `CloneSinks`. All decisions are the pure pipeline's; this moves
/// bytes. Each wakeup does a bounded amount of client work (ClientHub+Requests.swift): request
/// lines left over wait in a ready list, and the next wait does not block while it is not empty,
/// so devices, timers and every client get their turn in between. DaemonWiring.swift builds the
/// parts, on the real resources (DaemonStart.swift) or, in a test, on a scripted poller and timer,
/// a virtual clock and a device list of the test's (`EmbeddedDaemon`). `Hotplug` and `DeviceHub`
/// know nothing of each other: the loop hands the one's decisions to the other.
final class Daemon {
    /// The loop's parts, built before it (DaemonStart.swift, or a test).
    struct Parts {
        let live: LivePipeline
        let clients: ClientHub
        let requests: ClientRequests
        let devices: DeviceHub
        let clones: CloneSinks
        let actions: ActionRunner
        let inputs: InputSink
        let supervisor: Supervisor
        let hotplug: Hotplug
    }

    private let poller: any EventPolling
    private let timer: any DeadlineArming
    private let clock: any Clock
    /// Nil in tests: the process's signals are the test runner's.
    private let signals: SignalChannel?
    let parts: Parts
    private let configPath: String?
    private(set) var running = true
    private var armedDeadline: Instant?
    /// Reused for every wait.
    private var ready: [PollResult] = []

    init(parts: Parts, poller: any EventPolling, timer: any DeadlineArming, clock: any Clock, signals: SignalChannel?,
         configPath: String?) {
        self.parts = parts
        self.poller = poller
        self.timer = timer
        self.clock = clock
        self.signals = signals
        self.configPath = configPath
    }

    /// The timer's instant now: the earliest of what the pipeline and the client hub wait for.
    var deadline: Instant? {
        switch (parts.live.nextDeadline, parts.clients.nextWake) {
        case (let a?, let b?): min(a, b)
        case (let a?, nil): a
        case (nil, let b): b
        }
    }

    /// Loops until a signal stops it or the poller fails.
    func run() {
        armTimer()
        while running {
            do { try iterate(timeout: parts.clients.hasPendingRequests ? 0 : -1) } catch {
                Log.error("\(error)")
                return
            }
        }
    }

    /// One iteration: wait (at most `timeout` ms, -1: no limit), dispatch what is ready, serve
    /// this wakeup's share of request lines, write what the iteration decided (the clones first, for the application's latency, then the
    /// clients, each in one write), and arm the timer for the next wait.
    func iterate(timeout: Int32) throws(SystemError) {
        try poller.wait(timeout: timeout, into: &ready)
        for item in ready {
            switch LoopToken(item.token) {
            case .listener: parts.clients.accept()
            case .timer:
                armedDeadline = nil
                _ = try? timer.acknowledge()
                let now = clock.now()
                parts.live.advance(to: now)
                parts.clients.wake(now: now)
            case .signals: handleSignals()
            case .watchdog: parts.supervisor.watchdogFired()
            case .hotplug: takeUp(parts.hotplug.receive(configuration: parts.devices.configuration, isOpen: parts.devices.isOpen(syspath:)))
            case .actionTimer: parts.actions.timeouts(now: clock.now())
            case .device(let token):
                if let start = parts.devices.read(token: token, events: item.events) { parts.clients.read(at: start) }
            case .action(let token): parts.actions.ready(token: token, now: clock.now())
            case .client(let id): parts.clients.service(id, events: item.events)
            case .cloneGuard(let token): parts.clones.reapGuard(token: token)
            case nil: break
            }
        }
        handOn()
        for requests in parts.clients.serveRequests() { parts.requests.handle(requests) }
        // Before the flush: a panel is grabbed before any line of the step that decided it is
        // written (a client answered `ok` to `screen off` may touch the panel at once).
        handOn()
        parts.clones.flush()
        parts.clients.flush()
        handOn()   // clients dropped by the flush
        parts.live.setReporting(parts.clients.reporting)   // a client that went may have been the last subscriber
        parts.supervisor.update(devices: parts.devices.count, clients: parts.clients.count)
        armTimer()
    }

    /// Hands on what a part left for another as data, once the wakeup's items are served, once
    /// its requests are, before anything is written, and again after the flush: the clients'
    /// subscription changes to the pipeline (a client that
    /// connected in this wakeup gets lines from its next one; one that went is skipped by the
    /// server until then), the pipeline's grabs to `DeviceHub`. The parts know each other one
    /// way; what goes back goes through here. (`ClientRequests` hands the changes on after each
    /// request line itself.)
    private func handOn() {
        if !parts.clients.subscriptionChanges.isEmpty { parts.live.apply(parts.clients.takeSubscriptionChanges()) }
        for grab in parts.live.takeGrabs() { parts.devices.grabForClaims(grab.device, grab.exclusive) }
    }

    /// Hands what `Hotplug` decided to `DeviceHub` (the two know nothing of each other).
    private func takeUp(_ decisions: [Hotplug.Decision]) {
        for decision in decisions {
            switch decision {
            case .open(let candidate): parts.devices.open(candidate)
            case .close(let syspath, let reason): parts.devices.close(syspath: syspath, reason: reason)
            }
        }
    }

    private func armTimer() {
        let deadline = self.deadline
        guard deadline != armedDeadline else { return }
        do { try timer.arm(at: deadline); armedDeadline = deadline } catch {
            Log.limited(.error, key: "timerfd", "cannot arm the deadline timer: \(error)")
        }
    }

    // MARK: Signals

    private func handleSignals() {
        guard let signals else { return }
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

    /// SIGHUP: the configuration file again, whole; an invalid one changes nothing.
    func reload() {
        parts.supervisor.reloading()
        defer { parts.supervisor.ready(devices: parts.devices.count, clients: parts.clients.count) }
        let fresh: Configuration
        do { fresh = try loadConfiguration(configPath, logWarnings: true) } catch {
            for line in error.lines { Log.error(line) }
            Log.error("reload failed; the previous configuration stays in force")
            return
        }
        do { try parts.devices.reload(fresh) } catch {
            Log.error("reload failed: \(error); the previous configuration stays in force")
            return
        }
        // Devices present but not open, admitted by the new rules.
        takeUp(parts.hotplug.candidates(configuration: fresh, except: parts.devices.isOpen(syspath:)).map { .open($0) })
        let authority = ControlAuthority(fresh)
        parts.clients.authority = authority
        parts.requests.configure(fresh, authority: authority)
        parts.actions.configure(fresh)
        parts.inputs.configure(fresh, sizes: parts.live.screenSizes)
        Log.info("configuration reloaded from \(configPath ?? "the embedded default")")
    }

    /// Ends running gestures with `cancelled` lines, closes devices, removes the socket file.
    func shutdown() {
        parts.supervisor.stopping()
        parts.devices.closeAll()
        parts.clones.flush()
        parts.clients.flushAll()
        parts.actions.stop()
        parts.inputs.close()
        parts.clients.server.close()
        Log.info("stopped")
    }
}
