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
