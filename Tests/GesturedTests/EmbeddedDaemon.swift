@testable import gestured
import GesturedConfig
import GesturedCore
@testable import GesturedIO
import GesturedTestSupport

/// The daemon's loop and parts in the test's own process, built by the daemon's own wiring
/// (`Daemon.wire`, as `gestured run` builds them) around a virtual clock and timer, a poller
/// that never waits (`ScriptedPoller`), a real socket in a temporary directory and a device list
/// of the test's (`ListedDevices`) for `Hotplug`; no signals (`reload()` is what SIGHUP calls).
/// `iterate` runs one loop iteration over what is ready now; time moves only when the test moves
/// `clock`.
final class EmbeddedDaemon {
    let directory: TestEnvironment.TemporaryDirectory
    let clock = VirtualClock()
    let timer = VirtualTimer()
    let poller: ScriptedPoller
    let server: UnixSocketServer
    let devices: ListedDevices
    let daemon: Daemon

    var parts: Daemon.Parts { daemon.parts }
    var live: LivePipeline { parts.live }
    var clients: ClientHub { parts.clients }

    /// `settings` replace the configuration's socket settings; `configPath` is the file a
    /// `reload()` reads (nil: the embedded default).
    init(configuration: Configuration = Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "root")]),
         settings: SocketSettings? = nil, backlog: Int32 = 16, configPath: String? = nil,
         devices: ListedDevices? = nil) throws {
        var configuration = configuration
        if let settings { configuration.socket = settings }
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-embedded")
        poller = try ScriptedPoller(timer: timer, timerToken: LoopToken.timerToken, clock: clock)
        server = try UnixSocketServer(path: directory.path + "/g.sock", backlog: backlog,
                                      maxClients: configuration.socket.connectionPolicy.hardLimit)
        self.devices = try devices ?? ListedDevices()
        daemon = try Daemon.wire(configuration: configuration, configPath: configPath,
                                 in: Daemon.Surroundings(poller: poller, timer: timer, clock: clock, signals: nil, server: server,
                                                         devices: self.devices))
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
