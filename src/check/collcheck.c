#include <stdio.h>

#include "check/collcheck.h"
#include "records/finding.h"

void mpp_cc_give(mpp_cc_values_t *v, int which, int64_t value)
{
    if (which < 0 || which >= MPP_CC_NVALUES || value == INT64_MIN)
        return;
    unsigned bit = 1u << which;
    if (!(v->given & bit)) {
        v->lo[which] = v->hi[which] = value;
        v->given |= bit;
        return;
    }
    if (value < v->lo[which])
        v->lo[which] = value;
    if (value > v->hi[which])
        v->hi[which] = value;
}

void mpp_cc_to_rows(const mpp_cc_values_t *v, int nvalues, int64_t *rows)
{
    for (int i = 0; i < nvalues; i++) {
        int given = (v->given >> i) & 1;
        rows[2 * i] = given ? v->hi[i] : INT64_MIN;
        rows[2 * i + 1] = given ? -v->lo[i] : INT64_MIN;
    }
}

void mpp_cc_from_rows(const int64_t *rows, size_t stride, int nvalues, mpp_cc_values_t *out)
{
    mpp_cc_clear(out);
    for (int i = 0; i < nvalues; i++) {
        int64_t hi = rows[(size_t)(2 * i) * stride], neg_lo = rows[(size_t)(2 * i + 1) * stride];
        if (hi == INT64_MIN || neg_lo == INT64_MIN)
            continue; /* no member gave it */
        out->lo[i] = -neg_lo;
        out->hi[i] = hi;
        out->given |= 1u << i;
    }
}

static int disagree(const mpp_cc_values_t *own, const mpp_cc_values_t *all, int i)
{
    unsigned bit = 1u << i;
    return (own->given & bit) && (all->given & bit) && all->lo[i] != all->hi[i];
}

int mpp_cc_verdicts(const mpp_cc_values_t *own, const mpp_cc_values_t *all, int nvalues, int *kinds, int *which)
{
    static const int kind_of[MPP_CC_NVALUES] = {MPP_FIND_COLLECTIVE_MISMATCH, MPP_FIND_DIFFERENT_ROOTS,
                                                MPP_FIND_DIFFERENT_REDUCTIONS, MPP_FIND_COLLECTIVE_SIZE,
                                                MPP_FIND_COLLECTIVE_DATATYPE};
    int n = 0;
    if (nvalues > MPP_CC_OPERATION && disagree(own, all, MPP_CC_OPERATION)) {
        kinds[0] = kind_of[MPP_CC_OPERATION];
        which[0] = MPP_CC_OPERATION;
        return 1;
    }
    for (int i = MPP_CC_OPERATION + 1; i < nvalues && i < MPP_CC_NVALUES; i++) {
        if (!disagree(own, all, i))
            continue;
        if (i == MPP_CC_SIGNATURE && nvalues > MPP_CC_SIZE && (all->given & (1u << MPP_CC_SIZE)) &&
            all->lo[MPP_CC_SIZE] != all->hi[MPP_CC_SIZE])
            continue;
        kinds[n] = kind_of[i];
        which[n++] = i;
    }
    return n;
}

static const char *const op_names[] = {"MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD", "MPI_LAND",
                                       "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR", "MPI_BXOR",
                                       "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};

const char *mpp_cc_op_name(int id)
{
    return id >= 1 && (size_t)id <= sizeof op_names / sizeof *op_names ? op_names[id - 1]
                                                                       : "a user-defined operation";
}

void mpp_cc_describe(int which, const mpp_cc_values_t *own, const mpp_cc_values_t *all,
                     const char *(*fname)(int64_t fid), char *out, size_t size)
{
    long long mine = (long long)own->lo[which], lo = (long long)all->lo[which], hi = (long long)all->hi[which];
    long long other = mine == lo ? hi : lo;
    int two = mine == lo || mine == hi; /* the members gave two values at least, this one among the extremes */
    switch (which) {
    case MPP_CC_OPERATION:
        if (two)
            snprintf(out, size, "%s here, %s on another member, at the same position on this communicator",
                     fname(mine), fname(other));
        else
            snprintf(out, size, "%s here, other members called %s and %s at the same position", fname(mine),
                     fname(lo), fname(hi));
        break;
    case MPP_CC_ROOT:
        snprintf(out, size, "root %lld here, the members gave roots %lld to %lld", mine, lo, hi);
        break;
    case MPP_CC_REDUCTION:
        snprintf(out, size, "%s here, %s %s", mpp_cc_op_name((int)mine), two ? "another member gave" : "members gave",
                 two ? mpp_cc_op_name((int)other) : mpp_cc_op_name((int)lo));
        break;
    case MPP_CC_SIZE:
        if (own->lo[which] == own->hi[which])
            snprintf(out, size, "%lld bytes here, the members gave %lld to %lld bytes", mine, lo, hi);
        else
            snprintf(out, size, "%lld to %lld bytes here (sent and received), the members gave %lld to %lld bytes",
                     mine, (long long)own->hi[which], lo, hi);
        break;
    default:
        snprintf(out, size,
                 "the type signature here differs from another member's (the same size in bytes, other "
                 "basic types or their order)");
    }
}
