import GesturedBenchKit
import GesturedCore
import GesturedIO
import Glibc

/// Read-to-write time of a pass-through device (issue 12): per frame, from the frame's events
/// in hand (where the daemon's one `read(2)` leaves them) through the pipeline, the line
/// encoding and the clone's events, to the `write(2)` of those events. Written to /dev/null:
/// there is no uinput here, so the kernel's own uinput work is not counted (the kernel guest's
/// `forwardingLatency` test measures the whole path, kernel stamps to kernel stamps).
enum ForwardingBenchmarks {
    /// The daemon's target for its part of forwarding (issue 12, "Speed").
    static let targetP99Microseconds = 50.0

    static func run(runs: Int, log: (String) -> Void) throws -> [Figure] {
        guard let sink = try? FileDescriptor.open("/dev/null", flags: O_WRONLY) else {
            return [Figure(name: "pass-through read-to-write p99", unit: "µs", samples: [], note: "cannot open /dev/null")]
        }
        defer { try? sink.close() }
        var figures: [Figure] = []
        for scenario in Scenario.all where scenario.passThrough {
            let stream = FrameStream.generate(scenario.gesture, frames: CoreBenchmarks.frames)
            var p50s: [Double] = [], p99s: [Double] = [], written = 0
            var durations = [UInt64](repeating: 0, count: stream.frames.count)
            var buffer = [KernelEvent](repeating: KernelEvent(), count: 0)
            buffer.reserveCapacity(256)
            for run in 0...runs {
                var runner = try CoreRunner(scenario)
                for (index, frame) in stream.frames.enumerated() {
                    let start = Clock.nanoseconds()
                    runner.run(stream.events[frame.range])
                    if !runner.cloneEvents.isEmpty {
                        buffer.removeAll(keepingCapacity: true)
                        for e in runner.cloneEvents { buffer.append(KernelEvent(type: e.type, code: e.code, value: e.value)) }
                        let size = buffer.count * MemoryLayout<KernelEvent>.stride
                        let count = buffer.withUnsafeBytes { bytes in
                            try? GesturedIO.syscall("write", onInterrupt: .retry) { Glibc.write(sink.rawValue, bytes.baseAddress, size) }
                        }
                        written += count == size ? 1 : 0
                    }
                    durations[index] = Clock.nanoseconds() - start
                }
                guard run > 0 else { continue }   // the first run warms up
                let sorted = durations.sorted()
                p50s.append(Double(sorted[sorted.count / 2]) / 1000)
                p99s.append(Double(sorted[sorted.count * 99 / 100]) / 1000)
            }
            let p50 = Figure(name: "", unit: "", samples: p50s).median
            var figure = Figure(name: "pass-through read-to-write p99, \(scenario)", unit: "µs", samples: p99s)
            figure.target = "≤ \(Format.number(targetP99Microseconds)) µs"
            figure.met = figure.median <= targetP99Microseconds
            figure.note = "p50 \(Format.number(p50)) µs; \(written) clone writes (to /dev/null: no kernel uinput work)"
            log("  \(Format.pad(scenario.description, 38)) p50 \(Format.number(p50)) µs  p99 \(Format.number(figure.median)) µs")
            figures.append(figure)
        }
        return figures
    }

    /// The kernel's `struct input_event` on 64-bit Linux: 16 bytes of time, type, code, value.
    struct KernelEvent {
        var seconds = 0, microseconds = 0
        var type: UInt16 = 0, code: UInt16 = 0
        var value: Int32 = 0
    }
}
