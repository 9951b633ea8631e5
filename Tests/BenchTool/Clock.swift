import CBenchSupport
import Glibc

/// The benchmark's wall clock: the only place it reads one.
enum Clock {
    static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// Allocations made by this thread (see CBenchSupport).
func threadAllocations() -> UInt64 { bench_thread_allocations() }
