import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured mqtt` between the daemon on the emulated touchscreen (umockdev) and a real mosquitto
/// broker, watched with mosquitto_sub: states retained, a tap as one message with its
/// `event_type`, discovery, commands answered and refused, the broker killed and restarted (it
/// keeps nothing) and the bridge killed (its will).
@Suite(.serialized) struct MQTTEndToEndTests {
    static let gestured = TestEnvironment.buildDirectory + "/gestured"

    static func config(port: Int) -> String {
        """
        { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [{id: "tap", type: "tap"}]}],
          mqtt: { broker: "mqtt://127.0.0.1:\(port)", node: "panel 1", commands: ["screen", "lock"] } }
        """
    }

    /// The retained message on `topic` as a new subscriber gets it: `TOPIC 1 PAYLOAD`.
    static func retained(_ broker: MosquittoBroker, _ topic: String, in directory: String) throws -> String {
        let run = try Subprocess.run("/usr/bin/mosquitto_sub", broker.clientArguments + ["-t", topic, "-C", "1", "-W", "10", "-F", "%t %r %p"],
                                     in: directory, deadline: deadline(milliseconds: 15_000))
        return run.stdout.hasSuffix("\n") ? String(run.stdout.dropLast()) : run.stdout
    }

    @Test func theBridgeCarriesGesturesStatesCommandsAndSurvivesTheBroker() throws {
        guard let broker = try MosquittoBroker() else { return }
        guard let daemon = try RunningDaemon(config: Self.config(port: broker.port)) else { return }
        let configPath = try daemon.directory.write("bridge.json5", Self.config(port: broker.port))
        var watcher: MQTTSubscriber? = try MQTTSubscriber(broker: broker, filter: "#")
        let bridgeLog = daemon.directory.path + "/bridge.log"
        let bridge = try Subprocess(Self.gestured, ["mqtt", "--config", configPath, "--socket", daemon.socket],
                                    stdout: .discard, stderr: .file(bridgeLog))
        func log() -> String { (try? readTextFile(path: bridgeLog)) ?? "" }

        // Online once the daemon answered, and retained.
        #expect(try watcher?.line(startingWith: "gestured/panel_1/status 0 online") != nil, "\(log())")
        #expect(try Self.retained(broker, "gestured/panel_1/status", in: daemon.directory.path) == "gestured/panel_1/status 1 online")
        #expect(try Self.retained(broker, "gestured/panel_1/lock", in: daemon.directory.path) == "gestured/panel_1/lock 1 unlocked")
        let discovery = try #require(try watcher?.seen(startingWith: "homeassistant/event/panel_1/tap/config 0 "))
        #expect(discovery.contains(#""state_topic":"gestured/panel_1/gesture/tap","event_types":["ended"]"#), "\(discovery)")
        #expect(discovery.contains(#""availability_topic":"gestured/panel_1/status""#), "\(discovery)")

        // A tap: one message, the line's fields and event_type.
        try daemon.play()
        let tap = try #require(try watcher?.line(startingWith: "gestured/panel_1/gesture/tap 0 "), "\(log())")
        #expect(tap.contains(#"{"event":"gesture","type":"tap","state":"ended","name":"tap","view":"root","device":"event7""#), "\(tap)")
        #expect(tap.hasSuffix(#","event_type":"ended"}"#), "\(tap)")

        // A command the configuration lists reaches the daemon; one it does not list, and one the
        // daemon refuses, are answered on the error topic.
        try broker.publish("gestured/panel_1/set/screen", "off")
        #expect(try watcher?.line(startingWith: "gestured/panel_1/screen 0 off") != nil, "\(log())\n\(daemon.log)")
        try broker.publish("gestured/panel_1/set/hide", "root")
        let notListed = try #require(try watcher?.line(startingWith: "gestured/panel_1/error 0 "))
        #expect(notListed.hasSuffix(#""message":"command 'hide' is not enabled (mqtt.commands)"}"#), "\(notListed)")
        try broker.publish("gestured/panel_1/set/lock", "1e9")
        let refused = try #require(try watcher?.line(startingWith: "gestured/panel_1/error 0 "))
        #expect(refused.contains("the daemon refused 'lock 1e9': lock takes a whole number of seconds"), "\(refused)")
        try broker.publish("gestured/panel_1/set/lock", "on")
        #expect(try watcher?.line(startingWith: "gestured/panel_1/lock 0 locked") != nil, "\(log())")

        // The broker killed and started again, with nothing retained: the bridge reconnects and
        // republishes the states (as they are now) and discovery.
        watcher = nil
        try broker.kill()
        try broker.start()
        let after = try MQTTSubscriber(broker: broker, filter: "#")
        #expect(try after.line(startingWith: "homeassistant/event/panel_1/tap/config ") != nil, "\(log())")
        #expect(try Self.retained(broker, "gestured/panel_1/status", in: daemon.directory.path) == "gestured/panel_1/status 1 online")
        #expect(try Self.retained(broker, "gestured/panel_1/screen", in: daemon.directory.path) == "gestured/panel_1/screen 1 off")
        #expect(try Self.retained(broker, "gestured/panel_1/lock", in: daemon.directory.path) == "gestured/panel_1/lock 1 locked")

        // The bridge killed: the broker says offline for it (its will), retained.
        bridge.send(signal: SIGKILL)
        _ = try bridge.wait(deadline: deadline(milliseconds: 5000))
        #expect(try after.line(startingWith: "gestured/panel_1/status 0 offline") != nil, "\(log())")
        #expect(try Self.retained(broker, "gestured/panel_1/status", in: daemon.directory.path) == "gestured/panel_1/status 1 offline")
        #expect(log().contains("<4>mqtt: lost mqtt://127.0.0.1:\(broker.port): "), "\(log())")
        try daemon.stop(readingRestOf: [])
    }

    /// SIGTERM: `offline` published by the bridge itself, and exit status 0.
    @Test func aCleanStopSaysOffline() throws {
        guard let broker = try MosquittoBroker() else { return }
        guard let daemon = try RunningDaemon(config: Self.config(port: broker.port)) else { return }
        let configPath = try daemon.directory.write("bridge.json5", Self.config(port: broker.port))
        let watcher = try MQTTSubscriber(broker: broker, filter: "gestured/#")
        let bridge = try Subprocess(Self.gestured, ["mqtt", "--config", configPath, "--socket", daemon.socket],
                                    stdout: .discard, stderr: .file(daemon.directory.path + "/bridge.log"))
        #expect(try watcher.line(startingWith: "gestured/panel_1/status 0 online") != nil)
        bridge.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try bridge.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0))
        #expect(try watcher.line(startingWith: "gestured/panel_1/status 0 offline") != nil)
        try daemon.stop(readingRestOf: [])
    }

    /// `mqtts://` with the test's CA, MQTT 5, a user and its password from a file: online, a tap;
    /// and a wrong password refused by the broker, said in the log, retried.
    @Test func tlsAndAPasswordOverMQTT5() throws {
        guard let broker = try MosquittoBroker(tls: true, user: ("kiosk", "s3cret")) else { return }
        let caFile = try #require(broker.caFile)
        guard let daemon = try RunningDaemon(config: Self.config(port: broker.port)) else { return }
        let password = try daemon.directory.write("password", "s3cret\n")
        let wrong = try daemon.directory.write("wrong", "guess\n")
        chmod(password, 0o600); chmod(wrong, 0o600)
        func config(_ passwordFile: String) -> String {
            """
            { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [{id: "tap", type: "tap"}]}],
              mqtt: { broker: "mqtts://127.0.0.1:\(broker.port)", node: "tls", username: "kiosk", passwordFile: "\(passwordFile)",
                      caFile: "\(caFile)", protocol: "5" } }
            """
        }
        let watcher = try MQTTSubscriber(broker: broker, filter: "gestured/#")

        // A wrong password: the broker's refusal, in the log (a pipe, read as it comes), and a retry.
        let refusedLog = try PipeLines()
        let refused = try Subprocess(Self.gestured, ["mqtt", "--config", try daemon.directory.write("wrong.json5", config(wrong)),
                                                     "--socket", daemon.socket], stdout: .discard, descriptors: [2: refusedLog.writer])
        refusedLog.closeWriter()
        let refusal = try refusedLog.line(startingWith: "<4>mqtt: mqtts://127.0.0.1:\(broker.port) refused the connection: ")
        #expect(refusal?.hasSuffix("refused the connection: Not authorized; retrying in 1 s") == true, "\(refusedLog.lines)")
        refused.send(signal: SIGTERM)
        #expect(try refused.wait(deadline: deadline(milliseconds: 10_000))?.termination == .exited(0))

        let bridgeLog = daemon.directory.path + "/bridge.log"
        let bridge = try Subprocess(Self.gestured, ["mqtt", "--config", try daemon.directory.write("bridge.json5", config(password)),
                                                    "--socket", daemon.socket], stdout: .discard, stderr: .file(bridgeLog))
        #expect(try watcher.line(startingWith: "gestured/tls/status 0 online") != nil, "\((try? readTextFile(path: bridgeLog)) ?? "")")
        try daemon.play()
        let tap = try #require(try watcher.line(startingWith: "gestured/tls/gesture/tap 0 "))
        #expect(tap.hasSuffix(#","event_type":"ended"}"#), "\(tap)")
        bridge.send(signal: SIGTERM)
        #expect(try bridge.wait(deadline: deadline(milliseconds: 10_000))?.termination == .exited(0))
        try daemon.stop(readingRestOf: [])
    }

    /// The daemon stopped and started again (here without a touchscreen: it serves its socket
    /// all the same): offline meanwhile, online again once the bridge is back on the socket.
    @Test func theDaemonRestartedTheBridgeComesBack() throws {
        guard let broker = try MosquittoBroker() else { return }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-mqtt-restart")
        let socket = directory.path + "/g.sock"
        let configPath = try directory.write("c.json5", Self.config(port: broker.port))
        func daemon() throws -> Subprocess {
            try Subprocess(Self.gestured, ["run", "--config", configPath, "--socket", socket], stdout: .discard, stderr: .discard)
        }
        var first: Subprocess? = try daemon()
        _ = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))   // listening
        let watcher = try MQTTSubscriber(broker: broker, filter: "gestured/#")
        let bridge = try Subprocess(Self.gestured, ["mqtt", "--config", configPath, "--socket", socket],
                                    stdout: .discard, stderr: .file(directory.path + "/bridge.log"))
        #expect(try watcher.line(startingWith: "gestured/panel_1/status 0 online") != nil)
        first?.send(signal: SIGTERM)
        #expect(try first?.wait(deadline: deadline(milliseconds: 10_000))?.termination == .exited(0))
        first = nil
        #expect(try watcher.line(startingWith: "gestured/panel_1/status 0 offline") != nil)
        let second = try daemon()
        #expect(try watcher.line(startingWith: "gestured/panel_1/status 0 online") != nil,
                "\((try? readTextFile(path: directory.path + "/bridge.log")) ?? "")")
        bridge.send(signal: SIGTERM)
        _ = try bridge.wait(deadline: deadline(milliseconds: 10_000))
        second.send(signal: SIGTERM)
        _ = try second.wait(deadline: deadline(milliseconds: 10_000))
    }

    /// A broker that does not exist yet: the bridge starts, says so once a backoff, and is
    /// online as soon as the broker appears.
    @Test func aBrokerThatAppearsLaterIsServedAtOnce() throws {
        guard let broker = try MosquittoBroker(started: false) else { return }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-mqtt-late")
        let socket = directory.path + "/g.sock"
        let configPath = try directory.write("c.json5", Self.config(port: broker.port))
        let daemon = try Subprocess(Self.gestured, ["run", "--config", configPath, "--socket", socket], stdout: .discard, stderr: .discard)
        _ = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))
        let log = try PipeLines()
        let bridge = try Subprocess(Self.gestured, ["mqtt", "--config", configPath, "--socket", socket],
                                    stdout: .discard, descriptors: [2: log.writer])
        log.closeWriter()
        let first = "<4>mqtt: cannot connect to mqtt://127.0.0.1:\(broker.port): Connection refused; retrying in "
        #expect(try log.line(startingWith: first + "1 s") != nil, "\(log.lines)")
        #expect(try log.line(startingWith: first + "2 s") != nil, "\(log.lines)")
        try broker.start()
        #expect(try log.line(startingWith: "<6>mqtt: connected to mqtt://127.0.0.1:\(broker.port)") != nil, "\(log.lines)")
        #expect(try Self.retained(broker, "gestured/panel_1/status", in: directory.path) == "gestured/panel_1/status 1 online")
        // One line per attempt: none said twice.
        #expect(Set(log.lines).count == log.lines.count, "\(log.lines)")
        bridge.send(signal: SIGTERM)
        _ = try bridge.wait(deadline: deadline(milliseconds: 10_000))
        daemon.send(signal: SIGTERM)
        _ = try daemon.wait(deadline: deadline(milliseconds: 10_000))
    }
}
