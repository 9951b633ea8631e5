import CEvdev
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Glibc

struct SoakOptions {
    var gestured: String
    var frames = 1_000_000
    /// Frames written per second (each frame one write(2)); the kernel stamps them as it gets them.
    var rate = 1000
    var seed: UInt64 = 25
    var out: String?
    /// The most clients connected at once besides the faithful reader (the daemon's cap is 64).
    var churnClients = 24
}

/// `make soak-vm` (docs/RELIABILITY.md, "Soak"): the daemon with a pass-through touchscreen and a
/// stream of ten fingers, while clients come and go, the configuration is reloaded every few
/// seconds, and the panel is unplugged and plugged back; then everything lifts and every client
/// but one leaves, and the daemon must be back where it started.
final class Soak {
    static let deviceName = "gestured soak touchscreen"
    /// A reload every this many seconds (SIGHUP), alternating two configurations that differ in
    /// a recognizer's parameter: each rebuilds the recognizers and cancels what they run.
    static let reloadInterval: Int64 = 3_000_000
    /// After this many frames (every scene, clients of every kind and a few reloads) the daemon
    /// is taken as warmed up: its buffers have grown to the stream's busiest frames. The churning
    /// clients then leave, and its memory and descriptors with one client are the baseline.
    static let warmUpFrames = 10_000
    /// What the daemon's resident memory may exceed its baseline by at the end: a few allocator
    /// pages that the C library keeps for reuse after the clients' queues are freed, not growth.
    static let rssSlackKiB = 1024

    let options: SoakOptions
    /// Called with each sample as it is taken (the guest's console shows the run going on).
    var progress: (Probe.Sample) -> Void = { _ in }
    let directory: TestEnvironment.TemporaryDirectory
    var samples: [Probe.Sample] = []
    var notes: [String] = []
    var failures: [String] = []

    init(_ options: SoakOptions) throws {
        self.options = options
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-soak")
    }

    static func configuration(holdDuration: Double) -> String {
        """
        { screen: { width: 1280, height: 800 },
          devices: [ { match: { name: "\(deviceName)" }, passThrough: true } ],
          views: [ { id: "root", gestures: [
              { id: "tap", type: "tap", requireToFail: ["doubleTap"] },
              { id: "doubleTap", type: "tap", numberOfTapsRequired: 2 },
              { id: "hold", type: "longPress", minimumPressDuration: \(holdDuration), delaysTouchesBegan: true },
              { id: "drag", type: "pan", maximumNumberOfTouches: 10, cancelsTouchesInView: false },
              { id: "zoom", type: "pinch", recognizeSimultaneouslyWith: ["spin", "drag"] },
              { id: "spin", type: "rotation", recognizeSimultaneouslyWith: ["zoom", "drag"] },
              { id: "flick", type: "swipe", direction: ["left", "right", "up", "down"], delaysTouchesEnded: false },
              { id: "edge", type: "screenEdgePan", edges: ["left"], delaysTouchesBegan: true } ],
            subviews: [ { id: "private", frame: [0, 0, 120, 120], forwardsTouches: false,
                          gestures: [ { id: "privateTap", type: "tap" } ] } ] } ] }
        """
    }

    func run() throws {
        let descriptionPath = TestEnvironment.recordings + "/synthetic-touchscreen.desc"
        guard let description = try EvemuRecording.parse(try readTextFile(path: descriptionPath), sysname: "").description else {
            throw SoakFailure("no device description in \(descriptionPath)")
        }
        var panel = try UinputDevice(description, name: Self.deviceName, udevDeadline: deadline(milliseconds: 20_000))
        let configPath = try directory.write("soak.json5", Self.configuration(holdDuration: 0.5))
        let socket = directory.path + "/g.sock", log = directory.path + "/gestured.stderr"
        let daemon = try Subprocess(options.gestured, ["run", "--config", configPath, "--socket", socket],
                                    stdout: .discard, stderr: .file(log))
        let probe = Probe(pid: daemon.pid, socket: socket)
        let reader = try FaithfulReader(socket: socket)
        var stream = SoakStream(seed: options.seed)
        var rng = SplitMix64(seed: options.seed ^ 0x50AC)
        var churn: [ChurnClient] = []
        let timer = try DeadlineTimer()
        let start = MonotonicClock.now()
        var nextReload = start + Interval(microseconds: Self.reloadInterval)
        var reloads = 0, connections = 0, droppedByDaemon = 0
        let interval = Interval(microseconds: 1_000_000 / Int64(options.rate))
        let unplugAt = max(options.frames / 2, Self.warmUpFrames + 1)
        let sampleEvery = max(options.frames / 50, 1000)
        var baseline: Probe.Sample?
        func sample(_ frame: Int) -> Probe.Sample {
            Probe.Sample(frame: frame, seconds: Double((MonotonicClock.now() - start).microseconds) / 1e6, rssKiB: probe.rssKiB(),
                         descriptors: probe.descriptors(), clients: probe.clients(), churnClients: churn.count,
                         linesRead: reader.check.lines)
        }
        samples.append(sample(0))
        for frame in 0..<options.frames {
            // The frame's due time; meanwhile every client gets its turn.
            let due = start + Interval(microseconds: interval.microseconds * Int64(frame))
            if MonotonicClock.now() < due { try UinputDevice.wait(on: timer, until: due) }
            if frame == unplugAt {
                // Unplugged with fingers down, plugged back a second later.
                panel.destroy()
                stream.reset()
                try UinputDevice.wait(on: timer, until: MonotonicClock.now() + Interval(microseconds: 1_000_000))
                panel = try UinputDevice(description, name: Self.deviceName, udevDeadline: deadline(milliseconds: 20_000))
                notes.append("frame \(frame): panel unplugged with fingers down, plugged back as \(panel.sysname)")
            }
            try panel.write(frame: stream.next())
            reader.drain()
            for client in churn { client.turn(frame: frame, rng: &rng) }
            let leaving = churn.filter { $0.leaveAt <= frame || $0.closedByDaemon }
            droppedByDaemon += leaving.filter(\.closedByDaemon).count
            churn.removeAll { $0.leaveAt <= frame || $0.closedByDaemon }
            if churn.count < options.churnClients && rng.next() % 200 == 0 {
                churn.append(try ChurnClient(socket: socket, frame: frame, rng: &rng))
                connections += 1
            }
            if MonotonicClock.now() >= nextReload {
                reloads += 1
                let text = Self.configuration(holdDuration: reloads % 2 == 0 ? 0.5 : 0.6)
                let fresh = try directory.write("soak.json5.new", text)
                rename(fresh, configPath)
                daemon.send(signal: SIGHUP)
                nextReload = MonotonicClock.now() + Interval(microseconds: Self.reloadInterval)
            }
            if frame == Self.warmUpFrames {
                // The baseline: after the warm-up, with the same clients as at the end (the
                // faithful one), so that what is compared is the daemon, not its client count.
                churn.removeAll()
                let settle = deadline(milliseconds: 30_000)
                while probe.clients() != 1 && MonotonicClock.now() < settle {
                    reader.drain()
                    try UinputDevice.wait(on: timer, until: MonotonicClock.now() + Interval(microseconds: 20_000))
                }
                baseline = sample(frame)
            }
            if frame % sampleEvery == 0 && frame > 0 {
                let s = sample(frame)
                samples.append(s)
                progress(s)
            }
            if let (termination, _) = try daemon.wait(deadline: MonotonicClock.now(), killOnTimeout: false) {
                throw SoakFailure("the daemon exited at frame \(frame) (\(termination)); its log:\n\((try? readTextFile(path: log)) ?? "")")
            }
        }
        // Everything lifts; every client but the faithful one leaves.
        try panel.write(frame: stream.liftAll())
        churn.removeAll()
        let settleBy = deadline(milliseconds: 60_000)
        while MonotonicClock.now() < settleBy {
            reader.drain()
            if reader.check.running.isEmpty && reader.check.liveTouches.isEmpty && probe.clients() == 1 { break }
            try UinputDevice.wait(on: timer, until: MonotonicClock.now() + Interval(microseconds: 50_000))
        }
        reader.drain()
        let end = sample(options.frames)
        samples.append(end)
        notes.append("\(options.frames) frames in \(Int(end.seconds)) s (\(Int(Double(options.frames) / max(end.seconds, 1))) frames/s), \(reloads) reloads, \(connections) churn connections (\(droppedByDaemon) closed by the daemon)")
        notes.append("faithful reader: \(reader.check.lines) lines, states \(reader.check.states.sorted { $0.key < $1.key }), devices \(reader.check.devices)")
        judge(reader: reader, baseline: baseline ?? samples[0], end: end, log: log)
        try checkClone(log: log)
        panel.destroy()
        daemon.send(signal: SIGTERM)
        if let (termination, timedOut) = try daemon.wait(deadline: deadline(milliseconds: 20_000)), timedOut || termination != .exited(0) {
            failures.append("the daemon did not stop cleanly on SIGTERM (\(termination))")
        }
        let text = (try? readTextFile(path: log)) ?? ""
        notes.append("daemon log: \(text.split(separator: "\n").count) lines, \(text.components("configuration reloaded")) reloads logged, \(text.components("reload failed")) failed, \(text.components("SYN_DROPPED")) mentions of SYN_DROPPED")
    }

    func judge(reader: FaithfulReader, baseline: Probe.Sample, end: Probe.Sample, log: String) {
        for problem in reader.check.problems { failures.append("faithful reader: \(problem)") }
        if reader.check.problemCount > reader.check.problems.count {
            failures.append("faithful reader: \(reader.check.problemCount - reader.check.problems.count) more problems")
        }
        if !reader.check.running.isEmpty { failures.append("gestures still running after the lift: \(reader.check.running)") }
        if !reader.check.liveTouches.isEmpty { failures.append("touches still down after the lift: \(reader.check.liveTouches)") }
        if end.clients != 1 { failures.append("\(end.clients) clients connected at the end, 1 at the start") }
        if end.descriptors != baseline.descriptors {
            failures.append("\(end.descriptors) descriptors open at the end, \(baseline.descriptors) after warm-up")
        }
        if end.rssKiB > baseline.rssKiB + Self.rssSlackKiB {
            failures.append("resident memory \(end.rssKiB) KiB at the end, \(baseline.rssKiB) KiB after warm-up")
        }
        notes.append("baseline after \(baseline.frame) frames: RSS \(baseline.rssKiB) KiB, \(baseline.descriptors) descriptors, \(baseline.clients) clients")
    }

    /// The application's view: the clone (the last one the daemon made, after the replug) holds
    /// no touch: every slot's tracking id is -1 and BTN_TOUCH is up.
    func checkClone(log: String) throws {
        let text = (try? readTextFile(path: log)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.contains("passThrough: created") }),
              let node = line.split(separator: "(").first(where: { $0.hasPrefix("/dev/input/") })?.prefix(while: { $0 != ")" }) else {
            failures.append("no clone in the daemon's log"); return
        }
        let fd = open(String(node), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(operation: "open", path: String(node), errno: .current) }
        defer { Glibc.close(fd) }
        var device: OpaquePointer?
        guard libevdev_new_from_fd(fd, &device) == 0, let device else { throw SoakFailure("libevdev cannot read \(node)") }
        defer { libevdev_free(device) }
        let slots = Int(libevdev_get_num_slots(device))
        var held: [Int] = []
        for slot in 0..<max(slots, 0) where libevdev_get_slot_value(device, UInt32(slot), UInt32(EventCode.ABS_MT_TRACKING_ID)) >= 0 {
            held.append(slot)
        }
        let touch = libevdev_get_event_value(device, UInt32(EventCode.EV_KEY), UInt32(EventCode.BTN_TOUCH))
        if !held.isEmpty || touch != 0 { failures.append("the application holds touches on \(node): slots \(held), BTN_TOUCH \(touch)") }
        notes.append("clone \(node): \(slots) slots, none held, BTN_TOUCH \(touch)")
    }
}

extension String {
    func components(_ needle: String) -> Int { split(separator: "\n").filter { $0.contains(needle) }.count }
}
