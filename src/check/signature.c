#include "check/signature.h"

/* The a(t) of a class: a fixed, well-mixed 64-bit value (splitmix64). */
static uint64_t alpha(int cls)
{
    uint64_t z = (uint64_t)cls * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rot(uint64_t v, uint64_t by)
{
    unsigned r = (unsigned)(by & 63);
    return r ? v << r | v >> (64 - r) : v;
}

mpp_signature_t mpp_sig_basic(int cls) { return (mpp_signature_t){alpha(cls), 1, cls}; }

static int joined_basic(int a, int b, uint64_t alen, uint64_t blen)
{
    if (a == -2 || b == -2)
        return -2;
    if (!alen)
        return b;
    if (!blen)
        return a;
    return a == b ? a : -1;
}

mpp_signature_t mpp_sig_concat(mpp_signature_t a, mpp_signature_t b)
{
    return (mpp_signature_t){a.hash ^ rot(b.hash, a.length), a.length + b.length,
                             joined_basic(a.basic, b.basic, a.length, b.length)};
}

mpp_signature_t mpp_sig_repeat(mpp_signature_t a, uint64_t count)
{
    mpp_signature_t out = mpp_sig_empty(), power = a;
    out.basic = count ? a.basic : MPP_SIG_ANY;
    int basic = out.basic;
    /* binary powering: out = power^bits of count, lowest bits first, each
     * next power appended after what is there (all are copies of a) */
    for (; count; count >>= 1) {
        if (count & 1)
            out = mpp_sig_concat(out, power);
        power = mpp_sig_concat(power, power);
    }
    out.basic = basic;
    return out;
}

mpp_sig_verdict_t mpp_sig_compare(mpp_signature_t sent, mpp_signature_t recv)
{
    if (sent.basic == -2 || recv.basic == -2)
        return MPP_SIG_UNKNOWN;
    if (sent.basic == MPP_SIG_ANY || recv.basic == MPP_SIG_ANY)
        return MPP_SIG_MATCH; /* untyped data on either side */
    if (sent.length == 0)
        return MPP_SIG_MATCH;
    if (sent.basic >= 0 && recv.basic >= 0) /* one class each: a prefix of recv is that class too */
        return sent.basic == recv.basic ? MPP_SIG_MATCH : MPP_SIG_DIFFER;
    if (sent.length == recv.length)
        return sent.hash == recv.hash ? MPP_SIG_MATCH : MPP_SIG_DIFFER;
    if (sent.length < recv.length && recv.basic >= 0) /* a homogeneous buffer: its prefix is known */
        return mpp_sig_repeat(mpp_sig_basic(recv.basic), sent.length).hash == sent.hash ? MPP_SIG_MATCH
                                                                                        : MPP_SIG_DIFFER;
    return MPP_SIG_UNKNOWN;
}
