import GesturedBenchKit
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

/// The latency figure: the daemon under umockdev with a synthetic touchscreen and eight clients.
extension DaemonBenchmarks {
    /// The daemon under umockdev-run with the synthetic touchscreen replaying a one-finger pan
    /// at 90 frames/s for `seconds`, 256 views, 8 clients reading every line; then one client
    /// asks for `stats`: the daemon's own histogram of read-to-written latency, and its RSS
    /// after the run.
    static func latencyUnderUmockdev(_ gestured: String, scratch: String, seconds: Int = 8,
                                     log: (String) -> Void) throws -> [Figure] {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            log("  umockdev-run not installed (make deps); skipping the latency figure")
            return []
        }
        let node = "/dev/input/event7"
        guard let description = try EvemuRecording.parse(deviceDescription, sysname: "event7").description else {
            throw BenchError("the device description does not parse")
        }
        let files = UmockdevDevice.files(for: description, node: node)
        let umockdev = scratch + "/device.umockdev", ioctl = scratch + "/device.ioctl"
        let events = scratch + "/pan.events", config = scratch + "/latency.json5"
        try TestEnvironment.writeFile(path: umockdev, files.umockdev)
        try TestEnvironment.writeFile(path: ioctl, files.ioctl)
        try TestEnvironment.writeFile(path: config, configurationText(views: 256))
        try writeBytes(path: events, Array(panEvents(seconds: seconds).utf8))
        let socket = scratch + "/latency.sock"
        let process = try Subprocess("timeout", ["-s", "KILL", "60", umockdevRun, "-d", umockdev, "-i", "\(node)=\(ioctl)",
                                                 "-e", "\(node)=\(events)", "--",
                                                 gestured, "run", "--socket", socket, "--config", config],
                                     stdout: .discard, stderr: .discard)
        defer {
            process.killGroup(SIGTERM)
            _ = try? process.wait(deadline: deadline(milliseconds: 5_000))
        }
        var clients: [LineClient] = []
        for _ in 0..<8 {
            let client = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))
            clients.append(client)
        }
        log("  latency: umockdev replaying \(seconds) s of pan at 90 frames/s to 8 clients…")
        // Every client reads every line until the pan ends.
        var ended = false, lines = 0
        let limit = deadline(milliseconds: Int64(seconds + 20) * 1000)
        while !ended, MonotonicClock.now() < limit {
            for client in clients {
                while let line = try client.readLine(deadline: deadline(milliseconds: 1)) {
                    lines += 1
                    if line.hasPrefix("gesture pan ended") { ended = true }
                }
            }
        }
        guard ended else { throw BenchError("the pan never ended under umockdev (\(lines) lines)") }
        try clients[0].send(line: "stats")
        var stats: String?
        while stats == nil, let line = try clients[0].readLine(deadline: deadline(milliseconds: 5_000)) {
            if line.hasPrefix("stats ") { stats = line }
        }
        guard let stats else { throw BenchError("no stats line") }
        var fields: [String: Double] = [:]
        for term in stats.split(separator: " ").dropFirst() {
            let kv = term.split(separator: "=")
            if kv.count == 2, let v = Double(kv[1]) { fields[String(kv[0])] = v }
        }
        log("  latency: \(stats)")
        let pid = process.descendants().first { $0.name == "gestured" }?.pid
        var figures: [Figure] = []
        for (key, name) in [("p50Us", "p50"), ("p99Us", "p99"), ("maxUs", "max")] {
            var f = Figure(name: "daemon latency read → 8 clients written, \(name)", unit: "µs",
                           samples: fields[key].map { [$0] } ?? [])
            f.note = "the daemon's own histogram over \(Int(fields["reads"] ?? 0)) reads, 256 views"
            if key == "p99Us" { f.target = "≤ 100 µs"; f.met = f.median <= 100 }
            figures.append(f)
        }
        if let pid {
            let rss = Double(status(pid)["VmRSS"] ?? 0) / 1024
            var f = Figure(name: "RSS under umockdev after the pan, 256 views, 8 clients", unit: "MB", samples: [rss])
            f.target = "≤ 15 MB"; f.met = rss <= 15
            figures.append(f)
        }
        return figures
    }

    /// An evemu recording for umockdev: an empty frame at 0, then from 2 s a one-finger pan
    /// at 90 frames/s. Every timestamp's microseconds are 0 or ≥ 100000, because umockdev 0.17
    /// reads microseconds with a leading zero as octal (docs/TESTING.md).
    static func panEvents(seconds: Int) -> String {
        var text = "# EVEMU 1.3\nE: 0.000000 0000 0000 0\n"
        var first = true
        for second in 2..<(2 + seconds) {
            for k in 0..<90 {
                let t = "\(second).\(100_000 + k * 10_000)"
                let i = Double((second - 2) * 90 + k)
                let x = Int(2048 + 1200 * sin(i / 40)), y = Int(2048 + 900 * sin(1.3 * i / 40))
                if first {
                    text += "E: \(t) 0003 0039 1\n"
                    first = false
                }
                text += "E: \(t) 0003 0035 \(x)\nE: \(t) 0003 0036 \(y)\nE: \(t) 0000 0000 0\n"
            }
        }
        text += "E: \(2 + seconds).100000 0003 0039 -1\nE: \(2 + seconds).100000 0000 0000 0\n"
        return text
    }
}
