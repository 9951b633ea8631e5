import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// sd_notify messages, `NOTIFY_SOCKET` addresses, the watchdog and `LISTEN_FDS` parsing: the
/// pure parts compared exactly, the sender against a real datagram socket.
@Suite struct SystemdNotifierTests {
    @Test func datagramsAreExactlyTheSdNotifyFields() {
        #expect(ServiceNotification.ready(status: "1 touchscreen, 2 clients").datagram
                == "READY=1\nSTATUS=1 touchscreen, 2 clients")
        #expect(ServiceNotification.reloading(monotonic: Instant(microseconds: 1_234_567)).datagram
                == "RELOADING=1\nMONOTONIC_USEC=1234567")
        #expect(ServiceNotification.status("a\nb").datagram == "STATUS=a b")
        #expect(ServiceNotification.watchdog.datagram == "WATCHDOG=1")
        #expect(ServiceNotification.stopping.datagram == "STOPPING=1")
    }

    @Test func notifySocketAddresses() {
        #expect(NotifyAddress("/run/systemd/notify") == .path("/run/systemd/notify"))
        #expect(NotifyAddress("@/org/freedesktop/systemd1/notify/123") == .abstract("/org/freedesktop/systemd1/notify/123"))
        #expect(NotifyAddress("") == nil)
        #expect(NotifyAddress("@") == nil)
        #expect(NotifyAddress("vsock:2:1234") == nil)
        #expect(NotifyAddress("relative/path") == nil)
    }

    @Test func watchdogIsOursOnlyWhenThePIDMatches() {
        #expect(ServiceWatchdog.interval(usec: "30000000", pid: nil, ownPID: 42) == Interval(microseconds: 30_000_000))
        #expect(ServiceWatchdog.interval(usec: "30000000", pid: "42", ownPID: 42) == Interval(microseconds: 30_000_000))
        #expect(ServiceWatchdog.interval(usec: "30000000", pid: "41", ownPID: 42) == nil)
        #expect(ServiceWatchdog.interval(usec: "0", pid: nil, ownPID: 42) == nil)
        #expect(ServiceWatchdog.interval(usec: "soon", pid: nil, ownPID: 42) == nil)
        #expect(ServiceWatchdog.interval(usec: nil, pid: "42", ownPID: 42) == nil)
        #expect(ServiceWatchdog.period(for: .milliseconds(200)) == .milliseconds(100))
    }

    @Test func listenFDsAreOursOnlyWhenThePIDMatches() throws {
        let one = try SocketActivation.parse(listenPID: "42", listenFDs: "1", fdNames: "gestured.socket", ownPID: 42)
        #expect(one == [.init(descriptor: FileDescriptor(rawValue: 3), name: "gestured.socket")])
        let two = try SocketActivation.parse(listenPID: "42", listenFDs: "2", fdNames: "a:b", ownPID: 42)
        #expect(two.map(\.descriptor.rawValue) == [3, 4])
        #expect(two.map(\.name) == ["a", "b"])
        // Names that do not match the count are dropped rather than misassigned.
        #expect(try SocketActivation.parse(listenPID: "42", listenFDs: "2", fdNames: "a", ownPID: 42).map(\.name) == [nil, nil])
        #expect(try SocketActivation.parse(listenPID: "41", listenFDs: "1", fdNames: nil, ownPID: 42).isEmpty)
        #expect(try SocketActivation.parse(listenPID: nil, listenFDs: "1", fdNames: nil, ownPID: 42).isEmpty)
        #expect(try SocketActivation.parse(listenPID: "42", listenFDs: nil, fdNames: nil, ownPID: 42).isEmpty)
        #expect(throws: SocketActivation.Failure.invalidCount("x")) {
            try SocketActivation.parse(listenPID: "42", listenFDs: "x", fdNames: nil, ownPID: 42)
        }
    }

    @Test(arguments: ["path", "abstract"])
    func senderReachesTheNotifySocket(kind: String) throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let address = kind == "path" ? directory.path + "/notify" : "@gestured-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let manager = try NotifySocket(address: address)
        let notifier = try #require(try SystemdNotifier(environmentValue: address))
        try notifier.send(.ready(status: "0 touchscreens, 0 clients"))
        try notifier.send(.watchdog)
        #expect(try manager.next(deadline: deadline(milliseconds: 5000)) == "READY=1\nSTATUS=0 touchscreens, 0 clients")
        #expect(try manager.next(deadline: deadline(milliseconds: 5000)) == "WATCHDOG=1")
    }

    @Test func passedSocketIsValidatedAndAdoptedWithoutOwningItsFile() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = directory.path + "/g.sock"
        let listener = try makeListeningSocket(path: path)
        #expect(try SocketActivation.validateListeningUnixStream(listener) == path)
        let server = try UnixSocketServer(adopting: listener, path: path)
        let client = try LineClient(path: path, deadline: deadline(milliseconds: 5000))
        let ids = try acceptClients(server, count: 1, by: deadline(milliseconds: 5000))
        #expect(ids.count == 1)
        #expect(server.enqueue(Array("through the adopted socket\n".utf8), to: ids[0]) == nil && server.flush(ids[0]) == nil)
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "through the adopted socket")
        server.close()
        #expect(fileExists(path), "close removed a socket file the server did not create")

        let datagram = try makeListeningSocket(path: directory.path + "/d.sock", type: Int32(SOCK_DGRAM.rawValue))
        defer { try? datagram.close() }
        #expect(throws: SocketActivation.Failure.self) { try SocketActivation.validateListeningUnixStream(datagram) }
        let unbound = try makeUnlistenedStream(directory.path + "/u.sock")
        defer { try? unbound.close() }
        #expect(throws: SocketActivation.Failure.notAStreamUnixSocket(descriptor: unbound.rawValue, detail: "not listening")) {
            try SocketActivation.validateListeningUnixStream(unbound)
        }
    }

    @Test func createdSocketGetsModeAndGroup() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let path = directory.path + "/g.sock"
        let server = try UnixSocketServer(path: path, permissions: 0o660, group: getegid())
        defer { server.close() }
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        #expect(status.st_gid == getegid())
    }
}

/// A stream socket bound at `path` that does not listen.
private func makeUnlistenedStream(_ path: String) throws -> FileDescriptor {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(fd >= 0)
    let bound = try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in bind(fd, address, length) }
    try #require(bound == 0)
    return FileDescriptor(rawValue: fd)
}
