import GesturedCore
import GesturedIO
import GesturedTestSupport
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

    /// The CA that signed the broker's certificate, with `tls`.
    public private(set) var caFile: String?
    /// The one user and password the broker accepts, when given (anonymous clients are refused).
    public let user: (name: String, password: String)?

    /// Nil (with an issue recorded) when mosquitto (or openssl, for `tls`) is not installed:
    /// `make deps` installs them.
    /// - Parameters:
    ///   - tls: a TLS listener, with a certificate for 127.0.0.1 signed by a CA of the test's own.
    ///   - user: the only user allowed (`password_file`); nil: anonymous clients.
    ///   - started: false: configured, its port chosen, and started later with `start()`.
    public init?(tls: Bool = false, user: (name: String, password: String)? = nil, started: Bool = true) throws {
        guard access(Self.executable, X_OK) == 0, access("/usr/bin/mosquitto_sub", X_OK) == 0,
              access("/usr/bin/mosquitto_passwd", X_OK) == 0, !tls || access("/usr/bin/openssl", X_OK) == 0 else {
            Issue.record("mosquitto, mosquitto-clients or openssl is missing: run `make deps`")
            return nil
        }
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-mosquitto")
        // Root's broker drops to the mosquitto user, which must read its files.
        chmod(directory.path, 0o755)
        port = try Self.freePort()
        self.user = user
        var config = "listener \(port) 127.0.0.1\npersistence false\n"
        if tls {
            try Self.makeCertificates(in: directory)
            caFile = directory.path + "/ca.pem"
            config += "cafile \(directory.path)/ca.pem\ncertfile \(directory.path)/server.pem\nkeyfile \(directory.path)/server.key\n"
        }
        if let user {
            let run = try Subprocess.run("/usr/bin/mosquitto_passwd", ["-c", "-b", directory.path + "/passwd", user.name, user.password],
                                         in: directory.path, deadline: deadline(milliseconds: 20_000))
            try #require(run.termination == .exited(0), "mosquitto_passwd: \(run.stderr)")
            chmod(directory.path + "/passwd", 0o644)
            config += "allow_anonymous false\npassword_file \(directory.path)/passwd\n"
        } else {
            config += "allow_anonymous true\n"
        }
        configPath = try directory.write("mosquitto.conf", config)
        if started { try start() }
    }

    /// A CA and a server certificate for 127.0.0.1 (as its IP subject alternative name, which
    /// libmosquitto checks), valid for a day.
    static func makeCertificates(in directory: TestEnvironment.TemporaryDirectory) throws {
        let d = directory.path
        try directory.write("san.ext", "subjectAltName=IP:127.0.0.1\n")
        for arguments in [["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem",
                           "-days", "1", "-subj", "/CN=gestured test CA"],
                          ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr",
                           "-subj", "/CN=127.0.0.1"],
                          ["x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key", "-CAcreateserial",
                           "-out", "\(d)/server.pem", "-days", "1", "-extfile", "\(d)/san.ext"]] {
            let run = try Subprocess.run("/usr/bin/openssl", arguments, in: d, deadline: deadline(milliseconds: 30_000))
            try #require(run.termination == .exited(0), "openssl \(arguments[0]): \(run.stderr)")
        }
        for file in ["ca.pem", "server.pem", "server.key"] { chmod("\(d)/\(file)", 0o644) }
    }

    /// What mosquitto_sub and mosquitto_pub need besides the topic: where, TLS, the user.
    public var clientArguments: [String] {
        ["-h", "127.0.0.1", "-p", "\(port)"] + (caFile.map { ["--cafile", $0] } ?? [])
            + (user.map { ["-u", $0.name, "-P", $0.password] } ?? [])
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
        let run = try Subprocess.run("/usr/bin/mosquitto_pub", clientArguments + ["-t", topic, "-m", payload]
                                     + (retain ? ["-r"] : []), in: directory.path, deadline: deadline(milliseconds: 10_000))
        #expect(run.termination == .exited(0), "mosquitto_pub \(topic): \(run.stderr)")
    }
}

public struct BrokerFailure: Error {}

/// Lines a child writes to a pipe, read with deadlines (no sleeping: poll on the pipe).
public final class PipeLines {
    /// The write end, for the child (`descriptors: [1: pipe.writer]`); close it once given.
    public private(set) var writer: Int32
    private let reader: Int32
    private var pending: [UInt8] = []
    /// Every line read so far.
    public private(set) var lines: [String] = []

    public init() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        // Close-on-exec on both ends (Glibc's module has no pipe2): the child gets the write end
        // through its own dup2, not by inheritance.
        for fd in fds { try #require(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0) }
        reader = fds[0]; writer = fds[1]
    }

    deinit { closeWriter(); close(reader) }

    /// After the child has its copy: the end of the stream is then the child's.
    public func closeWriter() { if writer >= 0 { close(writer); writer = -1 } }

    /// The first line from now on for which `matches` holds, or nil when `deadline` passes first
    /// (or the stream ends).
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

    /// A line read already that begins with `prefix`, or else the next one (10 s to come).
    public func seen(startingWith prefix: String) throws -> String? {
        if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
        return try line(startingWith: prefix)
    }

    /// `waitFor` on a line beginning with `prefix`, with 10 s to come.
    public func line(startingWith prefix: String) throws -> String? {
        try waitFor(deadline: deadline(milliseconds: 10_000)) { $0.hasPrefix(prefix) }
    }
}

/// `mosquitto_sub` on a topic filter, its lines (`TOPIC RETAIN PAYLOAD`, RETAIN 0 or 1) read
/// from a pipe with deadlines.
public final class MQTTSubscriber {
    private let process: Subprocess
    private let output: PipeLines

    /// Returns once the subscription is in place: a marker published on the broker came back.
    public init(broker: MosquittoBroker, filter: String) throws {
        output = try PipeLines()
        process = try Subprocess("/usr/bin/mosquitto_sub", broker.clientArguments + ["-t", filter,
                                                             "-t", "test/marker", "-F", "%t %r %p"],
                                 stderr: .inherit, descriptors: [1: output.writer])
        output.closeWriter()
        let marker = "ready-\(getpid())-\(process.pid)"
        let limit = deadline(milliseconds: 10_000)
        while MonotonicClock.now() < limit {
            try broker.publish("test/marker", marker)
            if try output.waitFor(deadline: MonotonicClock.now() + Interval(microseconds: 200_000), { $0 == "test/marker 0 " + marker }) != nil {
                return
            }
        }
        Issue.record("mosquitto_sub never saw its marker")
        throw BrokerFailure()
    }

    deinit { process.send(signal: SIGKILL); _ = try? process.wait(deadline: deadline(milliseconds: 5000)) }

    public var lines: [String] { output.lines }
    public func waitFor(deadline limit: Instant, _ matches: (String) -> Bool) throws -> String? { try output.waitFor(deadline: limit, matches) }
    public func seen(startingWith prefix: String) throws -> String? { try output.seen(startingWith: prefix) }
    public func line(startingWith prefix: String) throws -> String? { try output.line(startingWith: prefix) }
}
