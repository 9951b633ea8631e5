// gestured-testtool: developer and test helper, not installed.
//
//   gestured-testtool umockdev DESC --umockdev OUT --ioctl OUT [--node /dev/input/event7] [--sysname event7]
//       Writes the umockdev-run files emulating the device described by the evemu file DESC.
//   gestured-testtool iocheck NODE [--events N] [--timeout-ms T]
//       Run under umockdev-run: lists udev input devices, opens NODE with libevdev, prints its
//       description and up to N events (waiting at most T ms). Its output is what
//       GesturedIOTests check.
//   gestured-testtool parse FILE
//       Parses an evemu file with EvemuRecording and prints the device and the event count
//       (a by-hand check of a recording, and of the parser's speed on long ones).
//   umockdev-wrapper gestured-testtool testbed --control PATH --desc DESC [--add NODE]... -- PROGRAM ARGS...
//       A hotplug and playback host: a libumockdev testbed, PROGRAM started inside it, and line
//       commands on a Unix socket that add and remove emulated devices and play recordings on
//       them when the test says (see Testbed.swift).
//   gestured-testtool wait-socket PATH [--timeout-ms T]
//       Waits (inotify and poll, no sleeping) until a server accepts connections on PATH, and
//       reads its first line (the daemon's hello) before hanging up; exit status 1 when T ms
//       pass first. make demo uses it before starting a client.
//   gestured-testtool request PATH LINE...
//       Connects to the daemon at PATH, sends each LINE as a request and prints what comes back:
//       hello and one answer per request (tests run it under setpriv as another user).
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

func fail(_ message: String, status: Int32 = 1) -> Never {
    var line = "gestured-testtool: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func axis(_ axis: AxisInfo?) -> String {
    guard let axis else { return "none" }
    return "\(axis.minimum)..\(axis.maximum)/\(axis.resolution)"
}

func umockdev(_ arguments: [String]) {
    guard let descPath = arguments.first, let umockdevPath = option("--umockdev", in: arguments),
          let ioctlPath = option("--ioctl", in: arguments) else {
        fail("usage: umockdev DESC --umockdev OUT --ioctl OUT [--node NODE] [--sysname NAME]", status: 2)
    }
    do {
        let recording = try EvemuRecording.parse(try readTextFile(path: descPath), sysname: "")
        guard let description = recording.description else { fail("\(descPath): no device description") }
        let node = option("--node", in: arguments) ?? "/dev/input/event7"
        let files = UmockdevDevice.files(for: description, node: node, sysname: option("--sysname", in: arguments))
        try TestEnvironment.writeFile(path: umockdevPath, files.umockdev)
        try TestEnvironment.writeFile(path: ioctlPath, files.ioctl)
    } catch let error as EvemuParseError {
        fail("\(descPath): \(error)")
    } catch {
        fail("\(error)")
    }
}

func iocheck(_ arguments: [String]) {
    guard let node = arguments.first else { fail("usage: iocheck NODE [--events N] [--timeout-ms T]", status: 2) }
    let wanted = Int(option("--events", in: arguments) ?? "0") ?? 0
    let timeout = Int64(option("--timeout-ms", in: arguments) ?? "5000") ?? 5000
    do {
        for device in try UdevEnumerator.inputDevices() {
            print("udev sysname=\(device.sysname) devnode=\(device.devnode) initialized=\(device.isInitialized ? 1 : 0) name=\"\(device.name)\" syspath=\(device.syspath)")
            for key in device.properties.keys.sorted() { print("property \(device.sysname) \(key)=\(device.properties[key]!)") }
        }
        let device = try EvdevDevice.open(path: node)
        let sysname = String(node.split(separator: "/").last ?? "")
        let d = device.description(sysname: sysname)
        print("device sysname=\(d.sysname) name=\"\(d.name)\" bus=\(d.bustype) vendor=\(d.vendor) product=\(d.product) slots=\(d.slotCount) tracking=\(d.hasTrackingID ? 1 : 0) direct=\(d.isDirect ? 1 : 0) x=\(axis(d.x)) y=\(axis(d.y)) mtx=\(axis(d.mtX)) mty=\(axis(d.mtY))")
        print("clock monotonic=\(device.setMonotonicClock() ? 1 : 0)")
        let poller = try Poller()
        try poller.add(device.descriptor, token: 1, events: .readable)
        let deadline = MonotonicClock.now() + .milliseconds(timeout)
        var events: [RawEvent] = []
        var printed = 0
        while printed < wanted {
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            if remaining <= 0 { print("timeout"); break }
            for ready in try poller.wait(timeout: Int32(min(remaining, 60_000))) where ready.token == 1 {
                let status = try device.read(into: &events)
                for event in events[printed...] {
                    print("E: \(event.time) \(hex4(event.type)) \(hex4(event.code)) \(event.value)")
                }
                printed = events.count
                if status != .drained { print("status \(status)") }
                if status == .gone { exit(0) }
            }
        }
        device.close()
        try poller.close()
    } catch {
        fail("\(error)")
    }
}

func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

func parse(_ arguments: [String]) {
    guard let path = arguments.first else { fail("usage: parse FILE", status: 2) }
    do {
        let text = try readTextFile(path: path)
        let start = MonotonicClock.now()
        let recording = try EvemuRecording.parse(text, sysname: "event0")
        let elapsed = MonotonicClock.now() - start
        if let d = recording.description?.deviceDescription(sysname: "event0") {
            print("device name=\"\(d.name)\" slots=\(d.slotCount) direct=\(d.isDirect ? 1 : 0) mtx=\(axis(d.mtX)) mty=\(axis(d.mtY))")
        }
        print("events=\(recording.events.count) first=\(recording.events.first.map { "\($0.time)" } ?? "-") "
              + "last=\(recording.events.last.map { "\($0.time)" } ?? "-") parse=\(elapsed.microseconds / 1000)ms")
    } catch let error as EvemuParseError {
        fail("\(path): \(error)")
    } catch {
        fail("\(error)")
    }
}

func waitSocket(_ arguments: [String]) {
    guard let path = arguments.first else { fail("usage: wait-socket PATH [--timeout-ms T]", status: 2) }
    let timeout = Int64(option("--timeout-ms", in: arguments) ?? "10000") ?? 10000
    do {
        let deadline = MonotonicClock.now() + .milliseconds(timeout)
        let client = try LineClient(path: path, deadline: deadline)
        // Read the greeting before closing: a probe that hangs up at once makes the daemon's
        // hello fail ("Connection reset by peer"), which it logs.
        _ = try client.readLine(deadline: deadline)
    } catch {
        fail("\(error)")
    }
}

func request(_ arguments: [String]) {
    guard let path = arguments.first, arguments.count > 1 else { fail("usage: request PATH LINE...", status: 2) }
    do {
        let client = try LineClient(path: path, deadline: MonotonicClock.now() + .milliseconds(10_000))
        for line in arguments.dropFirst() { try client.send(line: line) }
        for _ in 0..<arguments.count {
            guard let line = try client.readLine(deadline: MonotonicClock.now() + .milliseconds(10_000)) else {
                fail("the daemon closed the connection or did not answer")
            }
            print(line)
        }
    } catch {
        fail("\(error)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "umockdev": umockdev(Array(arguments.dropFirst()))
case "iocheck": iocheck(Array(arguments.dropFirst()))
case "parse": parse(Array(arguments.dropFirst()))
case "wait-socket": waitSocket(Array(arguments.dropFirst()))
case "testbed": testbed(Array(arguments.dropFirst()))
case "request": request(Array(arguments.dropFirst()))
default: fail("usage: gestured-testtool umockdev|iocheck|parse|wait-socket|testbed|request ...", status: 2)
}
