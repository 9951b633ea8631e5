import CBenchSupport
import GesturedBenchKit
import GesturedCore
import Testing

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
    @Test(arguments: Scenario.all.filter { $0.views == 256 })
    func steadyFramesDoNotAllocate(_ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: 600)
        var runner = try CoreRunner(scenario)
        runner.run(stream)
        var allocations: UInt64 = 0
        for frame in stream.frames where frame.isSteady {
            let before = bench_thread_allocations()
            runner.run(stream.events[frame.range])
            allocations += bench_thread_allocations() - before
        }
        #expect(allocations == 0, "\(scenario): \(allocations) allocations over the steady frames")
    }
}

#if DEBUG
private let optimizedBuild = false
#else
private let optimizedBuild = true
#endif
