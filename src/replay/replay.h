/* A trace as another source of the same events (mpiprof-analyze(1)): an
 * OTF2 archive read into the MPI calls of every traced process (reader:
 * src/replay/otf2_read.c), its wait states computed exactly from the
 * events (src/replay/waits.c), and each process's calls replayed into the
 * accumulate stage as the wrappers add them at run time, one table per
 * location, giving the same local profile MPI_Finalize reduces
 * (src/replay/replay.c).  No MPI (under mpiexec, src/replay/share_mpi.c
 * moves what one share needs of another's between the analyzer's
 * processes), no clock of its own: every time comes from the trace. */
#ifndef MPP_REPLAY_H
#define MPP_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "accumulate/profile.h"
#include "accumulate/table.h"
#include "accumulate/waitstates/waitstates.h"
#include "check/collcheck.h"
#include "check/signature.h"
#include "records/finding.h"

/* One traced MPI call (an Enter/Leave pair of a region of the MPI
 * paradigm) with what its events said. */
typedef struct {
    uint32_t fid;         /* mpp_functions index */
    uint32_t site;        /* call site: index into rp_trace_t.sites (0: the region alone) */
    int64_t enter, leave; /* ticks on the common time line (drift-corrected) */
    uint64_t bytes_sent, bytes_recv;
    int bytes_said;                 /* by its Leave's attributes: later events add none */
    uint32_t p2p_done, coll_done;   /* requests of each kind it completed (waits, tests) */
    uint32_t io_done;               /* I/O requests it completed (mpiprof::io_done) */
    uint32_t p2p_begun, coll_begun; /* requests of each kind it began (its time's split when it completed none) */
    int64_t wait[MPP_NWAIT];        /* ticks of Real sync, Potential sync, Time variation (waits.c) */
} rp_call_t;

/* A message as one side saw it: the channel (communicator, the other
 * side's world rank, tag), when it counts (a send: its call's entry; a
 * receive: when it was posted) and the call it belongs to (a send: the
 * sending call; a receive: the completing call). */
typedef struct {
    uint32_t comm;
    int32_t peer, tag;
    int64_t posted;
    uint32_t location, call; /* index into rp_trace_t.locations, into its calls */
    /* what mpiprof's checks said of it (mpiprof-trace(5)), for those
     * between processes (checks.c): their level (0: nothing said), a
     * send's bytes or a receive buffer's, and at full its type signature;
     * the SRC key of the call a finding names (a send's, the call that
     * posted a receive) as the trace's string (RP_NO_STRING: none), which
     * means the same to every reader under mpiexec */
    int check_level;
    int truncated; /* a receive that returned MPI_ERR_TRUNCATE: for the checks alone */
    int64_t check_bytes;
    mpp_signature_t sig;
    uint32_t src;
} rp_message_t;
#define RP_NO_STRING UINT32_MAX

/* One process's part of a collective instance: the call that began it and
 * the one that ended it (the same for a blocking collective). */
typedef struct {
    uint32_t comm;
    uint32_t location, begin_call, end_call;
    /* the values its members must agree on, as mpiprof's checks gave them
     * (mpiprof::coll_row:K, check/collcheck.h rows; has_cc 0: none), and
     * the SRC key's string of the call that began it (RP_NO_STRING: none) */
    int has_cc;
    int64_t cc[2 * MPP_CC_NVALUES];
    uint32_t src;
} rp_collective_t;

/* An interval or replicated-code mark of mpiprof's archives: the Enter
 * (begin) or Leave (end) of a user region of mpiprof's (mpiprof-trace(5)). */
typedef struct {
    int64_t time;
    uint32_t region; /* index into rp_trace_t.regions */
    int begin;
} rp_mark_t;

/* A user region that marks an interval or replicated code. */
typedef struct {
    int kind; /* RP_REGION_* */
    char *name, *file;
    int line;
} rp_region_t;
enum { RP_REGION_OTHER = 0, RP_REGION_INTERVAL, RP_REGION_SEQ };

typedef struct {
    uint64_t ref; /* OTF2 location */
    int process;  /* index into rp_trace_t.processes */
    rp_call_t *calls;
    size_t ncalls, calls_cap;
    rp_mark_t *marks;
    size_t nmarks, marks_cap;
    int64_t first, last;                /* first and last event (corrected ticks) */
    int64_t init_leave, finalize_enter; /* -1: not traced */
    uint32_t init_site;                 /* MPI_Init's call site (0: none) */
    uint64_t events;                    /* events read */
    /* clock offsets of the location (OTF2 ClockOffset: time, offset,
     * deviation: its uncertainty in ticks), sorted by time; offset_fixed
     * the one constant applied when they agree within their uncertainty
     * (offset_constant, mpp_clock_offset_constant) */
    int64_t *offset_time, *offset;
    double *offset_dev;
    int noffsets, offset_constant;
    int64_t offset_fixed;
} rp_location_t;

typedef struct {
    int rank; /* MPI_COMM_WORLD rank */
    char *host;
    int *locations; /* indexes into rp_trace_t.locations, the master thread first */
    int nlocations;
    char *findings; /* its correctness findings, their text form (check/finding_list.h); NULL: none in the trace */
    char *threads;  /* its Threads parameter as trace mode recorded it: "alive mpi omp source"; NULL: none */
} rp_process_t;

typedef struct {
    uint32_t size;
    int32_t *world; /* world rank of each member */
} rp_comm_t;

/* A receive request never completed in the trace, with the channel it was
 * posted for (mpiprof::recv_*; source, tag: MPP_MSG_ANY for any), when it
 * was posted and the SRC key's string of the call that posted it. */
typedef struct {
    int process;
    uint32_t comm;
    int32_t source, tag;
    int64_t posted;
    uint64_t seq;
    uint32_t src;
} rp_pending_t;

typedef struct {
    const char *path;
    uint64_t resolution; /* ticks per second */
    uint64_t global_offset;
    uint64_t realtime; /* ns since the epoch of global_offset; 0: unknown */
    char creator[256];
    rp_location_t *locations;
    int nlocations;
    rp_process_t *processes; /* by rank */
    int nprocesses;
    rp_comm_t *comms; /* by OTF2 comm ref (size 0: not a communicator of the trace) */
    uint32_t ncomms;
    char **sites; /* frame records (srckey.h) of the call sites, sites[0] the region alone */
    uint32_t nsites;
    int from_mpiprof;     /* SRC points from mpiprof's call-site attribute (else the region alone) */
    rp_region_t *regions; /* by OTF2 region ref: which mark intervals or replicated code */
    uint32_t nregions;
    rp_message_t *sends, *recvs;
    size_t nsends, nrecvs, sends_cap, recvs_cap;
    rp_collective_t *collectives;
    size_t ncollectives, collectives_cap;
    uint64_t events, mpi_events;
    uint64_t unmatched_receives, unmatched_sends, unmatched_collectives;
    uint64_t untraced; /* calls of mpiprof's whose messages it does not trace (rp_untraced) */
    /* the traced run's checks (mpiprof::findings): the level (MPIPROF_CHECK, 0 when no process's findings
     * are in the trace), MPIPROF_MAX_FINDINGS, processes whose findings are there and unreadable */
    int check_level;
    size_t findings_max;
    int findings_from, findings_bad;
    /* the checks between processes the events allow (checks.c): the
     * highest level their attributes were written at (0: none, the
     * carried findings alone), the string definitions their SRC keys are,
     * the findings made (of this reader's receivers) */
    int derived_level, derived_coll; /* derived_coll: collectives carry their values */
    char **strings;
    uint32_t nstrings;
    struct rp_derived *derived;
    size_t nderived, derived_cap;
    rp_pending_t *pending; /* receive requests left pending at the end, with their channel */
    size_t npending, pending_cap;
    int incomplete; /* a location's events stop before its end (a run that died) */
    char incomplete_why[2048];
} rp_trace_t;

/* Read the archive at `path` (its anchor file, NAME.otf2).  0, or -1 with
 * one line in why (nothing usable: the trace is freed). */
int rp_trace_read(rp_trace_t *t, const char *path, char *why, size_t size);
/* The same, but the events of the processes (ranks) first..end-1 only (a
 * share of mpiprof-analyze under mpiexec): every definition is read, the
 * other processes' locations keep no event.  An archive without MPI
 * events is not refused here (the share's may have none): the caller
 * counts them over all shares (RP_NO_MPI_EVENTS). */
int rp_trace_read_share(rp_trace_t *t, const char *path, int part, int nparts, char *why, size_t size);

/* The share of part `part` of `nparts` (an analyzer's process among
 * mpiprof-analyze's under mpiexec): the traced processes (ranks) first to
 * end-1, a contiguous block, as many in each of the first
 * min(nparts, nprocesses) parts (give or take one), none in the others. */
void rp_share(int nprocesses, int part, int nparts, int *first, int *end);
/* The part whose share holds process p. */
int rp_share_owner(int nprocesses, int nparts, int p);
#define RP_NO_MPI_EVENTS "it has no MPI events (no region of the MPI paradigm was entered)"
void rp_trace_free(rp_trace_t *t);

#define RP_INSTANCE_MAX (3 + 2 * MPP_CC_NVALUES)
/* A collective instance (the k-th on its communicator) as the members
 * read so far saw it: the latest entry, exit and negated exit, how many
 * members reached it, how many members of its communicator reached any
 * instance there (all: the instance is whole when both are its size). */
typedef struct {
    uint32_t comm;
    uint64_t k;
    int64_t max[RP_INSTANCE_MAX]; /* then the maxima of the members' check rows (rp_collective_t.cc) */
    int64_t seen, members;
} rp_instance_t;

/* Where the members are shared among readers (mpiprof-analyze under
 * mpiexec): replaces each instance's values with those of all members, in
 * place, given `failed` (this reader could not make its instances; they
 * are NULL then).  Called by every reader once; 0, or -1 when any reader
 * failed. */
typedef int (*rp_combine_fn)(rp_instance_t *instances, size_t n, int failed, void *ctx);

/* What the protocol says of the whole trace: this reader's share's, then
 * (under mpiexec) summed, minimized or maximized over the shares. */
typedef struct {
    uint64_t events, mpi_events, sends, recvs, collectives;
    uint64_t unmatched_receives, unmatched_sends, unmatched_collectives, untraced;
    int64_t first, last; /* the first and last event of any location (INT64_MAX, INT64_MIN: none) */
    int64_t offsets;     /* locations with clock offsets */
    int64_t drifting;    /* ... whose offsets differ by more than their uncertainty: interpolated */
    int64_t inexact;     /* ... with an offset other than 0 or an uncertainty (not one shared clock) */
    /* the largest uncertainty (ticks) of the first and the last offset of a
     * location (mpiprof: at MPI_Init and MPI_Finalize), the lowest rank with it */
    int64_t uncertain[2], uncertain_rank[2];
    int64_t from_mpiprof;
    int64_t incomplete;
    char incomplete_why[2048]; /* the first incomplete share's */
} rp_totals_t;
/* Whether mpiprof's trace mode records no message or collective events
 * for calls of the function (mpiprof-trace(5)): starts of persistent
 * requests and matched receives, whose waits the dynamic mode counts. */
int rp_untraced(const char *function);
/* A call's time `dt` by category: a wait or test's goes to the kinds of the
 * requests it completed (thread_state.c's split_by_kind: the remainder to
 * the last kind), any other call's to its function's. */
void rp_split_time(const rp_call_t *c, uint64_t dt, uint64_t share[MPP_NCAT]);
/* After rp_waits (which counts what is unmatched). */
void rp_totals(const rp_trace_t *t, uint64_t sends, rp_totals_t *out);

/* Real sync of every receiving call, Potential sync and Time variation of
 * every collective instance, exactly from the events (characteristics.md):
 * into each call's wait[].  The sends paired are those in t->sends: all of
 * them alone, or those to this share's processes from every share (the
 * caller gathers them); `combine` (NULL alone) gives the instances the
 * other shares' members.  0, or -1 (memory ran out, here or elsewhere:
 * no collective wait was counted). */
int rp_waits(rp_trace_t *t, rp_combine_fn combine, void *ctx, int max_intervals, int max_nesting);
/* The bounds this reader's messages put on the clocks (mpp_clock_bound_t,
 * mpiprof-analyze(1)): the pairs of rp_waits' pairing (the sends in
 * t->sends: every one alone, those to this share's receivers under
 * mpiexec), one per ordered pair of processes (from: the sender's rank
 * index, to: the receiver's).  *out to be freed; 0, or -1 (memory). */
int rp_message_bounds(rp_trace_t *t, mpp_clock_bound_t **out, size_t *n);

/* What the messages' bounds did to the clocks (rp_clock_bounds). */
typedef struct {
    int moved;            /* processes whose timestamps were shifted */
    int64_t largest;      /* the largest shift, in ticks (its magnitude) */
    int largest_rank;     /* whose */
    int beyond;           /* processes shifted by more than their offsets' stated uncertainty */
    int64_t beyond_shift; /* the largest such shift and that process's uncertainty (ticks) */
    int64_t beyond_u;
    int beyond_rank;
    int contradictory; /* the bounds contradict each other: nothing applied */
    int failed;        /* memory ran out (anywhere): nothing applied */
} rp_bounds_t;
/* Under mpiexec: the bounds of every share to every share (*b replaced,
 * freed by the caller) and, per process, the largest uncertainty of its
 * offsets (ticks; -1: exact or none), each share's own filled in, the
 * others -1.  0, or -1 when memory ran out anywhere. */
typedef int (*rp_gather_bounds_fn)(mpp_clock_bound_t **b, size_t *n, int64_t *uncertainty, int failed, void *ctx);
/* The clocks corrected by the messages' bounds: each process whose
 * offsets are uncertain (deviation > 0) shifted as mpp_clock_bounds says,
 * every time the reader holds of its locations (calls, marks, messages,
 * pending receives) moved by its shift, before rp_waits.  `gather` NULL:
 * one reader. */
void rp_clock_bounds(rp_trace_t *t, rp_gather_bounds_fn gather, void *ctx, rp_bounds_t *out);

/* The interval stage of process p from its marks alone (the ends that
 * bound its collective windows, intervals.h), as rp_profile makes it: 0,
 * or -1 when memory ran out. */
int rp_intervals(const rp_trace_t *t, int p, int max_intervals, int max_nesting);

/* Each call of process p with the interval open at its return (an index
 * into mpp_intervals, the interval stage's), in the order rp_profile
 * replays them, its interval stage as rp_profile makes it (mpp_intervals
 * holds the process's intervals until the next process's replay): 0, or
 * -1 when memory ran out or fn returned non-zero. */
typedef int (*rp_call_fn)(void *ctx, const rp_call_t *c, uint32_t interval);
int rp_each_call(const rp_trace_t *t, int p, int max_intervals, int max_nesting, rp_call_fn fn, void *ctx);

/* The checks between processes from the message events (checks.c), as
 * the dynamic mode makes them (check/msgcheck.h): a send paired with the
 * receive that took it (rp_waits' pairing).  Kinds made so are those of
 * rp_derives. */
void rp_check_pair(rp_trace_t *t, const rp_message_t *send, const rp_message_t *recv);
/* Whether findings of `kind` come from the events (their carried ones
 * dropped) in this trace. */
int rp_derives(const rp_trace_t *t, int kind);
/* The same for a member of a whole collective instance: its values
 * against the range over the members (max: the instance's maxima of their
 * rows). */
void rp_check_collective(rp_trace_t *t, const rp_collective_t *c, const int64_t *max);
/* What is left once every pair is made (`unmatched`: the sends no receive
 * took), as the dynamic mode's MPI_Finalize sees it: each receive still
 * pending takes the first message left it could have taken, the others
 * are nonpaired-recv, the messages left nonpaired-send. */
void rp_check_leftovers(rp_trace_t *t, const rp_message_t *const *unmatched, size_t n);
/* Process p's findings: its carried ones but the kinds derived, and those
 * derived, in the order the dynamic mode made them.  0, or -1 (memory). */
int rp_check_findings(const rp_trace_t *t, int p, size_t max, mpp_finding_list_t *f);

/* The local profile of process p: its locations' calls and marks replayed
 * in time order into one table each (table.h) and the interval stage
 * (intervals.h), as the wrappers and marks add them at run time, then
 * built by mpp_profile_build (the profile points into the intervals: free
 * both with rp_local_free).  The interval stage is the process's own
 * (intervals.c): one process at a time.  0, or -1 when memory ran out. */
typedef struct {
    mpp_local_profile_t *profile;
    mpp_interval_t *intervals;
    int nintervals;
    char *facts[1]; /* the profile's context facts: its Threads parameter */
} rp_local_t;
int rp_profile(const rp_trace_t *t, int p, int max_src, int max_intervals, int max_nesting, rp_local_t *out);
void rp_local_free(rp_local_t *l);
/* The analyzer's ticks as seconds (rp_profile's to_seconds): the
 * resolution of the trace last read. */
double rp_seconds(uint64_t ticks);

#endif
