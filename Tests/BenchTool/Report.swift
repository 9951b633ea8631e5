import GesturedBenchKit
import GesturedIO
import GesturedTestSupport
import Glibc

struct BenchOptions {
    var runs = 7
    var coreOnly = false
    var daemonOnly = false

    var outDirectory = "bench-results"
    /// Where `gestured` is: by default next to this executable.
    var binDirectory: String?
}

/// Everything measured in one run: printed as a table, written as JSON.
struct Report {
    var options: BenchOptions
    var core: [CoreBenchmarks.Result] = []
    var hitTest: [Figure] = []
    var soak: Figure?
    /// Pass-through read-to-write time per scenario (`ForwardingBenchmarks`).
    var forwarding: [Figure] = []
    var callgrind: Callgrind.Result?
    /// `gestured replay` of the ten-finger recording under callgrind (`Callgrind.replay`).
    var callgrindReplay: Callgrind.Result?
    var daemon: [Figure] = []
    var seconds = 0.0

    /// The headline figure: a 10-touch frame, 256 views, 20 recognizers.
    var headline: CoreBenchmarks.Result? {
        core.first { $0.scenario.gesture == .chaos10 && $0.scenario.views == 256 && $0.scenario.recognizers == .twenty }
    }

    func table() -> String {
        var lines: [String] = []
        lines.append("| scenario | µs/frame median | min–max | MAD | allocs/frame | allocs/steady frame |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        for r in core {
            lines.append("| \(r.scenario) | \(Format.number(r.perFrame.median)) | \(Format.number(r.perFrame.minimum))–\(Format.number(r.perFrame.maximum)) | \(Format.number(r.perFrame.mad)) | \(Format.number(r.allocationsPerFrame)) | \(Format.number(r.allocationsPerSteadyFrame)) |")
        }
        lines.append("")
        lines.append("| figure | median | min–max | MAD | unit | target | met |")
        lines.append("|---|---:|---:|---:|---|---|---|")
        var figures: [Figure] = []
        if let h = headline {
            var f = h.perFrame
            f.name = "core, 10-touch frame, 256 views, 20 recognizers"
            f.target = "≤ 5 µs"; f.met = f.median <= 5
            figures.append(f)
            figures.append(Figure(name: "allocations per steady frame (max over scenarios)", unit: "allocs",
                                  samples: [core.map(\.allocationsPerSteadyFrame).max() ?? 0],
                                  target: "0", met: core.allSatisfy { $0.allocationsPerSteadyFrame == 0 }))
        }
        if let c = callgrind {
            var f = Figure(name: "callgrind \(c.scenario)", unit: "instructions/frame",
                           samples: c.instructionsPerFrame.map { [$0] } ?? [], note: c.note)
            f.target = "≤ 45,000"; f.met = c.instructionsPerFrame.map { $0 <= 45_000 }
            figures.append(f)
        }
        if let c = callgrindReplay {
            var f = Figure(name: "callgrind \(c.scenario)", unit: "instructions/frame",
                           samples: c.instructionsPerFrame.map { [$0] } ?? [], note: c.note)
            f.target = "≤ 30,000"; f.met = c.instructionsPerFrame.map { $0 <= 30_000 }
            figures.append(f)
        }
        figures += hitTest
        figures += forwarding
        if let soak { figures.append(soak) }
        figures += daemon
        for f in figures {
            let met = f.met.map { $0 ? "yes" : "**no**" } ?? ""
            lines.append("| \(f.name) | \(Format.number(f.median)) | \(Format.number(f.minimum))–\(Format.number(f.maximum)) | \(Format.number(f.mad)) | \(f.unit) | \(f.target) | \(met)\(f.note.isEmpty ? "" : " (\(f.note))") |")
        }
        lines.append("")
        lines.append("bench took \(Format.number(seconds)) s")
        return lines.joined(separator: "\n")
    }

    func json(commit: String, machine: [(String, String)]) -> String {
        func figure(_ f: Figure) -> String {
            "{\"name\":\(Format.json(f.name)),\"unit\":\(Format.json(f.unit)),\"median\":\(Format.jsonNumber(f.median)),"
                + "\"min\":\(Format.jsonNumber(f.minimum)),\"max\":\(Format.jsonNumber(f.maximum)),\"mad\":\(Format.jsonNumber(f.mad)),"
                + "\"runs\":\(f.samples.count),\"target\":\(Format.json(f.target)),"
                + "\"met\":\(f.met.map { $0 ? "true" : "false" } ?? "null"),\"note\":\(Format.json(f.note))}"
        }
        var out = "{\n\"commit\":\(Format.json(commit)),\n\"machine\":{"
        out += machine.map { "\(Format.json($0.0)):\(Format.json($0.1))" }.joined(separator: ",") + "},\n"
        out += "\"seconds\":\(seconds),\n\"core\":[\n"
        out += core.map { r in
            "{\"scenario\":\(Format.json(r.scenario.description)),\"gesture\":\(Format.json(r.scenario.gesture.rawValue)),"
                + "\"views\":\(r.scenario.views),\"recognizers\":\(Format.json(r.scenario.recognizers.rawValue)),"
                + "\"frames\":\(r.frames),\"steadyFrames\":\(r.steadyFrames),\"lines\":\(r.lines),"
                + "\"allocationsPerFrame\":\(r.allocationsPerFrame),\"allocationsPerSteadyFrame\":\(r.allocationsPerSteadyFrame),"
                + "\"perFrame\":\(figure(r.perFrame))}"
        }.joined(separator: ",\n")
        func callgrind(_ c: Callgrind.Result?) -> String {
            guard let c else { return "null" }
            return "{\"scenario\":\(Format.json(c.scenario)),\"instructionsPerFrame\":\(c.instructionsPerFrame.map { "\($0)" } ?? "null"),"
                + "\"frames\":\(c.frames),\"note\":\(Format.json(c.note))}"
        }
        out += "],\n\"callgrind\":" + callgrind(self.callgrind)
        out += ",\n\"callgrindReplay\":" + callgrind(callgrindReplay)
        out += ",\n\"hitTest\":[" + hitTest.map(figure).joined(separator: ",\n") + "],\n"
        out += "\"soak\":" + (soak.map(figure) ?? "null") + ",\n"
        out += "\"forwarding\":[" + forwarding.map(figure).joined(separator: ",\n") + "],\n"
        out += "\"daemon\":[" + daemon.map(figure).joined(separator: ",\n") + "]\n}\n"
        return out
    }

    /// Writes bench-results/<time>-<commit>.json and returns its path.
    func writeJSON() -> String {
        let commit = shell("git", ["rev-parse", "--short=12", "HEAD"]).trimmed
        let dirty = shell("git", ["status", "--porcelain", "--untracked-files=no"]).trimmed.isEmpty ? "" : "+dirty"
        var machine: [(String, String)] = []
        machine.append(("uname", shell("uname", ["-srm"]).trimmed))
        machine.append(("hostname", shell("hostname", []).trimmed))
        let cpu = (try? readTextFile(path: "/proc/cpuinfo")) ?? ""
        let model = cpu.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last ?? ""
        machine.append(("cpu", String(model).trimmed))
        machine.append(("cores", String(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        machine.append(("swift", shell("swift", ["--version"]).split(separator: "\n").first.map(String.init) ?? ""))
        mkdir(options.outDirectory, 0o755)
        var ts = timespec(); clock_gettime(CLOCK_REALTIME, &ts)
        let path = "\(options.outDirectory)/bench-\(ts.tv_sec)-\(commit)\(dirty).json"
        try? TestEnvironment.writeFile(path: path, json(commit: commit + dirty, machine: machine))
        return path
    }
}

/// A command's stdout ("" when it cannot run).
func shell(_ command: String, _ arguments: [String]) -> String {
    let directory = "/tmp/gestured-bench-shell-\(getpid())"
    mkdir(directory, 0o755)
    defer { _ = removeDirectory(directory) }
    guard let path = TestEnvironment.which(command),
          let run = try? Subprocess.run(path, arguments, in: directory, deadline: deadline(milliseconds: 20_000)) else { return "" }
    return run.stdout
}

extension StringProtocol {
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed())
    }
}
