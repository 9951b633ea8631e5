import CBenchSupport
import GesturedBenchKit
import GesturedCore
import GesturedSynthetic
import GesturedTestSupport
import Glibc

/// Per-frame cost and allocations of the pure core, per scenario.
enum CoreBenchmarks {
    struct Result {
        var scenario: Scenario
        var perFrame: Figure
        var allocationsPerFrame: Double
        var allocationsPerSteadyFrame: Double
        var steadyFrames: Int
        var frames: Int
        var lines: Int
    }

    static let frames = 2_400

    static func run(runs: Int, log: (String) -> Void) throws -> [Result] {
        var results: [Result] = []
        var streams: [Scenario.Gesture: FrameStream] = [:]
        for scenario in Scenario.all {
            let stream = streams[scenario.gesture] ?? FrameStream.generate(scenario.gesture, frames: frames)
            streams[scenario.gesture] = stream
            let (all, steady, steadyFrames, lines, _) = try allocations(scenario, stream)
            // Time: whole streams on fresh pipelines, the first run a warm-up.
            var samples: [Double] = []
            for run in 0...runs {
                var runner = try CoreRunner(scenario)
                let start = Clock.nanoseconds()
                runner.run(stream)
                let elapsed = Clock.nanoseconds() - start
                if run > 0 { samples.append(Double(elapsed) / Double(stream.frames.count) / 1000) }
            }
            let result = Result(scenario: scenario,
                                perFrame: Figure(name: "core \(scenario)", unit: "µs/frame", samples: samples),
                                allocationsPerFrame: Double(all) / Double(stream.frames.count),
                                allocationsPerSteadyFrame: steadyFrames == 0 ? 0 : Double(steady) / Double(steadyFrames),
                                steadyFrames: steadyFrames, frames: stream.frames.count, lines: lines)
            log("  \(Format.pad(scenario.description, 24)) \(Format.pad(Format.number(result.perFrame.median), 8, right: true)) µs/frame"
                + "  allocs/frame \(Format.number(result.allocationsPerFrame)) (steady \(Format.number(result.allocationsPerSteadyFrame)))")
            results.append(result)
        }
        return results
    }

    /// Allocations counted frame by frame on a second pass over the stream, after a first pass has
    /// grown every reused buffer to its working size: over all frames, over the steady ones (only
    /// moves of touches already down), how many steady frames, the lines encoded, and the index
    /// of the first steady frame that allocates.
    static func allocations(_ scenario: Scenario, _ stream: FrameStream) throws
        -> (all: UInt64, steady: UInt64, steadyFrames: Int, lines: Int, firstAllocatingSteadyFrame: Int?) {
        var counted = try CoreRunner(scenario)
        counted.run(stream)
        var all: UInt64 = 0, steady: UInt64 = 0, steadyFrames = 0
        var first: Int?
        for (index, frame) in stream.frames.enumerated() {
            let before = threadAllocations()
            counted.run(stream.events[frame.range])
            let n = threadAllocations() - before
            all += n
            guard frame.isSteady else { continue }
            steady += n; steadyFrames += 1
            if n > 0 && first == nil { first = index }
        }
        return (all, steady, steadyFrames, counted.lines, first)
    }

    /// `alloc-check`: every scenario's steady frames, in this (optimized) build; false when any
    /// allocates. `make test` runs it through `SteadyStateAllocationTests`.
    static func allocationCheck() throws -> Bool {
        var clean = true
        for scenario in Scenario.all {
            let (_, steady, steadyFrames, _, _) = try allocations(scenario, FrameStream.generate(scenario.gesture, frames: frames))
            print("\(scenario): \(steady) allocations over \(steadyFrames) steady frames")
            if steady > 0 || steadyFrames == 0 { clean = false }
        }
        return clean
    }

    /// `alloc-trace`: the first allocating steady frame of the second pass, trapped at its malloc.
    static func allocationTrace(_ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: frames)
        guard let culprit = try allocations(scenario, stream).firstAllocatingSteadyFrame else {
            print("no steady frame allocates"); return
        }
        print("steady frame \(culprit) allocates; trapping there")
        var runner = try CoreRunner(scenario)
        runner.run(stream)
        for (index, frame) in stream.frames.enumerated() {
            if index == culprit { bench_trap_allocations(1) }
            runner.run(stream.events[frame.range])
        }
        print("the allocation did not repeat")
    }

    /// The callgrind child: one warm-up pass, then the measured pass between client requests.
    static func callgrindChild(_ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: 1_200)
        var runner = try CoreRunner(scenario)
        runner.run(stream)
        bench_callgrind_start()
        runner.run(stream)
        bench_callgrind_stop()
        print("frames \(stream.frames.count) steady \(stream.frames.filter(\.isSteady).count) lines \(runner.lines)")
    }

    /// Memory across a long session: 1,000,000 frames (the chaos10/256-view/20-recognizer
    /// stream, over and over, touch ids ever increasing) through one pipeline and encoder in this
    /// process, RSS sampled every 100,000 frames. The daemon itself cannot be fed a million
    /// frames under umockdev in the time a benchmark has (umockdev replays at the recording's
    /// pace, and back-to-back events crawl), so this measures the core's part; the I/O shell's
    /// buffers are bounded by construction (per-client queue limit).
    static func soak(log: (String) -> Void) -> Figure {
        let stream = FrameStream.generate(.chaos10, frames: 2_400)
        guard var runner = try? CoreRunner(Scenario(gesture: .chaos10, views: 256, recognizers: .twenty)) else {
            return Figure(name: "soak", unit: "MB", samples: [], note: "could not build the pipeline")
        }
        runner.run(stream)
        var samples: [Double] = []
        var frames = 0, nextSample = 0
        // RSS after malloc_trim (the memory the process holds, not what glibc keeps cached from
        // the benchmarks that ran before), and its anonymous part (heap and stacks, where a leak
        // would show).
        var anonymous: [Double] = []
        func rss() -> Double {
            bench_malloc_trim()
            let status = DaemonBenchmarks.status(getpid())
            anonymous.append(Double(status["RssAnon"] ?? 0) / 1024)
            return Double(status["VmRSS"] ?? 0) / 1024
        }
        while frames < 1_000_000 {
            if frames >= nextSample {
                samples.append(rss())
                nextSample += 100_000
            }
            runner.run(stream)
            frames += stream.frames.count
        }
        // The last sample with the stream and the pipeline still alive: Swift may end a value's
        // lifetime at its last use, and the stream's events (1.2 MB) freed before this sample
        // once read as a drop.
        withExtendedLifetime((stream, runner)) { samples.append(rss()) }
        let spread = (samples.max() ?? 0) - (samples.min() ?? 0)
        log("  soak: \(frames) frames, RSS \(samples.map { Format.number($0) }.joined(separator: " ")) MB")
        log("  soak: of which anonymous \(anonymous.map { Format.number($0) }.joined(separator: " ")) MB")
        var f = Figure(name: "RSS spread across a 1M-frame soak (core, in process)", unit: "MB", samples: [spread])
        f.target = "±1 MB"; f.met = spread <= 1
        f.note = "\(samples.count) samples, \(Format.number(samples.min() ?? 0))–\(Format.number(samples.max() ?? 0)) MB; "
            + "anonymous \(Format.number(anonymous.min() ?? 0))–\(Format.number(anonymous.max() ?? 0)) MB"
        return f
    }

    /// Hit-testing cost per touch-down, flat and nested trees.
    static func hitTest(runs: Int) -> [Figure] {
        var figures: [Figure] = []
        for (label, views, nested) in [("1 view", 1, false), ("32 views flat", 32, false),
                                       ("256 views flat", 256, false), ("256 views nested 16×16", 256, true)] {
            let tree = ViewTree(views: [nested ? nestedRoot() : flatRoot(views)], screen: Scenario.screen)
            var random = SplitMix64(seed: 7)
            let points = (0..<4096).map { _ in
                Point(x: random.uniform(0, Scenario.screen.width), y: random.uniform(0, Scenario.screen.height))
            }
            var samples: [Double] = []
            var sink = 0
            for run in 0...runs {
                let start = Clock.nanoseconds()
                for _ in 0..<4 { for p in points { sink &+= tree.hitTest(p) ?? -1 } }
                let elapsed = Clock.nanoseconds() - start
                if run > 0 { samples.append(Double(elapsed) / Double(points.count * 4)) }
            }
            precondition(sink != 42)
            figures.append(Figure(name: "hit-test \(label)", unit: "ns/touch-down", samples: samples))
        }
        return figures
    }

    private static func flatRoot(_ views: Int) -> ViewSpec {
        Scenario(gesture: .tap, views: views, recognizers: .defaultSet).configuration(defaultGestures: []).views[0]
    }

    private static func nestedRoot() -> ViewSpec {
        var root = ViewSpec(id: "root")
        let (w, h) = (Scenario.screen.width / 4, Scenario.screen.height / 4)
        for i in 0..<15 {
            var group = ViewSpec(id: "group-\(i)", frame: Rect(x: Double(i % 4) * w, y: Double(i / 4) * h, width: w, height: h))
            for j in 0..<16 {
                group.subviews.append(ViewSpec(id: "leaf-\(i)-\(j)",
                                               frame: Rect(x: Double(j % 4) * w / 4, y: Double(j / 4) * h / 4, width: w / 4, height: h / 4)))
            }
            root.subviews.append(group)
        }
        return root
    }
}
