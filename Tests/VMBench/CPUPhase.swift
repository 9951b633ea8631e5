import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

/// The readers the CPU phase compares, each alone on the device in its segments.
enum Reader: CaseIterable {
    case libinput
    /// Debian's `lisgd` 0.3.7 (libinput synthetic gesture daemon), headless: `-d NODE` opens the
    /// device through libinput's path backend, `-w`/`-h` give it a screen without a display
    /// server, and one `-g` binding that no frame of the stream can match (a twenty-finger swipe)
    /// replaces its built-in ones, so no command ever runs. Per frame it wakes in `select`, runs `libinput_dispatch` (the same event processing
    /// as the first reader) and, for each touch event, keeps the slot's start or end point
    /// (`libinput_event_touch_get_{x,y}_transformed`); only at a lift does it compute a swipe.
    /// A second real gesture reader beside gestured.
    case lisgd
    case gesturedClient, gesturedNoClient
    /// `gestured run` with no client and a configuration without gestures: the daemon's own
    /// cost of a frame (read, decode, touches, hit-testing, the loop) without recognizers.
    case gesturedNoGestures
    /// `cat NODE > /dev/null`: a blocking `read(2)` per frame and nothing else, the part of a
    /// frame every reader pays (the wakeup, the read) before it does anything with the events.
    case cat

    var name: String {
        switch self {
        case .libinput: "libinput debug-events --quiet"
        case .lisgd: "lisgd"
        case .gesturedClient: "gestured run, one client"
        case .gesturedNoClient: "gestured run, no client"
        case .gesturedNoGestures: "gestured run, no client, no gestures"
        case .cat: "cat (read(2) alone: the floor)"
        }
    }

    var key: String {
        switch self {
        case .libinput: "libinput"
        case .lisgd: "lisgd"
        case .gesturedClient: "gestured_client"
        case .gesturedNoClient: "gestured_noclient"
        case .gesturedNoGestures: "gestured_nogestures"
        case .cat: "cat"
        }
    }

    /// A gestured daemon (its log has the kernel's drops).
    var isGestured: Bool { self == .gesturedClient || self == .gesturedNoClient || self == .gesturedNoGestures }
}

/// One reader's run over one segment of the stream.
struct Segment {
    var reader: Reader
    var counters: ProcessCounters
    var frames: Int
    /// Lines its client received (gestured with a client).
    var lines = 0
    /// Frames written more than a frame interval after they were due.
    var late = 0
    /// The daemon's SYN_DROPPED warnings: the kernel's buffer for it overflowed.
    var drops = 0
}

extension KernelBench {
    /// Interleaved: round r runs the readers one after the other, in an order rotated by r,
    /// each on the next `frames / rounds` frames of the stream, alone on the device. One reader
    /// at a time, so none waits for another's CPU and reads frames in batches because of it
    /// (batching lowers the cost per frame); rotated rounds, so a drift in the host's load falls
    /// on every reader alike.
    func cpuPhase(_ screen: UinputDevice) throws -> [Segment] {
        let stream = BenchStream.tenFingers(frames: options.frames / options.rounds)
        let timer = try DeadlineTimer()
        defer { try? timer.close() }
        var segments: [Segment] = []
        for round in 0..<options.rounds {
            for offset in 0..<Reader.allCases.count {
                let reader = Reader.allCases[(round + offset) % Reader.allCases.count]
                segments.append(try segment(reader, round: round, frames: stream, screen: screen, timer: timer))
            }
        }
        return segments
    }

    private func segment(_ reader: Reader, round: Int, frames: [[BenchStream.Event]], screen: UinputDevice,
                         timer: DeadlineTimer) throws -> Segment {
        let name = "\(reader.key)-\(round)"
        let process: Subprocess
        var client: LineClient?
        switch reader {
        case .libinput:
            process = try Subprocess("libinput", ["debug-events", "--quiet", "--device", screen.devnode],
                                     stdout: .discard, stderr: .file(directory.path + "/\(name).stderr"))
        case .lisgd:
            process = try Subprocess("lisgd", ["-d", screen.devnode, "-w", "1000", "-h", "1000", "-g", "20,LR,*,*,R,true"],
                                     stdout: .discard, stderr: .file(directory.path + "/\(name).stderr"))
        case .gesturedClient:
            process = try daemon(name)
            client = try connect(name)
        case .gesturedNoClient:
            process = try daemon(name)
        case .gesturedNoGestures:
            process = try daemon(name, config: KernelBench.noGesturesConfig)
        case .cat:
            process = try Subprocess("cat", [screen.devnode], stdout: .discard, stderr: .file(directory.path + "/\(name).stderr"))
        }
        let lines = client.map { LineSource(descriptor: $0.descriptor.rawValue) }
        let drain: () -> Void = { lines?.drain(keep: false) { _, _ in } }
        try Settle.untilOpened(process.pid, screen.devnode, what: reader.name)
        let tracer = try straceIfAsked(process.pid, name: name)
        let before = try Settle.untilQuiet([process.pid], drain: drain)[0]
        let linesBefore = lines?.lineCount ?? 0

        let interval = Int64(1_000_000 / options.rate)
        let start = MonotonicClock.now() + Interval(microseconds: 20_000)
        var late = 0
        for (index, frame) in frames.enumerated() {
            let due = start + Interval(microseconds: Int64(index) * interval)
            try wait(until: due, timer: timer, sources: lines.map { [$0] } ?? []) { _ in drain() }
            if MonotonicClock.now() - due > Interval(microseconds: interval) { late += 1 }
            try screen.write(frame: frame)
        }
        let after = try Settle.untilQuiet([process.pid], drain: drain)[0]
        let received = (lines?.lineCount ?? 0) - linesBefore
        if let tracer {
            tracer.send(signal: SIGINT)   // strace detaches and writes its count
            _ = try tracer.wait(deadline: deadline(milliseconds: 30_000))
        }
        process.send(signal: SIGTERM)
        _ = try process.wait(deadline: deadline(milliseconds: 10_000))
        let used = after - before
        guard used.cpuNanoseconds > 0 else { throw BenchFailure("\(reader.name) used no CPU over the stream: did it read the device?") }
        let drops = !reader.isGestured ? 0 : log(name).split(separator: "\n").filter { $0.contains("SYN_DROPPED") }.count
        // After a drop the daemon cancels the touches down and reports none of them again, so a
        // client may receive nothing: that is the kernel's overflow, reported as such. Nothing
        // without one is the bench broken.
        if reader == .gesturedClient && received == 0 && drops == 0 {
            throw BenchFailure("the client of gestured received no line; stderr:\n\(log(name))")
        }
        return Segment(reader: reader, counters: used, frames: frames.count, lines: received, late: late, drops: drops)
    }
}

extension KernelBench {
    /// With `GESTURED_VM_BENCH_STRACE` set (a diagnosis, not a figure: strace slows the reader
    /// it counts): `strace -c -f` attached to the reader for its segment, its count of system
    /// calls written to `--out`'s folder as `NAME.strace`.
    fileprivate func straceIfAsked(_ pid: pid_t, name: String) throws -> Subprocess? {
        guard getenv("GESTURED_VM_BENCH_STRACE") != nil, let out = options.out else { return nil }
        let log = directory.path + "/\(name).strace-stderr"
        let tracer = try Subprocess("strace", ["-c", "-f", "-o", out + "/\(name).strace", "-p", String(pid)], stderr: .file(log))
        let limit = deadline(milliseconds: 30_000)
        while MonotonicClock.now() < limit {
            if ((try? readTextFile(path: log, limit: 65_536)) ?? "").contains("attached") { return tracer }
            Settle.pause(milliseconds: 50)
        }
        throw BenchFailure("strace did not attach to \(name) within 30 s")
    }
}
