/* The dictionary of string-keyed records merged across processes
 * (src/reduce/dictionary.c) and the SRC key format (src/util/srckey.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/dictionary.h"
#include "suites.h"
#include "util/srckey.h"

/* Interval keys: parent key RS name US file US line. */
#define K0 "0"
#define K_INIT    \
    K0 "\x1e"     \
       "init\x1f" \
       "a.c\x1f"  \
       "5"
#define K_READ        \
    K_INIT "\x1e"     \
           "read\x1f" \
           "a.c\x1f"  \
           "6"
#define K_LOOP    \
    K0 "\x1e"     \
       "loop\x1f" \
       "a.c\x1f"  \
       "10"
#define K_EXCH        \
    K_LOOP "\x1e"     \
           "exch\x1f" \
           "a.c\x1f"  \
           "12"
#define K_AFTER    \
    K0 "\x1e"      \
       "after\x1f" \
       "a.c\x1f"   \
       "30"

/* SRC keys: function RS path US line US function US text. */
#define S_SEND                 \
    "MPI_Send\x1e/src/a.c\x1f" \
    "12\x1f"                   \
    "exch\x1f"                 \
    "a.c:12 (exch)"
#define S_RECV                 \
    "MPI_Recv\x1e/src/a.c\x1f" \
    "13\x1f"                   \
    "exch\x1f"                 \
    "a.c:13 (exch)"
#define S_ALLR                      \
    "MPI_Allreduce\x1e/src/a.c\x1f" \
    "20\x1f"                        \
    "main\x1f"                      \
    "a.c:20 (main)"
#define GS "\x1d"

static mpp_dict_t A, B;

static void setup(void)
{
    unit_reset_warnings();
    mpp_dict_init(&A);
    mpp_dict_init(&B);
}

static void teardown(void)
{
    mpp_dict_free(&A);
    mpp_dict_free(&B);
}

static const mpp_record_t *rec(const mpp_dict_t *d, int kind, const char *key)
{
    long pos = mpp_dict_find(d, kind, key);
    ck_assert_msg(pos >= 0, "record of kind %d not found", kind);
    ck_assert_int_lt(pos, (long)d->count);
    const mpp_record_t *r = &d->records[pos];
    ck_assert_int_eq(r->kind, kind);
    ck_assert_str_eq(r->key, key);
    return r;
}

/* The keys of `kind`, in dictionary order, are `expected` (NULL-terminated). */
static void expect_order(const mpp_dict_t *d, int kind, const char *const *expected)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) {
        if (d->records[i].kind != kind)
            continue;
        ck_assert_msg(expected[n] != NULL, "more records of kind %d than expected", kind);
        ck_assert_msg(!strcmp(d->records[i].key, expected[n]), "kind %d, position %zu: wrong record", kind, n);
        n++;
    }
    ck_assert_msg(expected[n] == NULL, "fewer records of kind %d than expected (%zu)", kind, n);
}

/* A cell's key (dictionary.h: hashes of its interval's and SRC point's
 * keys), in one of a few rotating buffers so that several fit in one call. */
static const char *CELL(const char *interval, const char *src)
{
    static char keys[16][MPP_CELL_KEY_LEN];
    static int next;
    char *k = keys[next++ % 16];
    mpp_cell_key(interval, src, k);
    return k;
}

#define EXPECT_ORDER(d, kind, ...) expect_order(d, kind, (const char *const[]){__VA_ARGS__, NULL})

/* Records are grouped by kind, in kind order. */
static void expect_grouped(const mpp_dict_t *d)
{
    for (size_t i = 1; i < d->count; i++)
        ck_assert_int_le(d->records[i - 1].kind, d->records[i].kind);
}

/* --- add and merge --- */

START_TEST(test_dictionary_add_merge)
{
    ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_INTERVAL, K_LOOP, 500, 1), 0);
    ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_INTERVAL, K_LOOP, 300, 1), 0);
    ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_INTERVAL, K_LOOP, 700, 2), 0);
    ck_assert_uint_eq(A.count, 1);
    const mpp_record_t *r = rec(&A, MPP_REC_INTERVAL, K_LOOP);
    ck_assert_int_eq(r->min, 300); /* minimum of the minima */
    ck_assert_int_eq(r->sum, 4);   /* sum of the sums */
    /* the same key of another kind is another record */
    ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_WARNING, K_LOOP, 3, 1), 0);
    ck_assert_uint_eq(A.count, 2);
    ck_assert_int_eq(rec(&A, MPP_REC_WARNING, K_LOOP)->min, 3);
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K_LOOP)->min, 300);
    ck_assert_int_eq(mpp_dict_find(&A, MPP_REC_INTERVAL, K0), -1);
    ck_assert_int_eq(mpp_dict_find(&A, MPP_REC_SRC, K_LOOP), -1);
    /* negative values merge by minimum too */
    ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_WARNING, K_LOOP, -5, 0), 0);
    ck_assert_int_eq(rec(&A, MPP_REC_WARNING, K_LOOP)->min, -5);
}
END_TEST

START_TEST(test_dictionary_many_records)
{
    char key[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(key, sizeof key,
                 "MPI_Send\x1e"
                 "f%d",
                 i);
        ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_SRC, key, i, 1), 0);
    }
    for (int i = 0; i < 3000; i += 2) {
        snprintf(key, sizeof key,
                 "MPI_Send\x1e"
                 "f%d",
                 i);
        ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_SRC, key, i - 1, 1), 0);
    }
    ck_assert_uint_eq(A.count, 3000);
    for (int i = 0; i < 3000; i++) {
        snprintf(key, sizeof key,
                 "MPI_Send\x1e"
                 "f%d",
                 i);
        ck_assert_int_eq(mpp_dict_find(&A, MPP_REC_SRC, key), i);
        ck_assert_int_eq(A.records[i].min, i % 2 ? i : i - 1);
        ck_assert_int_eq(A.records[i].sum, i % 2 ? 1 : 2);
    }
}
END_TEST

/* --- serialized form --- */

static void fill_every_kind(mpp_dict_t *d)
{
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_INTERVAL, K0, 0, 1), 0);
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_INTERVAL, K_LOOP, 1000, 1), 0);
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_SRC, S_SEND, 0, 0), 0);
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_CELL, CELL(K_LOOP, S_SEND), 0, 1), 0);
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_HOST, "node1", 0, 1), 0);
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_WARNING, "something odd", 3, 1), 0);
    ck_assert_int_eq(mpp_dict_add(d, MPP_REC_WARNING, "", INT64_MIN, INT64_MAX / 2), 0);
}

/* got has want's records, in the same order, each found where it is. */
static void expect_same_records(const mpp_dict_t *got, const mpp_dict_t *want)
{
    ck_assert_uint_eq(got->count, want->count);
    for (size_t i = 0; i < want->count; i++) {
        ck_assert_int_eq(got->records[i].kind, want->records[i].kind);
        ck_assert_str_eq(got->records[i].key, want->records[i].key);
        ck_assert_int_eq(got->records[i].min, want->records[i].min);
        ck_assert_int_eq(got->records[i].sum, want->records[i].sum);
        ck_assert_int_eq(mpp_dict_find(got, got->records[i].kind, got->records[i].key), (long)i);
    }
}

START_TEST(test_dictionary_round_trip)
{
    char *buf = NULL;
    size_t len = 0, expected = 0;
    fill_every_kind(&A);
    ck_assert_int_eq(mpp_dict_serialize(&A, &buf, &len), 0);
    for (size_t i = 0; i < A.count; i++)
        expected += 1 + 4 + strlen(A.records[i].key) + 8 + 8;
    ck_assert_uint_eq(len, expected);
    ck_assert_int_eq(mpp_dict_merge_serialized(&B, buf, len), 0);
    expect_same_records(&B, &A);
    /* merging the same buffer again: minima kept, sums doubled */
    ck_assert_int_eq(mpp_dict_merge_serialized(&B, buf, len), 0);
    ck_assert_uint_eq(B.count, A.count);
    ck_assert_int_eq(rec(&B, MPP_REC_INTERVAL, K_LOOP)->min, 1000);
    ck_assert_int_eq(rec(&B, MPP_REC_INTERVAL, K_LOOP)->sum, 2);
    ck_assert_int_eq(rec(&B, MPP_REC_CELL, CELL(K_LOOP, S_SEND))->sum, 2);
    free(buf);
}
END_TEST

START_TEST(test_dictionary_empty_round_trip)
{
    char *buf = NULL;
    size_t len = 99;
    ck_assert_int_eq(mpp_dict_serialize(&A, &buf, &len), 0);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(mpp_dict_merge_serialized(&B, buf, len), 0);
    ck_assert_uint_eq(B.count, 0);
    free(buf);
}
END_TEST

START_TEST(test_dictionary_corrupt_rejected)
{
    char *buf = NULL;
    size_t len = 0;
    fill_every_kind(&A);
    ck_assert_int_eq(mpp_dict_serialize(&A, &buf, &len), 0);
    /* every truncation: accepted exactly at record boundaries */
    size_t boundary[64], nb = 0, at = 0;
    for (size_t i = 0; i < A.count; i++) {
        at += 1 + 4 + strlen(A.records[i].key) + 16;
        boundary[nb++] = at;
    }
    for (size_t cut = 1; cut < len; cut++) {
        int on_boundary = 0;
        for (size_t b = 0; b < nb; b++)
            on_boundary |= boundary[b] == cut;
        mpp_dict_t d;
        mpp_dict_init(&d);
        int rc = mpp_dict_merge_serialized(&d, buf, cut);
        ck_assert_msg(rc == (on_boundary ? 0 : -1), "truncated at %zu of %zu: rc %d", cut, len, rc);
        mpp_dict_free(&d);
    }
    /* bad kinds */
    static const unsigned char kinds[] = {MPP_NREC, 0x7f, 0x80, 0xff};
    for (size_t k = 0; k < sizeof kinds; k++) {
        char *bad = malloc(len);
        memcpy(bad, buf, len);
        bad[0] = (char)kinds[k];
        mpp_dict_t d;
        mpp_dict_init(&d);
        ck_assert_int_eq(mpp_dict_merge_serialized(&d, bad, len), -1);
        mpp_dict_free(&d);
        free(bad);
    }
    /* a key length beyond the buffer */
    {
        char *bad = malloc(len);
        memcpy(bad, buf, len);
        uint32_t huge = 0xffffffffu;
        memcpy(bad + 1, &huge, 4);
        mpp_dict_t d;
        mpp_dict_init(&d);
        ck_assert_int_eq(mpp_dict_merge_serialized(&d, bad, len), -1);
        huge = (uint32_t)len; /* just too long */
        memcpy(bad + 1, &huge, 4);
        ck_assert_int_eq(mpp_dict_merge_serialized(&d, bad, len), -1);
        mpp_dict_free(&d);
        free(bad);
    }
    free(buf);
}
END_TEST

/* Loading (the broadcast canonical dictionary) gives the same records and
 * lookups as merging; the loaded dictionary takes further records, and
 * frees keys of both origins; a repeated key merges; corrupt input loads
 * nothing; a non-empty dictionary is refused. */
START_TEST(test_dictionary_load)
{
    char *buf = NULL;
    size_t len = 0;
    fill_every_kind(&A);
    ck_assert_int_eq(mpp_dict_serialize(&A, &buf, &len), 0);
    ck_assert_int_eq(mpp_dict_load_serialized(&B, buf, len), 0);
    expect_same_records(&B, &A);
    ck_assert_int_eq(mpp_dict_load_serialized(&B, buf, len), -1); /* not empty */
    /* new records after loading, and a merge into a loaded one */
    for (int k = 0; k < 300; k++) {
        char key[32];
        snprintf(key, sizeof key, "added %d", k);
        ck_assert_int_eq(mpp_dict_add(&B, MPP_REC_WARNING, key, k, 1), 0);
    }
    ck_assert_int_eq(mpp_dict_add(&B, MPP_REC_INTERVAL, K_LOOP, 5, 1), 0);
    ck_assert_int_eq(rec(&B, MPP_REC_INTERVAL, K_LOOP)->min, 5);
    ck_assert_int_eq(mpp_dict_find(&B, MPP_REC_WARNING, "added 299"), (long)A.count + 299);
    for (size_t i = 0; i < A.count; i++)
        ck_assert_int_eq(mpp_dict_find(&B, A.records[i].kind, A.records[i].key), (long)i);
    /* the same buffer twice in one: one record per key, sums added */
    char *twice = malloc(2 * len);
    memcpy(twice, buf, len);
    memcpy(twice + len, buf, len);
    mpp_dict_t d;
    mpp_dict_init(&d);
    ck_assert_int_eq(mpp_dict_load_serialized(&d, twice, 2 * len), 0);
    ck_assert_uint_eq(d.count, A.count);
    ck_assert_int_eq(rec(&d, MPP_REC_INTERVAL, K_LOOP)->sum, 2 * rec(&A, MPP_REC_INTERVAL, K_LOOP)->sum);
    mpp_dict_free(&d);
    /* truncated: nothing loaded */
    mpp_dict_init(&d);
    ck_assert_int_eq(mpp_dict_load_serialized(&d, buf, len - 1), -1);
    ck_assert_uint_eq(d.count, 0);
    mpp_dict_free(&d);
    free(twice);
    free(buf);
}
END_TEST

/* --- canonical order --- */

START_TEST(test_dictionary_canonical_intervals)
{
    /* added in scrambled order; min = first entry */
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_EXCH, 150, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_AFTER, 200, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_LOOP, 100, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_READ, 60, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K0, 0, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_INIT, 50, 1);
    ck_assert_int_eq(mpp_dict_canonical_order(&A), 0);
    /* depth-first, siblings by first entry (not by key: "after" < "init" < "loop") */
    EXPECT_ORDER(&A, MPP_REC_INTERVAL, K0, K_INIT, K_READ, K_LOOP, K_EXCH, K_AFTER);
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K_EXCH)->min, 150);
    ck_assert_int_eq(mpp_dict_find(&A, MPP_REC_INTERVAL, K_LOOP), 3);
}
END_TEST

START_TEST(test_dictionary_canonical_ties_and_orphans)
{
    mpp_dict_add(&A, MPP_REC_INTERVAL, K0, 0, 2);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_LOOP, 100, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_AFTER, 100, 1); /* same first entry: by key */
    /* a child whose parent is in no dictionary */
    mpp_dict_add(&A, MPP_REC_INTERVAL,
                 K0 "\x1emissing\x1f"
                    "a.c\x1f"
                    "1\x1e"
                    "child\x1f"
                    "a.c\x1f"
                    "2",
                 10, 1);
    ck_assert_int_eq(mpp_dict_canonical_order(&A), 0);
    EXPECT_ORDER(&A, MPP_REC_INTERVAL, K0, K_AFTER, K_LOOP);
}
END_TEST

/* Intervals, SRC points, cells (two of them with no such interval or SRC
 * point), hosts and warnings, added out of order. */
static void add_src_cells(mpp_dict_t *d)
{
    mpp_dict_add(d, MPP_REC_INTERVAL, K_LOOP, 100, 1);
    mpp_dict_add(d, MPP_REC_INTERVAL, K0, 0, 1);
    mpp_dict_add(d, MPP_REC_SRC, S_SEND, 0, 0);
    mpp_dict_add(d, MPP_REC_SRC, S_RECV, 0, 0);
    mpp_dict_add(d, MPP_REC_SRC, S_ALLR, 0, 0);
    /* cells: named by their interval's and SRC point's keys */
    mpp_dict_add(d, MPP_REC_CELL, CELL(K_LOOP, S_SEND), 0, 1);
    mpp_dict_add(d, MPP_REC_CELL, CELL(K0, S_SEND), 0, 1);
    mpp_dict_add(d, MPP_REC_CELL, CELL(K_LOOP, S_ALLR), 0, 1);
    mpp_dict_add(d, MPP_REC_CELL, CELL(K0, S_RECV), 0, 1);
    mpp_dict_add(d, MPP_REC_CELL, CELL(K_LOOP, S_RECV), 0, 1);
    mpp_dict_add(d, MPP_REC_HOST, "node2", 1, 1);
    mpp_dict_add(d, MPP_REC_HOST, "node10", 2, 1);
    mpp_dict_add(d, MPP_REC_WARNING, "zz from rank 0", 0, 1);
    mpp_dict_add(d, MPP_REC_WARNING, "bb from rank 2", 2, 1);
    mpp_dict_add(d, MPP_REC_WARNING, "aa from rank 2", 2, 1);
    mpp_dict_add(d, MPP_REC_CELL, CELL(K_AFTER, S_SEND), 0, 1); /* unknown interval: dropped */
    mpp_dict_add(d, MPP_REC_CELL, CELL(K0, "MPI_Bcast"), 0, 1); /* unknown SRC: dropped */
}

START_TEST(test_dictionary_canonical_src_cells)
{
    add_src_cells(&A);
    ck_assert_int_eq(mpp_dict_canonical_order(&A), 0);
    expect_grouped(&A);
    EXPECT_ORDER(&A, MPP_REC_INTERVAL, K0, K_LOOP);
    /* SRC points by key: MPI_Allreduce < MPI_Recv < MPI_Send */
    EXPECT_ORDER(&A, MPP_REC_SRC, S_ALLR, S_RECV, S_SEND);
    /* cells by (interval id, SRC id) */
    EXPECT_ORDER(&A, MPP_REC_CELL, CELL(K0, S_RECV), CELL(K0, S_SEND), CELL(K_LOOP, S_ALLR), CELL(K_LOOP, S_RECV),
                 CELL(K_LOOP, S_SEND));
    EXPECT_ORDER(&A, MPP_REC_HOST, "node10", "node2");
    /* warnings by lowest rank, then text */
    EXPECT_ORDER(&A, MPP_REC_WARNING, "zz from rank 0", "aa from rank 2", "bb from rank 2");
    /* the records keep their values */
    ck_assert_int_eq(rec(&A, MPP_REC_HOST, "node10")->min, 2);
}
END_TEST

START_TEST(test_dictionary_union_of_two_processes)
{
    /* process 0 */
    mpp_dict_add(&A, MPP_REC_INTERVAL, K0, 0, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_LOOP, 100, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_EXCH, 120, 1);
    mpp_dict_add(&A, MPP_REC_SRC, S_SEND, 0, 0);
    mpp_dict_add(&A, MPP_REC_CELL, CELL(K_EXCH, S_SEND), 0, 1);
    mpp_dict_add(&A, MPP_REC_HOST, "node1", 0, 1);
    mpp_dict_add(&A, MPP_REC_WARNING, "common", 0, 1);
    /* process 1: a different tree */
    mpp_dict_add(&B, MPP_REC_INTERVAL, K0, 0, 1);
    mpp_dict_add(&B, MPP_REC_INTERVAL, K_INIT, 30, 1);
    mpp_dict_add(&B, MPP_REC_INTERVAL, K_LOOP, 90, 1);
    mpp_dict_add(&B, MPP_REC_SRC, S_RECV, 0, 0);
    mpp_dict_add(&B, MPP_REC_SRC, S_SEND, 0, 0);
    mpp_dict_add(&B, MPP_REC_CELL, CELL(K_LOOP, S_RECV), 0, 1);
    mpp_dict_add(&B, MPP_REC_HOST, "node1", 1, 1);
    mpp_dict_add(&B, MPP_REC_WARNING, "common", 1, 1);
    mpp_dict_add(&B, MPP_REC_WARNING, "only on 1", 1, 1);
    char *buf;
    size_t len;
    ck_assert_int_eq(mpp_dict_serialize(&B, &buf, &len), 0);
    ck_assert_int_eq(mpp_dict_merge_serialized(&A, buf, len), 0);
    free(buf);
    ck_assert_int_eq(mpp_dict_canonical_order(&A), 0);
    expect_grouped(&A);
    EXPECT_ORDER(&A, MPP_REC_INTERVAL, K0, K_INIT, K_LOOP, K_EXCH);
    EXPECT_ORDER(&A, MPP_REC_SRC, S_RECV, S_SEND);
    EXPECT_ORDER(&A, MPP_REC_CELL, CELL(K_LOOP, S_RECV), CELL(K_EXCH, S_SEND));
    EXPECT_ORDER(&A, MPP_REC_HOST, "node1");
    EXPECT_ORDER(&A, MPP_REC_WARNING, "common", "only on 1");
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K0)->sum, 2);
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K_LOOP)->sum, 2);
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K_LOOP)->min, 90);
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K_INIT)->sum, 1);
    ck_assert_int_eq(rec(&A, MPP_REC_INTERVAL, K_EXCH)->sum, 1);
    ck_assert_int_eq(rec(&A, MPP_REC_HOST, "node1")->sum, 2);
    ck_assert_int_eq(rec(&A, MPP_REC_WARNING, "common")->min, 0);
    ck_assert_int_eq(rec(&A, MPP_REC_WARNING, "common")->sum, 2);
    ck_assert_int_eq(rec(&A, MPP_REC_WARNING, "only on 1")->min, 1);
    /* the order is canonical: doing it again changes nothing */
    char *first, *second;
    size_t n1, n2;
    mpp_dict_serialize(&A, &first, &n1);
    ck_assert_int_eq(mpp_dict_canonical_order(&A), 0);
    mpp_dict_serialize(&A, &second, &n2);
    ck_assert_uint_eq(n1, n2);
    ck_assert_int_eq(memcmp(first, second, n1), 0);
    free(first);
    free(second);
}
END_TEST

START_TEST(test_dictionary_union_is_symmetric)
{
    /* merging B into A or A into B gives the same canonical dictionary */
    mpp_dict_t C, D;
    mpp_dict_init(&C);
    mpp_dict_init(&D);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K0, 0, 1);
    mpp_dict_add(&A, MPP_REC_INTERVAL, K_AFTER, 300, 1);
    mpp_dict_add(&A, MPP_REC_SRC, S_SEND, 0, 0);
    mpp_dict_add(&B, MPP_REC_INTERVAL, K0, 0, 1);
    mpp_dict_add(&B, MPP_REC_INTERVAL, K_LOOP, 50, 1);
    mpp_dict_add(&B, MPP_REC_SRC, S_ALLR, 0, 0);
    char *a, *b;
    size_t na, nb;
    mpp_dict_serialize(&A, &a, &na);
    mpp_dict_serialize(&B, &b, &nb);
    mpp_dict_merge_serialized(&C, a, na);
    mpp_dict_merge_serialized(&C, b, nb);
    mpp_dict_merge_serialized(&D, b, nb);
    mpp_dict_merge_serialized(&D, a, na);
    mpp_dict_canonical_order(&C);
    mpp_dict_canonical_order(&D);
    ck_assert_uint_eq(C.count, 5);
    ck_assert_uint_eq(D.count, C.count);
    for (size_t i = 0; i < C.count; i++) {
        ck_assert_int_eq(C.records[i].kind, D.records[i].kind);
        ck_assert_str_eq(C.records[i].key, D.records[i].key);
        ck_assert_int_eq(C.records[i].min, D.records[i].min);
        ck_assert_int_eq(C.records[i].sum, D.records[i].sum);
    }
    EXPECT_ORDER(&C, MPP_REC_INTERVAL, K0, K_LOOP, K_AFTER);
    free(a);
    free(b);
    mpp_dict_free(&C);
    mpp_dict_free(&D);
}
END_TEST

START_TEST(test_dictionary_parent_key)
{
    char *p;
    ck_assert_ptr_null(mpp_interval_parent_key(K0));
    p = mpp_interval_parent_key(K_LOOP);
    ck_assert_str_eq(p, K0);
    free(p);
    p = mpp_interval_parent_key(K_EXCH);
    ck_assert_str_eq(p, K_LOOP);
    free(p);
    p = mpp_interval_parent_key(K_READ);
    ck_assert_str_eq(p, K_INIT);
    free(p);
}
END_TEST

/* --- SRC keys --- */

START_TEST(test_dictionary_srckey_two_frames)
{
    char *function = NULL;
    mpp_frame_t *frames = NULL;
    const char *key = "MPI_Allreduce\x1e/home/u/jacobi.c\x1f"
                      "88\x1f"
                      "exchange\x1f"
                      "jacobi.c:88 (exchange)"
                      "\x1e/home/u/main.c\x1f"
                      "40\x1f"
                      "main\x1f"
                      "main.c:40 (main)";
    int n = mpp_srckey_parse(key, &function, &frames);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(function, "MPI_Allreduce");
    ck_assert_str_eq(frames[0].path, "/home/u/jacobi.c");
    ck_assert_int_eq(frames[0].line, 88);
    ck_assert_str_eq(frames[0].function, "exchange");
    ck_assert_str_eq(frames[0].file, "jacobi.c");
    ck_assert_str_eq(frames[0].text, "jacobi.c:88 (exchange)");
    ck_assert_str_eq(frames[1].path, "/home/u/main.c");
    ck_assert_int_eq(frames[1].line, 40);
    ck_assert_str_eq(frames[1].function, "main");
    ck_assert_str_eq(frames[1].file, "main.c");
    ck_assert_str_eq(frames[1].text, "main.c:40 (main)");
    free(function);
    mpp_srckey_free_frames(frames, n);
}
END_TEST

START_TEST(test_dictionary_srckey_unresolved)
{
    char *function = NULL;
    mpp_frame_t *frames = NULL;
    /* as symbolize writes them: a module without line information, and an unknown address */
    const char *key = "MPI_Recv\x1e/usr/lib/libfoo.so.1\x1f"
                      "0\x1f\x1f"
                      "libfoo.so.1+0x1a2b"
                      "\x1e??\x1f"
                      "0\x1f\x1f??+0x7f0012345678";
    int n = mpp_srckey_parse(key, &function, &frames);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(function, "MPI_Recv");
    ck_assert_str_eq(frames[0].path, "/usr/lib/libfoo.so.1");
    ck_assert_int_eq(frames[0].line, 0);
    ck_assert_str_eq(frames[0].function, "");
    ck_assert_str_eq(frames[0].file, "libfoo.so.1");
    ck_assert_str_eq(frames[0].text, "libfoo.so.1+0x1a2b");
    ck_assert_str_eq(frames[1].path, "??");
    ck_assert_str_eq(frames[1].file, "??");
    ck_assert_int_eq(frames[1].line, 0);
    ck_assert_str_eq(frames[1].text, "??+0x7f0012345678");
    free(function);
    mpp_srckey_free_frames(frames, n);
}
END_TEST

START_TEST(test_dictionary_srckey_no_frames)
{
    char *function = NULL;
    mpp_frame_t *frames = NULL;
    int n = mpp_srckey_parse("MPI_Barrier", &function, &frames);
    ck_assert_int_eq(n, 0);
    ck_assert_str_eq(function, "MPI_Barrier");
    ck_assert_ptr_nonnull(frames);
    free(function);
    mpp_srckey_free_frames(frames, n);
    /* the folded cell of calls beyond MPIPROF_MAX_SRC (profile.c) */
    n = mpp_srckey_parse("MPI_Send\x1e\x1f"
                         "0\x1f\x1f[other call sites]",
                         &function, &frames);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(function, "MPI_Send");
    ck_assert_str_eq(frames[0].path, "");
    ck_assert_str_eq(frames[0].file, "");
    ck_assert_int_eq(frames[0].line, 0);
    ck_assert_str_eq(frames[0].function, "");
    ck_assert_str_eq(frames[0].text, "[other call sites]");
    free(function);
    mpp_srckey_free_frames(frames, n);
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_dictionary_bad_args)
{
    /* empty buffer, empty dictionary */
    ck_assert_int_eq(mpp_dict_merge_serialized(&A, NULL, 0), 0);
    ck_assert_uint_eq(A.count, 0);
    ck_assert_int_eq(mpp_dict_find(&A, MPP_REC_INTERVAL, K0), -1);
    ck_assert_int_eq(mpp_dict_canonical_order(&A), 0);
    ck_assert_uint_eq(A.count, 0);
    /* a buffer shorter than a record header */
    ck_assert_int_eq(mpp_dict_merge_serialized(&A, "\0\0\0", 3), -1);
    ck_assert_uint_eq(A.count, 0);
    /* an empty key is a key */
    ck_assert_int_eq(mpp_dict_add(&A, MPP_REC_HOST, "", 0, 1), 0);
    ck_assert_int_eq(mpp_dict_find(&A, MPP_REC_HOST, ""), 0);
    /* parent of the empty key and of a key without separator */
    ck_assert_ptr_null(mpp_interval_parent_key(""));
    ck_assert_ptr_null(mpp_interval_parent_key("loop"));
    /* free twice is harmless */
    mpp_dict_free(&A);
    mpp_dict_free(&A);
    mpp_dict_init(&A);
    /* malformed SRC keys still parse into something */
    char *function;
    mpp_frame_t *frames;
    int n = mpp_srckey_parse("", &function, &frames);
    ck_assert_int_eq(n, 0);
    ck_assert_str_eq(function, "");
    free(function);
    mpp_srckey_free_frames(frames, n);
    n = mpp_srckey_parse("MPI_Send\x1e"
                         "a.c",
                         &function, &frames);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(frames[0].path, "a.c");
    ck_assert_int_eq(frames[0].line, 0);
    ck_assert_str_eq(frames[0].text, "");
    free(function);
    mpp_srckey_free_frames(frames, n);
}
END_TEST

/* Out of memory at any of its allocations, the canonical order fails or
 * succeeds, but never crashes (it once wrote through a failed malloc). */
START_TEST(test_dictionary_canonical_out_of_memory)
{
    if (!unit_allocation_failures_testable())
        return; /* AddressSanitizer's allocator: the plain build tests this */
    int failed = 0;
    for (int nth = 1; nth <= 40; nth++) {
        mpp_dict_t d;
        mpp_dict_init(&d);
        add_src_cells(&d);
        unit_fail_allocation(nth);
        int rc = mpp_dict_canonical_order(&d);
        unit_fail_allocation(0);
        ck_assert(rc == 0 || rc == -1);
        failed += rc != 0;
        if (rc == 0)
            ck_assert_int_ge(mpp_dict_find(&d, MPP_REC_SRC, S_SEND), 0);
        mpp_dict_free(&d);
    }
    ck_assert_int_gt(failed, 0); /* some allocation of it did fail */
}
END_TEST

Suite *dictionary_suite(void)
{
    Suite *s = suite_create("dictionary");
    TCase *tc;

    tc = tcase_create("add_merge");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_dictionary_add_merge);
    tcase_add_test(tc, test_dictionary_many_records);
    suite_add_tcase(s, tc);

    tc = tcase_create("serialize");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_dictionary_round_trip);
    tcase_add_test(tc, test_dictionary_empty_round_trip);
    tcase_add_test(tc, test_dictionary_corrupt_rejected);
    tcase_add_test(tc, test_dictionary_load);
    suite_add_tcase(s, tc);

    tc = tcase_create("canonical_order");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_dictionary_canonical_intervals);
    tcase_add_test(tc, test_dictionary_canonical_ties_and_orphans);
    tcase_add_test(tc, test_dictionary_canonical_src_cells);
    tcase_add_test(tc, test_dictionary_canonical_out_of_memory);
    tcase_add_test(tc, test_dictionary_union_of_two_processes);
    tcase_add_test(tc, test_dictionary_union_is_symmetric);
    tcase_add_test(tc, test_dictionary_parent_key);
    suite_add_tcase(s, tc);

    tc = tcase_create("srckey");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_dictionary_srckey_two_frames);
    tcase_add_test(tc, test_dictionary_srckey_unresolved);
    tcase_add_test(tc, test_dictionary_srckey_no_frames);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_dictionary_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
