/* The communication model of the predicted characteristics and of Overlap
 * (characteristics.md, "Predicted characteristics", "Overlap"; formulas in
 * mpiprof(7), MODEL).  Pure: no MPI, no clock, no global state, so it is
 * unit-tested on its own.
 *
 * A message between two processes costs  latency + bytes / bandwidth,  with
 * one pair of parameters for processes on the same node (intra) and one for
 * processes on different nodes (inter).  A collective operation costs what
 * the algorithm MPICH's default selection (src/mpi/coll/coll_selection.json
 * of MPICH 4) uses at its message size and communicator size P takes, in
 * that latency/bandwidth model (Thakur, Rabenseifner and Gropp, "Optimization
 * of Collective Communication Operations in MPICH", 2005).  A nonblocking
 * operation costs what its blocking form costs. */
#ifndef MPP_MODEL_H
#define MPP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "records/price.h"

/* How the predicted time of an MPI function's call is obtained
 * (src/intercept/mpi_functions.txt, `@model`, gives each function its
 * operation; the generator writes it into mpp_functions[].model_op). */
typedef enum {
    MPP_OP_MEASURED = 0, /* no model: the predicted time is the measured time
                            (communicator, datatype, window management, MPI-IO, ...) */
    MPP_OP_ZERO,         /* no transfer of its own: waits, tests, MPI_Iprobe (the transfer
                            a wait completes is predicted at the call that started it) */
    MPP_OP_STARTED,      /* MPI_Start(all): the model times of the persistent requests it starts */
    MPP_OP_P2P,          /* one message (also RMA Put/Get/Accumulate): a + n b */
    MPP_OP_PROBE,        /* blocking probe: the message's arrival, a */
    MPP_OP_BARRIER,
    MPP_OP_BCAST,
    MPP_OP_REDUCE,
    MPP_OP_ALLREDUCE,
    MPP_OP_SCAN, /* MPI_Scan, MPI_Exscan */
    MPP_OP_GATHER,
    MPP_OP_GATHERV,
    MPP_OP_SCATTER,
    MPP_OP_SCATTERV,
    MPP_OP_ALLGATHER, /* MPI_Allgather, MPI_Allgatherv */
    MPP_OP_ALLTOALL,
    MPP_OP_ALLTOALLV,      /* MPI_Alltoallv, MPI_Alltoallw */
    MPP_OP_REDUCE_SCATTER, /* MPI_Reduce_scatter, MPI_Reduce_scatter_block */
    MPP_OP_NEIGHBOR,       /* neighborhood collectives */
    MPP_NOPS
} mpp_model_op_t;

/* Names as in mpi_functions.txt's @model lines ("p2p", "bcast", ...). */
extern const char *const mpp_model_op_names[MPP_NOPS];

typedef struct {
    double latency[MPP_NLINKS];   /* seconds */
    double bandwidth[MPP_NLINKS]; /* bytes per second */
} mpp_model_t;

/* MPICH 4's default switch points (bytes) between collective algorithms. */
#define MPP_MODEL_BCAST_SHORT 12288     /* binomial tree up to here */
#define MPP_MODEL_BCAST_LONG 524288     /* scatter + recursive-doubling allgather up to here (P a power of 2) */
#define MPP_MODEL_BCAST_MIN_PROCS 8     /* fewer processes: always binomial */
#define MPP_MODEL_REDUCE_SHORT 2048     /* Reduce, Allreduce: binomial / recursive doubling up to here */
#define MPP_MODEL_ALLGATHER_LONG 524288 /* recursive doubling below this total (P a power of 2) */
#define MPP_MODEL_ALLGATHER_SHORT 81920 /* Bruck below this total (other P) */
#define MPP_MODEL_ALLTOALL_SHORT 256    /* Bruck up to this block size (P >= 8) */
#define MPP_MODEL_ALLTOALL_MIN_PROCS 8
#define MPP_MODEL_REDUCE_SCATTER_LONG 524288 /* recursive halving below this total */

/* The message size n (bytes) an operation's formula uses, from what the
 * protocol counts for one call on one process (bytes sent and received,
 * characteristics.md) and the communicator size: the gathered total for
 * Gather(v) and Allgather(v), the scattered total for Scatter(v) and
 * Reduce_scatter, the larger of sent and received otherwise.  The same on
 * every process of the collective (the root included, MPI_IN_PLACE too). */
int64_t mpp_model_size(int op, int64_t sent, int64_t recv, int64_t procs);

/* Every formula is  units x a + bytes x b  for the latency a and the
 * inverse bandwidth b of one link: the terms of one call of `op` with
 * `procs` processes (the communicator's size, remote size for
 * intercommunicators); 0 and 0 for the operations without a formula. */
void mpp_model_terms(int op, int64_t sent, int64_t recv, int64_t procs, double *units, double *bytes);
/* The same, remembering this thread's last arguments and terms: a loop
 * prices the same collective at every call (the wrappers).  The check is
 * inline; mpp_model_terms_remember computes and keeps new ones. */
typedef struct {
    int op;
    int64_t sent, recv, procs;
    double units, bytes;
} mpp_model_recent_t;
extern __thread mpp_model_recent_t mpp_model_recent __attribute__((tls_model("initial-exec")));
void mpp_model_terms_remember(int op, int64_t sent, int64_t recv, int64_t procs);
static inline void mpp_model_terms_recent(int op, int64_t sent, int64_t recv, int64_t procs, double *units,
                                          double *bytes)
{
    mpp_model_recent_t *r = &mpp_model_recent;
    if (op != r->op || sent != r->sent || recv != r->recv || procs != r->procs)
        mpp_model_terms_remember(op, sent, recv, procs);
    *units = r->units;
    *bytes = r->bytes;
}

/* Predicted seconds of one call of `op` over `link`: its terms priced with
 * m's parameters of that link.  0 for MPP_LINK_NONE. */
double mpp_model_cost(const mpp_model_t *m, int op, int64_t sent, int64_t recv, int64_t procs, int link);

static inline double mpp_model_price_seconds(const mpp_model_t *m, const double price[MPP_NPRICE])
{
    double s = 0;
    for (int l = 0; l < MPP_NLINKS; l++)
        s += price[2 * l + MPP_PRICE_UNITS] * m->latency[l] +
             (m->bandwidth[l] > 0 ? price[2 * l + MPP_PRICE_BYTES] / m->bandwidth[l] : 0.0);
    return s;
}

/* The price of one call for the wrappers, where op is a constant, into *p
 * (zero on entry): a message inline (a few instructions), the rest by
 * mpp_model_terms; nothing over MPP_LINK_NONE. */
static inline void mpp_model_call_price(mpp_call_price_t *p, int op, int64_t sent, int64_t recv, int64_t procs,
                                        int link)
{
    if (link < 0 || link >= MPP_NLINKS)
        return;
    p->link = link;
    if (op == MPP_OP_P2P) {
        int64_t n = sent > recv ? sent : recv;
        p->units = 1.0;
        p->bytes = n > 0 ? (double)n : 0.0;
        return;
    }
    mpp_model_terms_recent(op, sent, recv, procs, &p->units, &p->bytes);
}

static inline double mpp_model_call_seconds(const mpp_model_t *m, const mpp_call_price_t *p)
{
    return p->units * m->latency[p->link] + (p->bytes > 0 ? p->bytes / m->bandwidth[p->link] : 0.0);
}

/* The algorithm the formula models ("binomial tree", "ring", ...). */
const char *mpp_model_algorithm(int op, int64_t size, int64_t procs);

/* --- parameters --- */

enum { MPP_MP_LAT_INTRA = 0, MPP_MP_BW_INTRA, MPP_MP_LAT_INTER, MPP_MP_BW_INTER, MPP_NMP };
extern const char *const mpp_model_param_names[MPP_NMP]; /* "lat_intra", ... as in MPIPROF_MODEL */
double *mpp_model_param(mpp_model_t *m, int which);
double mpp_model_param_value(const mpp_model_t *m, int which);
/* "0.312us", "8.21GB/s" */
void mpp_model_format_param(int which, double value, char *out, size_t size);

/* MPIPROF_MODEL (config_vars.def says what is accepted): "calibrate", or
 * parameters "name=value,..." (latencies with s, ms, us or ns; bandwidths
 * with B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s; a bare number is seconds
 * or bytes per second).  Sets the given parameters in *m and their bits
 * (1 << MPP_MP_*) in *given.  Returns 0, or -1 with the reason in why
 * (nothing set). */
int mpp_model_parse(const char *text, mpp_model_t *m, unsigned *given, char *why, size_t why_size);
/* --- where the parameters came from: what the protocol states --- */

typedef enum {
    MPP_PSRC_GIVEN = 0,  /* MPIPROF_MODEL */
    MPP_PSRC_CALIBRATED, /* ping-pong at MPI_Init, and again at MPI_Finalize (mpp_model_setup_t.at) */
    MPP_PSRC_AS_INTRA,   /* one node: inter-node messages do not occur; the intra-node value */
    MPP_PSRC_AS_INTER,   /* no node runs two processes: the inter-node value */
    MPP_PSRC_BUILTIN     /* one process: nothing to measure; a built-in value */
} mpp_param_source_t;

/* Built-in values for a run of one process (no message ever leaves it). */
#define MPP_MODEL_BUILTIN_LATENCY 1e-6
#define MPP_MODEL_BUILTIN_BANDWIDTH 1e9

/* Message sizes of the calibration ping-pong. */
#define MPP_CALIBRATION_SMALL 8
#define MPP_CALIBRATION_LARGE (128 * 1024)

/* The calibration's measurements: at MPI_Init, and at MPI_Finalize. */
enum { MPP_AT_INIT = 0, MPP_AT_FINALIZE = 1, MPP_NAT };

/* One ping-pong of a link: the fastest one-way times (seconds) of its
 * small and large messages; 0: not made. */
typedef struct {
    double small, large;
} mpp_pingpong_t;

/* What a link can do at most: a one-way latency longer than this, or a
 * bandwidth lower, is the machine's noise (a process that waited for a
 * time slice of the scheduler), not the link's (mpiprof(7), MODEL). */
#define MPP_PLAUSIBLE_LATENCY_INTRA 100e-6
#define MPP_PLAUSIBLE_BANDWIDTH_INTRA 100e6
#define MPP_PLAUSIBLE_LATENCY_INTER 1e-3
#define MPP_PLAUSIBLE_BANDWIDTH_INTER 5e6

typedef struct {
    int enabled; /* 0: MPIPROF_PREDICT=off */
    mpp_model_t model;
    int source[MPP_NMP];                          /* mpp_param_source_t */
    int pair[MPP_NLINKS][2];                      /* the ranks whose ping-pong measured each link; -1: none */
    mpp_pingpong_t measured[MPP_NLINKS][MPP_NAT]; /* the ping-pongs of the calibrated links */
    int at[MPP_NMP];                              /* a calibrated parameter: the measurement it is from (MPP_AT_*) */
    unsigned implausible;                         /* bit 1 << link: no measurement of a calibrated parameter of that
                                                     link was plausible; the predicted characteristics are n/a */
    unsigned shared_cpu;                          /* bit 1 << link: the ping-pong's processes shared one CPU that
                                                     neither could leave (their affinity) */
    int nodes;                                    /* distinct host names */
    /* Relative core speed (mean 1 over processes) from a compute loop timed
     * at MPI_Init: the slowest and fastest process. */
    double speed_min, speed_max;
    int speed_min_rank, speed_max_rank;
    double speed_loop;       /* seconds of that loop, mean over processes */
    double seconds;          /* how long the calibration took at MPI_Init */
    double seconds_finalize; /* ... and its measurement at MPI_Finalize (0: none) */
} mpp_model_setup_t;

/* Latency and bandwidth of a link from one ping-pong: latency = the small
 * message's one-way time, bandwidth = MPP_CALIBRATION_LARGE / (large's -
 * small's), the transfer taken as at least 5% of the large message's time
 * (a link whose latency is all there is keeps a finite bandwidth). */
void mpp_model_link_from(const mpp_pingpong_t *pp, double *latency, double *bandwidth);
/* A latency and bandwidth a link can have (MPP_PLAUSIBLE_*). */
int mpp_model_plausible_latency(int link, double latency);
int mpp_model_plausible_bandwidth(int link, double bandwidth);
/* The parameters of `link` that are calibrated (source), from its
 * measurements at MPI_Init and, when made, MPI_Finalize: the better of each
 * (the lower latency, the higher bandwidth: noise only ever lengthens a
 * round trip), with at[] saying which, and the link's implausible bit.
 * Pure: the same on every process from the same measurements. */
void mpp_model_keep_better(mpp_model_setup_t *s, int link);
/* The model can price calls: enabled and no implausible calibration. */
static inline int mpp_model_usable(const mpp_model_setup_t *s) { return s && s->enabled && !s->implausible; }
/* Why the predicted characteristics and Overlap are n/a when the model is
 * enabled but not usable: the measurements and their limits, one line. */
void mpp_model_na_reason(const mpp_model_setup_t *s, char *out, size_t size);

#define MPP_MODEL_LINE 512
#define MPP_MODEL_MAX_LINES 6
/* The protocol's `Prediction model` lines (text and JSON say the same):
 * the model, one line per link with its parameters and their source, the
 * core speeds, the calibration time.  Returns the number of lines. */
int mpp_model_describe(const mpp_model_setup_t *s, char lines[][MPP_MODEL_LINE], int max);
/* Why a parameter has its value, as the describe lines say it. */
void mpp_model_source_text(const mpp_model_setup_t *s, int which, char *out, size_t size);

#endif
