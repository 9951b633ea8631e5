import GesturedConfig
import GesturedCore
import GesturedIO

/// The one place the daemon's parts are built and joined, for `gestured run` (DaemonStart.swift)
/// and for a test's embedded daemon alike, so the two cannot drift: what differs between them is
/// what they are given (`Surroundings`).
extension Daemon {
    /// What the parts run on: the real resources for `gestured run`, a virtual clock and timer, a
    /// poller that never waits and a device list of its own in a test.
    struct Surroundings {
        let poller: any EventPolling
        let timer: any DeadlineArming
        let clock: any Clock
        /// Nil in a test: the process's signals are the test runner's.
        let signals: SignalChannel?
        /// Listening already.
        let server: UnixSocketServer
        /// udev, or a test's own (`DeviceSource`).
        let devices: any DeviceSource
        /// Where `gestured input` is made (`InputSink`).
        var uinputPath = "/dev/uinput"
    }

    /// The parts (`Parts`) for `configuration`, registered with the poller, the devices present
    /// now opened, and the loop around them; `configPath` is what a reload reads again.
    static func wire(configuration: Configuration, configPath: String?, in surroundings: Surroundings,
                     trace: Bool = false) throws(StartupError) -> Daemon {
        let (poller, clock, server) = (surroundings.poller, surroundings.clock, surroundings.server)
        let actions: ActionRunner
        do { actions = try ActionRunner(poller: poller) } catch { throw .system(error) }
        actions.configure(configuration)
        let hotplug = Hotplug(source: surroundings.devices)
        let candidates = hotplug.candidates(configuration: configuration, except: { _ in false })
        // Each screen without a configured size takes its first device's.
        let resolved = ScreenSizing.resolve(configuration, devices: candidates.map { ($0.description, $0.admitted) })
        let sizes = resolved.map(\.size)
        for (spec, (size, origin)) in zip(configuration.screenSpecs, resolved) {
            let from = switch origin {
            case .configured, .previous: ""
            case .device(let index): " (from device \(candidates[index].info.sysname))"
            case .fallback: " (from the fallback size)"
            }
            Log.info((spec.id.map { "screen \($0)" } ?? "screen")
                     + " is \(LineEncoder.fixed(size.width, decimals: 0))x\(LineEncoder.fixed(size.height, decimals: 0)) points\(from)")
        }
        let pipeline: GesturePipeline
        do { pipeline = try GesturePipeline(configuration: configuration, sizes: sizes) } catch {
            throw .configuration("\(error)")
        }
        let authority = ControlAuthority(configuration)
        let clients = ClientHub(server: server, poller: poller, clock: clock, authority: authority, settings: configuration.socket)
        clients.logsTrace = trace  // `run --trace`; clients may subscribe to the trace as well
        let clones = CloneSinks(poller: poller)
        let inputs = InputSink(uinputPath: surroundings.uinputPath)
        inputs.configure(configuration, sizes: sizes)
        let shell = Shell(clients: clients, actions: actions, clones: clones, inputs: inputs, clock: clock)
        let live = LivePipeline(pipeline, shell: shell)
        live.start(now: clock.now())   // idle lines count from the daemon's start
        live.setReporting(clients.reporting)   // no touch outputs until a client subscribes to them
        let devices = DeviceHub(poller: poller, live: live, clones: clones, clock: clock, configuration: configuration)
        let requests = ClientRequests(clients: clients, live: live, clock: clock, configuration: configuration, authority: authority)
        let supervisor = Supervisor()
        do {
            try poller.add(server.listenDescriptor, token: LoopToken.listenerToken, events: .readable)
            try poller.add(surroundings.timer.descriptor, token: LoopToken.timerToken, events: .readable)
            if let signals = surroundings.signals { try poller.add(signals.descriptor, token: LoopToken.signalsToken, events: .readable) }
            try poller.add(actions.timer.descriptor, token: LoopToken.actionTimerToken, events: .readable)
            try supervisor.register(with: poller, token: LoopToken.watchdogToken)
            if let announcing = surroundings.devices.descriptor {
                try poller.add(announcing, token: LoopToken.hotplugToken, events: .readable)
            }
        } catch { throw .system(error) }

        for candidate in candidates { devices.open(candidate) }
        if devices.count == 0 { Log.info("no touchscreen found; waiting for clients on \(server.path)") }
        Log.info("listening on \(server.path)")
        let parts = Parts(live: live, clients: clients, requests: requests, devices: devices, clones: clones, actions: actions,
                          inputs: inputs, supervisor: supervisor, hotplug: hotplug)
        return Daemon(parts: parts, poller: poller, timer: surroundings.timer, clock: clock, signals: surroundings.signals,
                      configPath: configPath)
    }
}
