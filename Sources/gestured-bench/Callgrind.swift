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

    static func measure(_ scenario: Scenario, log: (String) -> Void) -> Result {
        guard let valgrind = TestEnvironment.which("valgrind") else {
            return Result(scenario: scenario.description, instructionsPerFrame: nil, frames: 0, note: "valgrind not installed")
        }
        let directory = "/tmp/gestured-bench-callgrind-\(getpid())"
        mkdir(directory, 0o755)
        defer { _ = removeDirectory(directory) }
        let out = directory + "/callgrind.out"
        do {
            let run = try Subprocess.run(valgrind, ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=" + out,
                                                    selfPath(), "callgrind-child", scenario.gesture.rawValue,
                                                    String(scenario.views), scenario.recognizers.rawValue],
                                         in: directory, deadline: deadline(milliseconds: 180_000))
            let frames = run.stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            let text = try readTextFile(path: out)
            // `totals:` is the whole profile; `summary:` is what the last dump held (0 after a stop).
            let totals = text.split(separator: "\n").last { $0.hasPrefix("totals:") }
            guard let totals, let ir = totals.split(separator: " ").dropFirst().first.flatMap({ Double($0) }), frames > 0 else {
                return Result(scenario: scenario.description, instructionsPerFrame: nil, frames: frames,
                              note: "no totals in callgrind output: \(run.stderr.suffix(300))")
            }
            let result = Result(scenario: scenario.description, instructionsPerFrame: ir / Double(frames), frames: frames,
                                note: "")
            log("  \(scenario): \(Format.number(ir / Double(frames))) instructions/frame over \(frames) frames")
            return result
        } catch {
            return Result(scenario: scenario.description, instructionsPerFrame: nil, frames: 0, note: "\(error)")
        }
    }
}

func selfPath() -> String { TestEnvironment.executablePath ?? CommandLine.arguments[0] }

/// Removes a scratch directory of the benchmark's.
func removeDirectory(_ path: String) -> Bool {
    (try? Subprocess("rm", ["-rf", path]).wait(deadline: deadline(milliseconds: 10_000))) != nil
}
