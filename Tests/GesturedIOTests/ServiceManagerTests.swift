import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The daemon under a service manager, without systemd: the test plays systemd's part. It
/// binds the notify datagram socket and the listening socket, starts `gestured run` with the
/// listener at fd 3 and `NOTIFY_SOCKET`, `LISTEN_FDS=1`, `LISTEN_PID` (set to the daemon's own
/// pid by `sh -c 'LISTEN_PID=$$ exec …'`) and `WATCHDOG_USEC`, and reads what it is told.
@Suite struct ServiceManagerTests {
    var gestured: String { TestEnvironment.buildDirectory + "/gestured" }

    @Test func notifiesReadyWatchdogReloadAndStopAndServesThePassedSocket() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-sd")
        let manager = try NotifySocket(address: directory.path + "/notify")
        let path = directory.path + "/activated.sock"
        let listener = try makeListeningSocket(path: path)
        defer { try? listener.close() }
        // --socket names another path: a daemon that ignored fd 3 would create that file.
        let ownPath = directory.path + "/own.sock"
        let stderrPath = directory.path + "/stderr"
        let process = try Subprocess(
            "sh", ["-c", "LISTEN_PID=$$ exec \"$@\"", "sh", gestured, "run", "--socket", ownPath],
            environment: ["NOTIFY_SOCKET": manager.address, "LISTEN_FDS": "1", "LISTEN_FDNAMES": "gestured.socket",
                          "WATCHDOG_USEC": "200000"],
            stdout: .discard, stderr: .file(stderrPath), descriptors: [3: listener.rawValue])
        func daemonLog() -> String { (try? readTextFile(path: stderrPath)) ?? "" }

        let ready = try manager.wait(deadline: deadline(milliseconds: 10_000)) { $0.hasPrefix("READY=1") }
        try #require(ready != nil, "no READY=1; received \(manager.received); stderr:\n\(daemonLog())")
        #expect(ready == "READY=1\nSTATUS=0 touchscreens, 0 clients" || ready?.hasPrefix("READY=1\nSTATUS=") == true)

        // Two watchdog pings at 100 ms: each is the event loop waking on its own timer.
        for _ in 0..<2 {
            #expect(try manager.wait(deadline: deadline(milliseconds: 5000)) { $0 == "WATCHDOG=1" } != nil,
                    "no WATCHDOG=1; received \(manager.received)")
        }

        let client = try LineClient(path: path, deadline: deadline(milliseconds: 5000))
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try manager.wait(deadline: deadline(milliseconds: 5000)) { $0.hasPrefix("STATUS=") && $0.hasSuffix(", 1 client") } != nil,
                "no status with the client; received \(manager.received)")
        var status = stat()
        #expect(lstat(ownPath, &status) == -1, "the daemon created its own socket although one was passed")

        process.send(signal: SIGHUP)
        let reloading = try manager.wait(deadline: deadline(milliseconds: 5000)) { $0.hasPrefix("RELOADING=1") }
        #expect(reloading?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true, "received \(manager.received)")
        #expect(try manager.wait(deadline: deadline(milliseconds: 5000)) { $0.hasPrefix("READY=1") } != nil,
                "no READY=1 after the reload; received \(manager.received)")

        process.send(signal: SIGTERM)
        #expect(try manager.wait(deadline: deadline(milliseconds: 5000)) { $0 == "STOPPING=1" } != nil,
                "no STOPPING=1; received \(manager.received)")
        let (termination, timedOut) = try #require(try process.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut)
        #expect(termination == .exited(0), "stderr:\n\(daemonLog())")
        #expect(lstat(path, &status) == 0, "the daemon removed the socket file the service manager owns")
        #expect(daemonLog().contains("using the socket passed by the service manager (\(path))"), "\(daemonLog())")
    }

    /// Without `WATCHDOG_USEC` nothing but readiness is sent: no timer exists to wake the loop.
    @Test func noWatchdogPingsWhenNoneIsAskedFor() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-sd")
        let manager = try NotifySocket(address: "@gestured-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let path = directory.path + "/g.sock"
        let process = try Subprocess(gestured, ["run", "--socket", path],
                                     environment: ["NOTIFY_SOCKET": manager.address],
                                     stdout: .discard, stderr: .file(directory.path + "/stderr"))
        #expect(try manager.wait(deadline: deadline(milliseconds: 10_000)) { $0.hasPrefix("READY=1") } != nil)
        // A client round trip orders the check after anything the loop did on start-up.
        let client = try LineClient(path: path, deadline: deadline(milliseconds: 5000))
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) != nil)
        process.send(signal: SIGTERM)
        _ = try process.wait(deadline: deadline(milliseconds: 10_000))
        while try manager.next(deadline: MonotonicClock.now()) != nil {}
        #expect(!manager.received.contains("WATCHDOG=1"), "\(manager.received)")
        #expect(manager.received.last == "STOPPING=1", "\(manager.received)")
        // The daemon made this socket itself, owner and group only, and removed it on exit.
        #expect(!fileExists(path))
    }

    /// LISTEN_PID naming another process: the variables are not ours, the daemon binds its own
    /// socket (mode 0660).
    @Test func listenFDsForAnotherProcessAreIgnored() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-sd")
        let path = directory.path + "/g.sock"
        let process = try Subprocess(gestured, ["run", "--socket", path],
                                     environment: ["LISTEN_FDS": "1", "LISTEN_PID": "1"],
                                     stdout: .discard, stderr: .file(directory.path + "/stderr"))
        let client = try LineClient(path: path, deadline: deadline(milliseconds: 10_000))
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & 0o777 == 0o660)
        process.send(signal: SIGTERM)
        #expect(try process.wait(deadline: deadline(milliseconds: 10_000))?.termination == .exited(0))
    }

    @Test func aPassedDatagramSocketIsRefused() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-sd")
        let datagram = try makeListeningSocket(path: directory.path + "/d.sock", type: Int32(SOCK_DGRAM.rawValue))
        defer { try? datagram.close() }
        let process = try Subprocess(
            "sh", ["-c", "LISTEN_PID=$$ exec \"$@\"", "sh", gestured, "run", "--socket", directory.path + "/g.sock"],
            environment: ["LISTEN_FDS": "1"], stdout: .discard, stderr: .file(directory.path + "/stderr"),
            descriptors: [3: datagram.rawValue])
        let (termination, _) = try #require(try process.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(termination == .exited(1))
        let log = try readTextFile(path: directory.path + "/stderr")
        #expect(log.contains("is not a listening Unix stream socket: socket type 2, not SOCK_STREAM"), "\(log)")
    }

    /// A second daemon on a live socket path refuses to start, says why, and leaves the first
    /// one serving.
    @Test func aSecondDaemonOnTheSameSocketRefusesToStart() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-sd")
        let path = directory.path + "/g.sock"
        let first = try Subprocess(gestured, ["run", "--socket", path], stdout: .discard,
                                   stderr: .file(directory.path + "/first"))
        let client = try LineClient(path: path, deadline: deadline(milliseconds: 10_000))
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")

        let second = try Subprocess.run(gestured, ["run", "--socket", path], in: directory.path,
                                        deadline: deadline(milliseconds: 10_000))
        #expect(second.termination == .exited(1))
        #expect(second.stderr.contains("<3>\(path): another daemon is already listening on this socket"), "\(second.stderr)")

        let again = try LineClient(path: path, deadline: deadline(milliseconds: 5000))
        #expect(try again.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        first.send(signal: SIGTERM)
        #expect(try first.wait(deadline: deadline(milliseconds: 10_000))?.termination == .exited(0))
    }
}
