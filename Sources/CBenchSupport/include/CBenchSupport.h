#ifndef CBENCHSUPPORT_H
#define CBENCHSUPPORT_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, memalign family) made by the calling thread since
/// it started. Counted by the malloc wrappers in AllocationCounter.c, which replace glibc's for the
/// whole process of any executable that links this target, and forward to glibc's `__libc_*`.
uint64_t bench_thread_allocations(void);

/// 1 when the wrappers count; 0 in a build with AddressSanitizer, which owns malloc & co (the
/// counts then stay 0).
int bench_counts_allocations(void);

/// While on, the calling thread's next `malloc` traps (SIGILL), so that a crash backtrace names
/// who allocates (`gestured-bench alloc-trace`).
void bench_trap_allocations(int on);

/// Returns glibc's free memory to the system (`malloc_trim(0)`), before an RSS sample.
void bench_malloc_trim(void);

/// Callgrind client requests (no-ops outside valgrind): the benchmark measures only the region
/// between start and stop when run with `--instr-atstart=no`.
void bench_callgrind_start(void);
void bench_callgrind_stop(void);

#endif
