@testable import gestured
import GesturedConfig
import GesturedCore
@testable import GesturedIO
import GesturedTestSupport

/// The daemon's loop and parts in the test's own process, as DaemonStart.swift wires them but
/// around a virtual clock and timer and a poller that never waits (`ScriptedPoller`): a real
/// socket in a temporary directory, no udev (tests feed the pipeline through `live`), no signals.
/// `iterate` runs one loop iteration over what is ready now; time moves only when the test moves
/// `clock`.
final class EmbeddedDaemon {
    let directory: TestEnvironment.TemporaryDirectory
    let clock = VirtualClock()
    let timer = VirtualTimer()
    let poller: ScriptedPoller
    let server: UnixSocketServer
    let parts: Daemon.Parts
    let daemon: Daemon

    var live: LivePipeline { parts.live }
    var clients: ClientHub { parts.clients }

    init(configuration: Configuration = Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "root")]),
         settings: SocketSettings? = nil, backlog: Int32 = 16) throws {
        let settings = settings ?? configuration.socket
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-embedded")
        poller = try ScriptedPoller(timer: timer, timerToken: LoopToken.timerToken, clock: clock)
        server = try UnixSocketServer(path: directory.path + "/g.sock", backlog: backlog, maxClients: settings.connectionPolicy.hardLimit)
        try poller.add(server.listenDescriptor, token: LoopToken.listenerToken, events: .readable)
        let authority = ControlAuthority(configuration.control)
        let clients = ClientHub(server: server, poller: poller, clock: clock, authority: authority, settings: settings)
        let actions = try ActionRunner(poller: poller)
        actions.configure(configuration)
        let clones = CloneSinks(poller: poller)
        let shell = Shell(clients: clients, actions: actions, clones: clones, clock: clock)
        var pipeline = try GesturePipeline(configuration: configuration, sizes: [configuration.screen ?? DeviceGeometry.fallbackScreen])
        pipeline.startIdleClock(at: clock.now())   // as DaemonStart does
        let live = LivePipeline(pipeline, shell: shell)
        live.setReporting(clients.reporting)
        let devices = DeviceHub(poller: poller, live: live, clones: clones, shell: shell, clock: clock, configuration: configuration)
        shell.grabPanel = { [unowned devices] id, exclusive in devices.grabForClaims(id, exclusive) }
        let requests = ClientRequests(clients: clients, live: live, clock: clock, configuration: configuration, authority: authority)
        parts = Daemon.Parts(live: live, clients: clients, requests: requests, devices: devices, clones: clones, actions: actions,
                             supervisor: Supervisor(), hotplug: nil)
        daemon = Daemon(parts: parts, poller: poller, timer: timer, clock: clock, signals: nil, configPath: nil)
    }

    deinit { server.close() }

    /// One loop iteration over what is ready now.
    func iterate() throws { try daemon.iterate(timeout: 0) }

    /// Iterates until `done` holds, at most `limit` times (the sockets are real: the kernel may
    /// take a few passes to hand over what a client sent).
    func iterate(until done: () throws -> Bool, limit: Int = 100_000) throws -> Bool {
        for _ in 0..<limit {
            try iterate()
            if try done() { return true }
        }
        return false
    }
}
