import CLinux
import CUmockdev
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

/// `gestured-testtool testbed --control PATH --desc DESC [--add NODE]… -- PROGRAM ARGS…`, run
/// under `umockdev-wrapper`: a hotplug and playback host for tests.
///
/// umockdev-run cannot add or remove devices while its program runs, and it starts replaying a
/// recording as soon as it starts; libumockdev's testbed can do both when asked, but only from a
/// process under the preload library. This process creates the testbed (which sets
/// `UMOCKDEV_DIR`), emulates DESC at /dev/input/NODE for each `--add NODE` (idle: no events
/// until `play`), starts PROGRAM (the daemon) with that environment, and then obeys line
/// commands on a Unix socket at PATH (one connection, the test's), answering each with one line:
///
///     add NODE [EVENTS]   emulate the device DESC at /dev/input/NODE (its ioctls, and EVENTS
///                         replayed at once), then send udev's `add` uevent → `ok SYSPATH`
///     play NODE EVENTS    replay EVENTS on the existing NODE, starting now → `ok`. The events
///                         go to the node's pty, which the program has open: a test that plays
///                         once its client is connected misses nothing and races no clock. The
///                         empty frames before the first touch (the idle start that umockdev-run
///                         needs for `make demo`) are skipped. One play per node.
///     remove NODE         `remove` uevent, then remove it from the testbed → `ok`. umockdev 0.17
///                         keeps the removed node's emulation socket and aborts when a node of the
///                         same name is added again: give every add a new NODE.
///     pid                 PROGRAM's process id → `ok PID`
///     quit                SIGTERM to PROGRAM, wait → `ok exit STATUS`, and exit
///
/// The ioctl and event emulation runs on libumockdev's own threads in this process, so this
/// process must live as long as the devices are used.
func testbed(_ arguments: [String]) {
    guard let separator = arguments.firstIndex(of: "--"), separator + 1 < arguments.count,
          let controlPath = option("--control", in: Array(arguments[..<separator])),
          let descPath = option("--desc", in: Array(arguments[..<separator])) else {
        fail("usage: testbed --control PATH --desc DESC -- PROGRAM ARGS...", status: 2)
    }
    let description: EvemuDescription
    do {
        guard let d = try EvemuRecording.parse(try readTextFile(path: descPath), sysname: "").description else {
            fail("\(descPath): no device description")
        }
        description = d
    } catch { fail("\(descPath): \(error)") }
    guard let bed = umockdev_testbed_new() else { fail("umockdev_testbed_new failed") }
    let directory: TestEnvironment.TemporaryDirectory
    do { directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-testbed") } catch { fail("\(error)") }
    let options = Array(arguments[..<separator])
    for (index, word) in options.enumerated() where word == "--add" && index + 1 < options.count {
        let answer = add(bed, description, node: options[index + 1], events: nil, directory: directory)
        guard answer.hasPrefix("ok ") else { fail("--add \(options[index + 1]): \(answer)") }
    }
    let program = Array(arguments[(separator + 1)...])
    // The testbed sets UMOCKDEV_DIR with g_setenv; Subprocess passes the environment the process
    // started with (/proc/self/environ), so the root is handed over explicitly.
    guard let rootPointer = umockdev_testbed_get_root_dir(bed) else { fail("umockdev_testbed_get_root_dir failed") }
    let root = String(cString: rootPointer)
    g_free(rootPointer)
    let child: Subprocess
    do { child = try Subprocess(program[0], Array(program.dropFirst()), environment: ["UMOCKDEV_DIR": root]) } catch {
        fail("\(error)")
    }
    let server = listenUnix(controlPath)
    let connection = accept(server, nil, nil)
    guard connection >= 0 else { fail("accept: \(Errno.current)") }
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    func reply(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(connection, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
    var played: Set<String> = []
    while true {
        guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else {
            let n = read(connection, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }   // the test went away: stop the program as for quit
            pending += buffer[0..<n]
            continue
        }
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "add" where words.count >= 2:
            if words.count > 2 { played.insert(words[1]) }
            reply(add(bed, description, node: words[1], events: words.count > 2 ? words[2] : nil, directory: directory))
        case "play" where words.count == 3:
            // libumockdev aborts on a second script for a node.
            guard played.insert(words[1]).inserted else { reply("error \(words[1]) has played already"); continue }
            reply(play(bed, node: words[1], events: words[2], directory: directory))
        case "remove" where words.count == 2:
            let number = Int(words[1].drop { !$0.isNumber }) ?? 0
            let parent = "/sys/devices/virtual/input/input\(number)"
            umockdev_testbed_uevent(bed, parent + "/" + words[1], "remove")
            var error: UnsafeMutablePointer<GError>?
            if umockdev_testbed_detach_ioctl(bed, "/dev/input/" + words[1], &error) == 0, error != nil { g_error_free(error) }
            umockdev_testbed_remove_device(bed, parent + "/" + words[1])
            umockdev_testbed_remove_device(bed, parent)
            reply("ok")
        case "pid":
            reply("ok \(child.pid)")
        case "quit":
            child.send(signal: SIGTERM)
            let result = try? child.wait(deadline: MonotonicClock.now() + .milliseconds(10_000))
            reply("ok exit \(result.map { "\($0.termination)" } ?? "unknown")")
            close(connection)
            unlink(controlPath)
            exit(0)
        default:
            reply("error unknown command '\(line)'")
        }
    }
    child.send(signal: SIGTERM)
    _ = try? child.wait(deadline: MonotonicClock.now() + .milliseconds(10_000))
    unlink(controlPath)
}

/// Adds DESC as /dev/input/NODE with its parent `inputN`, and announces it.
private func add(_ bed: UnsafeMutablePointer<UMockdevTestbed>, _ description: EvemuDescription, node: String, events: String?,
                 directory: TestEnvironment.TemporaryDirectory) -> String {
    let devnode = "/dev/input/\(node)"
    let files = UmockdevDevice.files(for: description, node: devnode)
    var error: UnsafeMutablePointer<GError>?
    func failure(_ what: String) -> String {
        defer { if error != nil { g_error_free(error) } }
        return "error \(what): " + (error.map { String(cString: $0.pointee.message) } ?? "failed")
    }
    let ioctl: String
    do { ioctl = try directory.write("\(node).ioctl", files.ioctl) } catch { return "error \(error)" }
    // Adding a device from text sends udev's `add` uevent for it at once, and the daemon opens
    // the node when it sees it. So, in this order: the parent `inputN` (its `name`), the ioctl
    // emulation, and only then the node. Otherwise, seen under load: a program opening the node
    // between the ioctl socket's bind and its listen is killed by libumockdev-preload ("Failed
    // to connect to ioctl socket", exit(1)); one opening it before the socket exists reads an
    // unemulated node; one opening it before its parent exists reads no name.
    let blocks = files.umockdev.split(separator: "\n\n", omittingEmptySubsequences: true)
    guard blocks.count == 2, blocks[0].hasPrefix("P: /devices/virtual/input/input"), blocks[1].hasPrefix("P: ") else {
        return "error unexpected umockdev description for \(node)"
    }
    guard umockdev_testbed_add_from_string(bed, String(blocks[1]) + "\n", &error) != 0 else { return failure("add_from_string (parent)") }
    guard umockdev_testbed_load_ioctl(bed, devnode, ioctl, &error) != 0 else { return failure("load_ioctl") }
    // umockdev accepts on the node's ioctl socket from another thread: wait until it does.
    guard let root = umockdev_testbed_get_root_dir(bed) else { return "error no testbed root" }
    let socketPath = String(cString: root) + "/ioctl" + devnode
    g_free(root)
    guard waitUntilListening(socketPath, deadline: MonotonicClock.now() + .milliseconds(10_000)) else {
        return "error the ioctl socket \(socketPath) never accepted a connection"
    }
    guard umockdev_testbed_add_from_string(bed, String(blocks[0]) + "\n", &error) != 0 else { return failure("add_from_string") }
    if let events {
        guard umockdev_testbed_load_evemu_events(bed, devnode, events, &error) != 0 else { return failure("load_evemu_events") }
    }
    let number = Int(node.drop { !$0.isNumber }) ?? 0
    let syspath = "/sys/devices/virtual/input/input\(number)/\(node)"
    umockdev_testbed_uevent(bed, syspath, "add")
    return "ok \(syspath)"
}

/// Replays EVENTS on the existing /dev/input/NODE from now on, without its idle start.
private func play(_ bed: UnsafeMutablePointer<UMockdevTestbed>, node: String, events: String,
                  directory: TestEnvironment.TemporaryDirectory) -> String {
    let text: String
    do { text = try readTextFile(path: events) } catch { return "error \(events): \(error)" }
    // umockdev plays the first event at once and each next one after the time between their
    // stamps: dropping the leading SYN-only lines starts the recording at its first touch.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if let first = lines.firstIndex(where: { $0.hasPrefix("E: ") && $0.split(separator: " ").dropFirst(2).first != "0000" }) {
        lines = lines.enumerated().filter { $0.offset >= first || !$0.element.hasPrefix("E: ") }.map(\.element)
    }
    let path: String
    do { path = try directory.write("\(node)-play.events", lines.joined(separator: "\n")) } catch { return "error \(error)" }
    var error: UnsafeMutablePointer<GError>?
    guard umockdev_testbed_load_evemu_events(bed, "/dev/input/\(node)", path, &error) != 0 else {
        defer { if error != nil { g_error_free(error) } }
        return "error load_evemu_events: " + (error.map { String(cString: $0.pointee.message) } ?? "failed")
    }
    return "ok"
}

/// Whether a connection to the Unix socket at `path` succeeds before `deadline`: the readiness
/// of a server whose bind and listen happen on another thread, which no event announces, so it
/// is retried every millisecond until the deadline.
private func waitUntilListening(_ path: String, deadline: Instant) -> Bool {
    while true {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        if connected == 0 { return true }
        guard MonotonicClock.now() < deadline else { return false }
        _ = poll(nil, 0, 1)
    }
}

/// A listening Unix stream socket at `path` (replacing a stale file).
private func listenUnix(_ path: String) -> Int32 {
    unlink(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(Errno.current)") }
    guard let status = try? withUnixSocketAddress(path, for: "bind", { (address, length) throws(SystemError) in bind(fd, address, length) })
    else { fail("\(path): path too long") }
    guard status == 0, listen(fd, 1) == 0 else { fail("bind/listen \(path): \(Errno.current)") }
    return fd
}
