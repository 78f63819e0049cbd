/* Ping-pong partners that share a CPU.  Two processes of one node whose
 * ping-pong times something (the model's calibration, the clock alignment)
 * time the scheduler, not the link, when they share a CPU: each runs only
 * while the other waits for a time slice, so every round trip takes two
 * (4 to 12 ms on a 2-core host beside busy processes), and the scheduler
 * keeps them so for seconds (the launcher starts both on its own CPU).
 * Then one of them moves, for the time of the measurement, to another CPU
 * its affinity allows, the other stays where it is, and each restores its
 * affinity afterwards.  Used by the measurements of the reduce stage only;
 * the calling thread only (sched_setaffinity).
 *
 * The pair's exchange: the deciding side asks the other for its CPU
 * (MPP_APART_TELL), and when both are on one CPU it pins itself there and
 * asks the other to leave it (MPP_APART_LEAVE); if the other cannot (its
 * affinity allows no other CPU), the deciding side leaves instead; if
 * neither can, the pair is stuck and the measurement times the scheduler
 * whatever it does. */
#ifndef MPP_APART_H
#define MPP_APART_H

#include <stddef.h>

typedef struct {
    void *saved; /* the thread's affinity before it was pinned (cpu_set_t); NULL: not pinned */
    size_t size;
} mpp_apart_t;

/* What the deciding side asks with a ping (bits), and the answer. */
enum { MPP_APART_TELL = 1, MPP_APART_LEAVE = 2 };
enum { MPP_APART_STAYED = 0, MPP_APART_LEFT = 1, MPP_APART_CANNOT = 2 };

/* The CPU the calling thread runs on now; -1: unknown. */
int mpp_apart_cpu(void);
/* Pin the calling thread to the CPU it is on: 0, or -1. */
int mpp_apart_stay(mpp_apart_t *a);
/* Move the calling thread to a CPU its affinity allows other than `avoid`
 * (`spread` chooses among several, so that pairs measured at once go to
 * different ones): 0, or -1 when there is none. */
int mpp_apart_leave(mpp_apart_t *a, int avoid, int spread);
/* The other side's answer to MPP_APART_LEAVE (`avoid`: the deciding side's
 * CPU): leave it when this thread is on it, else stay.  MPP_APART_*. */
int mpp_apart_answer(mpp_apart_t *a, int avoid, int spread);
/* The thread's affinity as it was (nothing when it was not pinned). */
void mpp_apart_restore(mpp_apart_t *a);

/* The deciding side of a pair on one node. */
typedef struct {
    mpp_apart_t pin;
    int asked; /* what the last ping asked (MPP_APART_* bits) */
    int want;  /* what the next ping asks */
    int tells; /* TELL requests made */
    int moves; /* LEAVE requests made (one per measurement) */
    int stuck; /* both on one CPU, and neither could leave */
} mpp_apart_decider_t;

/* Before a ping: what to ask in it (stored in d->asked). */
int mpp_apart_request(mpp_apart_decider_t *d);
/* After its pong: `slow`, the round trip took a time slice; `peer_cpu`
 * and `outcome`, the other side's answer to what the ping asked.  Returns
 * whether that round trip's time is to be left out (it paid for the
 * system calls of the request). */
int mpp_apart_after(mpp_apart_decider_t *d, int slow, int peer_cpu, int outcome, int spread);

#endif
