import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

struct BenchOptions {
    var gestured: String
    var frames = 5000
    var rate = 250
    var taps = 40
    /// The CPU phase's frames are split into this many segments per reader, run in turn.
    var rounds = 5
    var out: String?
}

/// The two phases of `gestured-vm-bench` (main.swift says what each measures).
final class KernelBench {
    static let deviceName = "gestured vm bench touchscreen"
    /// The tap is reported at the lift: no double tap to wait for (the built-in configuration's
    /// single tap waits 0.3 s for one, which is semantics, not latency). As VMTests' tap
    /// latency test has it.
    static let tapConfig = """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(deviceName)" } } ],
          views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
        """

    /// One view and no recognizer: what the daemon costs before any gesture is looked for.
    static let noGesturesConfig = """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { name: "\(deviceName)" } } ],
          views: [ { id: "root", gestures: [] } ] }
        """

    let options: BenchOptions
    let directory: TestEnvironment.TemporaryDirectory
    var figures: [(key: String, value: String)] = []
    /// The tap daemon's answer to `stats`.
    var tapStats = ""

    init(_ options: BenchOptions) throws(SystemError) {
        self.options = options
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-vm-bench")
    }

    struct Report {
        var table: String
        var figures: [(key: String, value: String)]
    }

    func run() throws -> Report {
        let descriptionPath = TestEnvironment.recordings + "/synthetic-touchscreen.desc"
        guard let description = try EvemuRecording.parse(try readTextFile(path: descriptionPath), sysname: "").description else {
            throw BenchFailure("no device description in \(descriptionPath)")
        }
        let screen = try UinputDevice(description, name: Self.deviceName, udevDeadline: deadline(milliseconds: 20_000))
        let segments = try cpuPhase(screen)
        let latency = try latencyPhase(screen)
        screen.destroy()
        return Report(table: table(segments: segments, latency: latency), figures: figures)
    }

    func daemon(_ name: String, config: String? = nil) throws -> Subprocess {
        var arguments = ["run", "--socket", directory.path + "/\(name).sock"]
        if let config { arguments += ["--config", try directory.write("\(name).json5", config)] }
        // GESTURED_VM_BENCH_WRAP (a diagnosis, not a figure): a command the daemon runs under,
        // e.g. `valgrind --tool=callgrind --callgrind-out-file=/run/results/%p.callgrind`.
        let wrap = getenv("GESTURED_VM_BENCH_WRAP").map { String(cString: $0).split(separator: " ").map(String.init) } ?? []
        let command = wrap + [options.gestured] + arguments
        return try Subprocess(command[0], Array(command.dropFirst()), stdout: .discard, stderr: .file(directory.path + "/\(name).stderr"))
    }

    func log(_ name: String) -> String { (try? readTextFile(path: directory.path + "/\(name).stderr")) ?? "" }

    func connect(_ name: String) throws -> LineClient {
        let client = try LineClient(path: directory.path + "/\(name).sock", deadline: deadline(milliseconds: Settle.patience))
        guard try client.readLine(deadline: deadline(milliseconds: Settle.patience)) == "hello version=1 daemon=gestured" else {
            throw BenchFailure("gestured \(name) sent no hello; stderr:\n\(log(name))")
        }
        return client
    }

    /// Polls `sources` (draining each readable one with `handle`) until CLOCK_MONOTONIC reaches
    /// `due`, on `timer` armed there: frame timing, as `UinputDevice.play` keeps it.
    func wait(until due: Instant, timer: DeadlineTimer, sources: [LineSource], handle: (LineSource) -> Void) throws {
        guard MonotonicClock.now() < due else { return }
        try timer.arm(at: due)
        var descriptors = [pollfd(fd: timer.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
            + sources.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while true {
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                guard errno == EINTR else { throw SystemError(operation: "poll", errno: .current) }
                continue
            }
            for (index, source) in sources.enumerated() where descriptors[index + 1].revents != 0 { handle(source) }
            if descriptors[0].revents != 0 { _ = try timer.acknowledge(); return }
        }
    }

    // MARK: - Latency

    private struct Tap { var kernel: Instant; var received: Instant }

    private func latencyPhase(_ screen: UinputDevice) throws -> (gestured: [Int64], libinput: [Int64]) {
        let tapDaemon = try daemon("tap", config: Self.tapConfig)
        let fifoPath = directory.path + "/libinput.fifo"
        guard mkfifo(fifoPath, 0o600) == 0 else { throw SystemError(operation: "mkfifo", path: fifoPath, errno: .current) }
        let fifo = try FileDescriptor.open(fifoPath, flags: O_RDONLY | O_NONBLOCK)
        defer { try? fifo.close() }
        let libinput = try Subprocess("/usr/bin/stdbuf", ["-oL", "libinput", "debug-events", "--device", screen.devnode],
                                      stdout: .file(fifoPath), stderr: .file(directory.path + "/libinput.stderr"))
        let client = try connect("tap")
        let gesturedLines = LineSource(descriptor: client.descriptor.rawValue), libinputLines = LineSource(descriptor: fifo.rawValue)
        var gesturedTaps: [Tap] = [], touchUps: [Instant] = [], libinputAdded = false, stats: String?
        func handle(_ source: LineSource) {
            source.drain(keep: true) { line, received in
                if source === gesturedLines, line.hasPrefix("gesture tap ended tap "), let kernel = lineTime(line) {
                    gesturedTaps.append(Tap(kernel: kernel, received: received))
                } else if source === gesturedLines, line.hasPrefix("stats ") {
                    stats = line
                } else if source === libinputLines {
                    if line.contains("DEVICE_ADDED") { libinputAdded = true }
                    if line.contains("TOUCH_UP") { touchUps.append(received) }
                }
            }
        }
        let timer = try DeadlineTimer()
        defer { try? timer.close() }
        let ready = deadline(milliseconds: 30_000)
        while !libinputAdded && MonotonicClock.now() < ready {
            try wait(until: MonotonicClock.now() + Interval(microseconds: 50_000), timer: timer, sources: [libinputLines], handle: handle)
        }
        guard libinputAdded else { throw BenchFailure("libinput debug-events never listed \(screen.devnode)") }
        try Settle.untilOpened(tapDaemon.pid, screen.devnode, what: "gestured (taps)")
        _ = try Settle.untilQuiet([tapDaemon.pid, libinput.pid]) { handle(gesturedLines); handle(libinputLines) }

        var writes: [(before: Instant, after: Instant)] = []
        let start = MonotonicClock.now() + Interval(microseconds: 20_000)
        for index in 0..<options.taps {
            let tap = BenchStream.tap(index)
            let down = start + Interval(microseconds: Int64(index) * 150_000)
            try wait(until: down, timer: timer, sources: [gesturedLines, libinputLines], handle: handle)
            try screen.write(frame: tap.down)
            try wait(until: down + Interval(microseconds: 30_000), timer: timer, sources: [gesturedLines, libinputLines], handle: handle)
            let before = MonotonicClock.now()
            try screen.write(frame: tap.up)
            writes.append((before, MonotonicClock.now()))
        }
        let limit = deadline(milliseconds: 10_000)
        while (gesturedTaps.count < options.taps || touchUps.count < options.taps) && MonotonicClock.now() < limit {
            try wait(until: MonotonicClock.now() + Interval(microseconds: 50_000), timer: timer,
                     sources: [gesturedLines, libinputLines], handle: handle)
        }
        // The daemon's own part: from each read of the device to the lines written (PROTOCOL.md).
        try client.send(line: "stats")
        while stats == nil && MonotonicClock.now() < limit {
            try wait(until: MonotonicClock.now() + Interval(microseconds: 50_000), timer: timer, sources: [gesturedLines], handle: handle)
        }
        tapStats = stats ?? "no answer to stats"
        tapDaemon.send(signal: SIGTERM)
        libinput.send(signal: SIGINT)
        _ = try tapDaemon.wait(deadline: deadline(milliseconds: 10_000))
        _ = try libinput.wait(deadline: deadline(milliseconds: 10_000))
        guard gesturedTaps.count == options.taps, touchUps.count == options.taps else {
            throw BenchFailure("\(options.taps) taps written, \(gesturedTaps.count) tap lines from gestured and "
                               + "\(touchUps.count) TOUCH_UP from libinput; gestured stderr:\n\(log("tap"))")
        }
        // The tap line's time is the kernel's stamp of the lift, taken while the lift was written.
        for (tap, write) in zip(gesturedTaps, writes) where tap.kernel < write.before || tap.kernel > write.after {
            throw BenchFailure("a tap line's time \(tap.kernel) is not the lift's kernel stamp (written \(write.before)…\(write.after))")
        }
        return (gesturedTaps.map { ($0.received - $0.kernel).microseconds },
                zip(gesturedTaps, touchUps).map { ($1 - $0.kernel).microseconds })
    }
}
