/* Definitions shared by every stage of mpiprof (no MPI, no system headers
 * beyond the standard ones).  Internal names use the mpp_ prefix; all of
 * them have hidden visibility (the library is built with
 * -fvisibility=hidden), only MPP_EXPORT marks what users may call. */
#ifndef MPP_COMMON_H
#define MPP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define MPP_EXPORT __attribute__((visibility("default")))
#define MPP_LIKELY(x) __builtin_expect(!!(x), 1)
#define MPP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MPP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MPP_ALWAYS_INLINE static inline __attribute__((always_inline))

/* Categories of time inside MPI (characteristics.md).  A request has the
 * category of the call that created it. */
typedef enum {
    MPP_CAT_SENDRECV = 0,
    MPP_CAT_COLLECTIVE,
    MPP_CAT_SYSTEM,
    MPP_CAT_IO,
    MPP_NCAT
} mpp_category_t;

/* Deepest call stack an SRC point can have (MPIPROF_DEPTH's upper bound). */
#define MPP_MAX_DEPTH 16

#endif
