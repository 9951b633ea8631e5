import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedMQTT
import Glibc

/// `gestured mqtt [--config FILE] [--socket PATH]`: the bridge between the daemon's socket and an
/// MQTT broker (docs/MQTT.md). One poll loop serves the broker's socket (libmosquitto, no
/// thread), the daemon's socket and a signalfd; `MQTTBridge` decides, this loop carries out.
enum MQTTCommand {
    static func run(config path: String?, socket option: String?) throws(CommandFailure) {
        var configuration = try loadConfiguration(path, logWarnings: true)
        guard let settings = configuration.mqtt else {
            throw CommandFailure(ExitStatus.config, "\(path ?? "<default configuration>"): no mqtt key: nothing says which broker to use"
                                 + " (docs/MQTT.md)")
        }
        let password = try settings.passwordFile.map { file throws(CommandFailure) in try readPassword(file) }
        let node = settings.node ?? hostName()
        var bridge = MQTTBridge(settings: settings, node: node, gestures: DiscoveredGesture.all(in: configuration),
                                version: Version.string)
        let session: MosquittoSession
        do {
            session = try MosquittoSession(settings: settings, clientID: "gestured-" + bridge.topics.node, will: bridge.will,
                                           password: password)
        } catch { throw CommandFailure(ExitStatus.failure, "mqtt: \(error.message)") }
        let signals: SignalChannel
        do { signals = try SignalChannel() } catch { throw CommandFailure(ExitStatus.failure, "signalfd: \(error)") }

        var daemon = DaemonConnection(option: option)
        var brokerRetry = Backoff(), daemonRetry = Backoff()
        var brokerDeadline: Instant? = MonotonicClock.now(), daemonDeadline: Instant? = MonotonicClock.now()
        var firstConnect = true
        let broker = "\(settings.transport.rawValue)://\(settings.host):\(settings.port)"
        Log.info("mqtt: node \(bridge.topics.node), broker \(broker), daemon \(daemon.path)")

        func perform(_ actions: [BridgeAction]) {
            for action in actions {
                switch action {
                case .publish(let publication): session.publish(publication)
                case .subscribe(let filter): session.subscribe(filter)
                case .send(let line): daemon.send(line)
                case .log(.error, let message): Log.error("mqtt: " + message)
                case .log(.warning, let message): Log.limited(.warning, key: "mqtt", "mqtt: " + message)
                case .log(.info, let message): Log.info("mqtt: " + message)
                }
            }
        }
        func brokerEvents(now: Instant) {
            while !session.events.isEmpty {
                let event = session.events.removeFirst()
                switch event {
                case .connected:
                    Log.info("mqtt: connected to \(broker)")
                    brokerRetry.reset()
                    perform(bridge.brokerConnected(now: now))
                case .refused(let reason):
                    brokerDeadline = brokerRetry.deadline(after: now, "mqtt: \(broker) refused the connection: \(reason)")
                case .disconnected(let reason):
                    brokerDeadline = brokerRetry.deadline(after: now, "mqtt: lost \(broker): \(reason)")
                    perform(bridge.brokerDisconnected(now: now))
                case .message(let topic, let payload):
                    perform(bridge.message(topic: topic, payload: payload, now: now))
                }
            }
        }

        while true {
            var now = MonotonicClock.now()
            if let due = brokerDeadline, due <= now {
                brokerDeadline = nil
                if let failure = session.connect(first: firstConnect) {
                    brokerDeadline = brokerRetry.deadline(after: now, "mqtt: cannot connect to \(broker): \(failure)")
                } else {
                    firstConnect = false
                }
            }
            if let due = daemonDeadline, due <= now {
                daemonDeadline = nil
                if let failure = daemon.connect() {
                    daemonDeadline = daemonRetry.deadline(after: now, "mqtt: cannot reach the daemon: \(failure)")
                } else {
                    Log.info("mqtt: connected to the daemon at \(daemon.path)")
                    daemonRetry.reset()
                    perform(bridge.daemonConnected(now: now))
                }
            }
            let mosquittoFD = session.socket
            var fds = [pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: daemon.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: mosquittoFD, events: Int16(POLLIN) | (session.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)]
            // libmosquitto's keepalive wants loop_misc about once a second.
            var timeout: Int64 = 1000
            for deadline in [brokerDeadline, daemonDeadline].compactMap({ $0 }) {
                timeout = min(timeout, max(0, (deadline - now).microseconds / 1000 + 1))
            }
            do { try GesturedIO.syscall("poll", onInterrupt: .retry) { poll(&fds, nfds_t(fds.count), Int32(timeout)) } } catch {
                throw CommandFailure(ExitStatus.failure, "poll: \(error.errno)")
            }
            now = MonotonicClock.now()
            if fds[0].revents != 0 {
                let received = (try? signals.read()) ?? []
                if received.contains(SIGTERM) || received.contains(SIGINT) {
                    perform(bridge.stop())
                    session.disconnect()
                    Log.info("mqtt: stopped")
                    return
                }
                if received.contains(SIGHUP) {
                    do {
                        let reloaded = try loadConfiguration(path, logWarnings: true)
                        if reloaded.mqtt != configuration.mqtt { Log.warning("mqtt: the mqtt key changed; restart the bridge to apply it") }
                        configuration = reloaded
                        perform(bridge.reload(gestures: DiscoveredGesture.all(in: configuration), now: now))
                        Log.info("mqtt: configuration reloaded")
                    } catch {
                        for line in error.lines { Log.error(line) }
                        Log.warning("mqtt: reload failed; keeping the configuration in use")
                    }
                }
            }
            if mosquittoFD >= 0 {
                let lost = session.service(readable: fds[2].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
                                           writable: fds[2].revents & Int16(POLLOUT) != 0)
                if lost != nil, brokerDeadline == nil, session.events.isEmpty {
                    brokerDeadline = brokerRetry.deadline(after: now, "mqtt: cannot connect to \(broker): \(lost!)")
                }
            }
            brokerEvents(now: now)
            // No socket, nothing scheduled: a failure libmosquitto reported nowhere; try again.
            if session.socket < 0, brokerDeadline == nil {
                brokerDeadline = brokerRetry.deadline(after: now, "mqtt: no connection to \(broker)")
            }
            if daemon.fd >= 0, fds[1].revents != 0 {
                let wall = Int64(time(nil))
                switch daemon.read() {
                case .lines(let lines):
                    for line in lines { perform(bridge.daemonLine(line[...], now: now, wallSeconds: wall)) }
                case .closed(let reason):
                    daemonDeadline = daemonRetry.deadline(after: now, "mqtt: the daemon went away (\(reason))")
                    perform(bridge.daemonDisconnected(now: now))
                }
            }
            // What the daemon's lines published goes out now rather than after the next poll.
            if session.wantsWrite, session.socket >= 0 { _ = session.service(readable: false, writable: true); brokerEvents(now: now) }
        }
    }

    /// The first line of `passwordFile`, read as the configuration is (StrictModes) and refused
    /// when others may read it.
    static func readPassword(_ file: String) throws(CommandFailure) -> String {
        let bytes: [UInt8]
        switch ConfigFileLoader.read(file) {
        case .success(let read): bytes = read
        case .failure(let error): throw CommandFailure(ExitStatus.config, lines: error.diagnostics.map { "mqtt.passwordFile: \($0)" })
        }
        var status = stat()
        if ConfigFileLoader.strictModes != nil, stat(file, &status) == 0, status.st_mode & 0o004 != 0 {
            throw CommandFailure(ExitStatus.config, "mqtt.passwordFile: \(file): refused: readable by others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod o-r \(file)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gestured" }
        return String(cString: buffer)
    }
}

/// Reconnection delays: 1 s, doubling to at most 30 s, back to 1 s after a success.
struct Backoff {
    private(set) var current = 1
    static let maximum = 30

    /// The delay to wait now; the one after it doubles.
    mutating func next() -> Interval {
        let delay = current
        current = min(current * 2, Self.maximum)
        return Interval(microseconds: Int64(delay) * 1_000_000)
    }

    mutating func reset() { current = 1 }

    /// When to try again, said once per attempt: `MESSAGE; retrying in N s`.
    mutating func deadline(after now: Instant, _ message: String) -> Instant {
        let delay = next()
        Log.warning(message + "; retrying in \(delay.microseconds / 1_000_000) s")
        return now + delay
    }
}
