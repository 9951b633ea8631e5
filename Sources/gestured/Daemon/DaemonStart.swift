import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// Starting `gestured run`: the real resources (signals, epoll, the timer, the socket, udev), the
/// parts around them as DaemonWiring.swift joins them, then the loop (Daemon.swift).
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
        // Signals first: a SIGTERM during start-up must not kill us before the socket file can
        // be removed.
        let signals: SignalChannel, poller: Poller, timer: DeadlineTimer
        do {
            signals = try SignalChannel()
            poller = try Poller()
            timer = try DeadlineTimer()
        } catch { throw .system(error) }
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
        let surroundings = Surroundings(poller: poller, timer: timer, clock: MonotonicClock.system, signals: signals, server: server,
                                        devices: UdevDeviceSource())
        let daemon = try wire(configuration: configuration, configPath: configPath, in: surroundings, trace: trace)
        return (daemon, daemon.parts)
    }
}
