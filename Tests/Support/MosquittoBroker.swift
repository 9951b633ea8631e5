import CLinux
import GesturedCore
import GesturedIO
import Glibc
import Testing

/// A mosquitto broker of the test's own (Debian's `mosquitto`, TESTING.md §6): loopback, a free
/// port, anonymous, no persistence, so that a restart loses every retained message and what comes
/// back is what a client republished.
public final class MosquittoBroker {
    public let port: Int
    private let directory: TestEnvironment.TemporaryDirectory
    private let configPath: String
    private var process: Subprocess?
    public static let executable = "/usr/sbin/mosquitto"

    /// Nil (with an issue recorded) when mosquitto is not installed: `make deps` installs it.
    public init?() throws {
        guard access(Self.executable, X_OK) == 0, access("/usr/bin/mosquitto_sub", X_OK) == 0 else {
            Issue.record("mosquitto or mosquitto_sub is missing: run `make deps` (mosquitto, mosquitto-clients)")
            return nil
        }
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-mosquitto")
        port = try Self.freePort()
        configPath = try directory.write("mosquitto.conf", "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        try start()
    }

    deinit { process?.send(signal: SIGKILL); _ = try? process?.wait(deadline: deadline(milliseconds: 5000)) }

    /// A port the kernel just gave out and took back: free unless someone takes it meanwhile.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        try #require(bound, "bind 127.0.0.1:0")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts the broker and returns once it accepts connections (probed with a TCP connect; each
    /// failed try waits 20 ms on the broker's exit, so a broker that dies is seen at once).
    public func start() throws {
        let process = try Subprocess(Self.executable, ["-c", configPath], stdout: .discard, stderr: .file(directory.path + "/log"))
        self.process = process
        let limit = deadline(milliseconds: 10_000)
        while MonotonicClock.now() < limit {
            if Self.accepts(port) { return }
            if let result = try process.wait(deadline: MonotonicClock.now() + Interval(microseconds: 20_000), killOnTimeout: false) {
                Issue.record("mosquitto exited (\(result.termination)): \((try? readTextFile(path: directory.path + "/log")) ?? "")")
                throw BrokerFailure()
            }
        }
        Issue.record("mosquitto not accepting on port \(port) after 10 s")
        throw BrokerFailure()
    }

    /// SIGKILL: the broker gone without a word, its retained messages with it.
    public func kill() throws {
        process?.send(signal: SIGKILL)
        _ = try process?.wait(deadline: deadline(milliseconds: 5000))
        process = nil
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Publishes one message with `mosquitto_pub`.
    public func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let run = try Subprocess.run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", payload]
                                     + (retain ? ["-r"] : []), in: directory.path, deadline: deadline(milliseconds: 10_000))
        #expect(run.termination == .exited(0), "mosquitto_pub \(topic): \(run.stderr)")
    }
}

public struct BrokerFailure: Error {}

/// `mosquitto_sub` on a topic filter, its lines (`TOPIC RETAIN PAYLOAD`, RETAIN 0 or 1) read
/// from a pipe with deadlines.
public final class MQTTSubscriber {
    private let process: Subprocess
    private let reader: Int32
    private var pending: [UInt8] = []
    /// Every line read so far.
    public private(set) var lines: [String] = []

    /// Returns once the subscription is in place: a marker published on the broker came back.
    public init(broker: MosquittoBroker, filter: String) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe2(&fds, O_CLOEXEC) == 0)
        reader = fds[0]
        process = try Subprocess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", filter,
                                                             "-t", "test/marker", "-F", "%t %r %p"],
                                 stderr: .inherit, descriptors: [1: fds[1]])
        close(fds[1])
        let marker = "ready-\(getpid())-\(reader)"
        let limit = deadline(milliseconds: 10_000)
        while MonotonicClock.now() < limit {
            try broker.publish("test/marker", marker)
            if try waitFor(deadline: MonotonicClock.now() + Interval(microseconds: 200_000), { $0 == "test/marker 0 " + marker }) != nil {
                return
            }
        }
        Issue.record("mosquitto_sub never saw its marker")
        throw BrokerFailure()
    }

    deinit { process.send(signal: SIGKILL); _ = try? process.wait(deadline: deadline(milliseconds: 5000)); close(reader) }

    /// The first line from now on for which `matches` holds, or nil when `deadline` passes first
    /// (or mosquitto_sub ends).
    public func waitFor(deadline limit: Instant, _ matches: (String) -> Bool) throws -> String? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.append(line)
                if matches(line) { return line }
            }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else { return nil }
            var fd = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, Int32(left)) > 0 else { continue }
            let n = read(reader, &buffer, buffer.count)
            guard n > 0 else { return nil }
            pending.append(contentsOf: buffer[..<n])
        }
    }

    /// A line beginning with `prefix` read already, or else the next one (10 s to come): for
    /// messages whose order with others is not fixed.
    public func seen(startingWith prefix: String) throws -> String? {
        if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
        return try line(startingWith: prefix)
    }

    /// `waitFor` on a line beginning with `prefix`, with 10 s to come.
    public func line(startingWith prefix: String) throws -> String? {
        try waitFor(deadline: deadline(milliseconds: 10_000)) { $0.hasPrefix(prefix) }
    }
}
