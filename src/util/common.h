/* Definitions shared by every stage of mpiprof (no MPI, no system headers
 * beyond the standard ones).  Internal names use the mpp_ prefix; all of
 * them have hidden visibility (the library is built with
 * -fvisibility=hidden), only MPP_EXPORT marks what users may call. */
#ifndef MPP_COMMON_H
#define MPP_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define MPP_EXPORT __attribute__((visibility("default")))
#define MPP_LIKELY(x) __builtin_expect(!!(x), 1)
#define MPP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MPP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MPP_ALWAYS_INLINE static inline __attribute__((always_inline))

/* Categories of time inside MPI (characteristics.md).  A request has the
 * category of the call that created it. */
typedef enum { MPP_CAT_SENDRECV = 0, MPP_CAT_COLLECTIVE, MPP_CAT_SYSTEM, MPP_CAT_IO, MPP_NCAT } mpp_category_t;

/* Room for `need` elements of `size` bytes in *array, whose capacity is
 * *capacity: doubled from `first` until it holds them.  0, or -1 when
 * memory ran out (the array is then kept as it was).  Not for the hot path
 * after warm-up: it may allocate. */
static inline int mpp_grow(void **array, size_t *capacity, size_t need, size_t size, size_t first)
{
    if (need <= *capacity)
        return 0;
    size_t n = *capacity ? 2 * *capacity : first;
    while (n < need)
        n *= 2;
    void *grown = realloc(*array, n * size);
    if (!grown)
        return -1;
    *array = grown;
    *capacity = n;
    return 0;
}

/* Deepest call stack an SRC point can have (MPIPROF_DEPTH's upper bound). */
#define MPP_MAX_DEPTH 16

#endif
