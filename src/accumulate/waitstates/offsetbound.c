#include "accumulate/waitstates/offsetbound.h"

static int64_t aged(int64_t since, int64_t now)
{
    int64_t dt = now > since ? now - since : since - now;
    return (int64_t)(MPP_OFFSET_DRIFT * (double)dt);
}

void mpp_offset_bound_init(mpp_offset_bound_t *b, int64_t offset, int64_t uncertainty, int64_t at)
{
    *b = (mpp_offset_bound_t){offset, uncertainty <= 0, offset - uncertainty, at, offset + uncertainty, at, 0, 0};
}

int64_t mpp_offset_bound_lo(const mpp_offset_bound_t *b, int64_t now)
{
    return b->exact ? b->offset : b->lo - aged(b->lo_at, now);
}

int64_t mpp_offset_bound_hi(const mpp_offset_bound_t *b, int64_t now)
{
    return b->exact ? b->offset : b->hi + aged(b->hi_at, now);
}

void mpp_offset_bound_lower(mpp_offset_bound_t *b, int64_t lower, int64_t now)
{
    if (b->exact || lower <= mpp_offset_bound_lo(b, now))
        return;
    b->lo = lower, b->lo_at = now;
    b->tightened++;
    if (lower > mpp_offset_bound_hi(b, now)) { /* the clocks drifted faster than assumed */
        b->hi = lower, b->hi_at = now;
        b->contradicted++;
    }
}

void mpp_offset_bound_upper(mpp_offset_bound_t *b, int64_t upper, int64_t now)
{
    if (b->exact || upper >= mpp_offset_bound_hi(b, now))
        return;
    b->hi = upper, b->hi_at = now;
    b->tightened++;
    if (upper < mpp_offset_bound_lo(b, now)) {
        b->lo = upper, b->lo_at = now;
        b->contradicted++;
    }
}

int64_t mpp_offset_bound_error(const mpp_offset_bound_t *b, int64_t now)
{
    if (b->exact)
        return 0;
    int64_t below = b->offset - mpp_offset_bound_lo(b, now), above = mpp_offset_bound_hi(b, now) - b->offset;
    int64_t e = below > above ? below : above;
    return e > 0 ? e : 0;
}
