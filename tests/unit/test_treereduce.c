/* Reductions along trees of point-to-point messages (treereduce.h): the
 * trees, and whole reductions among simulated members whose messages
 * arrive in any order, before or after the member's own values. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/treereduce.h"
#include "suites.h"

enum { MAXM = 70, MAXV = 6, MAXMSG = 20000 };

/* ------------------------------------------------------------------ */
/* Trees */

static int index_of(const int *members, int m, int rank)
{
    for (int i = 0; i < m; i++)
        if (members[i] == rank)
            return i;
    return -1;
}

static int log2_ceil(int m)
{
    int l = 0;
    while ((1 << l) < m)
        l++;
    return l;
}

/* Every member's place: one root, each other member the child of its
 * parent, no member twice, at most ceil(log2 m) children, depth at most
 * ceil(log2 m). */
static void check_tree(const int *members, int m, uint64_t id)
{
    mpp_tree_t t[MAXM];
    int roots = 0, parent_of[MAXM];
    for (int i = 0; i < m; i++) {
        ck_assert_int_eq(mpp_tree_place(&t[i], members, m, members[i], id), 0);
        ck_assert_int_le(t[i].nchildren, log2_ceil(m));
        parent_of[i] = t[i].parent < 0 ? -1 : index_of(members, m, t[i].parent);
        roots += t[i].parent < 0;
    }
    ck_assert_int_eq(roots, 1);
    for (int i = 0; i < m; i++) {
        for (int c = 0; c < t[i].nchildren; c++) {
            int k = index_of(members, m, t[i].children[c]);
            ck_assert_int_ge(k, 0);
            ck_assert_int_eq(parent_of[k], i);
        }
        int depth = 0;
        for (int k = i; parent_of[k] >= 0; k = parent_of[k])
            ck_assert_int_le(++depth, log2_ceil(m));
        if (parent_of[i] >= 0) { /* listed among its parent's children */
            int listed = 0;
            for (int c = 0; c < t[parent_of[i]].nchildren; c++)
                listed += t[parent_of[i]].children[c] == members[i];
            ck_assert_int_eq(listed, 1);
        }
    }
}

START_TEST(test_treereduce_trees)
{
    int members[MAXM];
    for (int m = 1; m <= MAXM; m++) {
        for (int i = 0; i < m; i++)
            members[i] = 3 * i + (i % 2); /* world ranks, sorted, with gaps */
        for (uint64_t id = 0; id < 5; id++)
            check_tree(members, m, id * 1000003u + (uint64_t)m);
    }
}
END_TEST

START_TEST(test_treereduce_roots_spread)
{
    int members[8] = {0, 1, 2, 3, 4, 5, 6, 7}, rooted[8] = {0};
    mpp_tree_t t;
    for (uint64_t id = 16; id < 16 + 64; id++)
        for (int i = 0; i < 8; i++)
            if (mpp_tree_place(&t, members, 8, i, id) == 0 && t.parent < 0)
                rooted[i]++;
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(rooted[i], 8);
}
END_TEST

START_TEST(test_treereduce_not_a_member)
{
    int members[3] = {2, 4, 6};
    mpp_tree_t t;
    ck_assert_int_eq(mpp_tree_place(&t, members, 3, 5, 99), -1);
    ck_assert_int_eq(mpp_tree_place(&t, members, 3, 6, 99), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Simulated members exchanging reduction messages */

typedef struct {
    int to, from;
    uint64_t comm, seq;
    int n, op, result, mismatch;
    int64_t values[MAXV];
} msg_t;

static msg_t queue[MAXMSG];
static int nqueue;
static mpp_reductions_t tables[MAXM];
static int members[MAXM], msgs_sent[MAXM], msgs_received[MAXM];
static int64_t results[MAXM][4][MAXV]; /* by member, reduction */
static int got[MAXM][4], mismatched[MAXM][4];
static int m_members;

static void send(int from, int to, const mpp_reduction_t *r, int result)
{
    ck_assert_int_lt(nqueue, MAXMSG);
    msg_t *q = &queue[nqueue++];
    *q = (msg_t){index_of(members, m_members, to), from, r->comm, r->seq, r->n, r->op, result, r->mismatch, {0}};
    memcpy(q->values, r->values, (size_t)r->n * sizeof *r->values);
    msgs_sent[from]++;
}

/* What the MPI side does with what the table says. */
static void step(int who, mpp_reduction_t *r, mpp_reduction_next_t next)
{
    ck_assert_int_ne(next, MPP_REDUCTION_ERROR);
    if (next == MPP_REDUCTION_SEND_UP) {
        send(who, r->tree.parent, r, 0);
        mpp_reduction_sent_up(r);
    } else if (next == MPP_REDUCTION_RESULT) {
        for (int c = 0; c < r->tree.nchildren; c++)
            send(who, r->tree.children[c], r, 1);
        int k = (int)r->seq;
        ck_assert_int_eq(got[who][k], 0);
        got[who][k] = 1;
        mismatched[who][k] = r->mismatch;
        memcpy(results[who][k], r->values, (size_t)r->n * sizeof *r->values);
        mpp_reduction_remove(&tables[who], r);
    }
}

static void deliver(int i)
{
    msg_t q = queue[i];
    queue[i] = queue[--nqueue];
    mpp_reduction_t *r = NULL;
    mpp_reduction_next_t next =
        q.result ? mpp_reduction_result(&tables[q.to], q.comm, q.seq, q.n, q.values, q.mismatch, &r)
                 : mpp_reduction_part(&tables[q.to], q.comm, q.seq, q.op, q.n, q.values, q.mismatch, &r);
    msgs_received[q.to]++;
    step(q.to, r, next);
}

static int64_t own_value(int member, int k, int j)
{
    return (int64_t)((member * 7919 + k * 31 + j * 17) % 1000) - 300;
}

static void contribute(int who, uint64_t comm, int k, int op, int len, const mpp_tree_t *tree)
{
    int64_t values[MAXV];
    mpp_reduction_t *r;
    for (int j = 0; j < len; j++)
        values[j] = own_value(who, k, j);
    mpp_reduction_next_t next = mpp_reduction_own(&tables[who], comm, (uint64_t)k, op, len, values, tree, NULL, &r);
    step(who, r, next);
}

/* m members run nred reductions of n values in random order (member odd,
 * if >= 0, gives n + 1 values to reduction 0); every member gets every
 * result, having sent at most log2 m + 1 messages per reduction. */
static void run(int m, int nred, int n, int op, unsigned seed, int odd)
{
    mpp_tree_t trees[MAXM];
    int owned[MAXM][4] = {{0}};
    m_members = m;
    nqueue = 0;
    srand(seed);
    memset(got, 0, sizeof got);
    memset(mismatched, 0, sizeof mismatched);
    memset(msgs_sent, 0, sizeof msgs_sent);
    memset(msgs_received, 0, sizeof msgs_received);
    uint64_t comm = 123456789u + (uint64_t)m;
    for (int i = 0; i < m; i++)
        members[i] = 2 * i + 1;
    for (int i = 0; i < m; i++) {
        mpp_reductions_init(&tables[i]);
        ck_assert_int_eq(mpp_tree_place(&trees[i], members, m, members[i], comm), 0);
    }
    int left = m * nred;
    while (left > 0 || nqueue > 0) {
        if (left > 0 && (nqueue == 0 || rand() % 3 == 0)) { /* a member's own values, in any order */
            int who = rand() % m, k = rand() % nred;
            while (owned[who][k]) {
                if (++who == m) {
                    who = 0;
                    k = (k + 1) % nred;
                }
            }
            owned[who][k] = 1;
            left--;
            contribute(who, comm, k, op, who == odd && k == 0 ? n + 1 : n, &trees[who]);
        } else {
            deliver(rand() % nqueue);
        }
    }
    for (int i = 0; i < m; i++) {
        ck_assert_uint_eq(tables[i].count, 0);
        ck_assert_int_le(msgs_sent[i], nred * (log2_ceil(m) + 1));
        ck_assert_int_le(msgs_received[i], nred * (log2_ceil(m) + 1));
        for (int k = 0; k < nred; k++) {
            ck_assert_msg(got[i][k], "member %d of %d has no result of reduction %d", i, m, k);
            ck_assert_int_eq(mismatched[i][k], odd >= 0 && k == 0);
            if (mismatched[i][k])
                continue;
            for (int j = 0; j < n; j++) {
                int64_t want = op == MPP_REDUCE_SUM ? 0 : INT64_MIN;
                for (int w = 0; w < m; w++)
                    want = op == MPP_REDUCE_SUM ? want + own_value(w, k, j)
                                                : (own_value(w, k, j) > want ? own_value(w, k, j) : want);
                ck_assert_int_eq(results[i][k][j], want);
            }
        }
        mpp_reductions_free(&tables[i]);
    }
}

START_TEST(test_treereduce_max_any_order)
{
    for (int m = 1; m <= 33; m++)
        for (unsigned seed = 1; seed <= 4; seed++)
            run(m, 4, 3, MPP_REDUCE_MAX, seed * 97 + (unsigned)m, -1);
}
END_TEST

START_TEST(test_treereduce_sum)
{
    for (int m = 1; m <= 20; m++)
        run(m, 2, 2, MPP_REDUCE_SUM, (unsigned)m, -1);
}
END_TEST

START_TEST(test_treereduce_mismatch_reaches_everyone)
{
    /* one member disagrees on the batch: every member drops it, the
     * other reductions go on */
    for (int m = 2; m <= 17; m++)
        for (int odd = 0; odd < m; odd += 3)
            run(m, 3, 4, MPP_REDUCE_MAX, (unsigned)(m * 13 + odd), odd);
}
END_TEST

START_TEST(test_treereduce_unexpected_messages)
{
    mpp_reductions_t t;
    mpp_tree_t tree;
    mpp_reduction_t *r;
    int mem[2] = {0, 1};
    int64_t v[2] = {1, 2};
    mpp_reductions_init(&t);
    /* a result for a reduction this member has not made, or not sent up */
    ck_assert_int_eq(mpp_reduction_result(&t, 9, 0, 2, v, 0, &r), MPP_REDUCTION_ERROR);
    ck_assert_int_eq(mpp_tree_place(&tree, mem, 2, 1, 0), 0); /* rank 1: a leaf under rank 0 */
    mpp_reduction_t *mine;
    ck_assert_int_eq(mpp_reduction_own(&t, 9, 0, MPP_REDUCE_MAX, 2, v, &tree, NULL, &mine), MPP_REDUCTION_SEND_UP);
    ck_assert_int_eq(mpp_reduction_result(&t, 9, 0, 2, v, 0, &r), MPP_REDUCTION_ERROR);
    ck_assert_ptr_null(r);
    mpp_reduction_sent_up(mine);
    /* its own values twice; a part after it went up */
    ck_assert_int_eq(mpp_reduction_own(&t, 9, 0, MPP_REDUCE_MAX, 2, v, &tree, NULL, &r), MPP_REDUCTION_ERROR);
    ck_assert_int_eq(mpp_reduction_part(&t, 9, 0, MPP_REDUCE_MAX, 2, v, 0, &r), MPP_REDUCTION_ERROR);
    ck_assert_int_eq(mpp_reduction_result(&t, 9, 0, 2, v, 0, &r), MPP_REDUCTION_RESULT);
    mpp_reduction_remove(&t, r);
    ck_assert_uint_eq(t.count, 0);
    /* more parts than children: ends (as a mismatch) instead of never */
    ck_assert_int_eq(mpp_tree_place(&tree, mem, 2, 0, 0), 0); /* rank 0: the root, one child */
    ck_assert_int_eq(mpp_reduction_part(&t, 9, 1, MPP_REDUCE_MAX, 2, v, 0, &r), MPP_REDUCTION_WAIT);
    ck_assert_int_eq(mpp_reduction_part(&t, 9, 1, MPP_REDUCE_MAX, 2, v, 0, &r), MPP_REDUCTION_WAIT);
    ck_assert_int_eq(mpp_reduction_own(&t, 9, 1, MPP_REDUCE_MAX, 2, v, &tree, NULL, &r), MPP_REDUCTION_RESULT);
    ck_assert_int_eq(r->mismatch, 1);
    mpp_reductions_free(&t);
}
END_TEST

Suite *treereduce_suite(void)
{
    Suite *s = suite_create("treereduce");
    TCase *trees = tcase_create("trees");
    tcase_add_test(trees, test_treereduce_trees);
    tcase_add_test(trees, test_treereduce_roots_spread);
    suite_add_tcase(s, trees);
    TCase *reductions = tcase_create("reductions");
    tcase_add_test(reductions, test_treereduce_max_any_order);
    tcase_add_test(reductions, test_treereduce_sum);
    tcase_add_test(reductions, test_treereduce_mismatch_reaches_everyone);
    suite_add_tcase(s, reductions);
    TCase *bad = tcase_create("bad_args");
    tcase_add_test(bad, test_treereduce_not_a_member);
    tcase_add_test(bad, test_treereduce_unexpected_messages);
    suite_add_tcase(s, bad);
    return s;
}
