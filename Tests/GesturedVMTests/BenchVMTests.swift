import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `make bench-vm`'s program (`gestured-vm-bench`, docs/PERFORMANCE.md "Kernel guest"), run small
/// with the debug build: a smoke run without thresholds, so the benchmark cannot rot. It fails
/// when the bench cannot produce a figure, never on a figure's value.
@Suite(.enabled(if: VMGuest.isGuest, VMGuest.skipReason), .serialized)
struct BenchVMTests {
    @Test func theKernelBenchMeasuresEveryReader() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-vm-bench-smoke")
        let result = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured-vm-bench",
                                        ["--gestured", VMGuest.gestured, "--frames", "100", "--rounds", "1", "--rate", "50",
                                         "--taps", "5", "--out", directory.path],
                                        in: directory.path, deadline: deadline(milliseconds: 180_000))
        try #require(result.termination == .exited(0) && !result.timedOut,
                     "gestured-vm-bench: \(result.termination)\n\(result.stdout)\n\(result.stderr)")
        var figures: [String: String] = [:]
        for line in try readTextFile(path: directory.path + "/bench-vm.figures").split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { figures[String(parts[0])] = String(parts[1]) }
        }
        for reader in ["libinput", "lisgd", "gestured_client", "gestured_noclient", "gestured_nogestures", "cat"] {
            #expect(figures["segments.\(reader)"] == "1", "\(figures)")
            #expect((Double(figures["cpu_us_per_frame.\(reader)"] ?? "") ?? 0) > 0, "\(reader): \(figures)")
            #expect((Double(figures["wakeups_per_frame.\(reader)"] ?? "") ?? 0) > 0, "\(reader): \(figures)")
        }
        #expect(figures["ratio.libinput"] == "1.000")
        // The client receives lines unless the kernel dropped the daemon's events (a loaded host
        // can stall the guest past the evdev buffer): then the table says so.
        #expect(Int(figures["client_lines"] ?? "") ?? 0 > 0 || Int(figures["drops.gestured_client"] ?? "") ?? 0 > 0, "\(figures)")
        #expect(figures["taps"] == "5")
        for key in ["gestured.median", "gestured.p99", "libinput.median", "libinput.p99"] {
            #expect((Int64(figures["tap_latency_us.\(key)"] ?? "") ?? -1) >= 0, "\(key): \(figures)")
        }
        let table = try readTextFile(path: directory.path + "/bench-vm.txt")
        #expect(table.contains("| libinput debug-events --quiet |"), "\(table)")
        #expect(table.contains("| lisgd |"), "\(table)")
        print(table)
        if let results = VMGuest.results {
            try TestEnvironment.writeFile(path: results + "/bench-vm.txt", "smoke run (debug build, 100 frames at 50 frames/s, no thresholds):\n" + table)
        }
    }
}
