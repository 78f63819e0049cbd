/* The topology and placement summarizer (src/records/machine.c) and the
 * coalescing of placement runs in the dictionary (src/reduce/dictionary.c),
 * on hand-made records: no MPI, no hwloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/machine.h"
#include "reduce/dictionary.h"
#include "suites.h"

/* --- helpers --- */

static char *idlist(const char *text)
{
    int *ids;
    int n = mpp_idlist_parse(text, &ids);
    ck_assert_msg(n >= 0, "'%s' does not parse", text);
    char *out = mpp_idlist_format(ids, n);
    free(ids);
    return out;
}

/* Runs of one rank each, from "host:rank:pus" items, coalesced; returns the
 * count, runs in *out. */
static int coalesce(const char *const *items, int n, mpp_run_t *out)
{
    for (int i = 0; i < n; i++) {
        char host[64], pus[256] = "";
        int rank;
        ck_assert_int_ge(sscanf(items[i], "%63[^:]:%d:%255s", host, &rank, pus), 2);
        ck_assert_int_eq(mpp_run_single(&out[i], host, rank, pus), 0);
    }
    return mpp_runs_coalesce(out, n);
}

static void free_runs(mpp_run_t *runs, int n)
{
    for (int i = 0; i < n; i++)
        mpp_run_free(&runs[i]);
}

static void expect_run(const mpp_run_t *r, const char *host, int first, int rank_step, int count, const char *pus,
                       int pu_step)
{
    char *p = mpp_idlist_format(r->pus, r->npus);
    ck_assert_str_eq(r->host, host);
    ck_assert_int_eq(r->first, first);
    ck_assert_int_eq(r->count, count);
    if (count > 1)
        ck_assert_int_eq(r->rank_step, rank_step);
    ck_assert_str_eq(p, pus);
    if (count > 1 && r->npus)
        ck_assert_int_eq(r->pu_step, pu_step);
    free(p);
}

/* An 8-PU node, 4 cores with 2 hardware threads each: core i has PUs i and i+4. */
static char *smt_node_key(void)
{
    mpp_node_type_t t = {0};
    t.model = (char *)"Test CPU 9000";
    t.packages = 1, t.cores = 4, t.pus = 8, t.numa = 1;
    t.memory = 16ULL << 30;
    t.cache_size[MPP_CACHE_L1D] = 32 << 10, t.cache_count[MPP_CACHE_L1D] = 4;
    t.cache_size[MPP_CACHE_L2] = 1 << 20, t.cache_count[MPP_CACHE_L2] = 4;
    t.cache_size[MPP_CACHE_L3] = 8 << 20, t.cache_count[MPP_CACHE_L3] = 1;
    t.core_map = (char *)"0,4;1,5;2,6;3,7";
    char *key = mpp_node_type_key(&t);
    ck_assert_ptr_nonnull(key);
    return key;
}

static char *small_node_key(void)
{
    mpp_node_type_t t = {0};
    t.model = (char *)"Small CPU";
    t.packages = 1, t.cores = 2, t.pus = 2, t.numa = 1;
    t.memory = 4ULL << 30;
    t.core_map = (char *)"0;1";
    return mpp_node_type_key(&t);
}

/* Machine data from host specs and run keys made of "host:rank:pus" items
 * (coalesced as the reduction does). */
typedef struct {
    mpp_machine_data_t d;
    mpp_machine_summary_t s;
} fixture_t;

static void build(fixture_t *f, char **types, int ntypes, const mpp_machine_host_t *hosts, int nhosts,
                  const char *const *items, int nitems)
{
    memset(f, 0, sizeof *f);
    f->d.types = types;
    f->d.ntypes = ntypes;
    f->d.hosts = calloc((size_t)nhosts + 1, sizeof *f->d.hosts);
    for (int h = 0; h < nhosts; h++) {
        f->d.hosts[h] = hosts[h];
        f->d.hosts[h].name = strdup(hosts[h].name);
        f->d.hosts[h].allowed = hosts[h].allowed ? strdup(hosts[h].allowed) : NULL;
    }
    f->d.nhosts = nhosts;
    mpp_run_t *runs = calloc((size_t)nitems + 1, sizeof *runs);
    int n = coalesce(items, nitems, runs);
    f->d.runs = calloc((size_t)n + 1, sizeof *f->d.runs);
    for (int r = 0; r < n; r++)
        f->d.runs[r] = mpp_run_key(&runs[r]);
    f->d.nruns = n;
    free_runs(runs, n);
    free(runs);
    ck_assert_int_eq(mpp_machine_summarize(&f->d, &f->s), 0);
}

static void release(fixture_t *f)
{
    mpp_machine_summary_free(&f->s);
    for (int h = 0; h < f->d.nhosts; h++)
        free(f->d.hosts[h].name), free(f->d.hosts[h].allowed);
    for (int r = 0; r < f->d.nruns; r++)
        free(f->d.runs[r]);
    free(f->d.hosts), free(f->d.runs);
}

static int has_warning(const mpp_machine_summary_t *s, const char *text)
{
    for (int w = 0; w < s->nwarnings; w++)
        if (!strcmp(s->warnings[w], text))
            return 1;
    return 0;
}

static void expect_no_warning(const mpp_machine_summary_t *s)
{
    ck_assert_msg(s->nwarnings == 0, "unexpected warning: %s", s->nwarnings ? s->warnings[0] : "");
}

/* --- id lists --- */

START_TEST(test_machine_idlist_roundtrip)
{
    static const struct {
        const char *in, *out;
    } cases[] = {{"0-3,8,10-11", "0-3,8,10-11"},
                 {"3,1,2,2", "1-3"},
                 {"", ""},
                 {"7", "7"},
                 {"0,2,4", "0,2,4"},
                 {"5-5,6", "5-6"},
                 {"1,", "1"},
                 {"0-1,1-2", "0-2"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = idlist(cases[i].in);
        ck_assert_msg(!strcmp(out, cases[i].out), "'%s' gave '%s', expected '%s'", cases[i].in, out, cases[i].out);
        free(out);
    }
    int *ids;
    ck_assert_int_eq(mpp_idlist_parse("", &ids), 0);
    ck_assert_ptr_null(ids);
}
END_TEST

/* --- placement runs --- */

START_TEST(test_machine_runs_block_bind_to_core)
{
    /* given out of order, as merges of tree blocks arrive */
    static const char *items[] = {"n1:2:2", "n1:0:0", "n1:3:3", "n1:1:1"};
    mpp_run_t runs[4];
    int n = coalesce(items, 4, runs);
    ck_assert_int_eq(n, 1);
    expect_run(&runs[0], "n1", 0, 1, 4, "0", 1);
    char *key = mpp_run_key(&runs[0]);
    mpp_run_t back;
    ck_assert_int_eq(mpp_run_parse(key, &back), 0);
    expect_run(&back, "n1", 0, 1, 4, "0", 1);
    int *third = mpp_run_pus_of(&back, 3);
    ck_assert_int_eq(third[0], 3);
    free(third), free(key);
    mpp_run_free(&back);
    free_runs(runs, n);
}
END_TEST

START_TEST(test_machine_runs_cyclic_two_hosts)
{
    /* rank r on host r%2, PU r/2: one run per host with rank step 2 */
    static const char *items[] = {"a:0:0", "b:1:0", "a:2:1", "b:3:1", "a:4:2", "b:5:2", "a:6:3", "b:7:3"};
    mpp_run_t runs[8];
    int n = coalesce(items, 8, runs);
    ck_assert_int_eq(n, 2);
    expect_run(&runs[0], "a", 0, 2, 4, "0", 1);
    expect_run(&runs[1], "b", 1, 2, 4, "0", 1);
    free_runs(runs, n);
}
END_TEST

START_TEST(test_machine_runs_socket_and_irregular)
{
    /* bind-to socket: ranks 0-3 share PU 0-7, ranks 4-7 PU 8-15; then an
     * irregular tail (PU 0, 1, 5) and ranks whose binding is unknown */
    static const char *items[] = {"s:0:0-7",  "s:1:0-7", "s:2:0-7", "s:3:0-7", "s:4:8-15", "s:5:8-15", "s:6:8-15",
                                  "s:7:8-15", "t:0:0",   "t:1:1",   "t:2:5",   "u:0",      "u:1",      "u:2"};
    mpp_run_t runs[14];
    int n = coalesce(items, 14, runs);
    ck_assert_int_eq(n, 5);
    expect_run(&runs[0], "s", 0, 1, 4, "0-7", 0);
    expect_run(&runs[1], "s", 4, 1, 4, "8-15", 0);
    expect_run(&runs[2], "t", 0, 1, 2, "0", 1);
    expect_run(&runs[3], "t", 2, 0, 1, "5", 0);
    expect_run(&runs[4], "u", 0, 1, 3, "", 0);
    ck_assert_int_eq(runs[4].npus, 0);
    free_runs(runs, n);
}
END_TEST

START_TEST(test_machine_runs_in_dictionary)
{
    /* the reduction's path: records of blocks of ranks merged, coalesced
     * after each merge; a regular layout stays one record per host */
    mpp_dict_t a, b;
    mpp_dict_init(&a);
    mpp_dict_init(&b);
    for (int r = 0; r < 64; r++) {
        mpp_dict_t *d = r < 32 ? &a : &b;
        char pus[16];
        snprintf(pus, sizeof pus, "%d", r % 32);
        mpp_run_t run;
        ck_assert_int_eq(mpp_run_single(&run, r < 32 ? "node01" : "node02", r, pus), 0);
        char *key = mpp_run_key(&run);
        ck_assert_int_eq(mpp_dict_add(d, MPP_REC_PLACEMENT, key, r, 1), 0);
        free(key);
        mpp_run_free(&run);
        ck_assert_int_eq(mpp_dict_coalesce_runs(d), 0);
    }
    ck_assert_uint_eq(a.count, 1);
    mpp_dict_add(&a, MPP_REC_FACT, "papi\x1fPAPI 7", 0, 1);
    char *buf;
    size_t len;
    ck_assert_int_eq(mpp_dict_serialize(&b, &buf, &len), 0);
    ck_assert_int_eq(mpp_dict_merge_serialized(&a, buf, len), 0);
    free(buf);
    ck_assert_int_eq(mpp_dict_coalesce_runs(&a), 0);
    int runs = 0;
    for (size_t i = 0; i < a.count; i++)
        runs += a.records[i].kind == MPP_REC_PLACEMENT;
    ck_assert_int_eq(runs, 2);
    ck_assert_int_ge(mpp_dict_find(&a, MPP_REC_FACT, "papi\x1fPAPI 7"), 0); /* other records kept */
    mpp_run_t r;
    ck_assert_int_eq(mpp_run_parse(a.records[mpp_dict_find(&a, MPP_REC_PLACEMENT,
                                                           "node02\x1f"
                                                           "32\x1f"
                                                           "1\x1f"
                                                           "32\x1f"
                                                           "1\x1f"
                                                           "0")]
                                       .key,
                                   &r),
                     0);
    expect_run(&r, "node02", 32, 1, 32, "0", 1);
    mpp_run_free(&r);
    mpp_dict_free(&a);
    mpp_dict_free(&b);
}
END_TEST

/* --- node types and host lists --- */

START_TEST(test_machine_node_type_text)
{
    char *key = smt_node_key();
    mpp_node_type_t t;
    ck_assert_int_eq(mpp_node_type_parse(key, &t), 0);
    ck_assert_str_eq(t.model, "Test CPU 9000");
    ck_assert_int_eq(t.cores, 4);
    ck_assert_int_eq(t.pus, 8);
    ck_assert_str_eq(t.core_map, "0,4;1,5;2,6;3,7");
    char *text = mpp_node_type_text(&t);
    ck_assert_str_eq(text, "Test CPU 9000, 1 package, 4 cores, 8 hardware threads, 1 NUMA node, 16 GiB memory, "
                           "L1d 4x32 KiB, L2 4x1 MiB, L3 1x8 MiB");
    free(text);
    t.memory = 4790489088ULL; /* not a whole number of GiB */
    t.packages = 2;
    t.numa = 2;
    text = mpp_node_type_text(&t);
    ck_assert_ptr_nonnull(strstr(text, ", 2 packages, "));
    ck_assert_ptr_nonnull(strstr(text, ", 2 NUMA nodes, 4.46 GiB memory"));
    free(text);
    char h1[17], h2[17];
    mpp_node_type_hash(key, h1);
    mpp_node_type_hash(key, h2);
    ck_assert_str_eq(h1, h2);
    ck_assert_uint_eq(strlen(h1), 16);
    mpp_node_type_free(&t);
    free(key);
}
END_TEST

START_TEST(test_machine_hostlist)
{
    char *names[] = {"node01", "node02", "node03", "node07", "login", "node05x", "cn9", "cn10"};
    char *text = mpp_hostlist_format(names, 8);
    ck_assert_str_eq(text, "node[01-03,07],login,node05x,cn9,cn10");
    free(text);
    char *one[] = {"vm"};
    text = mpp_hostlist_format(one, 1);
    ck_assert_str_eq(text, "vm");
    free(text);
    char *two[] = {"hostB", "hostA"};
    text = mpp_hostlist_format(two, 2);
    ck_assert_str_eq(text, "hostB,hostA");
    free(text);
}
END_TEST

/* --- the summary --- */

START_TEST(test_machine_summary_types_and_hosts)
{
    /* three hosts, two node types; hosts come by lowest rank */
    char *types[2] = {smt_node_key(), small_node_key()};
    mpp_machine_host_t hosts[3] = {
        {"node01", 0, 4, 0, "0-7"}, {"small1", 4, 2, 1, "0-1"}, {"node02", 6, 4, 0, "0-7"}};
    static const char *items[] = {"node01:0:0",   "node01:1:1",   "node01:2:2",   "node01:3:3",   "small1:4:0-1",
                                  "small1:5:0-1", "node02:6:0,4", "node02:7:1,5", "node02:8:2,6", "node02:9:3,7"};
    fixture_t f;
    build(&f, types, 2, hosts, 3, items, 10);
    ck_assert_ptr_null(f.s.na_reason);
    ck_assert_int_eq(f.s.ntypes, 2);
    ck_assert_int_eq(f.s.types[0].nhosts, 2);
    ck_assert_str_eq(f.s.types[0].hosts_text, "node[01-02]");
    ck_assert_str_eq(f.s.types[1].hosts_text, "small1");
    ck_assert_ptr_nonnull(strstr(f.s.types[1].text, "Small CPU, 1 package, 2 cores"));
    ck_assert_int_eq(f.s.nhosts, 3);
    ck_assert_str_eq(f.s.hosts[0].text, "node01: ranks 0-3 bound to PU 0-3");
    ck_assert_str_eq(f.s.hosts[1].text, "small1: ranks 4-5 unbound");
    ck_assert_int_eq(f.s.hosts[1].runs[0].bound, 0);
    ck_assert_str_eq(f.s.hosts[2].text, "node02: ranks 6-9 bound to PU sets {0,4}, {1,5}, {2,6}, {3,7}");
    expect_no_warning(&f.s); /* small1: 2 unbound ranks on 2 cores is not oversubscribed */
    release(&f);
    free(types[0]), free(types[1]);
}
END_TEST

START_TEST(test_machine_summary_long_runs)
{
    char *types[1] = {smt_node_key()};
    mpp_machine_host_t hosts[1] = {{"big", 0, 8, 0, NULL}}; /* allowed unknown: every PU of the node */
    static const char *items[] = {"big:0:0", "big:2:1", "big:4:2", "big:6:3", "big:8:4", "big:10:5"};
    fixture_t f;
    build(&f, types, 1, hosts, 1, items, 6);
    ck_assert_str_eq(f.s.hosts[0].text, "big: ranks 0,2,...,10 bound to PU 0-5");
    release(&f);
    static const char *socket[] = {"big:0:0-7", "big:1:0-7", "big:2:0-3", "big:3:0-3"};
    build(&f, types, 1, hosts, 1, socket, 4);
    ck_assert_str_eq(f.s.hosts[0].text, "big: ranks 0-1 unbound; ranks 2-3 each bound to PU 0-3");
    release(&f);
    free(types[0]);
}
END_TEST

START_TEST(test_machine_summary_shared_cores)
{
    char *types[1] = {smt_node_key()};
    mpp_machine_host_t hosts[1] = {{"n", 0, 4, 0, "0-7"}};
    /* ranks 0 and 1 on the two hardware threads of core 0; ranks 2 and 3 on
     * the same PU 2 */
    static const char *items[] = {"n:0:0", "n:1:4", "n:2:2", "n:3:2"};
    fixture_t f;
    build(&f, types, 1, hosts, 1, items, 4);
    ck_assert_int_eq(f.s.nwarnings, 2);
    ck_assert_msg(has_warning(&f.s, "n: ranks 0-1 share cores: 2 ranks bound to 1 core (PU 0,4)"), "%s",
                  f.s.warnings[0]);
    ck_assert_msg(has_warning(&f.s, "n: ranks 2-3 share cores: 2 ranks bound to 1 core (PU 2)"), "%s",
                  f.s.warnings[1]);
    release(&f);
    /* bind-to socket style: 4 ranks on one 4-core set is no sharing */
    static const char *fine[] = {"n:0:0-3", "n:1:0-3", "n:2:0-3", "n:3:0-3"};
    build(&f, types, 1, hosts, 1, fine, 4);
    expect_no_warning(&f.s);
    ck_assert_str_eq(f.s.hosts[0].text, "n: ranks 0-3 each bound to PU 0-3");
    release(&f);
    /* 6 ranks on that set of 4 cores (PU 0-3 and their siblings 4-7 are the same cores) */
    static const char *over[] = {"n:0:0-3", "n:1:0-3", "n:2:0-3", "n:3:0-3", "n:4:4-7", "n:5:4-7"};
    mpp_machine_host_t six[1] = {{"n", 0, 6, 0, "0-7"}};
    build(&f, types, 1, six, 1, over, 6);
    ck_assert_int_eq(f.s.nwarnings, 1);
    ck_assert_str_eq(f.s.warnings[0], "n: ranks 0-5 share cores: 6 ranks bound to 4 cores (PU 0-7)");
    release(&f);
    free(types[0]);
}
END_TEST

START_TEST(test_machine_summary_oversubscribed)
{
    char *types[1] = {small_node_key()};
    mpp_machine_host_t hosts[1] = {{"vm", 0, 3, 0, "0-1"}};
    static const char *items[] = {"vm:0:0-1", "vm:1:0-1", "vm:2:0-1"};
    fixture_t f;
    build(&f, types, 1, hosts, 1, items, 3);
    ck_assert_str_eq(f.s.hosts[0].text, "vm: ranks 0-2 unbound");
    ck_assert_int_eq(f.s.nwarnings, 1);
    ck_assert_str_eq(f.s.warnings[0], "vm: 3 ranks on 2 cores and ranks 0-2 unbound: the node is oversubscribed, "
                                      "ranks compete for cores");
    release(&f);
    /* bound ranks, 3 on 2 cores: the sharing warning instead */
    static const char *bound[] = {"vm:0:0", "vm:1:1", "vm:2:0"};
    build(&f, types, 1, hosts, 1, bound, 3);
    ck_assert_int_eq(f.s.nwarnings, 1);
    ck_assert_str_eq(f.s.warnings[0], "vm: ranks 0,2 share cores: 2 ranks bound to 1 core (PU 0)");
    release(&f);
    free(types[0]);
}
END_TEST

/* The ranks' threads (the Threads parameter's, summed per host) count:
 * 2 unbound ranks of 2 threads on 2 cores oversubscribe; bound each to a
 * core of its own, each rank's threads share it; 1 thread each: neither. */
START_TEST(test_machine_summary_threads)
{
    char *types[1] = {small_node_key()};
    mpp_machine_host_t hosts[1] = {{"vm", 0, 2, 0, "0-1", 4}};
    static const char *unbound[] = {"vm:0:0-1", "vm:1:0-1"};
    fixture_t f;
    build(&f, types, 1, hosts, 1, unbound, 2);
    ck_assert_int_eq(f.s.nwarnings, 1);
    ck_assert_str_eq(f.s.warnings[0], "vm: 2 processes x 2 threads on 2 cores and ranks 0-1 unbound: the node is "
                                      "oversubscribed, threads compete for cores");
    release(&f);
    static const char *bound[] = {"vm:0:0", "vm:1:1"};
    build(&f, types, 1, hosts, 1, bound, 2);
    ck_assert_int_eq(f.s.nwarnings, 2);
    ck_assert_str_eq(f.s.warnings[0],
                     "vm: rank 0: 1 process x 2 threads bound to 1 core (PU 0): threads compete for cores");
    ck_assert_str_eq(f.s.warnings[1],
                     "vm: rank 1: 1 process x 2 threads bound to 1 core (PU 1): threads compete for cores");
    release(&f);
    hosts[0].threads = 3; /* uneven: 5 threads on 2 cores, unbound ranks */
    build(&f, types, 1, hosts, 1, unbound, 2);
    ck_assert_int_eq(f.s.nwarnings, 1);
    ck_assert_str_eq(f.s.warnings[0], "vm: 2 processes with 3 threads on 2 cores and ranks 0-1 unbound: the node is "
                                      "oversubscribed, threads compete for cores");
    release(&f);
    hosts[0].threads = 2; /* one thread each */
    build(&f, types, 1, hosts, 1, unbound, 2);
    expect_no_warning(&f.s);
    release(&f);
    build(&f, types, 1, hosts, 1, bound, 2);
    expect_no_warning(&f.s);
    release(&f);
    free(types[0]);
}
END_TEST

START_TEST(test_machine_summary_not_available)
{
    mpp_machine_summary_t s;
    ck_assert_int_eq(mpp_machine_summarize(NULL, &s), 0);
    ck_assert_str_eq(s.na_reason, "topology and placement were not collected");
    mpp_machine_summary_free(&s);
    mpp_machine_data_t d = {0};
    d.na_reason = (char *)"mpiprof was built without hwloc";
    ck_assert_int_eq(mpp_machine_summarize(&d, &s), 0);
    ck_assert_str_eq(s.na_reason, "mpiprof was built without hwloc");
    ck_assert_int_eq(s.ntypes, 0);
    ck_assert_int_eq(s.nhosts, 0);
    mpp_machine_summary_free(&s);
}
END_TEST

START_TEST(test_machine_bad_args)
{
    int *ids;
    static const char *bad[] = {"a", "3-1", "1,,2", "-1", "1-", "1 2", "99999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_msg(mpp_idlist_parse(bad[i], &ids) == -1, "'%s' accepted", bad[i]);
        ck_assert_ptr_null(ids);
    }
    ck_assert_int_eq(mpp_idlist_parse(NULL, &ids), -1);
    mpp_run_t r;
    ck_assert_int_eq(mpp_run_parse("host\x1f"
                                   "0\x1f"
                                   "1",
                                   &r),
                     -1);
    ck_assert_int_eq(mpp_run_parse("host\x1fx\x1f"
                                   "1\x1f"
                                   "1\x1f"
                                   "0\x1f"
                                   "0",
                                   &r),
                     -1);
    ck_assert_int_eq(mpp_run_parse("host\x1f"
                                   "0\x1f"
                                   "1\x1f"
                                   "0\x1f"
                                   "0\x1f"
                                   "0",
                                   &r),
                     -1); /* count 0 */
    ck_assert_int_eq(mpp_run_parse("host\x1f"
                                   "0\x1f"
                                   "1\x1f"
                                   "2\x1f"
                                   "0\x1f"
                                   "0\x1f"
                                   "extra",
                                   &r),
                     -1);
    mpp_node_type_t t;
    ck_assert_int_eq(mpp_node_type_parse("cpu\x1f"
                                         "1",
                                         &t),
                     -1);
    ck_assert_ptr_null(t.model);
    /* a host with no run, an unreadable node type and a malformed run key */
    char *types[1] = {(char *)"garbage"};
    mpp_machine_host_t hosts[1] = {{(char *)"h", 0, 2, 0, NULL}};
    char *runs[1] = {(char *)"not a run"};
    mpp_machine_data_t d = {NULL, types, 1, hosts, 1, runs, 1};
    mpp_machine_summary_t s;
    ck_assert_int_eq(mpp_machine_summarize(&d, &s), 0);
    ck_assert_str_eq(s.types[0].text, "unreadable node description");
    ck_assert_str_eq(s.hosts[0].text, "h: 2 ranks, binding unknown");
    mpp_machine_summary_free(&s);
    ck_assert_int_eq(mpp_runs_coalesce(NULL, 0), 0);
}
END_TEST

Suite *machine_suite(void)
{
    Suite *s = suite_create("machine");
    TCase *tc = tcase_create("idlist");
    tcase_add_checked_fixture(tc, unit_reset_warnings, NULL);
    tcase_add_test(tc, test_machine_idlist_roundtrip);
    suite_add_tcase(s, tc);

    tc = tcase_create("runs");
    tcase_add_checked_fixture(tc, unit_reset_warnings, NULL);
    tcase_add_test(tc, test_machine_runs_block_bind_to_core);
    tcase_add_test(tc, test_machine_runs_cyclic_two_hosts);
    tcase_add_test(tc, test_machine_runs_socket_and_irregular);
    tcase_add_test(tc, test_machine_runs_in_dictionary);
    suite_add_tcase(s, tc);

    tc = tcase_create("node_types");
    tcase_add_test(tc, test_machine_node_type_text);
    tcase_add_test(tc, test_machine_hostlist);
    suite_add_tcase(s, tc);

    tc = tcase_create("summary");
    tcase_add_test(tc, test_machine_summary_types_and_hosts);
    tcase_add_test(tc, test_machine_summary_long_runs);
    tcase_add_test(tc, test_machine_summary_shared_cores);
    tcase_add_test(tc, test_machine_summary_oversubscribed);
    tcase_add_test(tc, test_machine_summary_threads);
    tcase_add_test(tc, test_machine_summary_not_available);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_test(tc, test_machine_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
