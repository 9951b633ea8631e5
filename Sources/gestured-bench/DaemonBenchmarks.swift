import GesturedBenchKit
import GesturedTestSupport
import Glibc

/// Figures of the daemon and `gestured replay` as processes.
enum DaemonBenchmarks {
    static func run(options: BenchOptions, log: (String) -> Void) -> [Figure] {
        []
    }
}
