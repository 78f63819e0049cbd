/* Numbers as printf writes them, without printf (numfmt.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "write/numfmt.h"

static const char two_digits[201] = "00010203040506070809"
                                    "10111213141516171819"
                                    "20212223242526272829"
                                    "30313233343536373839"
                                    "40414243444546474849"
                                    "50515253545556575859"
                                    "60616263646566676869"
                                    "70717273747576777879"
                                    "80818283848586878889"
                                    "90919293949596979899";

static size_t decimal_digits(unsigned long long v)
{
    size_t n = 1;
    for (; v >= 10000; v /= 10000)
        n += 4;
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

size_t mpp_fmt_u64(char *out, unsigned long long v)
{
    size_t n = decimal_digits(v);
    char *p = out + n; /* digits from the last, two at a time */
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, two_digits + 2 * r, 2);
    }
    if (v >= 10)
        memcpy(p - 2, two_digits + 2 * v, 2);
    else
        p[-1] = (char)('0' + v);
    return n;
}

size_t mpp_fmt_int(char *out, int v)
{
    if (v >= 0)
        return mpp_fmt_u64(out, (unsigned long long)v);
    *out = '-';
    return 1 + mpp_fmt_u64(out + 1, 0ULL - (unsigned long long)(long long)v);
}

/* Below this the value in millionths fits 64 bits (9e18 < 2^63). */
#define FIXED6_EXACT_LIMIT 9e12

#ifdef __SIZEOF_INT128__
/* round(a * 10^6), a finite, 0 <= a < FIXED6_EXACT_LIMIT, from the exact
 * binary value: half to even, as printf rounds in the default mode (a
 * product in doubles would round twice). */
static uint64_t millionths(double a)
{
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int biased = (int)(bits >> 52);
    uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
    int e = -1074; /* a = mant * 2^e */
    if (biased) {
        mant |= UINT64_C(1) << 52;
        e = biased - 1075;
    }
    if (e >= 0)
        return (mant << e) * 1000000u; /* an integer below the limit */
    int s = -e;
    if (s > 73) /* mant * 10^6 < 2^73 <= half of 2^s: rounds to 0 */
        return 0;
    unsigned __int128 prod = (unsigned __int128)mant * 1000000u;
    uint64_t q = (uint64_t)(prod >> s);
    unsigned __int128 rem = prod & (((unsigned __int128)1 << s) - 1);
    unsigned __int128 half = (unsigned __int128)1 << (s - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return q;
}
#endif

size_t mpp_fmt_fixed6(char *out, double v)
{
#ifdef __SIZEOF_INT128__
    if (fabs(v) < FIXED6_EXACT_LIMIT) {
        char *p = out;
        if (signbit(v))
            *p++ = '-';
        uint64_t m = millionths(fabs(v));
        p += mpp_fmt_u64(p, m / 1000000);
        unsigned frac = (unsigned)(m % 1000000);
        *p++ = '.';
        memcpy(p, two_digits + 2 * (frac / 10000), 2);
        memcpy(p + 2, two_digits + 2 * (frac / 100 % 100), 2);
        memcpy(p + 4, two_digits + 2 * (frac % 100), 2);
        return (size_t)(p + 6 - out);
    }
#endif
    /* NaN, infinities and huge values (or no 128-bit integers): printf's own */
    char tmp[MPP_FMT_FIXED6_MAX + 1];
    int n = snprintf(tmp, sizeof tmp, "%.6f", v);
    if (n < 0)
        n = 0;
    if ((size_t)n > MPP_FMT_FIXED6_MAX)
        n = MPP_FMT_FIXED6_MAX;
    memcpy(out, tmp, (size_t)n);
    return (size_t)n;
}
