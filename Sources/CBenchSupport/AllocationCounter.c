// Counts heap allocations per thread, for the benchmark's "allocations per frame" figure.
//
// An executable that links this file defines malloc & co. itself, so the dynamic linker binds
// every library's calls (libswiftCore included) to these, which count and forward to glibc's own
// entry points (`__libc_malloc`, ...). Forwarding there rather than through dlsym(RTLD_NEXT)
// avoids dlsym's own allocation during the first call. The count is thread-local, so a
// measurement on one thread is not disturbed by other threads (a test runner's, for example).
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <malloc.h>
#include <valgrind/callgrind.h>
#include "CBenchSupport.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread uint64_t allocations;
static __thread int trap_allocations;

uint64_t bench_thread_allocations(void) { return allocations; }

void bench_trap_allocations(int on) { trap_allocations = on; }

// Under AddressSanitizer (`make test-sanitize`) the sanitizer owns malloc & co: defining them here
// as well made its initialization call these before thread-local storage exists, and every
// process linking this file crashed at start. There nothing is counted (the counts stay 0), and
// bench_counts_allocations() says so.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define BENCH_UNDER_ASAN 1
#endif

#ifdef BENCH_UNDER_ASAN
int bench_counts_allocations(void) { return 0; }
#else
int bench_counts_allocations(void) { return 1; }

void *malloc(size_t size) {
    if (trap_allocations) __builtin_trap();
    allocations++;
    return __libc_malloc(size);
}
void *calloc(size_t n, size_t size) { allocations++; return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { allocations++; return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { allocations++; return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { allocations++; return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    allocations++;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
#endif

void bench_malloc_trim(void) { malloc_trim(0); }

void bench_callgrind_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void bench_callgrind_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
