/* What the parts of the OTF2 reader (replay.h) share: the definitions as
 * read, and the state of the location being read.  otf2_defs.c reads the
 * global definitions into processes, communicators and regions;
 * otf2_events.c reads each location's events into its calls, messages,
 * collective instances and marks; otf2_read.c opens the archive and says
 * what went wrong.  Private to src/replay/. */
#ifndef MPP_OTF2_READER_H
#define MPP_OTF2_READER_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/replay.h"
#include "util/handlemap.h"
#include "util/strmap.h"

#define SRC_ATTRIBUTE "mpiprof::src"
#define BYTES_SENT_ATTRIBUTE "mpiprof::bytes_sent"
#define BYTES_RECV_ATTRIBUTE "mpiprof::bytes_recv"
#define PROBE_FOUND_ATTRIBUTE "mpiprof::probe_found"
#define PROBED_ATTRIBUTE "mpiprof::probed"
#define IO_DONE_ATTRIBUTE "mpiprof::io_done"
#define FINDINGS_PROPERTY "mpiprof::findings"
#define THREADS_PROPERTY "mpiprof::threads" /* "alive mpi omp source" (context/threads.h) */
/* the checks' attributes of message events, in the order of reader_t's check_attribute */
#define CC_ATTRIBUTE "mpiprof::coll_row:"
#define CHECK_ATTRIBUTES                                                                          \
    {                                                                                             \
        "mpiprof::check_bytes", "mpiprof::sig_hash", "mpiprof::sig_length", "mpiprof::sig_basic", \
            "mpiprof::truncated"                                                                  \
    }
enum { CHECK_BYTES, CHECK_SIG_HASH, CHECK_SIG_LENGTH, CHECK_SIG_BASIC, CHECK_TRUNCATED, NCHECK_ATTRIBUTES };

typedef struct {
    uint32_t name, file, description;
    uint32_t line;
    int paradigm, role;
} region_def_t;

typedef struct {
    uint32_t name;
    uint64_t group;
    int type;
    uint64_t events; /* as its writer counted them (0: not said) */
} location_def_t;

typedef struct {
    uint32_t name;
    uint64_t parent;
    int type;
} group_def_t; /* location groups and system tree nodes */

typedef struct {
    char *text; /* a location group's mpiprof::findings lines, each ended by '\n' */
    size_t len;
    size_t lines; /* lines read */
    int damaged;  /* a line's number is not the next one */
} findings_text_t;

typedef struct {
    int type, paradigm;
    uint32_t n;
    uint64_t *members;
} member_group_t;

/* Growable arrays indexed by OTF2 reference. */
#define AT(array, count, ref) ((ref) < (count) ? &(array)[ref] : NULL)

typedef struct {
    rp_trace_t *t;
    char **strings;
    uint32_t nstrings;
    region_def_t *regions;
    uint32_t nregions;
    location_def_t *locations; /* by position of definition */
    uint64_t *location_refs;
    uint32_t nlocations, locations_cap;
    group_def_t *lgroups, *nodes;
    uint32_t nlgroups, nnodes;
    findings_text_t *findings; /* by location group */
    uint32_t nfindings;
    findings_text_t *threads; /* by location group: its mpiprof::threads */
    uint32_t nthreads;
    member_group_t *groups;
    uint32_t ngroups;
    uint64_t *comm_group; /* by comm ref */
    uint32_t ncomm_groups;
    uint64_t src_attribute;                      /* OTF2_UNDEFINED_ATTRIBUTE: none */
    uint64_t bytes_attribute[2];                 /* sent, received (mpiprof-trace(5)); the same */
    uint64_t probe_attribute[2];                 /* probe_found, probed; the same (without them: an earlier
                                                    mpiprof's archive, whose starts and matched receives have no events) */
    uint64_t io_attribute;                       /* io_done; the same */
    uint64_t check_attribute[NCHECK_ATTRIBUTES]; /* the same */
    uint64_t cc_attribute[2 * MPP_CC_NVALUES];   /* mpiprof::coll_row:K; the same */
    uint64_t recv_attribute[3];                  /* mpiprof::recv_comm, recv_source, recv_tag; the same */
    int failed;
    char why[256];
    /* events of the location being read */
    int current;
    int depth;      /* MPI regions open (nested ones are MPI's own) */
    uint32_t *open; /* every region open, innermost last */
    size_t nopen, open_cap;
    int64_t open_call;        /* its call, -1: none or not profiled */
    uint32_t open_src;        /* its SRC key's string (mpiprof::src), RP_NO_STRING: none */
    int64_t probe_call;       /* its last probe that found a message, -1: none */
    mpp_handlemap_t requests; /* request id of a receive or nonblocking collective -> irecv_t */
    int64_t *coll_open;       /* calls with a MpiCollectiveBegin not yet ended */
    size_t ncoll_open, coll_open_cap;
    mpp_strmap_t sites; /* frame record -> index */
} reader_t;

typedef struct {
    int64_t posted;
    int64_t call;
    uint32_t src; /* the SRC key's string of the call that posted it */
    int channel;  /* a receive's channel as posted is known (mpiprof::recv_*): */
    uint32_t comm;
    int32_t source, tag; /* world rank, tag; MPP_MSG_ANY: any */
} irecv_t;

/* The first failure, said in one line (why[]); later ones are dropped. */
void rp_fail(reader_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string of a reference ("" when undefined). */
const char *rp_string(const reader_t *r, uint64_t ref);

/* otf2_defs.c: 0, or -1 (failed) */
int rp_read_global_definitions(reader_t *r, OTF2_Reader *reader);
int rp_build_processes(reader_t *r);
int rp_build_regions(reader_t *r);
/* otf2_events.c: location l's clock offsets (when the archive has local
 * definitions) and events; 0, or -1 (failed). */
int rp_read_location(reader_t *r, OTF2_Reader *reader, int l, int have_defs);

#endif
