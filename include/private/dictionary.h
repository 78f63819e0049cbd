/* The union of string-keyed records of all processes (intervals, SRC
 * points, (interval, SRC) cells, hosts, warnings), built by merging
 * serialized dictionaries up a binary tree (log P rounds), put in canonical
 * order on rank 0 and broadcast.  Pure data manipulation: no MPI here. */
#ifndef MPP_DICTIONARY_H
#define MPP_DICTIONARY_H

#include <stddef.h>
#include <stdint.h>

#include "strmap.h"

typedef enum { MPP_REC_INTERVAL = 0, MPP_REC_SRC, MPP_REC_CELL, MPP_REC_HOST, MPP_REC_WARNING, MPP_NREC } mpp_record_kind_t;

/* Separates the interval key from the SRC key in a cell's key. */
#define MPP_GS '\x1d'

typedef struct {
    int kind;
    char *key;
    int64_t min; /* merged by minimum: first entry (ns) of an interval, lowest rank of a warning */
    int64_t sum; /* merged by sum: processes that have the record */
} mpp_record_t;

typedef struct {
    mpp_record_t *records;
    size_t count, capacity;
    mpp_strmap_t index; /* kind + key -> position */
} mpp_dict_t;

void mpp_dict_init(mpp_dict_t *d);
void mpp_dict_free(mpp_dict_t *d);
int mpp_dict_add(mpp_dict_t *d, int kind, const char *key, int64_t min, int64_t sum);
/* Position of a record, or -1. */
long mpp_dict_find(const mpp_dict_t *d, int kind, const char *key);

/* Serialized form: records one after the other (kind, key length, key, min, sum). */
int mpp_dict_serialize(const mpp_dict_t *d, char **buffer, size_t *length);
int mpp_dict_merge_serialized(mpp_dict_t *d, const char *buffer, size_t length);

/* Canonical order: intervals depth-first with siblings in order of first
 * entry, then SRC points by key, cells by (interval, SRC), hosts, warnings by
 * lowest rank.  The n-th record of a kind has global id n. */
int mpp_dict_canonical_order(mpp_dict_t *d);

/* Parent key of an interval key ("0" has none: NULL).  Allocated. */
char *mpp_interval_parent_key(const char *key);

#endif
