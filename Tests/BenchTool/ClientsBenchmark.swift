import CBenchSupport
import GesturedBenchKit
import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

/// What one more client costs (the target: 8 clients under 2× one client, in instructions): a
/// step of the pipeline with N clients of the default subscription registered (the core numbers
/// and encodes each line once per distinct subscription, `Batch.delivery`), plus the shell's
/// part without sockets: each part's lines queued into each member's `ClientOutputQueue` with
/// their merges, and the queue emptied as a write that took everything would. Instructions per
/// frame under callgrind, as `callgrind-child` measures the core.
///
///     gestured-bench clients N [GESTURE VIEWS RECOGNIZERS]   (runs valgrind on the child)
///     gestured-bench callgrind-clients N GESTURE VIEWS RECOGNIZERS   (valgrind runs this)
enum ClientsBenchmark {
    static let defaultScenario = Scenario(gesture: .chaos10, views: 256, recognizers: .twenty)

    /// One pass of the stream through the pipeline and the N queues.
    struct Runner {
        var pipeline: GesturePipeline
        let device: GesturePipeline.DeviceID
        var batch: Batch
        var queues: [ClientOutputQueue]
        var lines = 0

        init(_ scenario: Scenario, clients: Int) throws {
            let configuration = scenario.configuration(defaultGestures: ConfigLoader.defaultConfiguration().views.flatMap(\.gestures))
            pipeline = try GesturePipeline(configuration: configuration, screen: Scenario.screen)
            pipeline.reportsTouches = false   // no default client wants touch lines
            var added = Batch()   // a device added before any event decides nothing
            device = try pipeline.addDevice(Scenario.device, into: &added)
            for k in 0..<clients { pipeline.subscribers.connect(ClientKey(UInt64(k))) }
            batch = Batch(for: pipeline)
            queues = Array(repeating: ClientOutputQueue(softLimit: 1 << 16, hardLimit: 1 << 20), count: clients)
        }

        @inline(never)
        mutating func run(_ events: ArraySlice<RawEvent>) {
            pipeline.handle(events, from: device, into: &batch)
            for part in batch.delivery.parts {
                for key in part.members {   // as ClientHub.deliver: trace lines, then the rest
                    _ = queues[Int(key.value)].enqueue(part.traced, of: part.bytes)
                    _ = queues[Int(key.value)].enqueue(part.published, of: part.bytes)
                    lines += part.lines.count
                }
            }
            for k in queues.indices { _ = queues[k].flush { .wrote($0.count) } }
        }

        mutating func run(_ stream: FrameStream) {
            for frame in stream.frames { run(stream.events[frame.range]) }
        }
    }

    /// The callgrind child: one warm-up pass, then the measured pass between client requests.
    static func child(clients: Int, _ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: 1_200)
        var runner = try Runner(scenario, clients: clients)
        runner.run(stream)
        bench_callgrind_start()
        runner.run(stream)
        bench_callgrind_stop()
        print("frames \(stream.frames.count) lines \(runner.lines)")
    }

    /// Instructions per frame with `clients` clients, measured by valgrind on the child.
    static func measure(clients: Int, _ scenario: Scenario) -> Double? {
        guard let valgrind = TestEnvironment.which("valgrind") else { print("valgrind not installed"); return nil }
        let directory = "/tmp/gestured-bench-clients-\(getpid())"
        mkdir(directory, 0o755)
        defer { _ = removeDirectory(directory) }
        let out = directory + "/callgrind.out"
        do {
            let run = try Subprocess.run(valgrind, ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=" + out,
                                                    selfPath(), "callgrind-clients", String(clients), scenario.gesture.rawValue,
                                                    String(scenario.views), scenario.recognizers.rawValue],
                                         in: directory, deadline: deadline(milliseconds: 180_000))
            let frames = run.stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            let totals = try readTextFile(path: out).split(separator: "\n").last { $0.hasPrefix("totals:") }
            guard let totals, let ir = totals.split(separator: " ").dropFirst().first.flatMap({ Double($0) }), frames > 0 else {
                print("no totals in callgrind output: \(run.stderr.suffix(300))")
                return nil
            }
            return ir / Double(frames)
        } catch {
            print("\(error)")
            return nil
        }
    }

    /// `clients N`: 1 client and N clients, and their ratio; and the allocations of a second pass
    /// of the stream with N clients (natively: the buffers keep their capacity, so none).
    static func report(clients: Int, _ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: 1_200)
        /// Allocations of a second pass: in all its frames, and in its steady frames only (what
        /// alloc-check holds at 0).
        func countAllocations(clients: Int) throws -> (all: UInt64, steady: UInt64) {
            var runner = try Runner(scenario, clients: clients)
            runner.run(stream)
            var all: UInt64 = 0, steady: UInt64 = 0
            for frame in stream.frames {
                let before = bench_thread_allocations()
                runner.run(stream.events[frame.range])
                let made = bench_thread_allocations() - before
                all += made
                if frame.isSteady { steady += made }
            }
            return (all, steady)
        }
        let allocations = try countAllocations(clients: clients)
        guard let one = measure(clients: 1, scenario), let many = measure(clients: clients, scenario) else { return }
        print("clients \(scenario): 1 client \(Format.number(one)) instructions/frame, \(clients) clients "
              + "\(Format.number(many)) (\(Format.number(many / one))×); allocations over a second pass of "
              + "\(stream.frames.count) frames with \(clients) clients: \(allocations.all), in its steady frames \(allocations.steady)")
    }
}
