/* The covered part of a process's time line (cover.h): each instant
 * credited once, first come first served without owners, to the window
 * that began first with them, never more than the union of the windows,
 * in bounded memory. */
#include <stdlib.h>

#include "accumulate/waitstates/cover.h"
#include "suites.h"

static mpp_cover_t cover;

static void setup(void) { mpp_cover_reset(&cover); }

/* Length of the union of windows [w[2i], w[2i+1]), by sorting. */
static int cmp_from(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int64_t union_length(const int64_t *w, int n)
{
    int64_t *s = malloc(2 * (size_t)n * sizeof *s);
    ck_assert_ptr_nonnull(s);
    memcpy(s, w, 2 * (size_t)n * sizeof *s);
    qsort(s, (size_t)n, 2 * sizeof *s, cmp_from);
    int64_t total = 0, end = INT64_MIN;
    for (int i = 0; i < n; i++) {
        int64_t a = s[2 * i], b = s[2 * i + 1];
        if (b <= a)
            continue;
        if (a > end) {
            total += b - a;
            end = b;
        } else if (b > end) {
            total += b - end;
            end = b;
        }
    }
    free(s);
    return total;
}

static void check_sorted(void)
{
    for (int i = 0; i < cover.n; i++) {
        ck_assert_int_lt(cover.piece[i].from, cover.piece[i].to);
        if (i)
            ck_assert_int_gt(cover.piece[i].from, cover.piece[i - 1].to); /* disjoint, not touching */
    }
}

START_TEST(test_cover_bad_args)
{
    ck_assert_int_eq(mpp_cover_add(&cover, 10, 10), 0);
    ck_assert_int_eq(mpp_cover_add(&cover, 10, 5), 0);
    ck_assert_int_eq(cover.n, 0);
    ck_assert_int_eq(mpp_cover_length(&cover), 0);
}
END_TEST

START_TEST(test_cover_disjoint_in_order)
{
    ck_assert_int_eq(mpp_cover_add(&cover, 0, 10), 10);
    ck_assert_int_eq(mpp_cover_add(&cover, 20, 25), 5);
    ck_assert_int_eq(mpp_cover_add(&cover, 30, 31), 1);
    ck_assert_int_eq(cover.n, 3);
    ck_assert_int_eq(mpp_cover_length(&cover), 16);
    check_sorted();
}
END_TEST

START_TEST(test_cover_overlapping)
{
    ck_assert_int_eq(mpp_cover_add(&cover, 0, 10), 10);
    ck_assert_int_eq(mpp_cover_add(&cover, 5, 15), 5);   /* the part after 10 */
    ck_assert_int_eq(mpp_cover_add(&cover, 2, 3), 0);    /* inside: nothing new */
    ck_assert_int_eq(mpp_cover_add(&cover, -5, 20), 10); /* both ends */
    ck_assert_int_eq(cover.n, 1);
    ck_assert_int_eq(mpp_cover_length(&cover), 25);
}
END_TEST

START_TEST(test_cover_touching)
{
    ck_assert_int_eq(mpp_cover_add(&cover, 0, 10), 10);
    ck_assert_int_eq(mpp_cover_add(&cover, 10, 20), 10);
    ck_assert_int_eq(mpp_cover_add(&cover, -3, 0), 3);
    ck_assert_int_eq(cover.n, 1);
    ck_assert_int_eq(cover.piece[0].from, -3);
    ck_assert_int_eq(cover.piece[0].to, 20);
}
END_TEST

START_TEST(test_cover_out_of_order)
{
    ck_assert_int_eq(mpp_cover_add(&cover, 20, 30), 10);
    ck_assert_int_eq(mpp_cover_add(&cover, 0, 5), 5);
    ck_assert_int_eq(mpp_cover_add(&cover, 10, 12), 2);
    ck_assert_int_eq(cover.n, 3);
    check_sorted();
    ck_assert_int_eq(cover.piece[0].from, 0);
    ck_assert_int_eq(cover.piece[1].from, 10);
    ck_assert_int_eq(cover.piece[2].from, 20);
    /* across all three: only the gaps are new */
    ck_assert_int_eq(mpp_cover_add(&cover, 3, 25), (10 - 5) + (20 - 12));
    ck_assert_int_eq(cover.n, 1);
    ck_assert_int_eq(mpp_cover_length(&cover), 30);
}
END_TEST

/* A root running ahead through 100 non-synchronizing collectives: instance
 * i's window [i, 1000 + i) covers the same stretch as the others. */
START_TEST(test_cover_root_running_ahead)
{
    int64_t sum = 0;
    for (int i = 0; i < 100; i++)
        sum += mpp_cover_add(&cover, i, 1000 + i);
    ck_assert_int_eq(sum, 1099); /* not 100 x 1000 */
}
END_TEST

/* Random windows that fit: the credits add up to the union exactly. */
START_TEST(test_cover_bound_exact)
{
    enum { N = 600 };
    static int64_t w[2 * N];
    unsigned seed = 7;
    int64_t sum = 0;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int64_t a = (int64_t)(seed >> 8) % 100000;
        seed = seed * 1103515245u + 12345u;
        int64_t len = (int64_t)(seed >> 8) % 300;
        w[2 * i] = a, w[2 * i + 1] = a + len;
        int64_t credit = mpp_cover_add(&cover, a, a + len);
        ck_assert_int_ge(credit, 0);
        ck_assert_int_le(credit, len);
        sum += credit;
    }
    ck_assert_int_le(cover.n, MPP_COVER_PIECES);
    ck_assert_uint_eq(cover.joined, 0);
    ck_assert_int_eq(sum, union_length(w, N));
    ck_assert_int_eq(sum, mpp_cover_length(&cover));
    check_sorted();
}
END_TEST

/* More disjoint pieces than there is room for, in time order and out of
 * it: the closest pieces are joined, and the credits stay within
 * [union - joined, union]: never more than the union. */
START_TEST(test_cover_bound_joined)
{
    enum { N = 5000 };
    static int64_t w[2 * N];
    unsigned seed = 99;
    int64_t sum = 0;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int64_t gap = 1 + (int64_t)(seed >> 8) % 50;
        int64_t a = i < N / 2 ? 100 * (int64_t)i + gap                     /* in time order */
                              : (int64_t)(seed >> 4) % (100 * (int64_t)N); /* anywhere */
        int64_t len = 10 + (int64_t)(seed >> 12) % 40;
        w[2 * i] = a, w[2 * i + 1] = a + len;
        sum += mpp_cover_add(&cover, a, a + len);
        ck_assert_int_le(cover.n, MPP_COVER_PIECES);
    }
    check_sorted();
    int64_t u = union_length(w, N);
    ck_assert_uint_gt(cover.joined, 0);
    ck_assert_int_le(sum, u);
    ck_assert_int_ge(sum, u - (int64_t)cover.joined);
    ck_assert_int_eq(sum, mpp_cover_length(&cover) - (int64_t)cover.joined);
}
END_TEST

/* Joining takes the smallest gaps: one wide gap among narrow ones stays. */
START_TEST(test_cover_joins_smallest_gaps)
{
    int64_t t = 0;
    for (int i = 0; i < MPP_COVER_PIECES; i++) {
        int64_t gap = i == 10 ? 1000000 : 2 + i % 3;
        t += gap;
        mpp_cover_add(&cover, t, t + 5);
        t += 5;
    }
    ck_assert_int_eq(cover.n, MPP_COVER_PIECES);
    ck_assert_int_eq(mpp_cover_add(&cover, t + 100, t + 110), 10);
    ck_assert_int_le(cover.n, MPP_COVER_PIECES / 2 + 1);
    /* the wide gap (before piece 10) is still open: a window there counts */
    int64_t wide_from = 0;
    for (int i = 0; i + 1 < cover.n; i++)
        if (cover.piece[i + 1].from - cover.piece[i].to >= 1000000)
            wide_from = cover.piece[i].to;
    ck_assert_int_gt(wide_from, 0);
    ck_assert_int_eq(mpp_cover_add(&cover, wide_from + 10, wide_from + 20), 10);
}
END_TEST

/* The inline path gives what the general one gives, window for window,
 * pieces and all: random windows mostly near the end of the time line
 * (requests in flight together), some anywhere, over a join or two. */
START_TEST(test_cover_fast_same_as_general)
{
    static mpp_cover_t general;
    mpp_cover_reset(&general);
    srand(17);
    int64_t now = 0;
    for (int i = 0; i < 20000; i++) {
        now += rand() % 50;
        int64_t from = rand() % 10 ? now - rand() % 100 : rand() % (now + 1), to = from + rand() % 120 - 10;
        ck_assert_int_eq(mpp_cover_add_fast(&cover, from, to), mpp_cover_add(&general, from, to));
        ck_assert_int_eq(cover.n, general.n);
    }
    ck_assert_int_eq(memcmp(cover.piece, general.piece, (size_t)cover.n * sizeof *cover.piece), 0);
    ck_assert_uint_eq(cover.joined, general.joined);
    ck_assert_uint_gt(general.joined, 0); /* the pieces ran out on the way */
    check_sorted();
}
END_TEST

START_TEST(test_cover_reset)
{
    mpp_cover_add(&cover, 0, 10);
    mpp_cover_reset(&cover);
    ck_assert_int_eq(cover.n, 0);
    ck_assert_int_eq(mpp_cover_add(&cover, 0, 10), 10);
}
END_TEST

/* Owned windows: what each owner is credited, debits taken back. */
enum { OWNERS = 64 };
static int64_t credit[OWNERS + 1];
static int forgotten; /* owners at or above it are not known any more */

static void debit(void *ctx, uint64_t owner, int64_t ticks)
{
    ck_assert_ptr_eq(ctx, credit);
    ck_assert_uint_ge(owner, 1);
    credit[owner] -= ticks;
    ck_assert_int_ge(credit[owner], 0); /* never more than was credited */
}

static int known(void *ctx, uint64_t owner)
{
    (void)ctx;
    return forgotten == 0 || (int)owner < forgotten;
}

static void owned_setup(void)
{
    mpp_cover_reset(&cover);
    mpp_cover_set_debit(&cover, debit, known, credit);
    memset(credit, 0, sizeof credit);
    forgotten = 0;
}

static void claim(int64_t from, int64_t to, uint64_t owner)
{
    credit[owner] += mpp_cover_claim_fast(&cover, from, to, owner, from);
}

/* A window that began earlier, claimed later, takes over the part of the
 * later one it covers: the same credits as in time order. */
START_TEST(test_cover_earlier_takes_over)
{
    claim(10, 30, 2);
    claim(0, 20, 1);
    ck_assert_int_eq(credit[1], 20);
    ck_assert_int_eq(credit[2], 10);
    owned_setup();
    claim(0, 20, 1);
    claim(10, 30, 2);
    ck_assert_int_eq(credit[1], 20);
    ck_assert_int_eq(credit[2], 10);
    /* one that began between them: the part of the later one it covers */
    claim(5, 25, 3);
    ck_assert_int_eq(credit[3], 5);
    ck_assert_int_eq(credit[2], 5);
    ck_assert_int_eq(credit[1], 20);
    ck_assert_int_eq(mpp_cover_length(&cover), 30);
}
END_TEST

/* The inside of a later window: split in three, the middle taken over. */
START_TEST(test_cover_takes_middle)
{
    claim(0, 100, 2);
    claim(-10, 0, 4);                                            /* touching before: its own piece */
    claim(100, 110, 5);                                          /* touching after */
    ck_assert_int_eq(mpp_cover_claim(&cover, 40, 60, 1, 40), 0); /* began later than 2's window: nothing */
    ck_assert_int_eq(credit[2], 100);
    claim(-20, 105, 3); /* began before all: takes over everything it covers */
    ck_assert_int_eq(credit[3], 10 + 10 + 100 + 5);
    ck_assert_int_eq(credit[2] + credit[4] + credit[5], 5);
    ck_assert_int_eq(mpp_cover_length(&cover), 130);
    for (int i = 0; i < cover.n; i++) {
        ck_assert_int_lt(cover.piece[i].from, cover.piece[i].to);
        if (i)
            ck_assert_int_ge(cover.piece[i].from, cover.piece[i - 1].to);
    }
}
END_TEST

/* Windows that began together: the one whose operation began first
 * (two nonblocking collectives completed by one wait: their Time
 * variation windows begin at the wait's exit), whichever came first. */
START_TEST(test_cover_tie_by_operation)
{
    credit[2] += mpp_cover_claim_fast(&cover, 10, 30, 2, 5);
    credit[1] += mpp_cover_claim_fast(&cover, 10, 20, 1, 3);
    credit[3] += mpp_cover_claim_fast(&cover, 10, 40, 3, 7);
    ck_assert_int_eq(credit[1], 10);
    ck_assert_int_eq(credit[2], 10);
    ck_assert_int_eq(credit[3], 10);
}
END_TEST

/* A window no window to come began before (FINAL) takes over later
 * ones' parts, and none takes its own over; pieces that end before the
 * horizon go, their length still counted. */
START_TEST(test_cover_final_and_retire)
{
    claim(10, 30, 2);
    ck_assert_int_eq(mpp_cover_claim_fast(&cover, 5, 20, MPP_COVER_FINAL, 5), 15);
    ck_assert_int_eq(credit[2], 10);
    claim(0, 8, 1); /* began earlier, but FINAL's part is not taken */
    ck_assert_int_eq(credit[1], 5);
    ck_assert_int_eq(mpp_cover_length(&cover), 30);
    int before = cover.n;
    mpp_cover_retire(&cover, 20);
    ck_assert_int_lt(cover.n, before);
    ck_assert_int_eq(cover.piece[0].from, 20);
    ck_assert_int_eq(mpp_cover_length(&cover), 30);
    claim(25, 40, 3); /* after the horizon, as the caller promised */
    ck_assert_int_eq(credit[3], 10);
    ck_assert_int_eq(mpp_cover_length(&cover), 40);
}
END_TEST

/* A window that ends before any window to come begins and after every
 * piece is credited whole without being kept; any other is claimed. */
START_TEST(test_cover_claim_before)
{
    ck_assert_int_eq(mpp_cover_claim_before(&cover, 0, 10, MPP_COVER_FINAL, 0, 10), 10);
    ck_assert_int_eq(cover.n, 0);
    ck_assert_int_eq(mpp_cover_claim_before(&cover, 12, 30, MPP_COVER_FINAL, 12, 20), 18); /* reaches past 20: kept */
    ck_assert_int_eq(cover.n, 1);
    ck_assert_int_eq(mpp_cover_claim_before(&cover, 25, 28, MPP_COVER_FINAL, 25, 100), 0); /* inside a piece */
    ck_assert_int_eq(mpp_cover_length(&cover), 28);
}
END_TEST

/* An owner no longer known keeps its part. */
START_TEST(test_cover_unknown_owner_keeps)
{
    claim(10, 30, 9);
    forgotten = 5;
    claim(0, 20, 1);
    ck_assert_int_eq(credit[1], 10);
    ck_assert_int_eq(credit[9], 20);
}
END_TEST

/* Random windows in random order: each instant is credited to the window
 * that began first (ties: the first claimed), as a unit-by-unit count
 * says, and in time order or not the credits are the same. */
START_TEST(test_cover_rule_any_order)
{
    enum { N = OWNERS, SPAN = 2000 };
    int64_t from[N + 1], to[N + 1], expect[N + 1] = {0};
    srand(23);
    for (int i = 1; i <= N; i++) {
        from[i] = (rand() % SPAN) * 2 + (i & 1); /* distinct starts */
        to[i] = from[i] + 1 + rand() % 300;
    }
    for (int64_t t = 0; t < 2 * SPAN + 400; t++) {
        int best = 0;
        for (int i = 1; i <= N; i++)
            if (from[i] <= t && t < to[i] && (!best || from[i] < from[best]))
                best = i;
        expect[best] += best != 0;
    }
    for (int i = 1; i <= N; i++) /* claimed in number order: random in time */
        claim(from[i], to[i], (uint64_t)i);
    for (int i = 1; i <= N; i++)
        ck_assert_int_eq(credit[i], expect[i]);
}
END_TEST

Suite *cover_suite(void)
{
    Suite *s = suite_create("cover");
    TCase *basic = tcase_create("windows");
    tcase_add_checked_fixture(basic, setup, NULL);
    tcase_add_test(basic, test_cover_bad_args);
    tcase_add_test(basic, test_cover_disjoint_in_order);
    tcase_add_test(basic, test_cover_overlapping);
    tcase_add_test(basic, test_cover_touching);
    tcase_add_test(basic, test_cover_out_of_order);
    tcase_add_test(basic, test_cover_root_running_ahead);
    tcase_add_test(basic, test_cover_reset);
    tcase_add_test(basic, test_cover_fast_same_as_general);
    suite_add_tcase(s, basic);
    TCase *bound = tcase_create("bound");
    tcase_add_checked_fixture(bound, setup, NULL);
    tcase_add_test(bound, test_cover_bound_exact);
    tcase_add_test(bound, test_cover_bound_joined);
    tcase_add_test(bound, test_cover_joins_smallest_gaps);
    suite_add_tcase(s, bound);
    TCase *owned = tcase_create("owned");
    tcase_add_checked_fixture(owned, owned_setup, NULL);
    tcase_add_test(owned, test_cover_earlier_takes_over);
    tcase_add_test(owned, test_cover_takes_middle);
    tcase_add_test(owned, test_cover_unknown_owner_keeps);
    tcase_add_test(owned, test_cover_tie_by_operation);
    tcase_add_test(owned, test_cover_final_and_retire);
    tcase_add_test(owned, test_cover_claim_before);
    tcase_add_test(owned, test_cover_rule_any_order);
    suite_add_tcase(s, owned);
    return s;
}
