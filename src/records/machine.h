/* What the run ran on, summarized for the protocol: node types (hwloc's
 * description of a node), hosts, and where each rank was bound.  Pure data
 * manipulation, no MPI, no hwloc: src/context/topology.c produces the
 * records, src/reduce/ merges them across processes (and coalesces the
 * placement runs while doing so), rank 0 summarizes them here and
 * src/write/ renders the summary.
 *
 * Record encodings (fields separated by US, '\x1f'):
 *   node type   model US packages US cores US pus US numa US memory
 *               US l1d_size US l1d_count US l1i_size US l1i_count
 *               US l2_size US l2_count US l3_size US l3_count US core_map
 *               core_map: the OS indexes of each core's PUs, cores
 *               separated by ';' ("0,64;1,65;...")
 *   host info   host US node-type hash (16 hex digits) US allowed PUs
 *   run         host US first US rank_step US count US pu_step US pus
 *               ranks first, first+rank_step, ... (count of them) on host,
 *               the i-th bound to the PUs `pus` shifted by i*pu_step;
 *               pus "" when the binding is unknown
 * PU sets are written as id lists: "0-3,8,10-11" (OS indexes). */
#ifndef MPP_MACHINE_H
#define MPP_MACHINE_H

#include <stdint.h>

/* --- id lists --- */

/* Parse "0-3,8": sorted, without duplicates, allocated in *ids (NULL when
 * empty).  Returns the count, -1 when malformed or out of memory. */
int mpp_idlist_parse(const char *text, int **ids);
/* Format sorted unique ids as "0-3,8" (allocated; "" when n is 0). */
char *mpp_idlist_format(const int *ids, int n);

/* --- placement runs --- */

typedef struct {
    char *host;
    int first, rank_step, count;
    int *pus; /* the first rank's PUs, sorted */
    int npus; /* 0: binding unknown */
    int pu_step;
} mpp_run_t;

/* Run of one rank. */
int mpp_run_single(mpp_run_t *r, const char *host, int rank, const char *pus);
char *mpp_run_key(const mpp_run_t *r);
int mpp_run_parse(const char *key, mpp_run_t *r);
void mpp_run_free(mpp_run_t *r);
/* Sort runs by (host, first rank) and merge each run into the one before
 * it when it continues its rank and PU progressions.  Returns the new count
 * (the merged-away runs are freed). */
int mpp_runs_coalesce(mpp_run_t *runs, int n);
/* PUs of the i-th rank of a run (allocated, npus of them). */
int *mpp_run_pus_of(const mpp_run_t *r, int i);

/* --- node types --- */

enum { MPP_CACHE_L1D = 0, MPP_CACHE_L1I, MPP_CACHE_L2, MPP_CACHE_L3, MPP_NCACHE };

typedef struct {
    char *model;
    int packages, cores, pus, numa;
    uint64_t memory;                 /* bytes */
    uint64_t cache_size[MPP_NCACHE]; /* bytes per instance, 0: none */
    int cache_count[MPP_NCACHE];
    char *core_map;
} mpp_node_type_t;

char *mpp_node_type_key(const mpp_node_type_t *t);
int mpp_node_type_parse(const char *key, mpp_node_type_t *t);
void mpp_node_type_free(mpp_node_type_t *t);
/* "AMD EPYC, 1 package, 2 cores, 2 hardware threads, 1 NUMA node,
 * 4.46 GiB memory, L1d 2x32 KiB, L1i 2x32 KiB, L2 2x512 KiB, L3 1x32 MiB" */
char *mpp_node_type_text(const mpp_node_type_t *t);
/* The hash by which host-info records name their node type. */
void mpp_node_type_hash(const char *key, char out[17]);

/* "node[01-04,07],login" from host names (order kept for what does not
 * compress). Allocated. */
char *mpp_hostlist_format(char *const *names, int n);

/* --- the summary rank 0 writes --- */

typedef struct {
    char *name;
    int lowest_rank, nranks; /* from the host records of the reduction */
    int type;                /* index of its node type, -1: unknown */
    char *allowed;           /* PUs the node lets this job use, NULL: unknown */
    int threads;             /* the program's threads of its ranks, summed (0: unknown) */
} mpp_machine_host_t;

/* What the reduction hands over (reduced.h). */
typedef struct {
    char *na_reason; /* NULL when collected */
    char **types;    /* node-type keys, by lowest rank */
    int ntypes;
    mpp_machine_host_t *hosts; /* by lowest rank */
    int nhosts;
    char **runs; /* run keys, coalesced */
    int nruns;
} mpp_machine_data_t;

typedef struct {
    mpp_node_type_t type;
    char *text;   /* mpp_node_type_text */
    char **hosts; /* names of the hosts having it */
    int nhosts;
    char *hosts_text; /* mpp_hostlist_format */
} mpp_machine_type_t;

typedef struct {
    mpp_run_t run;
    int bound;  /* 0: unbound (every allowed PU), -1: binding unknown */
    char *text; /* "ranks 0-3 bound to PU 0-3" */
} mpp_placed_run_t;

typedef struct {
    char *host;
    int nranks;
    mpp_placed_run_t *runs;
    int nruns;
    char *text; /* "hostA: ranks 0-3 bound to PU 0-3; rank 4 unbound" */
} mpp_host_placement_t;

typedef struct {
    const char *na_reason; /* NULL when available */
    mpp_machine_type_t *types;
    int ntypes;
    mpp_host_placement_t *hosts; /* by lowest rank */
    int nhosts;
    char **warnings; /* ranks sharing a core, unbound on oversubscribed nodes */
    int nwarnings;
} mpp_machine_summary_t;

/* Summarize reduced machine data (NULL or n/a: the summary says why).
 * Returns 0, -1 when memory ran out. */
int mpp_machine_summarize(const mpp_machine_data_t *data, mpp_machine_summary_t *out);
void mpp_machine_summary_free(mpp_machine_summary_t *s);

#endif
