/* Type signatures (the sequence of basic types a message carries) as
 * hashes that compose over derived datatypes, after Gropp, "Runtime
 * checking of datatype signatures in MPI" (2000): a sequence t_1..t_n is
 * h = XOR over i of rot(a(t_i), i mod 64), with n, so that a concatenation
 * A.B is h(A) XOR rot(h(B), n(A)) and c repetitions take log c steps.  A
 * sender's signature travels with its send record (16 bytes more); the
 * receive that took the message compares it with its own, so the finding
 * names both call sites.  Pure: the MPI side (intercept/) builds a
 * datatype's signature from its envelope once and keeps it. */
#ifndef MPP_CHECK_SIGNATURE_H
#define MPP_CHECK_SIGNATURE_H

#include <stdint.h>

/* Classes of basic types: two basic datatypes match when their classes do
 * (MPI_INT and MPI_INTEGER of one size do; MPI_INT and MPI_FLOAT do not). */
enum {
    MPP_SIG_ANY = 0, /* MPI_BYTE, MPI_PACKED: untyped, match anything */
    MPP_SIG_CHAR,
    MPP_SIG_SIGNED, /* + size in bytes (1, 2, 4, 8, 16) */
    MPP_SIG_UNSIGNED = MPP_SIG_SIGNED + 17,
    MPP_SIG_FLOAT = MPP_SIG_UNSIGNED + 17,
    MPP_SIG_COMPLEX = MPP_SIG_FLOAT + 17,
    MPP_SIG_LOGICAL = MPP_SIG_COMPLEX + 33,
    MPP_SIG_BOOL = MPP_SIG_LOGICAL + 17,
    MPP_SIG_PAIR,                      /* MPI_FLOAT_INT & co.: + their index */
    MPP_SIG_OTHER = MPP_SIG_PAIR + 16, /* a basic type of its own: + its index */
    MPP_SIG_NCLASSES = MPP_SIG_OTHER + 64
};

typedef struct {
    uint64_t hash;
    uint64_t length; /* basic elements */
    int basic;       /* the class of every element when they are all of one (or MPP_SIG_ANY), else -1;
                        -2: not known (a datatype the profiler could not decode) */
} mpp_signature_t;

/* One element of a basic class. */
mpp_signature_t mpp_sig_basic(int cls);
/* Nothing: the empty sequence (count 0). */
static inline mpp_signature_t mpp_sig_empty(void) { return (mpp_signature_t){0, 0, MPP_SIG_ANY}; }
/* A followed by B. */
mpp_signature_t mpp_sig_concat(mpp_signature_t a, mpp_signature_t b);
/* A repeated `count` times. */
mpp_signature_t mpp_sig_repeat(mpp_signature_t a, uint64_t count);

/* How a message of signature `sent` matches a receive of signature `recv`
 * (its datatype times its count). */
typedef enum {
    MPP_SIG_MATCH = 0,
    MPP_SIG_DIFFER, /* wrong-datatype */
    MPP_SIG_UNKNOWN /* not decidable here (a shorter message into a derived type, an undecoded type) */
} mpp_sig_verdict_t;
mpp_sig_verdict_t mpp_sig_compare(mpp_signature_t sent, mpp_signature_t recv);

#endif
