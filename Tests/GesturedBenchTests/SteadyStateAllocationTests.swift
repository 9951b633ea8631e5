import CBenchSupport
import GesturedBenchKit
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// No heap allocation per steady-state frame, in every scenario, in the optimized code the daemon
/// runs: `make test` builds the release `gestured-bench`, and its `alloc-check` counts every
/// steady frame of a second pass over each scenario's stream (all frames run, as in the
/// benchmark) and fails on any allocation. This runs in every `make test`, where the in-process
/// suite below (optimized test builds only) does not.
@Suite struct OptimizedSteadyStateAllocationTests {
    @Test func everyScenarioAllocatesNothingPerSteadyFrame() throws {
        let bench = TestEnvironment.releaseProduct("gestured-bench")
        guard access(bench, X_OK) == 0 else {
            Issue.record("\(bench) is missing: `make test` builds it (swift build -c release --product gestured-bench)")
            return
        }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-alloc-check")
        let run = try Subprocess.run(bench, ["alloc-check"], in: directory.path, deadline: deadline(milliseconds: 120_000))
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == Scenario.all.count, "\(run.stdout)\(run.stderr)")
        #expect(run.termination == .exited(0), "\(lines.filter { !$0.contains(": 0 allocations") }.joined(separator: "\n"))")
    }
}

/// No heap allocation per steady-state frame (moves of touches already down) through the
/// whole core: decode, normalize, route, recognize, arbitrate, encode.
///
/// Counted with CBenchSupport's malloc wrappers, which count per thread: a synchronous test
/// body runs on one thread, so other tests running in parallel do not disturb the count. The
/// stream runs once first, so every reused buffer has grown to its working size.
///
/// Only meaningful for optimized code: a debug build allocates where the optimizer would
/// keep values on the stack, so the test runs in release builds
/// (`swift test -c release -Xswiftc -enable-testing`, `make test-release`) and is skipped in debug.
@Suite(.enabled(if: optimizedBuild, "allocation counts are only meaningful in optimized builds"))
struct SteadyStateAllocationTests {
    @Test(arguments: Scenario.all)
    func steadyFramesDoNotAllocate(_ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: 2_400)
        var runner = try CoreRunner(scenario)
        runner.run(stream)
        var allocations: UInt64 = 0
        for frame in stream.frames {
            let before = bench_thread_allocations()
            runner.run(stream.events[frame.range])
            if frame.isSteady { allocations += bench_thread_allocations() - before }
        }
        #expect(allocations == 0, "\(scenario): \(allocations) allocations over the steady frames")
    }
}

#if DEBUG
private let optimizedBuild = false
#else
private let optimizedBuild = true
#endif
