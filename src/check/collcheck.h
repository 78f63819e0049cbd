/* What the members of a collective instance must agree on (correctness.md:
 * collective-mismatch, different-roots, different-reductions,
 * collective-size, collective-datatype), carried by the wait-state
 * analysis's reduction of the instance's instants (maximum over the
 * members, accumulate/waitstates/waitstates.h): no message of its own.
 *
 * Each value is a member's range [lo, hi] (one value, or several that the
 * standard demands equal, e.g. MPI_Gather's root: the bytes it takes from
 * each member and the bytes it sends itself) in two rows, hi and -lo; a
 * member that has none (a user-defined reduction, MPI_IN_PLACE) puts
 * INT64_MIN in both, which changes no maximum.  The maxima over the
 * members are then the largest hi and the smallest lo: the members
 * disagree where they differ.  Pure: the MPI side (intercept/check/
 * collectives.c) gives the values and words the findings. */
#ifndef MPP_CHECK_COLLCHECK_H
#define MPP_CHECK_COLLCHECK_H

#include <stddef.h>
#include <stdint.h>

enum {
    MPP_CC_OPERATION = 0, /* the blocking operation's function id (MPI_Ibcast, MPI_Bcast_init: MPI_Bcast) */
    MPP_CC_ROOT,          /* rooted operations */
    MPP_CC_REDUCTION,     /* the predefined reduction operation's id (a user's: none) */
    MPP_CC_SIZE,          /* bytes the standard demands equal on every member */
    MPP_CC_SIGNATURE,     /* their type signature's hash (MPIPROF_CHECK=full) */
    MPP_CC_NVALUES
};
/* The values at MPIPROF_CHECK=basic: all but the signature. */
#define MPP_CC_BASIC_VALUES MPP_CC_SIGNATURE

typedef struct {
    int64_t lo[MPP_CC_NVALUES], hi[MPP_CC_NVALUES];
    unsigned given; /* bit i: value i is given */
} mpp_cc_values_t;

static inline void mpp_cc_clear(mpp_cc_values_t *v) { v->given = 0; }
/* One more value of kind `which` (> INT64_MIN): the range grows to it. */
void mpp_cc_give(mpp_cc_values_t *v, int which, int64_t value);
/* The rows of the first `nvalues` values: rows[2i] hi, rows[2i + 1] -lo. */
void mpp_cc_to_rows(const mpp_cc_values_t *v, int nvalues, int64_t *rows);
/* The values of reduced rows (row k at rows[k * stride]): the range over
 * the members that gave each. */
void mpp_cc_from_rows(const int64_t *rows, size_t stride, int nvalues, mpp_cc_values_t *out);

/* The findings of one member (`own` its values, `all` the range over the
 * members): kinds (MPP_FIND_*) in kinds[], with which[] the value each is
 * about; returns how many.  Members that called different operations
 * disagree on everything else too: that is the one finding then; the
 * signature counts only where the sizes agree (a size that differs says
 * it already). */
int mpp_cc_verdicts(const mpp_cc_values_t *own, const mpp_cc_values_t *all, int nvalues, int *kinds, int *which);

/* The words of a finding about value `which` of mpp_cc_verdicts (the
 * dynamic mode's and mpiprof-analyze's); fname names a function id. */
void mpp_cc_describe(int which, const mpp_cc_values_t *own, const mpp_cc_values_t *all,
                     const char *(*fname)(int64_t fid), char *out, size_t size);
/* A predefined reduction's name by its id (1..., intercept/check/
 * signatures.h's order), "a user-defined operation" for 0. */
const char *mpp_cc_op_name(int id);

/* The hash of a type signature as a value (non-negative, > INT64_MIN). */
static inline int64_t mpp_cc_hash_value(uint64_t hash) { return (int64_t)(hash >> 1); }

#endif
