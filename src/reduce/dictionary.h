/* The union of string-keyed records of all processes (intervals, SRC
 * points, (interval, SRC) cells, hosts, warnings, counter events, and the
 * machine context: node types, host infos, placement runs, facts; the
 * encodings of the machine records are in machine.h), built by merging
 * serialized dictionaries up a binary tree (log P rounds), put in canonical
 * order on rank 0 and broadcast.  Pure data manipulation: no MPI here. */
#ifndef MPP_DICTIONARY_H
#define MPP_DICTIONARY_H

#include <stddef.h>
#include <stdint.h>

#include "records/facts.h"
#include "util/handlemap.h"

typedef enum {
    MPP_REC_INTERVAL = 0,
    MPP_REC_SRC,
    MPP_REC_CELL,
    MPP_REC_HOST,
    MPP_REC_WARNING,
    MPP_REC_EVENT,     /* counter event: name US component; min: its position in the list asked */
    MPP_REC_NODETYPE,  /* node description, one per distinct type; min: lowest rank, sum: hosts */
    MPP_REC_HOSTINFO,  /* host US node-type hash US allowed PUs, from the host's lowest rank */
    MPP_REC_PLACEMENT, /* run of ranks and their bindings (coalesced by mpp_dict_coalesce_runs) */
    MPP_REC_FACT,      /* label US value: PAPI version, multiplexing, why nothing is counted, ... */
    MPP_NREC
} mpp_record_kind_t;

/* A cell's key is the hash of its interval's key, MPP_GS, and the hash of
 * its SRC key, each as 16 hex digits: short keys keep the union of 10^4
 * cells cheap (the full keys travel once, in the interval and SRC records). */
#define MPP_GS '\x1d'
#define MPP_CELL_KEY_LEN 34
void mpp_cell_key(const char *interval_key, const char *src_key, char out[MPP_CELL_KEY_LEN]);
/* The 16 hex digits of a key's hash (a half of a cell key), and the cell
 * key of two such halves. */
void mpp_key_hash_hex(const char *key, char out[17]);
void mpp_cell_key_of(const char interval_hex[17], const char src_hex[17], char out[MPP_CELL_KEY_LEN]);

typedef struct {
    int kind;
    uint32_t len;    /* of the key */
    const char *key; /* in the dictionary's key blocks */
    int64_t min;     /* merged by minimum: first entry (ns) of an interval, lowest rank of a warning */
    int64_t sum;     /* merged by sum: processes that have the record */
    uint64_t hash;   /* of kind and key, for the index */
} mpp_record_t;

typedef struct {
    mpp_record_t *records;
    size_t count, capacity;
    /* kind + key -> position: open addressing over the records' own keys,
     * at most half full; a slot holds the upper 32 bits of the record's
     * hash and its position + 1 (0: empty), so that a probe reads a record
     * only when its hash may match */
    uint64_t *index;
    size_t index_capacity;
    /* Set by mpp_dict_canonical_order: the (interval id, SRC id) of each
     * cell record, in order (2 per cell); NULL until then. */
    long *cell_ids;
    /* Set by mpp_dict_canonical_order too: the position now of the record
     * that was at position p before (-1: dropped), for p < nmoved; the
     * process that orders the dictionary finds its own records by the
     * positions it put them at. */
    long *moved;
    size_t nmoved;
    /* The keys, copied into blocks freed with the dictionary (a malloc
     * per key of 10^4 cells took a tenth of the reduction). */
    void *key_blocks;
} mpp_dict_t;

void mpp_dict_init(mpp_dict_t *d);
void mpp_dict_free(mpp_dict_t *d);
int mpp_dict_add(mpp_dict_t *d, int kind, const char *key, int64_t min, int64_t sum);
/* The same, giving the record's position (-1: out of memory). */
long mpp_dict_put(mpp_dict_t *d, int kind, const char *key, int64_t min, int64_t sum);
/* Position of a record, or -1. */
long mpp_dict_find(const mpp_dict_t *d, int kind, const char *key);

/* Serialized form: records one after the other (kind, key length, key, min, sum). */
int mpp_dict_serialize(const mpp_dict_t *d, char **buffer, size_t *length);
int mpp_dict_merge_serialized(mpp_dict_t *d, const char *buffer, size_t length);
/* Load a serialized dictionary into an empty d, its keys copied into one
 * block (the broadcast canonical dictionary: 10^4 records and more, each
 * allocated on its own took most of the time).  All or nothing. */
int mpp_dict_load_serialized(mpp_dict_t *d, const char *buffer, size_t length);

/* Canonical order: intervals depth-first with siblings in order of first
 * entry, then SRC points by key, cells by (interval, SRC), hosts, warnings by
 * lowest rank, events by position asked, node types, host infos and
 * placement runs by lowest rank, facts by key.  The n-th record of a kind
 * has global id n. */
int mpp_dict_canonical_order(mpp_dict_t *d);

/* Merge the placement runs that continue one another (machine.h), so that
 * regular layouts keep one run per host however many ranks it has. */
int mpp_dict_coalesce_runs(mpp_dict_t *d);

/* Map the key's hash (the 64 bits a cell key gives in hex) -> position,
 * for every record of `kind` (cells name their interval and SRC point by
 * these hashes); values are longs.  Free with mpp_handlemap_free. */
int mpp_dict_index_hashes(const mpp_dict_t *d, int kind, mpp_handlemap_t *out);
/* Positions of a cell's interval and SRC point in d (-1 when unknown). */
void mpp_dict_cell_parts(const mpp_handlemap_t *intervals, const mpp_handlemap_t *srcs, const char *cell_key,
                         long *interval, long *src);

/* Parent key of an interval key ("0" has none: NULL).  Allocated. */
char *mpp_interval_parent_key(const char *key);

#endif
