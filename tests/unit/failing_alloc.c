/* An allocator for the unit tests that fails on request: malloc, calloc and
 * realloc of the test program, passed to glibc's until unit_fail_allocation
 * arms it, then failing the n-th allocation from there on (once).  Not with
 * AddressSanitizer, whose own allocator these would bypass
 * (unit_allocation_failures_testable says so). */
#include <stddef.h>

#include "suites.h"

#if defined(__SANITIZE_ADDRESS__)
int unit_allocation_failures_testable(void) { return 0; }
void unit_fail_allocation(int nth) { (void)nth; }
#else
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static int countdown; /* 0: none fails */

static int fails(void) { return countdown > 0 && --countdown == 0; }

void *malloc(size_t size) { return fails() ? NULL : __libc_malloc(size); }
void *calloc(size_t n, size_t size) { return fails() ? NULL : __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { return fails() ? NULL : __libc_realloc(p, size); }

int unit_allocation_failures_testable(void) { return 1; }
void unit_fail_allocation(int nth) { countdown = nth; }
#endif
