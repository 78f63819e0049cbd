/* What partial protocols say (partial.c) and their process data, written
 * and read back (process_data.c): every number of the profile must come
 * back as it was, from the JSON and from the text protocol's lines. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "suites.h"
#include "util/srckey.h"
#include "write/partial.h"
#include "write/process_data.h"

static mpp_process_end_t end_of(int kind)
{
    mpp_process_end_t e;
    memset(&e, 0, sizeof e);
    e.rank = 3;
    e.kind = kind;
    e.call_seconds = NAN;
    return e;
}

START_TEST(test_partial_describe)
{
    char text[2048];
    mpp_process_end_t e = end_of(MPP_END_SIGNAL);
    e.signal = 15;
    snprintf(e.detail, sizeof e.detail, "SIGTERM (Terminated)");
    snprintf(e.mpi_call, sizeof e.mpi_call, "MPI_Recv");
    e.call_seconds = 1.5;
    e.src = 4;
    snprintf(e.site, sizeof e.site, "x.c:9 (main)");
    mpp_end_describe(&e, text, sizeof text);
    ck_assert_str_eq(text, "signal SIGTERM (Terminated) in MPI_Recv (for 1.500000 s) at SRC 4: x.c:9 (main)");
    e = end_of(MPP_END_SIGNAL);
    snprintf(e.detail, sizeof e.detail, "SIGSEGV (Segmentation fault, address 0x0)");
    snprintf(e.site, sizeof e.site, "x.c:3 (f)");
    mpp_end_describe(&e, text, sizeof text);
    ck_assert_str_eq(text, "signal SIGSEGV (Segmentation fault, address 0x0) outside MPI at x.c:3 (f)");
    e = end_of(MPP_END_ABORT);
    e.code = 7;
    snprintf(e.detail, sizeof e.detail, "MPI_COMM_WORLD");
    snprintf(e.mpi_call, sizeof e.mpi_call, "MPI_Abort");
    snprintf(e.site, sizeof e.site, "x.c:5 (main)");
    mpp_end_describe(&e, text, sizeof text);
    ck_assert_str_eq(text, "MPI_Abort(MPI_COMM_WORLD, 7) at x.c:5 (main)");
    e = end_of(MPP_END_EXIT);
    e.code = 3;
    snprintf(e.site, sizeof e.site, "x.c:6 (main)");
    mpp_end_describe(&e, text, sizeof text);
    ck_assert_str_eq(text, "exit(3) without MPI_Finalize, called at x.c:6 (main)");
    e = end_of(MPP_END_RETURN);
    e.code = 4;
    mpp_end_describe(&e, text, sizeof text);
    ck_assert_str_eq(text, "return from main without MPI_Finalize (exit status 4)");
    /* cut, never overrun */
    mpp_end_describe(&e, text, 10);
    ck_assert_uint_eq(strlen(text), 9);
}
END_TEST

START_TEST(test_partial_rank_ranges)
{
    mpp_process_end_t ends[3] = {end_of(0), end_of(0), end_of(0)};
    ends[0].rank = 0, ends[1].rank = 1, ends[2].rank = 5;
    char *present = mpp_rank_ranges(ends, 3, 8, 0), *missing = mpp_rank_ranges(ends, 3, 8, 1);
    ck_assert_str_eq(present, "0-1,5");
    ck_assert_str_eq(missing, "2-4,6-7");
    free(present), free(missing);
    missing = mpp_rank_ranges(ends, 2, 2, 1);
    ck_assert_str_eq(missing, "");
    free(missing);
}
END_TEST

/* A profile of two intervals and one cell, every number distinct. */
typedef struct {
    mpp_interval_t info[2];
    mpp_local_interval_t intervals[2];
    mpp_local_cell_t cell;
    mpp_local_profile_t profile;
    mpp_run_info_t run;
    mpp_config_t config;
    mpp_process_end_t end;
    mpp_model_setup_t model;
    char key[64], src[96];
    double hw[2][MPP_HW_NV];
    char *events[1];
} sample_t;

static void sample(sample_t *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->key, sizeof s->key, "0%cloop%c/src/x.c%c10", MPP_RS, MPP_US, MPP_US);
    snprintf(s->src, sizeof s->src, "MPI_Send%c/src/x.c%c12%cmain%cx.c:12 (main)", MPP_RS, MPP_US, MPP_US, MPP_US);
    double v = 1.0;
    for (int i = 0; i < 2; i++) {
        mpp_local_interval_t *in = &s->intervals[i];
        in->key = i ? s->key : "0";
        in->info = &s->info[i];
        in->parent = i - 1;
        s->info[i].executions = (uint64_t)(i + 2);
        in->first_entry = v++, in->exec = v++, in->cpu = v++, in->sys = v++, in->seq = v++, in->overlap = v++;
        for (int k = 0; k < MPP_NCAT; k++)
            in->cat[k] = v++, in->pcat[k] = v++;
        for (int k = 0; k < MPP_HW_NV; k++)
            s->hw[i][k] = k == MPP_HW_OUTSIDE ? NAN : v++;
        in->hw = s->hw[i];
    }
    s->cell = (mpp_local_cell_t){.interval = 1,
                                 .src = s->src,
                                 .fid = 42,
                                 .calls = 1000000000007ull,
                                 .bytes_sent = 8,
                                 .bytes_recv = 9,
                                 .time = 0.25,
                                 .model = 0.125,
                                 .overlap = 0.0625,
                                 .predicted = 0.5};
    for (int k = 0; k < MPP_NCAT; k++)
        s->cell.cat[k] = 0.01 * (k + 1);
    s->events[0] = "PAPI_TOT_INS\x1f"
                   "cpu";
    s->profile = (mpp_local_profile_t){
        .intervals = s->intervals, .nintervals = 2, .cells = &s->cell, .ncells = 1, .predict = 1, .speed = 1.25};
    s->profile.context.events = s->events;
    s->profile.context.nevents = 1;
    s->profile.context.binding = "0-3";
    s->profile.context.node_type = "model\x1f"
                                   "1";
    s->profile.context.node_allowed = "0-7";
    snprintf(s->run.program, sizeof s->run.program, "./x a b");
    snprintf(s->run.started, sizeof s->run.started, "2026-01-02T03:04:05+0000");
    s->run.nprocs = 8;
    s->run.init_line = 33;
    mpp_config_parse(&s->config, NULL);
    s->end = end_of(MPP_END_EXIT);
    s->end.code = 3;
    s->model.enabled = 1;
    s->model.model.latency[0] = 1e-6;
    s->model.speed_max_rank = 5;
}

static void check_same(const sample_t *s, const mpp_parsed_process_t *p)
{
    const mpp_local_profile_t *a = &s->profile, *b = &p->profile;
    ck_assert_int_eq(p->rank, 3);
    ck_assert_str_eq(p->hostname, "h1");
    ck_assert_int_eq(b->nintervals, 2);
    ck_assert_int_eq(b->ncells, 1);
    ck_assert_int_eq(b->predict, 1);
    ck_assert_double_eq(b->speed, 1.25);
    for (int i = 0; i < 2; i++) {
        const mpp_local_interval_t *x = &a->intervals[i], *y = &b->intervals[i];
        ck_assert_str_eq(x->key, y->key);
        ck_assert_uint_eq(x->info->executions, y->info->executions);
        ck_assert_double_eq(x->first_entry, y->first_entry);
        ck_assert_double_eq(x->exec, y->exec);
        ck_assert_double_eq(x->cpu, y->cpu);
        ck_assert_double_eq(x->sys, y->sys);
        ck_assert_double_eq(x->seq, y->seq);
        ck_assert_double_eq(x->overlap, y->overlap);
        for (int k = 0; k < MPP_NCAT; k++) {
            ck_assert_double_eq(x->cat[k], y->cat[k]);
            ck_assert_double_eq(x->pcat[k], y->pcat[k]);
        }
        ck_assert_ptr_nonnull(y->hw);
        for (int k = 0; k < MPP_HW_NV; k++)
            ck_assert(isnan(x->hw[k]) ? isnan(y->hw[k]) : x->hw[k] == y->hw[k]);
    }
    const mpp_local_cell_t *x = &a->cells[0], *y = &b->cells[0];
    ck_assert_str_eq(x->src, y->src);
    ck_assert_int_eq(y->interval, 1);
    ck_assert_uint_eq(y->fid, 42);
    ck_assert_uint_eq(y->calls, 1000000000007ull);
    ck_assert_uint_eq(y->bytes_sent, 8);
    ck_assert_uint_eq(y->bytes_recv, 9);
    ck_assert_double_eq(x->time, y->time);
    ck_assert_double_eq(x->model, y->model);
    ck_assert_double_eq(x->overlap, y->overlap);
    ck_assert_double_eq(x->predicted, y->predicted);
    for (int k = 0; k < MPP_NCAT; k++)
        ck_assert_double_eq(x->cat[k], y->cat[k]);
    ck_assert_int_eq(b->context.nevents, 1);
    ck_assert_str_eq(b->context.events[0], s->events[0]);
    ck_assert_str_eq(b->context.binding, "0-3");
    ck_assert_str_eq(b->context.node_type, s->profile.context.node_type);
    ck_assert_str_eq(b->context.node_allowed, "0-7");
    ck_assert_int_eq(b->context.nwarnings, 1);
    ck_assert_str_eq(b->context.warnings[0], "w1");
    ck_assert_str_eq(p->run.program, "./x a b");
    ck_assert_str_eq(p->run.started, s->run.started);
    ck_assert_int_eq(p->run.nprocs, 8);
    ck_assert_int_eq(p->run.init_line, 33);
    ck_assert_int_eq(p->end.kind, MPP_END_EXIT);
    ck_assert_int_eq(p->end.code, 3);
    ck_assert_int_eq(p->end.rank, 3);
    ck_assert_int_eq(p->model.enabled, 1);
    ck_assert_double_eq(p->model.model.latency[0], 1e-6);
    ck_assert_int_eq(p->model.speed_max_rank, 5);
    ck_assert_str_eq(p->config.text[MPP_CFG_RANKS], s->config.text[MPP_CFG_RANKS]);
}

static json_t *sample_json(sample_t *s)
{
    static const char *const warnings[] = {"w1"};
    s->end.rank = 3;
    mpp_process_data_t pd = {3, "h1", &s->profile, warnings, 1, &s->run, &s->config, &s->end};
    /* through text and back, as the JSON protocol is written */
    json_t *o = mpp_process_data_json(&pd, &s->model);
    char *text = json_dumps(o, JSON_REAL_PRECISION(17));
    json_decref(o);
    o = json_loads(text, 0, NULL);
    free(text);
    return o;
}

START_TEST(test_partial_process_data_json)
{
    sample_t s;
    sample(&s);
    json_t *o = sample_json(&s);
    mpp_parsed_process_t p;
    char why[256];
    ck_assert_int_eq(mpp_process_data_parse(o, &p, why, sizeof why), 0);
    check_same(&s, &p);
    mpp_parsed_process_free(&p);
    json_decref(o);
}
END_TEST

/* The text protocol's section: the header, then one record per interval
 * and per cell. */
START_TEST(test_partial_process_data_lines)
{
    sample_t s;
    sample(&s);
    json_t *o = sample_json(&s);
    json_t *intervals = json_incref(json_object_get(o, "intervals")),
           *cells = json_incref(json_object_get(o, "cells"));
    json_object_del(o, "intervals");
    json_object_del(o, "cells");
    char *lines[4] = {json_dumps(o, JSON_REAL_PRECISION(17)),
                      json_dumps(json_array_get(intervals, 0), JSON_REAL_PRECISION(17)),
                      json_dumps(json_array_get(intervals, 1), JSON_REAL_PRECISION(17)),
                      json_dumps(json_array_get(cells, 0), JSON_REAL_PRECISION(17))};
    char why[256];
    json_t *back = mpp_process_data_from_lines(lines, 4, why, sizeof why);
    ck_assert_ptr_nonnull(back);
    mpp_parsed_process_t p;
    ck_assert_int_eq(mpp_process_data_parse(back, &p, why, sizeof why), 0);
    check_same(&s, &p);
    mpp_parsed_process_free(&p);
    for (int i = 0; i < 4; i++)
        free(lines[i]);
    json_decref(back), json_decref(o), json_decref(intervals), json_decref(cells);
}
END_TEST

START_TEST(test_partial_bad_args)
{
    char why[256] = "";
    mpp_parsed_process_t p;
    json_t *o = json_loads("{\"rank\": 1, \"intervals\": [], \"cells\": []}", 0, NULL);
    ck_assert_int_eq(mpp_process_data_parse(o, &p, why, sizeof why), -1);
    ck_assert(strstr(why, "lacks") != NULL);
    json_decref(o);
    sample_t s;
    sample(&s);
    o = sample_json(&s);
    json_object_set_new(o, "end", json_null()); /* how it ended is required */
    ck_assert_int_eq(mpp_process_data_parse(o, &p, why, sizeof why), -1);
    ck_assert(strstr(why, "ended") != NULL);
    mpp_parsed_process_free(&p);
    json_decref(o);
    char *broken[] = {"{\"rank\": 1", "{}"};
    ck_assert_ptr_null(mpp_process_data_from_lines(broken, 2, why, sizeof why));
    ck_assert(strstr(why, "line 1") != NULL);
    ck_assert_ptr_null(mpp_process_data_from_lines(broken, 0, why, sizeof why));
}
END_TEST

Suite *partial_suite(void)
{
    Suite *s = suite_create("partial");
    TCase *tc = tcase_create("describe");
    tcase_add_checked_fixture(tc, unit_reset_warnings, unit_reset_warnings);
    tcase_add_test(tc, test_partial_describe);
    tcase_add_test(tc, test_partial_rank_ranges);
    suite_add_tcase(s, tc);
    tc = tcase_create("process_data");
    tcase_add_checked_fixture(tc, unit_reset_warnings, unit_reset_warnings);
    tcase_add_test(tc, test_partial_process_data_json);
    tcase_add_test(tc, test_partial_process_data_lines);
    tcase_add_test(tc, test_partial_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
