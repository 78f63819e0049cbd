#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/machine.h"
#include "reduce/dictionary.h"
#include "util/srckey.h"
#include "util/strmap.h"

/* The index hashes a record's key and kind together; a cell key names its
 * interval and SRC point by the hash of the key alone (mpp_key_hash_hex):
 * one is the other with the kind's term taken out. */
static uint64_t kind_term(int kind) { return (uint64_t)(kind + 1) * 0x9E3779B97F4A7C15ull; }

static uint64_t record_hash(int kind, const char *key, size_t len)
{
    return mpp_hash_bytes(key, len) ^ kind_term(kind);
}

void mpp_dict_init(mpp_dict_t *d) { memset(d, 0, sizeof *d); }

/* A block of keys, each followed by its NUL. */
typedef struct key_block {
    struct key_block *next;
    size_t used, size;
    char data[];
} key_block_t;

enum { KEY_BLOCK_FIRST = 4096, KEY_BLOCK_MOST = 1 << 20 };

/* A block of at least `need` bytes at the head of the list, or NULL. */
static key_block_t *key_block(mpp_dict_t *d, size_t need)
{
    key_block_t *b = d->key_blocks;
    if (b && b->size - b->used >= need)
        return b;
    size_t size = b ? (b->size < KEY_BLOCK_MOST ? 2 * b->size : b->size) : KEY_BLOCK_FIRST;
    if (size < need)
        size = need;
    key_block_t *fresh = malloc(sizeof *fresh + size);
    if (!fresh)
        return NULL;
    *fresh = (key_block_t){b, 0, size};
    d->key_blocks = fresh;
    return fresh;
}

/* A copy of key (len bytes) in d's key blocks, NUL-terminated. */
static char *store_key(mpp_dict_t *d, const char *key, size_t len)
{
    key_block_t *b = key_block(d, len + 1);
    if (!b)
        return NULL;
    char *copy = b->data + b->used;
    memcpy(copy, key, len);
    copy[len] = '\0';
    b->used += len + 1;
    return copy;
}

void mpp_dict_free(mpp_dict_t *d)
{
    for (key_block_t *b = d->key_blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(d->records);
    free(d->index);
    free(d->cell_ids);
    free(d->moved);
    memset(d, 0, sizeof *d);
}

static uint64_t slot_of(size_t position, uint64_t h)
{
    return (h & 0xffffffff00000000ull) | (uint64_t)(position + 1);
}

static size_t position_in(uint64_t slot) { return (size_t)(slot & 0xffffffffu) - 1; }

/* The index slot of (kind, key of len bytes): where its position is, or
 * the empty slot where it goes. */
static size_t index_slot(const mpp_dict_t *d, int kind, const char *key, size_t len, uint64_t h)
{
    size_t mask = d->index_capacity - 1, i = h & mask;
    for (; d->index[i]; i = (i + 1) & mask) {
        if ((d->index[i] ^ h) >> 32)
            continue;
        const mpp_record_t *r = &d->records[position_in(d->index[i])];
        if (r->hash == h && r->kind == kind && r->len == len && !memcmp(r->key, key, len))
            break;
    }
    return i;
}

/* Index every record again (after growth or reordering). */
static int reindex(mpp_dict_t *d, size_t capacity)
{
    uint64_t *index = calloc(capacity, sizeof *index);
    if (!index)
        return -1;
    free(d->index);
    d->index = index;
    d->index_capacity = capacity;
    for (size_t p = 0; p < d->count; p++) {
        size_t i = d->records[p].hash & (capacity - 1); /* keys are distinct: the first empty slot */
        while (index[i])
            i = (i + 1) & (capacity - 1);
        index[i] = slot_of(p, d->records[p].hash);
    }
    return 0;
}

/* Add (kind, key of len bytes) or merge into the record it has. */
static long put(mpp_dict_t *d, int kind, const char *key, size_t len, int64_t min, int64_t sum)
{
    if ((d->count + 1) * 2 > d->index_capacity && reindex(d, d->index_capacity ? d->index_capacity * 2 : 256) != 0)
        return -1;
    uint64_t h = record_hash(kind, key, len);
    size_t slot = index_slot(d, kind, key, len, h);
    if (d->index[slot]) {
        size_t at = position_in(d->index[slot]);
        mpp_record_t *r = &d->records[at];
        if (min < r->min)
            r->min = min;
        r->sum += sum;
        return (long)at;
    }
    if (d->count == d->capacity) {
        size_t cap = d->capacity ? d->capacity * 2 : 64;
        mpp_record_t *grown = realloc(d->records, cap * sizeof *grown);
        if (!grown)
            return -1;
        d->records = grown;
        d->capacity = cap;
    }
    char *copy = store_key(d, key, len);
    if (!copy)
        return -1;
    d->records[d->count] = (mpp_record_t){kind, (uint32_t)len, copy, min, sum, h};
    d->index[slot] = slot_of(d->count, h);
    return (long)d->count++;
}

long mpp_dict_put(mpp_dict_t *d, int kind, const char *key, int64_t min, int64_t sum)
{
    return put(d, kind, key, strlen(key), min, sum);
}

int mpp_dict_add(mpp_dict_t *d, int kind, const char *key, int64_t min, int64_t sum)
{
    return mpp_dict_put(d, kind, key, min, sum) < 0 ? -1 : 0;
}

long mpp_dict_find(const mpp_dict_t *d, int kind, const char *key)
{
    if (!d->index_capacity)
        return -1;
    size_t len = strlen(key);
    size_t slot = index_slot(d, kind, key, len, record_hash(kind, key, len));
    return d->index[slot] ? (long)position_in(d->index[slot]) : -1;
}

int mpp_dict_serialize(const mpp_dict_t *d, char **buffer, size_t *length)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += 1 + 4 + d->records[i].len + 16;
    char *b = malloc(n ? n : 1), *p = b;
    if (!b)
        return -1;
    for (size_t i = 0; i < d->count; i++) {
        const mpp_record_t *r = &d->records[i];
        uint32_t len = r->len;
        *p++ = (char)r->kind;
        memcpy(p, &len, 4), p += 4;
        memcpy(p, r->key, len), p += len;
        memcpy(p, &r->min, 8), p += 8;
        memcpy(p, &r->sum, 8), p += 8;
    }
    *buffer = b;
    *length = n;
    return 0;
}

/* One record of a serialized dictionary; its key is not NUL-terminated. */
typedef struct {
    int kind;
    const char *key;
    uint32_t len;
    int64_t min, sum;
} serial_record_t;

/* Read the record at *p (the buffer ends at end) and move past it: 1, or 0
 * at the end, or -1 when the buffer is malformed there. */
static int next_record(const char **p, const char *end, serial_record_t *r)
{
    if (*p == end)
        return 0;
    if (end - *p < 5)
        return -1;
    r->kind = **p;
    memcpy(&r->len, *p + 1, 4);
    r->key = *p + 5;
    if ((size_t)(end - r->key) < (size_t)r->len + 16 || r->kind < 0 || r->kind >= MPP_NREC)
        return -1;
    memcpy(&r->min, r->key + r->len, 8);
    memcpy(&r->sum, r->key + r->len + 8, 8);
    *p = r->key + r->len + 16;
    return 1;
}

/* Walk a serialized dictionary; with d == NULL only check its structure. */
static int walk_serialized(mpp_dict_t *d, const char *b, size_t length)
{
    const char *p = b, *end = b + length;
    serial_record_t r;
    int more;
    while ((more = next_record(&p, end, &r)) > 0) {
        if (!d)
            continue;
        if (put(d, r.kind, r.key, r.len, r.min, r.sum) < 0)
            return -1;
    }
    return more;
}

int mpp_dict_load_serialized(mpp_dict_t *d, const char *b, size_t length)
{
    const char *p = b, *end = b + length;
    serial_record_t r;
    size_t n = 0;
    int more;
    while ((more = next_record(&p, end, &r)) > 0)
        n++;
    if (d->count || more < 0)
        return -1;
    mpp_record_t *records = malloc((n ? n : 1) * sizeof *records);
    size_t capacity = 256;
    while (capacity < 2 * (n + 1))
        capacity *= 2;
    uint64_t *index = calloc(capacity, sizeof *index);
    /* one block for the keys: each followed by its NUL, they take less
     * than the buffer */
    key_block_t *keys = key_block(d, length ? length : 1);
    if (!records || !index || !keys) {
        free(records), free(index);
        return -1;
    }
    free(d->records);
    free(d->index);
    d->records = records;
    d->capacity = n;
    d->index = index;
    d->index_capacity = capacity;
    for (p = b; next_record(&p, end, &r) > 0;) {
        uint64_t h = record_hash(r.kind, r.key, r.len);
        size_t slot = index_slot(d, r.kind, r.key, r.len, h);
        if (index[slot]) { /* keys of a serialized dictionary are distinct; a repeat merges */
            mpp_record_t *e = &records[position_in(index[slot])];
            if (r.min < e->min)
                e->min = r.min;
            e->sum += r.sum;
            continue;
        }
        records[d->count] = (mpp_record_t){r.kind, r.len, store_key(d, r.key, r.len), r.min, r.sum, h};
        index[slot] = slot_of(d->count++, h);
    }
    return 0;
}

/* All or nothing: a corrupt buffer merges no record. */
int mpp_dict_merge_serialized(mpp_dict_t *d, const char *b, size_t length)
{
    if (walk_serialized(NULL, b, length) != 0)
        return -1;
    return walk_serialized(d, b, length);
}

static void hex64(uint64_t h, char out[17])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--, h >>= 4)
        out[i] = digits[h & 15];
    out[16] = '\0';
}

void mpp_key_hash_hex(const char *key, char out[17]) { hex64(mpp_hash_bytes(key, strlen(key)), out); }

void mpp_cell_key_of(const char interval_hex[17], const char src_hex[17], char out[MPP_CELL_KEY_LEN])
{
    memcpy(out, interval_hex, 16);
    out[16] = MPP_GS;
    memcpy(out + 17, src_hex, 17);
}

void mpp_cell_key(const char *interval_key, const char *src_key, char out[MPP_CELL_KEY_LEN])
{
    char a[17], b[17];
    mpp_key_hash_hex(interval_key, a);
    mpp_key_hash_hex(src_key, b);
    mpp_cell_key_of(a, b, out);
}

int mpp_dict_index_hashes(const mpp_dict_t *d, int kind, mpp_handlemap_t *out)
{
    mpp_handlemap_init(out, sizeof(long));
    for (size_t i = 0; i < d->count; i++) {
        if (d->records[i].kind != kind)
            continue;
        int inserted;
        long *slot = mpp_handlemap_put(out, d->records[i].hash ^ kind_term(kind), &inserted);
        if (!slot)
            return -1;
        *slot = (long)i;
    }
    return 0;
}

/* 16 hex digits (lower case, as hex64 writes them) -> 64 bits; -1 if not.
 * By table, without a branch per digit: every cell key is read so when
 * the dictionary is put in order. */
static int parse_hex64(const char *p, uint64_t *h)
{
    static const unsigned char digit_plus_1[256] = {
        ['0'] = 1, ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
        ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16};
    uint64_t v = 0;
    unsigned bad = 0;
    for (int i = 0; i < 16; i++) {
        unsigned d = digit_plus_1[(unsigned char)p[i]];
        bad |= d == 0;
        v = v << 4 | (uint64_t)((d - 1) & 15);
    }
    *h = v;
    return bad ? -1 : 0;
}

void mpp_dict_cell_parts(const mpp_handlemap_t *intervals, const mpp_handlemap_t *srcs, const char *cell_key,
                         long *interval, long *src)
{
    uint64_t hi, hs;
    *interval = *src = -1;
    if (strlen(cell_key) != MPP_CELL_KEY_LEN - 1 || cell_key[16] != MPP_GS || parse_hex64(cell_key, &hi) != 0 ||
        parse_hex64(cell_key + 17, &hs) != 0)
        return;
    const long *slot = mpp_handlemap_get(intervals, hi);
    *interval = slot ? *slot : -1;
    slot = mpp_handlemap_get(srcs, hs);
    *src = slot ? *slot : -1;
}

char *mpp_interval_parent_key(const char *key)
{
    const char *last = strrchr(key, MPP_RS);
    return last ? strndup(key, (size_t)(last - key)) : NULL;
}

/* --- canonical order --- */

static const mpp_dict_t *sorting;

static int by_entry_then_key(const void *a, const void *b)
{
    const mpp_record_t *x = &sorting->records[*(const size_t *)a];
    const mpp_record_t *y = &sorting->records[*(const size_t *)b];
    if (x->min != y->min)
        return x->min < y->min ? -1 : 1;
    return strcmp(x->key, y->key);
}

static int by_key(const void *a, const void *b)
{
    const mpp_record_t *x = &sorting->records[*(const size_t *)a];
    const mpp_record_t *y = &sorting->records[*(const size_t *)b];
    return strcmp(x->key, y->key);
}

static int by_rank_then_key(const void *a, const void *b)
{
    return by_entry_then_key(a, b); /* min holds the lowest rank */
}

static void depth_first(const mpp_dict_t *d, const size_t *sorted, size_t n, const char *parent, size_t *out,
                        size_t *nout)
{
    for (size_t i = 0; i < n; i++) {
        const char *key = d->records[sorted[i]].key;
        char *pk = mpp_interval_parent_key(key);
        int child = parent ? (pk && !strcmp(pk, parent)) : !pk;
        free(pk);
        if (!child)
            continue;
        out[(*nout)++] = sorted[i];
        depth_first(d, sorted, n, key, out, nout);
    }
}

/* (interval id, src id) of a cell key, using the ids of the ordered dict. */
static void cell_ids(const mpp_handlemap_t *intervals, const mpp_handlemap_t *srcs, const long *id_of,
                     const char *key, long *interval, long *src)
{
    long ip, sp;
    mpp_dict_cell_parts(intervals, srcs, key, &ip, &sp);
    *interval = ip >= 0 ? id_of[ip] : -1;
    *src = sp >= 0 ? id_of[sp] : -1;
}

/* A cell to order: its (interval id, src id) in one number that compares
 * as the pair does, and its record's position: the sort reads nothing
 * else (it read each cell's ids from a table by position before). */
typedef struct {
    uint64_t ids;
    size_t position;
} cell_order_t;

static int by_cell_ids(const void *a, const void *b)
{
    const cell_order_t *x = a, *y = b;
    if (x->ids != y->ids)
        return x->ids < y->ids ? -1 : 1;
    return x->position < y->position ? -1 : x->position > y->position;
}

/* The positions of each kind's records (of_kind[kind], count[kind]), in
 * canonical order: intervals depth-first (orphans, without a parent, are
 * dropped), the others sorted.  -1 when memory ran out (nothing is left
 * allocated then). */
static int kinds_in_order(const mpp_dict_t *d, size_t *of_kind[MPP_NREC], size_t count[MPP_NREC])
{
    size_t n = d->count;
    int out_of_memory = 0;
    for (int k = 0; k < MPP_NREC; k++)
        out_of_memory |= !(of_kind[k] = malloc((n ? n : 1) * sizeof(size_t)));
    size_t *dfs = out_of_memory ? NULL : malloc((n + 1) * sizeof *dfs), ndfs = 0;
    if (!dfs) {
        for (int k = 0; k < MPP_NREC; k++)
            free(of_kind[k]);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        of_kind[d->records[i].kind][count[d->records[i].kind]++] = i;

    sorting = d;
    qsort(of_kind[MPP_REC_INTERVAL], count[MPP_REC_INTERVAL], sizeof(size_t), by_entry_then_key);
    depth_first(d, of_kind[MPP_REC_INTERVAL], count[MPP_REC_INTERVAL], NULL, dfs, &ndfs);
    memcpy(of_kind[MPP_REC_INTERVAL], dfs, ndfs * sizeof *dfs); /* orphans (no parent) are dropped */
    count[MPP_REC_INTERVAL] = ndfs;
    free(dfs);
    qsort(of_kind[MPP_REC_SRC], count[MPP_REC_SRC], sizeof(size_t), by_key);
    qsort(of_kind[MPP_REC_HOST], count[MPP_REC_HOST], sizeof(size_t), by_key);
    qsort(of_kind[MPP_REC_WARNING], count[MPP_REC_WARNING], sizeof(size_t), by_rank_then_key);
    qsort(of_kind[MPP_REC_EVENT], count[MPP_REC_EVENT], sizeof(size_t), by_entry_then_key);
    qsort(of_kind[MPP_REC_NODETYPE], count[MPP_REC_NODETYPE], sizeof(size_t), by_rank_then_key);
    qsort(of_kind[MPP_REC_HOSTINFO], count[MPP_REC_HOSTINFO], sizeof(size_t), by_rank_then_key);
    qsort(of_kind[MPP_REC_PLACEMENT], count[MPP_REC_PLACEMENT], sizeof(size_t), by_rank_then_key);
    qsort(of_kind[MPP_REC_FACT], count[MPP_REC_FACT], sizeof(size_t), by_key);
    return 0;
}

/* The cells whose interval and SRC point are known, by their ids (the
 * others are dropped): their positions in `cells_at` (*ncells of them
 * from now on), and their ids in d->cell_ids.  id_of: the id of the
 * record at each position. */
static void order_cells(mpp_dict_t *d, size_t *cells_at, size_t *ncells, const long *id_of)
{
    cell_order_t *cells = malloc((*ncells + 1) * sizeof *cells);
    size_t kept_cells = 0;
    mpp_handlemap_t interval_hashes, src_hashes;
    mpp_dict_index_hashes(d, MPP_REC_INTERVAL, &interval_hashes);
    mpp_dict_index_hashes(d, MPP_REC_SRC, &src_hashes);
    for (size_t j = 0; cells && j < *ncells; j++) {
        size_t r = cells_at[j];
        long interval, src;
        cell_ids(&interval_hashes, &src_hashes, id_of, d->records[r].key, &interval, &src);
        if (interval >= 0 && src >= 0)
            cells[kept_cells++] = (cell_order_t){(uint64_t)interval << 32 | (uint64_t)src, r};
    }
    mpp_handlemap_free(&interval_hashes);
    mpp_handlemap_free(&src_hashes);
    qsort(cells, kept_cells, sizeof *cells, by_cell_ids);
    for (size_t j = 0; j < kept_cells; j++)
        cells_at[j] = cells[j].position;
    *ncells = kept_cells;
    free(d->cell_ids);
    d->cell_ids = malloc((kept_cells + 1) * 2 * sizeof *d->cell_ids);
    for (size_t j = 0; d->cell_ids && j < kept_cells; j++) {
        d->cell_ids[2 * j] = (long)(cells[j].ids >> 32);
        d->cell_ids[2 * j + 1] = (long)(cells[j].ids & 0xffffffffu);
    }
    free(cells);
}

/* The records in that order (*kept of them; NULL when memory ran out),
 * and where each went (d->moved, when it could be allocated).  Their keys
 * stay where they are, the dropped records' too, until the dictionary is
 * freed. */
static mpp_record_t *records_in_order(mpp_dict_t *d, size_t *const of_kind[MPP_NREC], const size_t count[MPP_NREC],
                                      size_t *kept)
{
    size_t n = d->count;
    *kept = 0;
    for (int k = 0; k < MPP_NREC; k++)
        *kept += count[k];
    mpp_record_t *ordered = malloc((*kept ? *kept : 1) * sizeof *ordered);
    free(d->moved);
    d->moved = ordered ? malloc((n ? n : 1) * sizeof *d->moved) : NULL;
    d->nmoved = d->moved ? n : 0;
    for (size_t i = 0; i < d->nmoved; i++)
        d->moved[i] = -1;
    size_t at = 0;
    for (int k = 0; k < MPP_NREC && ordered; k++)
        for (size_t j = 0; j < count[k]; j++) {
            if (d->moved)
                d->moved[of_kind[k][j]] = (long)at;
            ordered[at++] = d->records[of_kind[k][j]];
        }
    return ordered;
}

int mpp_dict_canonical_order(mpp_dict_t *d)
{
    size_t n = d->count;
    size_t *of_kind[MPP_NREC] = {0}, count[MPP_NREC] = {0};
    long *id_of = malloc((n ? n : 1) * sizeof *id_of);
    if (!id_of)
        return -1;
    if (kinds_in_order(d, of_kind, count) != 0) { /* the dictionary stays as it is */
        free(id_of);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        id_of[i] = -1;
    for (int k = 0; k < MPP_NREC; k++)
        for (size_t j = 0; j < count[k]; j++)
            id_of[of_kind[k][j]] = (long)j;
    order_cells(d, of_kind[MPP_REC_CELL], &count[MPP_REC_CELL], id_of);

    /* Put the records in that order and index them again. */
    size_t kept;
    mpp_record_t *ordered = records_in_order(d, of_kind, count, &kept);
    for (int k = 0; k < MPP_NREC; k++)
        free(of_kind[k]);
    free(id_of);
    if (!ordered)
        return -1;
    free(d->records);
    d->records = ordered;
    d->count = d->capacity = kept;
    size_t capacity = 256;
    while (capacity < 2 * (kept + 1))
        capacity *= 2;
    return reindex(d, capacity);
}

int mpp_dict_coalesce_runs(mpp_dict_t *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += d->records[i].kind == MPP_REC_PLACEMENT;
    if (n < 2)
        return 0;
    mpp_run_t *runs = calloc(n, sizeof *runs);
    if (!runs)
        return -1;
    int nruns = 0;
    for (size_t i = 0; i < d->count; i++)
        if (d->records[i].kind == MPP_REC_PLACEMENT && mpp_run_parse(d->records[i].key, &runs[nruns]) == 0)
            nruns++;
    nruns = mpp_runs_coalesce(runs, nruns);
    if ((size_t)nruns == n) { /* nothing merged */
        for (int r = 0; r < nruns; r++)
            mpp_run_free(&runs[r]);
        free(runs);
        return 0;
    }
    mpp_dict_t out;
    mpp_dict_init(&out);
    int rc = 0;
    for (size_t i = 0; i < d->count && rc == 0; i++) {
        const mpp_record_t *r = &d->records[i];
        if (r->kind != MPP_REC_PLACEMENT)
            rc = mpp_dict_add(&out, r->kind, r->key, r->min, r->sum);
    }
    for (int r = 0; r < nruns; r++) {
        char *key = rc == 0 ? mpp_run_key(&runs[r]) : NULL;
        if (rc == 0)
            rc = key ? mpp_dict_add(&out, MPP_REC_PLACEMENT, key, runs[r].first, runs[r].count) : -1;
        free(key);
        mpp_run_free(&runs[r]);
    }
    free(runs);
    if (rc != 0) {
        mpp_dict_free(&out);
        return -1;
    }
    mpp_dict_free(d);
    *d = out;
    return 0;
}
