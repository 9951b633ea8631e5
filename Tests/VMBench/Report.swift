import GesturedCore
import GesturedTestSupport

extension KernelBench {
    /// The table `make bench-vm` prints (Markdown, so it can go into docs/PERFORMANCE.md as it
    /// is); the same figures as key/value pairs go to `figures`, for the smoke test.
    func table(segments: [Segment], latency: (gestured: [Int64], libinput: [Int64])) -> String {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        func perFrame(_ segment: Segment) -> Double { Double(segment.counters.cpuNanoseconds) / Double(segment.frames) / 1000 }
        let framesPerSegment = segments.first?.frames ?? 0
        let baseline = median(segments.filter { $0.reader == .libinput }.map(perFrame))
        var figures: [(key: String, value: String)] = [("frames_per_segment", "\(framesPerSegment)"), ("rounds", "\(options.rounds)"),
                                                       ("rate", "\(options.rate)")]
        var text = "gestured-vm-bench: ten moving fingers at \(options.rate) frames/s, \(options.rounds) × \(framesPerSegment) frames "
            + "per reader, the readers one at a time in rotated rounds; CPU per frame is the median over the rounds\n\n"
            + "| reader | CPU per frame | min–max | relative to libinput | wakeups per frame | frames late | kernel drops |\n"
            + "|---|---:|---:|---:|---:|---:|---:|\n"
        for reader in Reader.allCases {
            let mine = segments.filter { $0.reader == reader }
            let costs = mine.map(perFrame)
            let cost = median(costs), ratio = cost / baseline
            let frames = mine.reduce(0) { $0 + $1.frames }
            let wakeups = median(mine.map { Double($0.counters.voluntarySwitches) / Double($0.frames) })
            let lines = mine.reduce(0) { $0 + $1.lines }, late = mine.reduce(0) { $0 + $1.late }, drops = mine.reduce(0) { $0 + $1.drops }
            let name = reader == .gesturedClient ? reader.name + " (\(fixed(Double(lines) / Double(frames), 2)) lines/frame)" : reader.name
            text += "| \(name) | \(fixed(cost, 1)) µs | \(fixed(costs.min() ?? 0, 1))–\(fixed(costs.max() ?? 0, 1)) "
                + "| \(fixed(ratio, 2)) | \(fixed(wakeups, 2)) | \(late) | \(reader.isGestured ? "\(drops)" : "not seen") |\n"
            figures += [("cpu_us_per_frame.\(reader.key)", fixed(cost, 1)), ("ratio.\(reader.key)", fixed(ratio, 3)),
                        ("wakeups_per_frame.\(reader.key)", fixed(wakeups, 3)), ("late_frames.\(reader.key)", "\(late)"),
                        ("segments.\(reader.key)", "\(mine.count)")]
            if reader == .gesturedClient { figures.append(("client_lines", "\(lines)")) }
            if reader.isGestured { figures.append(("drops.\(reader.key)", "\(drops)")) }
        }
        let gestured = latency.gestured.sorted(), libinput = latency.libinput.sorted()
        let difference = percentile(gestured, 0.5) - percentile(libinput, 0.5)
        text += "\nTap latency, the kernel's stamp of the lift → the line read by the reader's consumer, "
            + "\(gestured.count) taps, both readers on the device at the same time:\n\n"
            + "| reader | median | p99 |\n|---|---:|---:|\n"
            + "| gestured, tap line → client | \(ms(percentile(gestured, 0.5))) | \(ms(percentile(gestured, 0.99))) |\n"
            + "| libinput debug-events, TOUCH_UP → stdout | \(ms(percentile(libinput, 0.5))) | \(ms(percentile(libinput, 0.99))) |\n"
            + "| gestured − libinput, medians | \(difference >= 0 ? "+" : "−")\(ms(abs(difference))) | |\n\n"
            + "The tap daemon's own time from each device read to its lines written (its `stats`): \(tapStats)"
        figures += [("taps", "\(gestured.count)"),
                    ("tap_latency_us.gestured.median", "\(percentile(gestured, 0.5))"),
                    ("tap_latency_us.gestured.p99", "\(percentile(gestured, 0.99))"),
                    ("tap_latency_us.libinput.median", "\(percentile(libinput, 0.5))"),
                    ("tap_latency_us.libinput.p99", "\(percentile(libinput, 0.99))")]
        self.figures = figures
        return text
    }

    /// Microseconds as "1.23 ms".
    private func ms(_ microseconds: Int64) -> String { fixed(Double(microseconds) / 1000, 2) + " ms" }

    /// `value` with `digits` decimals, as gesture lines write numbers.
    private func fixed(_ value: Double, _ digits: Int) -> String { LineEncoder.fixed(value, decimals: digits) }
}
