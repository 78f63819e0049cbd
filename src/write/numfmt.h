/* Numbers as printf writes them, without printf: the SRC points of a large
 * protocol hold 10^5 and more numbers, and printf's float formatting was
 * most of the time MPI_Finalize spent writing them.  Each writes into `out`
 * (no terminating NUL) and returns the number of characters written; the
 * output is byte for byte snprintf's in the default rounding mode. */
#ifndef MPP_NUMFMT_H
#define MPP_NUMFMT_H

#include <stddef.h>

/* Room each needs: "%llu" of 2^64-1; "%d" of INT_MIN; "%.6f" of -DBL_MAX
 * (309 digits, the point, 6 decimals, the sign). */
#define MPP_FMT_U64_MAX 20
#define MPP_FMT_INT_MAX 11
#define MPP_FMT_FIXED6_MAX 320

/* "%llu" */
size_t mpp_fmt_u64(char *out, unsigned long long v);
/* "%d" */
size_t mpp_fmt_int(char *out, int v);
/* "%.6f", rounded exactly (half to even on the double's exact value, as
 * glibc), "-0.000000" for negative zero and tiny negatives, "nan"/"inf". */
size_t mpp_fmt_fixed6(char *out, double v);

#endif
