import GesturedBenchKit
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

/// Figures of `gestured replay` and the daemon as processes: throughput, start-up, idle
/// wake-ups, memory and descriptors.
enum DaemonBenchmarks {
    static func run(options: BenchOptions, log: (String) -> Void) -> [Figure] {
        let bin = options.binDirectory ?? directory(of: selfPath())
        let gestured = bin + "/gestured"
        guard isAccessible(gestured, X_OK) else {
            log("  no gestured next to the benchmark (\(gestured)); skipping the daemon figures")
            return []
        }
        let scratch = "/tmp/gestured-bench-\(getpid())"
        mkdir(scratch, 0o755)
        defer { _ = removeDirectory(scratch) }
        var figures: [Figure] = []
        do {
            figures.append(try replayThroughput(gestured, scratch: scratch, runs: 3, log: log))
            figures += try replayTenFingers(gestured, scratch: scratch, runs: 3, log: log)
            figures.append(try startup(gestured, scratch: scratch, runs: max(options.runs, 9), log: log))
            figures += try idleAndMemory(gestured, scratch: scratch, log: log)
            figures.append(try KioskIdleBenchmark.run(gestured, scratch: scratch, log: log))
            figures += try latencyUnderUmockdev(gestured, scratch: scratch, log: log)
        } catch {
            log("  daemon figures failed: \(error)")
        }
        return figures
    }

    // MARK: Replay

    /// `gestured replay` over a generated 1,000,000-frame recording of a one-finger pan: the
    /// whole command (read, parse, pipeline, encode, write to /dev/null), frames per second.
    static func replayThroughput(_ gestured: String, scratch: String, runs: Int, log: (String) -> Void) throws -> Figure {
        let frames = 1_000_000
        let recording = scratch + "/pan-1M.events", description = scratch + "/touchscreen.desc"
        try TestEnvironment.writeFile(path: description, deviceDescription)
        var stream = FrameStream.generate(.pan, frames: frames)
        var text: [UInt8] = []
        text.reserveCapacity(stream.events.count * 28)
        stream.evemuLines(into: &text)
        let actualFrames = stream.frames.count
        stream = FrameStream()
        try writeBytes(path: recording, text)
        log("  replay: \(actualFrames) frames, \(text.count >> 20) MiB recording")
        let samples = try replayRates(gestured, ["replay", "--description", description, recording], frames: actualFrames,
                                      runs: runs, label: "replay")
        var f = Figure(name: "gestured replay, 1M-frame recording", unit: "frames/s", samples: samples)
        f.target = "≥ 500,000"; f.met = f.median >= 500_000
        log("  replay: \(Format.number(f.median)) frames/s")
        return f
    }

    /// Frames per second of `runs` runs of `gestured arguments` (a replay of `frames` frames),
    /// its output discarded; throws when a run fails or takes over two minutes.
    static func replayRates(_ gestured: String, _ arguments: [String], frames: Int, runs: Int, label: String) throws -> [Double] {
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = Clock.nanoseconds()
            let process = try Subprocess(gestured, arguments, stdout: .discard, stderr: .discard)
            let (termination, timedOut) = try process.wait(deadline: deadline(milliseconds: 120_000))!
            let seconds = Double(Clock.nanoseconds() - start) / 1e9
            guard !timedOut, termination == .exited(0) else { throw BenchError("\(label): \(termination)") }
            samples.append(Double(frames) / seconds)
        }
        return samples
    }

    // MARK: Start-up

    /// From spawning `gestured run` (no devices) to its `READY=1` (sd_notify, as systemd sees
    /// it: the benchmark is the service manager's end of `NOTIFY_SOCKET`). The daemon sends it
    /// once its socket listens, which is checked after each sample.
    static func startup(_ gestured: String, scratch: String, runs: Int, log: (String) -> Void) throws -> Figure {
        let config = scratch + "/startup.json5"
        try TestEnvironment.writeFile(path: config, "{ screen: { width: 1280, height: 800 }, views: [{ id: \"root\" }] }\n")
        var samples: [Double] = []
        for run in 0...runs {
            let socket = scratch + "/startup-\(run).sock"
            let manager = try NotifySocket(address: scratch + "/notify-\(run).sock")
            let start = Clock.nanoseconds()
            let daemon = try Subprocess(gestured, ["run", "--socket", socket, "--config", config],
                                        environment: ["NOTIFY_SOCKET": manager.address], stdout: .discard, stderr: .discard)
            let ready = try manager.wait(deadline: deadline(milliseconds: 5_000)) {
                $0.split(separator: "\n").contains("READY=1")
            }
            let elapsed = Double(Clock.nanoseconds() - start) / 1e6
            let accepts = tryConnect(socket)
            daemon.send(signal: SIGTERM)
            _ = try daemon.wait(deadline: deadline(milliseconds: 5_000))
            guard ready != nil else { throw BenchError("the daemon never sent READY=1") }
            guard accepts else { throw BenchError("READY=1 came before \(socket) accepted") }
            if run > 0 { samples.append(elapsed) }
        }
        var f = Figure(name: "start-up to READY=1 (no devices)", unit: "ms", samples: samples)
        f.target = "≤ 50 ms"; f.met = f.median <= 50
        log("  start-up: \(Format.number(f.median)) ms to READY=1")
        return f
    }

    // MARK: Idle, memory, descriptors

    static func idleAndMemory(_ gestured: String, scratch: String, log: (String) -> Void) throws -> [Figure] {
        let config = scratch + "/256-views.json5"
        try TestEnvironment.writeFile(path: config, configurationText(views: 256))
        let socket = scratch + "/idle.sock"
        let daemon = try Subprocess(gestured, ["run", "--socket", socket, "--config", config],
                                    stdout: .discard, stderr: .discard)
        defer {
            daemon.send(signal: SIGTERM)
            _ = try? daemon.wait(deadline: deadline(milliseconds: 5_000))
        }
        let clients = try connectClients(8, socket: socket)
        let before = status(daemon.pid)
        log("  idle: 10 s with 8 clients and no touches…")
        usleep(10_000_000)   // the measurement window itself: the figure is wake-ups in these 10 s
        let after = status(daemon.pid)
        var figures: [Figure] = []
        var wakeups = Figure(name: "idle wake-ups in 10 s (voluntary context switches)", unit: "switches",
                             samples: [Double(after["voluntary_ctxt_switches"]! - before["voluntary_ctxt_switches"]!)])
        wakeups.target = "0"; wakeups.met = wakeups.median == 0
        figures.append(wakeups)
        var rss = Figure(name: "RSS, 256 views, 8 clients", unit: "MB", samples: [Double(after["VmRSS"]!) / 1024])
        rss.target = "≤ 15 MB"; rss.met = rss.median <= 15
        figures.append(rss)

        let fdsBefore = descriptorCount(daemon.pid)
        for _ in 0..<1_000 {
            let client = try LineClient(path: socket, deadline: deadline(milliseconds: 5_000))
            _ = try client.readLine(deadline: deadline(milliseconds: 5_000))
        }
        // Answered once the daemon has served every hang-up before it (they were pending first).
        try ping(clients[0])
        let fdsAfter = descriptorCount(daemon.pid)
        var fds = Figure(name: "fd growth across 1,000 client connects", unit: "fds", samples: [Double(fdsAfter - fdsBefore)])
        fds.target = "0"; fds.met = fdsAfter == fdsBefore
        fds.note = "\(fdsBefore) → \(fdsAfter) open"
        figures.append(fds)
        log("  idle: \(Int(wakeups.median)) wake-ups; RSS \(Format.number(rss.median)) MB; fds \(fdsBefore) → \(fdsAfter)")
        withExtendedLifetime(clients) {}   // connected until the figures are taken
        return figures
    }

    // MARK: Latency under umockdev: DaemonBenchmarks+Latency.swift

    // MARK: Helpers

    /// The numeric fields of /proc/PID/status (kB for memory).
    /// `count` clients of the daemon at `socket`, each greeted and answered a `ping`: the daemon
    /// has served them, and nothing of theirs is left for it to do.
    static func connectClients(_ count: Int, socket: String) throws -> [LineClient] {
        var clients: [LineClient] = []
        for _ in 0..<count {
            let client = try LineClient(path: socket, deadline: deadline(milliseconds: 5_000))
            guard try client.readLine(deadline: deadline(milliseconds: 5_000))?.hasPrefix("hello") == true else {
                throw BenchError("no hello from the daemon")
            }
            try ping(client)
            clients.append(client)
        }
        return clients
    }

    /// Sends `ping` and waits for its answer.
    static func ping(_ client: LineClient) throws {
        try client.send(line: "ping")
        guard try client.readLine(deadline: deadline(milliseconds: 5_000))?.hasPrefix("ok command=ping") == true else {
            throw BenchError("no answer to ping")
        }
    }

    static func status(_ pid: pid_t) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in ((try? readTextFile(path: "/proc/\(pid)/status")) ?? "").split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            if parts.count >= 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        return fields
    }

    static func descriptorCount(_ pid: pid_t) -> Int {
        guard let dir = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    static func tryConnect(_ path: String) -> Bool {
        guard let fd = try? GesturedIO.syscall("socket", onInterrupt: .fail, {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }) else { return false }
        defer { close(fd) }
        let connected = try? withUnixSocketAddress(path, for: "connect") { (address, length) throws(SystemError) in
            try GesturedIO.syscall("connect", path: path, onInterrupt: .fail) { connect(fd, address, length) }
        }
        return connected != nil
    }

    static func writeBytes(path: String, _ bytes: [UInt8]) throws {
        let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { try? fd.close() }
        try fd.writeAll(bytes)
    }

    static func directory(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// The scenarios' view tree as a configuration file: a root with the default recognizers
    /// and `views − 1` leaves in a grid.
    static func configurationText(views: Int) -> String {
        let scenario = Scenario(gesture: .chaos10, views: views, recognizers: .defaultSet)
        let root = scenario.configuration(defaultGestures: []).views[0]
        var text = "{ screen: { width: 1280, height: 800 },\n  views: [{ id: \"root\",\n    gestures: [\n"
        text += """
              { id: "tap", type: "tap", requireToFail: ["doubleTap"] },
              { id: "doubleTap", type: "tap", numberOfTapsRequired: 2 },
              { id: "twoFingerTap", type: "tap", numberOfTouchesRequired: 2 },
              { id: "longPress", type: "longPress" },
              { id: "swipe", type: "swipe", direction: ["left", "right", "up", "down"] },
              { id: "twoFingerSwipe", type: "swipe", numberOfTouchesRequired: 2, direction: ["left", "right", "up", "down"] },
              { id: "pan", type: "pan", recognizeSimultaneouslyWith: ["swipe", "twoFingerSwipe", "pinch", "rotation"] },
              { id: "pinch", type: "pinch", recognizeSimultaneouslyWith: ["rotation"] },
              { id: "rotation", type: "rotation" },
            ],
            subviews: [

        """
        for view in root.subviews {
            let f = view.frame!
            text += "      { id: \"\(view.id)\", frame: [\(f.minX), \(f.minY), \(f.size.width), \(f.size.height)] },\n"
        }
        text += "    ] }] }\n"
        return text
    }

    /// The test fixture's device (Tests/Fixtures/recordings/synthetic-touchscreen.desc), inline
    /// so the benchmark runs from anywhere.
    static let deviceDescription = """
        # EVEMU 1.3
        N: gestured synthetic touchscreen
        I: 0006 0001 0001 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 0 4095 0 0 16
        A: 01 0 4095 0 0 16
        A: 2f 0 9 0 0 0
        A: 35 0 4095 0 0 16
        A: 36 0 4095 0 0 16
        A: 39 0 65535 0 0 0

        """
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
