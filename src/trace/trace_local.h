/* What the two halves of trace mode share: the events of each thread
 * (trace_events.c, the hot path) and the archive with its definitions
 * (trace_archive.c, MPI_Init and MPI_Finalize). */
#ifndef MPP_TRACE_LOCAL_H
#define MPP_TRACE_LOCAL_H

#include <otf2/otf2.h>
#include <pthread.h>

#include "check/collcheck.h"
#include "check/signature.h"
#include "records/interval.h"
#include "trace/trace.h"
#include "util/common.h"
#include "util/handlemap.h"
#include "util/strmap.h"

/* Local ids: an MPI function's region is its function id on every process
 * (no mapping); a user region's is MPP_NFUNCTIONS + its index in its
 * thread's table, mapped to a global id at MPI_Finalize (OTF2 mapping
 * tables), as are local strings (SRC keys) and communicators. */
/* Attributes: "mpiprof::src" on every Enter; "mpiprof::io_done" on the
 * Leave of a wait or test that completed I/O requests (how many: OTF2's
 * MPI request events do not cover MPI_File_i*); "mpiprof::bytes_sent" and
 * "mpiprof::bytes_recv" on the Leave of a call whose bytes, as the
 * protocol counts them, are not those of its message and collective events
 * (MPI_PROC_NULL, one-sided and I/O calls); "mpiprof::probe_found" on the
 * Leave of a probe that found a message, "mpiprof::probed" on the MpiRecv
 * of a blocking receive that took it (the probe waited for it: the dynamic
 * mode's rule, waitstates/hooks.c). */
/* With the checks on (MPIPROF_CHECK), what the checks between processes
 * need of a message that OTF2's events lack, on a message event (MpiSend,
 * MpiIsend; MpiRecv, MpiIrecv): "mpiprof::check_bytes", a send's bytes or
 * a receive buffer's (-1: not known), and at full its type signature,
 * "mpiprof::sig_hash", "mpiprof::sig_length", "mpiprof::sig_basic"
 * (check/signature.h): mpiprof-analyze pairs them as the dynamic mode
 * pairs its send records with receives; "mpiprof::truncated" on the
 * message events of a call that returned an error whose messages came all
 * the same (MPI_ERR_TRUNCATE, MPI_ERR_IN_STATUS), written for the checks
 * alone (no wait state counts them). */
enum {
    TRACE_ATTR_SRC = 0,
    TRACE_ATTR_BYTES_SENT,
    TRACE_ATTR_BYTES_RECV,
    TRACE_ATTR_PROBE_FOUND,
    TRACE_ATTR_PROBED,
    TRACE_ATTR_CHECK_BYTES,
    TRACE_ATTR_SIG_HASH,
    TRACE_ATTR_SIG_LENGTH,
    TRACE_ATTR_SIG_BASIC,
    TRACE_ATTR_TRUNCATED,
    TRACE_ATTR_CC_ROWS, /* ... + TRACE_CC_ROWS - 1: "mpiprof::coll_row:K", a collective member's values */
    /* a receive request's channel as posted, on its MpiIrecvRequest (nonpaired-send, nonpaired-recv) */
    TRACE_ATTR_RECV_COMM = TRACE_ATTR_CC_ROWS + 2 * MPP_CC_NVALUES,
    TRACE_ATTR_RECV_SOURCE,
    TRACE_ATTR_RECV_TAG,
    TRACE_ATTR_IO_DONE /* (above) */
};
#define TRACE_CC_ROWS (2 * MPP_CC_NVALUES)

/* A message's part of those attributes (level: MPIPROF_CHECK's, 0 none). */
typedef struct {
    int level;
    int64_t bytes;
    mpp_signature_t sig;
} trace_check_t;

/* A local string: the SRC key of a call site (fid, frames), resolved at
 * MPI_Finalize. */
typedef struct {
    uint32_t fid;
    uintptr_t frames[MPP_MAX_DEPTH];
} trace_site_t;

/* A user region: an interval (name, begin position) or replicated code. */
typedef struct {
    char name[MPP_NAME_MAX];
    const char *file; /* static text of the mark (mpiprof_interval_begin's __FILE__), or NULL */
    int line;
    uintptr_t site; /* its return address, resolved at MPI_Finalize when file is NULL */
    int seq;        /* replicated code */
} trace_region_t;

/* A communicator as the trace names it: its id (commids.h; 0 when the
 * wait-state analysis, which derives them, is off) and its members'
 * MPI_COMM_WORLD ranks (the local group of an intercommunicator). */
typedef struct {
    MPI_Comm handle;
    uint64_t id;
    int size;
    int *members;
} trace_comm_t;

/* A request in flight: what its completion event needs. */
enum { TRACE_REQ_SEND, TRACE_REQ_RECV, TRACE_REQ_COLLECTIVE };
typedef struct {
    int kind;
    uint32_t comm;
    uint64_t bytes;    /* a collective's: sent */
    uint64_t received; /* a collective's */
    uint32_t root;     /* a collective's, or OTF2_UNDEFINED_UINT32 */
    OTF2_CollectiveOp op;
    int source, tag;     /* a receive's, as posted (MPI_ANY_*: the status's) */
    trace_check_t check; /* a send's or receive's */
    int has_cc;          /* a collective's values (check/collcheck.h rows), with the checks on */
    int64_t cc[TRACE_CC_ROWS];
} trace_request_t;

/* A persistent request as its creation gave it: what each MPI_Start of it
 * records, and remembers for its completion. */
typedef struct {
    trace_request_t request; /* bytes: one start's */
    int peer, tag;           /* a send's destination and tag */
    uint32_t site;           /* with the checks on: its creating call's SRC point, which their findings name
                                (mpiprof::src on a start's events; UINT32_MAX: none) */
} trace_persistent_t;

/* The message the thread's last probe found, until a receive takes it. */
typedef struct {
    int valid;
    MPI_Comm comm;
    MPI_Message message; /* MPI_MESSAGE_NULL: not a matched probe */
    int source, tag;
} trace_probe_t;

typedef struct trace_thread {
    OTF2_EvtWriter *writer;
    OTF2_AttributeList *attributes;
    uint64_t location; /* thread index << 32 | rank */
    int index;
    trace_site_t *sites;
    size_t nsites, sites_capacity;
    mpp_handlemap_t site_index; /* mpp_key_hash of a site -> its index + 1 */
    trace_region_t *regions;
    size_t nregions, regions_capacity;
    uint32_t *open; /* user regions entered and not left (a stack) */
    size_t nopen, open_capacity;
    trace_comm_t *comms;
    size_t ncomms, comms_capacity;
    uint64_t call_sent, call_recv; /* the open call's bytes a reader finds in its events */
    uint32_t last_comm;            /* index of the last communicator used */
    mpp_handlemap_t requests;      /* request key (handle | serial << 32) -> trace_request_t */
    mpp_handlemap_t persistent;    /* the same key -> trace_persistent_t, until MPI_Request_free */
    trace_probe_t probe;
    int probe_found;    /* the open call is a probe that found a message */
    uint64_t last_time; /* events of a location never go back in time */
    int broken;         /* out of memory or an OTF2 error: no more events */
    int flushed_fd;     /* its definitions file in mpiprof-rescue (fd + 1; 0: not open) */
    size_t flushed_sites, flushed_regions, flushed_comms; /* written there already */
    struct trace_thread *next;
} trace_thread_t;

/* A string definition of rank 0's, numbered after the unified ones; the
 * checks' attribute definitions (trace_checks.c). */
uint32_t mpp_trace_string_def(OTF2_GlobalDefWriter *w, uint32_t *next, const char *text);
void mpp_trace_check_attributes(OTF2_GlobalDefWriter *w, uint32_t *next);

extern OTF2_Archive *mpp_trace_archive;
extern pthread_mutex_t mpp_trace_threads_lock;
extern trace_thread_t *mpp_trace_threads; /* every thread's, newest first */
extern int mpp_trace_rank;
extern uint64_t mpp_trace_errors; /* events lost (out of memory, OTF2 errors) */

/* The archive: its directory, the number of processes, the size of its
 * event chunks, this process's clock when tracing began. */
extern char mpp_trace_path[4096];
extern int mpp_trace_nprocs;
extern uint64_t mpp_trace_chunk;
extern uint64_t mpp_trace_started;

/* The definitions exchanged at MPI_Finalize, and written by a process that
 * ends early (trace_rescue.c): NUL-terminated records (trace_archive.c). */
typedef struct {
    char *text;
    size_t len, capacity;
} trace_blob_t;
int mpp_trace_put(trace_blob_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mpp_trace_describe_threads(trace_blob_t *b);

/* The unification of the processes' records: every distinct string, region
 * and communicator gets one global id; locations and hosts are kept for the
 * definitions. */
typedef struct {
    mpp_strmap_t strings, regions, comms, hosts;
    uint32_t nstrings, nregions, ncomms, nhosts;
    uint32_t *host_of;   /* [mpp_trace_nprocs] system tree node of each rank */
    char **findings;     /* [mpp_trace_nprocs] each rank's findings (text form), NULL: none said */
    char **threads;      /* [mpp_trace_nprocs] each rank's "alive mpi omp source" (trace_threads.c), NULL: none */
    uint64_t *locations; /* (rank, thread) pairs: location ids */
    uint64_t *events;
    size_t nlocations, locations_capacity;
} trace_unify_t;
/* The Threads parameter of each process (trace_threads.c): its record
 * ("P"), taken into the unification, written as its location group's
 * property mpiprof::threads, freed with the unification. */
int mpp_trace_threads_put(trace_blob_t *b);
void mpp_trace_threads_record(trace_unify_t *u, int rank, const char *value);
void mpp_trace_threads_write(OTF2_GlobalDefWriter *w, const trace_unify_t *u, uint32_t *next);
void mpp_trace_threads_free(trace_unify_t *u);
/* One process's records into the unification (a trace_unify_t *ctx): the
 * global id of each S, R and C record in order (allocated, *reply_len
 * bytes). */
char *mpp_trace_unify(void *ctx, int rank, const char *bytes, size_t len, size_t *reply_len);
/* The global definitions of the unified processes; a location's mapping
 * tables from its S, R and C records' counts and their global ids from
 * ids[*next] on (advanced).  Non-zero on failure. */
int mpp_trace_write_global(OTF2_Archive *archive, trace_unify_t *u, uint64_t global_offset, uint64_t length);
/* What the unification holds beyond its maps (its arrays and findings). */
void mpp_trace_unify_free(trace_unify_t *u);
int mpp_trace_write_mappings(OTF2_DefWriter *w, const size_t counts[3], const uint32_t *ids, size_t nids,
                             size_t *next);

/* At every flush of a location's events: what its local ids stand for, as
 * far as known without symbolization, appended to
 * <archive>/mpiprof-rescue/<rank>.<thread> (trace_rescue.c), so that a
 * process killed before it could describe its events leaves them readable
 * up to that flush. */
void mpp_trace_flushed(OTF2_LocationRef location);

/* The calling thread's state, opened at its first traced event (NULL when
 * it cannot be). */
trace_thread_t *mpp_trace_self(void);

/* The local string id of a call site (function, frames up to depth), added
 * at its first use; UINT32_MAX when it cannot be. */
uint32_t mpp_trace_site(trace_thread_t *t, uint32_t fid, const uintptr_t *frames, int depth);

/* Region role of an MPI function as Score-P gives it, and the collective
 * operation of a collective function. */
OTF2_RegionRole mpp_trace_region_role(const char *function);
OTF2_CollectiveOp mpp_trace_collective_op(const char *function);

#endif
