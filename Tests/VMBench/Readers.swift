import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

/// What the kernel has counted for a process, summed over its threads.
struct ProcessCounters {
    /// CPU time on the CPU, user and system: the first field of `/proc/PID/task/TID/schedstat`,
    /// the scheduler's `sum_exec_runtime` in nanoseconds. It is the quantity `utime + stime`
    /// of `/proc/PID/stat` adds up to (the kernel scales those two so that their sum is this
    /// runtime), at nanosecond rather than 10 ms resolution.
    var cpuNanoseconds: Int64 = 0
    /// `voluntary_ctxt_switches`: how often the process blocked, i.e. its wakeups.
    var voluntarySwitches: Int64 = 0

    static func - (a: ProcessCounters, b: ProcessCounters) -> ProcessCounters {
        ProcessCounters(cpuNanoseconds: a.cpuNanoseconds - b.cpuNanoseconds, voluntarySwitches: a.voluntarySwitches - b.voluntarySwitches)
    }

    /// The counters of `pid` now; nil when the process is gone or the kernel lacks schedstat.
    static func read(_ pid: pid_t) -> ProcessCounters? {
        var counters = ProcessCounters()
        guard let tasks = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(tasks) }
        var threads = 0
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil else { continue }
            let task = "/proc/\(pid)/task/\(name)"
            guard let schedstat = try? readTextFile(path: task + "/schedstat", limit: 4096),
                  let runtime = schedstat.split(separator: " ").first.flatMap({ Int64($0) }),
                  let status = try? readTextFile(path: task + "/status", limit: 16_384) else { continue }
            counters.cpuNanoseconds += runtime
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
                counters.voluntarySwitches += Int64(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
            threads += 1
        }
        return threads > 0 ? counters : nil
    }
}

/// Waits for a moment the bench cannot be told about: a reader that prints nothing has opened the
/// device, or every reader has finished with what was written. These are measurements of other
/// processes, sampled every 50 ms (the bench is not a test: it may wait for quiet).
enum Settle {
    static func pause(milliseconds: Int32) { _ = poll(nil, 0, milliseconds) }

    /// How long a reader may take to open the device, answer, or go quiet: 30 s, ten times
    /// that for a daemon run under GESTURED_VM_BENCH_WRAP (valgrind starts slowly in the guest).
    static let patience: Int64 = getenv("GESTURED_VM_BENCH_WRAP") == nil ? 30_000 : 300_000

    /// Until `pid` holds a descriptor on `node` (it opened the device), within `patience`.
    static func untilOpened(_ pid: pid_t, _ node: String, what: String) throws(BenchFailure) {
        let limit = deadline(milliseconds: Settle.patience)
        while MonotonicClock.now() < limit {
            if let fds = opendir("/proc/\(pid)/fd") {
                defer { closedir(fds) }
                while let entry = readdir(fds) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    var target = [CChar](repeating: 0, count: 256)
                    let count = readlink("/proc/\(pid)/fd/\(name)", &target, 255)
                    if count > 0, String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == node { return }
                }
            } else {
                throw BenchFailure("\(what) exited before opening \(node)")
            }
            pause(milliseconds: 50)
        }
        throw BenchFailure("\(what) did not open \(node) within \(patience / 1000) s")
    }

    /// Until no process of `pids` has used the CPU over the last 200 ms (four samples), within
    /// `patience`; returns their counters then. `drain` runs before each sample (a client must keep
    /// reading, or its daemon would be kept busy by it).
    static func untilQuiet(_ pids: [pid_t], drain: () -> Void) throws(BenchFailure) -> [ProcessCounters] {
        let limit = deadline(milliseconds: Settle.patience)
        var last: [Int64] = []
        var stable = 0
        while MonotonicClock.now() < limit {
            drain()
            var counters: [ProcessCounters] = []
            for pid in pids {
                guard let read = ProcessCounters.read(pid) else { throw BenchFailure("process \(pid) is gone or /proc/\(pid)/task/*/schedstat is unreadable") }
                counters.append(read)
            }
            let now = counters.map(\.cpuNanoseconds)
            stable = now == last ? stable + 1 : 0
            if stable == 4 { return counters }
            last = now
            pause(milliseconds: 50)
        }
        throw BenchFailure("the readers never went quiet within \(patience / 1000) s")
    }
}

/// Lines from a descriptor (a client socket, a FIFO), with the CLOCK_MONOTONIC moment right after
/// the `read` that completed each.
final class LineSource {
    let descriptor: Int32
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private(set) var lineCount = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads what is there (non-blocking) and hands each complete line with its receipt time to
    /// `line`; `keep` false only counts lines (the CPU phase's client).
    func drain(keep: Bool, _ line: (String, Instant) -> Void) {
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 { if errno == EINTR { continue }; return }
            let received = MonotonicClock.now()
            if keep {
                pending += chunk[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    line(String(decoding: pending[..<newline], as: UTF8.self), received)
                    pending.removeSubrange(...newline)
                    lineCount += 1
                }
            } else {
                for byte in chunk[0..<count] where byte == UInt8(ascii: "\n") { lineCount += 1 }
            }
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A protocol line's `time=SECONDS.MICROSECONDS`, as an instant.
func lineTime(_ line: String) -> Instant? {
    guard let word = line.split(separator: " ").first(where: { $0.hasPrefix("time=") }) else { return nil }
    let parts = word.dropFirst(5).split(separator: ".")
    guard parts.count == 2, let seconds = Int64(parts[0]), parts[1].count == 6, let micros = Int64(parts[1]) else { return nil }
    return Instant(seconds: seconds, microseconds: micros)
}
