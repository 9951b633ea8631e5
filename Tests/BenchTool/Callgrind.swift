import GesturedBenchKit
import GesturedIO
import GesturedTestSupport
import Glibc

/// Instructions per frame under `valgrind --tool=callgrind`: repeatable where wall time is not.
enum Callgrind {
    struct Result {
        var scenario: String
        var instructionsPerFrame: Double?
        var frames: Int
        var note: String
    }

    /// The core's scenario in this process's `callgrind-child`: the measured pass only, between
    /// client requests (`--instr-atstart=no`), after a warm-up pass.
    static func measure(_ scenario: Scenario, log: (String) -> Void) -> Result {
        run(scenario.description, ["--instr-atstart=no", selfPath(), "callgrind-child", scenario.gesture.rawValue,
                                   String(scenario.views), scenario.recognizers.rawValue], log: log) { stdout, _ in
            // The child prints "frames N steady M lines L".
            stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }
    }

    /// The frames of the ten-finger recording `replay` measures (25 sequences of 1,202 frames).
    static let replayFrames = 30_000

    /// `gestured replay` over the ten-finger recording of `make bench` (30,050 frames, a pan, a
    /// pinch and a rotation recognized together: 2.85 lines a frame), the whole command counted
    /// (start-up, reading and parsing the evemu text, the pipeline, encoding, writing the lines
    /// to /dev/null) and divided by the frames; start-up is about 100 instructions of a frame.
    static func replay(_ gestured: String, log: (String) -> Void) -> Result {
        let directory = "/tmp/gestured-bench-callgrind-replay-\(getpid())"
        mkdir(directory, 0o755)
        defer { _ = removeDirectory(directory) }
        let recording = directory + "/ten-fingers.events"
        let frames: Int
        do {
            frames = try DaemonBenchmarks.writeTenFingers(frames: replayFrames, path: recording)
        } catch {
            return Result(scenario: "replay, ten fingers", instructionsPerFrame: nil, frames: 0, note: "\(error)")
        }
        return run("replay, ten fingers, \(Format.number(Double(frames))) frames",
                   [gestured, "replay", "--config", recording + ".json5", "--description", recording + ".desc", recording],
                   log: log) { _, _ in frames }
    }

    /// Runs `valgrind --tool=callgrind ARGUMENTS` and divides the profile's total by the frames
    /// `frames` reads from the run's output.
    private static func run(_ name: String, _ arguments: [String], log: (String) -> Void,
                            frames: (String, String) -> Int) -> Result {
        guard let valgrind = TestEnvironment.which("valgrind") else {
            return Result(scenario: name, instructionsPerFrame: nil, frames: 0, note: "valgrind not installed")
        }
        let directory = "/tmp/gestured-bench-callgrind-\(getpid())"
        mkdir(directory, 0o755)
        defer { _ = removeDirectory(directory) }
        let out = directory + "/callgrind.out"
        do {
            let run = try Subprocess.run(valgrind, ["--tool=callgrind", "--callgrind-out-file=" + out] + arguments,
                                         in: directory, deadline: deadline(milliseconds: 300_000))
            let frames = frames(run.stdout, run.stderr)
            let text = try readTextFile(path: out)
            // `totals:` is the whole profile; `summary:` is what the last dump held (0 after a stop).
            let totals = text.split(separator: "\n").last { $0.hasPrefix("totals:") }
            guard run.termination == .exited(0), let totals, frames > 0,
                  let ir = totals.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else {
                return Result(scenario: name, instructionsPerFrame: nil, frames: frames,
                              note: "no totals in callgrind output: \(run.termination) \(run.stderr.suffix(300))")
            }
            log("  \(name): \(Format.number(ir / Double(frames))) instructions/frame over \(frames) frames")
            return Result(scenario: name, instructionsPerFrame: ir / Double(frames), frames: frames, note: "")
        } catch {
            return Result(scenario: name, instructionsPerFrame: nil, frames: 0, note: "\(error)")
        }
    }
}

func selfPath() -> String { TestEnvironment.executablePath ?? CommandLine.arguments[0] }

/// Removes a scratch directory of the benchmark's.
func removeDirectory(_ path: String) -> Bool {
    (try? Subprocess("rm", ["-rf", path]).wait(deadline: deadline(milliseconds: 10_000))) != nil
}
