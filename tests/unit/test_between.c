/* The pure parts of the checks between processes: the values collective
 * members must agree on, reduced as rows by maximum (check/collcheck.c),
 * carried in the instance batches (accumulate/waitstates/instances.c); the
 * pairing of messages with their records and the order receives take
 * their messages in (check/msgpair.c). */
#include <stdlib.h>

#include "accumulate/waitstates/waitstates.h"
#include "check/collcheck.h"
#include "check/msgcheck.h"
#include "check/msgpair.h"
#include "records/finding.h"
#include "suites.h"

/* The maxima over members of their rows, as the reduction makes them. */
static void reduce_rows(const mpp_cc_values_t *members, int n, int nvalues, int64_t *max)
{
    int64_t rows[2 * MPP_CC_NVALUES];
    for (int k = 0; k < 2 * nvalues; k++)
        max[k] = INT64_MIN;
    for (int m = 0; m < n; m++) {
        mpp_cc_to_rows(&members[m], nvalues, rows);
        for (int k = 0; k < 2 * nvalues; k++)
            max[k] = rows[k] > max[k] ? rows[k] : max[k];
    }
}

static int verdicts_of(const mpp_cc_values_t *members, int n, int m, int *kinds, int *which)
{
    int64_t max[2 * MPP_CC_NVALUES];
    mpp_cc_values_t all;
    reduce_rows(members, n, MPP_CC_NVALUES, max);
    mpp_cc_from_rows(max, 1, MPP_CC_NVALUES, &all);
    return mpp_cc_verdicts(&members[m], &all, MPP_CC_NVALUES, kinds, which);
}

START_TEST(test_collcheck_verdicts)
{
    mpp_cc_values_t v[3];
    int kinds[MPP_CC_NVALUES], which[MPP_CC_NVALUES];
    for (int m = 0; m < 3; m++) { /* an MPI_Bcast of 16 bytes from root 0 */
        mpp_cc_clear(&v[m]);
        mpp_cc_give(&v[m], MPP_CC_OPERATION, 61);
        mpp_cc_give(&v[m], MPP_CC_ROOT, 0);
        mpp_cc_give(&v[m], MPP_CC_SIZE, 16);
        mpp_cc_give(&v[m], MPP_CC_SIGNATURE, 12345);
    }
    ck_assert_int_eq(verdicts_of(v, 3, 0, kinds, which), 0);
    /* one root differs: every member that gave one says so */
    v[2].lo[MPP_CC_ROOT] = v[2].hi[MPP_CC_ROOT] = 2;
    for (int m = 0; m < 3; m++) {
        ck_assert_int_eq(verdicts_of(v, 3, m, kinds, which), 1);
        ck_assert_int_eq(kinds[0], MPP_FIND_DIFFERENT_ROOTS);
    }
    /* another size: the signature that differs too is not said again */
    v[2].lo[MPP_CC_ROOT] = v[2].hi[MPP_CC_ROOT] = 0;
    mpp_cc_give(&v[1], MPP_CC_SIZE, 8); /* a range: 8 to 16 */
    v[1].lo[MPP_CC_SIGNATURE] = v[1].hi[MPP_CC_SIGNATURE] = 999;
    ck_assert_int_eq(verdicts_of(v, 3, 0, kinds, which), 1);
    ck_assert_int_eq(kinds[0], MPP_FIND_COLLECTIVE_SIZE);
    /* the same size, another signature */
    v[1].lo[MPP_CC_SIZE] = 16;
    ck_assert_int_eq(verdicts_of(v, 3, 1, kinds, which), 1);
    ck_assert_int_eq(kinds[0], MPP_FIND_COLLECTIVE_DATATYPE);
    ck_assert_int_eq(which[0], MPP_CC_SIGNATURE);
    /* another operation: that alone */
    v[0].lo[MPP_CC_OPERATION] = v[0].hi[MPP_CC_OPERATION] = 30;
    ck_assert_int_eq(verdicts_of(v, 3, 2, kinds, which), 1);
    ck_assert_int_eq(kinds[0], MPP_FIND_COLLECTIVE_MISMATCH);
}
END_TEST

START_TEST(test_collcheck_not_given)
{
    /* a user-defined reduction on one member: its value is not given, the
     * others agree: nothing; a member that gave nothing reports nothing */
    mpp_cc_values_t v[2];
    int kinds[MPP_CC_NVALUES], which[MPP_CC_NVALUES];
    mpp_cc_clear(&v[0]);
    mpp_cc_clear(&v[1]);
    mpp_cc_give(&v[0], MPP_CC_REDUCTION, 3);
    ck_assert_int_eq(verdicts_of(v, 2, 0, kinds, which), 0);
    ck_assert_int_eq(verdicts_of(v, 2, 1, kinds, which), 0);
    int64_t rows[2 * MPP_CC_NVALUES];
    mpp_cc_to_rows(&v[1], MPP_CC_NVALUES, rows);
    for (int k = 0; k < 2 * MPP_CC_NVALUES; k++) /* changes no maximum */
        ck_assert(rows[k] == INT64_MIN);
    /* at basic, the signature is not compared */
    mpp_cc_give(&v[0], MPP_CC_SIGNATURE, 1);
    mpp_cc_give(&v[1], MPP_CC_SIGNATURE, 2);
    ck_assert_int_eq(verdicts_of(v, 2, 0, kinds, which), 1);
    int64_t max[2 * MPP_CC_NVALUES];
    mpp_cc_values_t all;
    reduce_rows(v, 2, MPP_CC_BASIC_VALUES, max);
    mpp_cc_from_rows(max, 1, MPP_CC_BASIC_VALUES, &all);
    ck_assert_int_eq(mpp_cc_verdicts(&v[0], &all, MPP_CC_BASIC_VALUES, kinds, which), 0);
}
END_TEST

/* Instances with rows: each row follows the instants, compacted as they
 * are; an instance without values (or a batch without a buffer) changes
 * no maximum. */
START_TEST(test_instances_rows)
{
    mpp_batch_pool_t pool;
    mpp_batch_pool_init_rows(&pool, 4, 2);
    mpp_instances_t r;
    mpp_instances_init(&r, &pool);
    mpp_request_origin_t *o;
    for (int i = 0; i < 3; i++) {
        mpp_instances_begin(&r, 10 * i, 10 * i + 1, 0, &o);
        int64_t rows[2] = {100 + i, -(100 + i)};
        if (i != 1)
            mpp_instances_set_rows(&r, rows);
    }
    mpp_batch_slot_t *slot = mpp_instances_pending(&r);
    mpp_instance_batch_t *b;
    int n;
    mpp_instances_take(&r, slot, NULL, &b, &n);
    ck_assert_int_eq(n, 3);
    int64_t *v = b->values;
    ck_assert(v[0] == 0 && v[1] == 10 && v[2] == 20);    /* entries */
    ck_assert(v[3] == 1 && v[4] == 11 && v[5] == 21);    /* exits */
    ck_assert(v[6] == -1 && v[7] == -11 && v[8] == -21); /* negated exits */
    ck_assert(v[9] == 100 && v[10] == INT64_MIN && v[11] == 102);
    ck_assert(v[12] == -100 && v[13] == INT64_MIN && v[14] == -102);
    mpp_batch_put(&pool, b);
    /* a batch without a buffer: the fallback's rows are neutral too */
    int64_t fallback[5 * 4];
    mpp_batch_slot_t none = {0, 2, NULL};
    mpp_instances_take(&r, &none, fallback, &b, &n);
    ck_assert_ptr_null(b);
    for (int k = 3 * 2; k < 5 * 2; k++)
        ck_assert(fallback[k] == INT64_MIN);
    mpp_instances_free(&r);
    mpp_batch_pool_free(&pool);
}
END_TEST

/* ------------------------------------------------------------------ */

typedef struct {
    int record, receive;
} pair_t;

static pair_t pairs_seen[16];
static int npairs;

static void note_pair(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *record, const void *receive)
{
    (void)ctx, (void)comm, (void)source, (void)tag;
    pairs_seen[npairs++] = (pair_t){*(const int *)record, *(const int *)receive};
}

static void count_left(void *arg, uint32_t comm, int32_t source, int32_t tag, const void *record)
{
    (void)comm, (void)source, (void)tag, (void)record;
    (*(int *)arg)++;
}

START_TEST(test_msgpair_channels)
{
    mpp_msgpair_t m;
    mpp_msgpair_init(&m, sizeof(int), sizeof(int), 0, note_pair, NULL);
    npairs = 0;
    int a = 1, b = 2, c = 3, x = 10, y = 20, z = 30;
    /* receives first, then records, on one channel: in order */
    mpp_msgpair_receive(&m, 5, 0, 1, &x);
    mpp_msgpair_receive(&m, 5, 0, 1, &y);
    mpp_msgpair_record(&m, 5, 0, 1, &a);
    /* another channel (tag) keeps its own count */
    mpp_msgpair_record(&m, 5, 0, 2, &c);
    mpp_msgpair_record(&m, 5, 0, 1, &b);
    ck_assert_int_eq(npairs, 2);
    ck_assert(pairs_seen[0].record == 1 && pairs_seen[0].receive == 10);
    ck_assert(pairs_seen[1].record == 2 && pairs_seen[1].receive == 20);
    /* records first */
    mpp_msgpair_record(&m, 5, 1, 1, &a);
    mpp_msgpair_receive(&m, 5, 1, 1, &z);
    ck_assert(npairs == 3 && pairs_seen[2].record == 1 && pairs_seen[2].receive == 30);
    /* what is left: the record of tag 2; a pending receive of any tag from 0 takes it */
    int left = 0, out = 0;
    mpp_msgpair_each_record(&m, count_left, &left);
    ck_assert_int_eq(left, 1);
    ck_assert_int_eq(mpp_msgpair_take(&m, 5, 1, MPP_MSG_ANY, &out), 0);
    ck_assert_int_eq(mpp_msgpair_take(&m, 6, MPP_MSG_ANY, MPP_MSG_ANY, &out), 0);
    ck_assert_int_eq(mpp_msgpair_take(&m, 5, 0, MPP_MSG_ANY, &out), 1);
    ck_assert_int_eq(out, 3);
    left = 0;
    mpp_msgpair_each_record(&m, count_left, &left);
    ck_assert_int_eq(left, 0);
    ck_assert_uint_eq(m.count, 0); /* even channels went */
    /* many channels: the table grows */
    for (int t = 0; t < 1000; t++)
        mpp_msgpair_record(&m, 7, t % 3, t, &a);
    ck_assert_uint_eq(m.count, 1000);
    mpp_msgpair_free(&m);
}
END_TEST

/* The verdict on a message and its receive, shared by the dynamic mode
 * and mpiprof-analyze (check/msgcheck.h): its kinds and its words. */
START_TEST(test_msg_verdicts)
{
    mpp_msg_verdict_t v[MPP_MSG_VERDICTS];
    mpp_signature_t ints = mpp_sig_repeat(mpp_sig_basic(MPP_SIG_SIGNED + 4), 4);
    mpp_signature_t floats = mpp_sig_repeat(mpp_sig_basic(MPP_SIG_FLOAT + 4), 4), none = {0, 0, -2};
    mpp_msg_side_t sent = {16, ints}, into = {16, floats};
    /* the same size, other types: only full sees it */
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 3, 0, v), 0);
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 3, 1, v), 1);
    ck_assert_int_eq(v[0].kind, MPP_FIND_WRONG_DATATYPE);
    ck_assert_str_eq(v[0].detail, "the type signatures of the send (4 x a 4-byte integer, 16 bytes) and of this "
                                  "receive (4 x a 4-byte floating point number, 16 bytes) differ (tag 3)");
    /* larger than the buffer: truncated, at any level */
    sent = (mpp_msg_side_t){32, none}, into = (mpp_msg_side_t){8, none};
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 1, 0, v), 1);
    ck_assert_int_eq(v[0].kind, MPP_FIND_WRONG_SEND_SIZE);
    ck_assert_str_eq(v[0].detail, "a message of 32 bytes (tag 1) into a receive buffer of 8 bytes: truncated");
    /* smaller: full only; a capacity not known says nothing */
    sent.bytes = 4;
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 2, 0, v), 0);
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 2, 1, v), 1);
    ck_assert_int_eq(v[0].kind, MPP_FIND_INCORRECT_SEND_SIZE);
    ck_assert_str_eq(v[0].detail, "a message of 4 bytes (tag 2) into a receive buffer of 8 bytes");
    into.bytes = -1;
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 2, 1, v), 0);
    /* both at once: the size first */
    sent = (mpp_msg_side_t){16, ints},
    into = (mpp_msg_side_t){32, mpp_sig_repeat(mpp_sig_basic(MPP_SIG_FLOAT + 4), 8)};
    ck_assert_int_eq(mpp_msg_verdicts(&sent, &into, 0, 1, v), 2);
    ck_assert(v[0].kind == MPP_FIND_INCORRECT_SEND_SIZE && v[1].kind == MPP_FIND_WRONG_DATATYPE);
    char text[MPP_FINDING_DETAIL];
    mpp_msg_nonpaired_send(4, 77, 0, text, sizeof text);
    ck_assert_str_eq(text, "a message of 4 bytes with tag 77 from rank 0 was never received (reported by the process "
                           "it was sent to)");
    mpp_msg_nonpaired_recv(MPP_MSG_ANY, 99, text, sizeof text);
    ck_assert_str_eq(text,
                     "a receive from any source with tag 99 still pending at MPI_Finalize: no message sent could "
                     "match it");
}
END_TEST

/* The words of the collectives' findings, shared with mpiprof-analyze
 * (check/collcheck.h). */
static const char *fid_name(int64_t fid) { return fid == 1 ? "MPI_Bcast" : "MPI_Allreduce"; }

START_TEST(test_collcheck_describe)
{
    mpp_cc_values_t own, all;
    char text[200];
    mpp_cc_clear(&own), mpp_cc_clear(&all);
    mpp_cc_give(&own, MPP_CC_OPERATION, 1);
    mpp_cc_give(&all, MPP_CC_OPERATION, 1), mpp_cc_give(&all, MPP_CC_OPERATION, 2);
    mpp_cc_describe(MPP_CC_OPERATION, &own, &all, fid_name, text, sizeof text);
    ck_assert_str_eq(text,
                     "MPI_Bcast here, MPI_Allreduce on another member, at the same position on this communicator");
    mpp_cc_give(&own, MPP_CC_REDUCTION, 3);
    mpp_cc_give(&all, MPP_CC_REDUCTION, 3), mpp_cc_give(&all, MPP_CC_REDUCTION, 1);
    mpp_cc_describe(MPP_CC_REDUCTION, &own, &all, fid_name, text, sizeof text);
    ck_assert_str_eq(text, "MPI_SUM here, another member gave MPI_MAX");
    mpp_cc_give(&own, MPP_CC_ROOT, 0);
    mpp_cc_give(&all, MPP_CC_ROOT, 0), mpp_cc_give(&all, MPP_CC_ROOT, 1);
    mpp_cc_describe(MPP_CC_ROOT, &own, &all, fid_name, text, sizeof text);
    ck_assert_str_eq(text, "root 0 here, the members gave roots 0 to 1");
    ck_assert_str_eq(mpp_cc_op_name(0), "a user-defined operation");
    ck_assert_str_eq(mpp_cc_op_name(14), "MPI_NO_OP");
}
END_TEST

static mpp_msgpair_t *order_pairs;

static void deliver_to_pairs(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *blob)
{
    (void)ctx;
    mpp_msgpair_receive(order_pairs, comm, source, tag, blob);
}

static int quieted;
static void quiet(void *blob)
{
    (void)blob;
    quieted++;
}

START_TEST(test_recvorder)
{
    mpp_msgpair_t m;
    mpp_recvorder_t o;
    mpp_msgpair_init(&m, sizeof(int), sizeof(int), 0, note_pair, NULL);
    mpp_recvorder_init(&o, sizeof(int), deliver_to_pairs, NULL);
    order_pairs = &m;
    npairs = 0;
    int r1 = 1, r2 = 2, a = 10, b = 20;
    mpp_msgpair_record(&m, 5, 0, 1, &r1);
    mpp_msgpair_record(&m, 5, 0, 1, &r2);
    /* MPI_Irecv A, B on one channel; B completes first: held until A has */
    mpp_ro_post_t *pa = mpp_recvorder_post(&o, 5, 0, 1), *pb = mpp_recvorder_post(&o, 5, 0, 1);
    uint64_t sa = pa->seq, sb = pb->seq;
    mpp_recvorder_complete(&o, sb, 5, 0, 1, &b);
    mpp_recvorder_unpost(&o, pb);
    ck_assert_int_eq(npairs, 0);
    mpp_recvorder_complete(&o, sa, 5, 0, 1, &a);
    ck_assert_int_eq(npairs, 1);
    mpp_recvorder_unpost(&o, pa);
    ck_assert_int_eq(npairs, 2);
    ck_assert(pairs_seen[0].record == 1 && pairs_seen[0].receive == 10);
    ck_assert(pairs_seen[1].record == 2 && pairs_seen[1].receive == 20);
    /* an earlier receive from any source holds back a blocking one from 0;
     * one of another communicator or tag does not */
    mpp_ro_post_t *any = mpp_recvorder_post(&o, 5, MPP_MSG_ANY, 3);
    mpp_ro_post_t *other = mpp_recvorder_post(&o, 6, 0, 3);
    mpp_recvorder_complete(&o, mpp_recvorder_seq(&o), 5, 0, 4, &a); /* another tag: goes */
    ck_assert(o.held == NULL);
    mpp_recvorder_complete(&o, mpp_recvorder_seq(&o), 5, 0, 3, &b);
    ck_assert(o.held != NULL);
    mpp_recvorder_unpost(&o, other);
    ck_assert(o.held != NULL);
    /* the end: what is held goes, each said to be unsure */
    quieted = 0;
    mpp_recvorder_flush(&o, quiet);
    ck_assert(o.held == NULL);
    ck_assert_int_eq(quieted, 1);
    mpp_recvorder_unpost(&o, any);
    mpp_recvorder_free(&o);
    mpp_msgpair_free(&m);
}
END_TEST

/* The indexed order against the rule it implements, looked through
 * linearly: random receives (two communicators, sources and tags or any)
 * completed in random order deliver in the same order; many pending of
 * distinct tags leave no key behind. */
typedef struct {
    uint64_t seq;
    int comm, source, tag, pending;
} ref_post_t;

static int delivered[4096], ndelivered;
static void deliver_id(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *blob)
{
    (void)ctx, (void)comm, (void)source, (void)tag;
    delivered[ndelivered++] = *(const int *)blob;
}

static int ref_blocked(const ref_post_t *p, int n, uint64_t seq, int comm, int source, int tag)
{
    for (int i = 0; i < n; i++)
        if (p[i].pending && p[i].seq < seq && p[i].comm == comm &&
            (p[i].source == MPP_MSG_ANY || p[i].source == source) && (p[i].tag == MPP_MSG_ANY || p[i].tag == tag))
            return 1;
    return 0;
}

START_TEST(test_recvorder_random)
{
    enum { N = 400 };
    static ref_post_t ref[N];
    static mpp_ro_post_t *node[N];
    static int held[N], actual_source[N], actual_tag[N], expect[N];
    srand(7);
    for (int round = 0; round < 20; round++) {
        mpp_recvorder_t o;
        mpp_recvorder_init(&o, sizeof(int), deliver_id, NULL);
        ndelivered = 0;
        int nexpect = 0, posted = 0, done = 0;
        while (done < N) {
            if (posted < N && (rand() % 2 || done == posted)) {
                int comm = rand() % 2, source = rand() % 3 - 1, tag = rand() % 3 - 1;
                source = source < 0 ? MPP_MSG_ANY : source;
                tag = tag < 0 ? MPP_MSG_ANY : tag;
                node[posted] = mpp_recvorder_post(&o, (uint32_t)comm, source, tag);
                ref[posted] = (ref_post_t){node[posted]->seq, comm, source, tag, 1};
                held[posted] = 0;
                posted++;
                continue;
            }
            int i;
            do
                i = rand() % posted;
            while (!ref[i].pending);
            int src = ref[i].source == MPP_MSG_ANY ? rand() % 2 : ref[i].source;
            int tag = ref[i].tag == MPP_MSG_ANY ? rand() % 2 : ref[i].tag;
            actual_source[i] = src, actual_tag[i] = tag;
            if (ref_blocked(ref, posted, ref[i].seq, ref[i].comm, src, tag))
                held[i] = 1;
            else
                expect[nexpect++] = i;
            mpp_recvorder_complete(&o, ref[i].seq, (uint32_t)ref[i].comm, src, tag, &i);
            ref[i].pending = 0;
            mpp_recvorder_unpost(&o, node[i]);
            /* the rule: every held one no earlier pending receive could take, in posting order */
            for (int j = 0; j < posted; j++)
                if (held[j] && !ref_blocked(ref, posted, ref[j].seq, ref[j].comm, actual_source[j], actual_tag[j])) {
                    held[j] = 0;
                    expect[nexpect++] = j;
                }
            done++;
        }
        ck_assert_int_eq(ndelivered, nexpect);
        for (int k = 0; k < nexpect; k++)
            ck_assert_int_eq(delivered[k], expect[k]);
        ck_assert_uint_eq(o.nkeys, 0);
        mpp_recvorder_free(&o);
    }
    /* 10^5 pending of distinct tags, completed last first: none held, no key left */
    mpp_recvorder_t o;
    mpp_recvorder_init(&o, sizeof(int), deliver_id, NULL);
    enum { M = 100000 };
    mpp_ro_post_t **many = malloc(M * sizeof *many);
    for (int i = 0; i < M; i++)
        many[i] = mpp_recvorder_post(&o, 1, 0, i);
    ck_assert_uint_eq(o.nkeys, M);
    for (int i = M - 1; i >= 0; i--) {
        ndelivered = 0;
        mpp_recvorder_complete(&o, many[i]->seq, 1, 0, i, &i);
        ck_assert_int_eq(ndelivered, 1);
        mpp_recvorder_unpost(&o, many[i]);
    }
    ck_assert_uint_eq(o.nkeys, 0);
    free(many);
    mpp_recvorder_free(&o);
}
END_TEST

START_TEST(test_msg_checksum)
{
    unsigned char a[37], b[37];
    for (int i = 0; i < 37; i++)
        a[i] = b[i] = (unsigned char)(i * 7);
    ck_assert_uint_eq(mpp_msg_checksum(0, a, 37), mpp_msg_checksum(0, b, 37));
    b[36] ^= 1; /* in the tail */
    ck_assert_uint_ne(mpp_msg_checksum(0, a, 37), mpp_msg_checksum(0, b, 37));
    b[36] ^= 1;
    b[3] ^= 0x80; /* in a word */
    ck_assert_uint_ne(mpp_msg_checksum(0, a, 37), mpp_msg_checksum(0, b, 37));
    ck_assert_uint_ne(mpp_msg_checksum(0, a, 36), mpp_msg_checksum(0, a, 37));
}
END_TEST

Suite *between_suite(void)
{
    Suite *s = suite_create("between");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_collcheck_verdicts);
    tcase_add_test(tc, test_collcheck_not_given);
    tcase_add_test(tc, test_instances_rows);
    tcase_add_test(tc, test_msgpair_channels);
    tcase_add_test(tc, test_msg_verdicts);
    tcase_add_test(tc, test_collcheck_describe);
    tcase_add_test(tc, test_recvorder);
    tcase_add_test(tc, test_recvorder_random);
    tcase_add_test(tc, test_msg_checksum);
    suite_add_tcase(s, tc);
    return s;
}
