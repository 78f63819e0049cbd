/* Hardware counters after PAPI: the per-process rows the reduction builds
 * (src/analyze/counter_stats.c), their reduction (sum, min and max with the
 * rank: simulated here the way MPI_SUM, MPI_MINLOC and MPI_MAXLOC combine
 * them), the derived rates, and how the writers render counters, Machine
 * and Placement (text and JSON saying the same).  Hand-made data, no PAPI,
 * no MPI. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/characteristics.h"
#include "analyze/counter_stats.h"
#include "context/config.h"
#include "suites.h"
#include "write/writer.h"

#define TOL 1e-9
#define NPROC 3
#define NEV 3

/* --- three processes ---
 * global events: PAPI_TOT_INS, PAPI_TOT_CYC, sde:::lib::WORK
 * rank 0: asked CYC, INS, WORK (another order), split on, exec 2 s
 * rank 1: INS, CYC only (no WORK), split on, exec 1 s
 * rank 2: INS, CYC, WORK, split off, exec 4 s */
static char *global_names[NEV] = {"PAPI_TOT_INS", "PAPI_TOT_CYC", "sde:::lib::WORK"};
static const int local_n[NPROC] = {3, 2, 3};
static const int local_map[NPROC][NEV] = {{1, 0, 2}, {0, 1, -1}, {0, 1, 2}};
static const double exec_time[NPROC] = {2.0, 1.0, 4.0};
static double local_values[NPROC][NEV * MPP_HW_NV];

static mpp_rate_use_t uses[16];
static int nuses;
static int width;
static mpp_stat_t stats[NEV * MPP_HW_NV + 16];
static double rows[NPROC][NEV * MPP_HW_NV + 16];

static void set3(double *v, double total, double inside)
{
    v[MPP_HW_TOTAL] = total;
    v[MPP_HW_INSIDE] = inside;
    v[MPP_HW_OUTSIDE] = isnan(inside) ? NAN : total - inside;
}

/* MPI_SUM of the values and of the presence, MPI_MINLOC and MPI_MAXLOC
 * (lowest rank on ties), as reduce.c asks MPI to do. */
static void reduce_rows(void)
{
    for (int k = 0; k < width; k++) {
        mpp_stat_t s = {0, INFINITY, -INFINITY, 0, 0, 0};
        for (int p = 0; p < NPROC; p++) {
            double v = rows[p][k];
            if (isnan(v))
                continue;
            s.sum += v;
            s.count++;
            if (v < s.min)
                s.min = v, s.min_rank = p;
            if (v > s.max)
                s.max = v, s.max_rank = p;
        }
        stats[k] = s;
    }
}

static void setup_counters(void)
{
    unit_reset_warnings();
    set3(&local_values[0][0 * MPP_HW_NV], 1000, 200);  /* CYC */
    set3(&local_values[0][1 * MPP_HW_NV], 2000, 500);  /* INS */
    set3(&local_values[0][2 * MPP_HW_NV], 50, 0);      /* WORK */
    set3(&local_values[1][0 * MPP_HW_NV], 3000, 1000); /* INS */
    set3(&local_values[1][1 * MPP_HW_NV], 1000, 400);  /* CYC */
    set3(&local_values[2][0 * MPP_HW_NV], 1000, NAN);  /* INS */
    set3(&local_values[2][1 * MPP_HW_NV], 2000, NAN);  /* CYC */
    set3(&local_values[2][2 * MPP_HW_NV], 70, NAN);    /* WORK */
    nuses = mpp_counter_rates_select(global_names, NEV, uses);
    width = NEV * MPP_HW_NV + nuses;
    for (int p = 0; p < NPROC; p++)
        mpp_counter_row(local_values[p], local_map[p], local_n[p], NEV, uses, nuses, exec_time[p], rows[p]);
    reduce_rows();
}

static const mpp_stat_t *stat_of(int event, int v) { return &stats[event * MPP_HW_NV + v]; }

static void expect_stat(const mpp_stat_t *s, double sum, double min, int min_rank, double max, int max_rank,
                        int count)
{
    ck_assert_int_eq(s->count, count);
    ck_assert_double_eq_tol(s->sum, sum, TOL);
    ck_assert_double_eq_tol(s->min, min, TOL);
    ck_assert_int_eq(s->min_rank, min_rank);
    ck_assert_double_eq_tol(s->max, max, TOL);
    ck_assert_int_eq(s->max_rank, max_rank);
}

/* --- rates --- */

START_TEST(test_counter_stats_rates_select)
{
    ck_assert_int_eq(nuses, 2);
    ck_assert_str_eq(mpp_counter_rates[uses[0].rate].json_key, "ipc");
    ck_assert_int_eq(uses[0].numerator, 0);
    ck_assert_int_eq(uses[0].denominator, 1);
    ck_assert_str_eq(mpp_counter_rates[uses[1].rate].json_key, "instructions_per_second");
    ck_assert_int_eq(uses[1].denominator, -1);
    char *f = mpp_counter_rate_formula(&uses[0], global_names);
    ck_assert_str_eq(f, "PAPI_TOT_INS / PAPI_TOT_CYC");
    free(f);
    f = mpp_counter_rate_formula(&uses[1], global_names);
    ck_assert_str_eq(f, "PAPI_TOT_INS / execution time");
    free(f);

    /* native perf names give IPC too; miss ratios need both of their events */
    char *perf[] = {"perf::CYCLES", "perf::INSTRUCTIONS", "PAPI_L1_DCM", "PAPI_FP_OPS"};
    mpp_rate_use_t u[16];
    int n = mpp_counter_rates_select(perf, 4, u);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(mpp_counter_rates[u[0].rate].json_key, "ipc");
    ck_assert_int_eq(u[0].numerator, 1);
    ck_assert_int_eq(u[0].denominator, 0);
    ck_assert_str_eq(mpp_counter_rates[u[1].rate].json_key, "flops");
    ck_assert_int_eq(u[1].numerator, 3);
    char *ratio[] = {"PAPI_L2_TCA", "PAPI_L2_TCM", "PAPI_BR_MSP", "PAPI_BR_INS"};
    n = mpp_counter_rates_select(ratio, 4, u);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(mpp_counter_rates[u[0].rate].json_key, "l2_miss_ratio");
    ck_assert_int_eq(u[0].numerator, 1);
    ck_assert_int_eq(u[0].denominator, 0);
    ck_assert_str_eq(mpp_counter_rates[u[1].rate].json_key, "branch_miss_ratio");
    char *none[] = {"sde:::lib::WORK"};
    ck_assert_int_eq(mpp_counter_rates_select(none, 1, u), 0);
}
END_TEST

/* --- rows and their reduction --- */

START_TEST(test_counter_stats_rows)
{
    /* rank 0's row is in global order whatever its own order was */
    ck_assert_double_eq(rows[0][0 * MPP_HW_NV + MPP_HW_TOTAL], 2000);
    ck_assert_double_eq(rows[0][1 * MPP_HW_NV + MPP_HW_TOTAL], 1000);
    ck_assert_double_eq(rows[0][2 * MPP_HW_NV + MPP_HW_OUTSIDE], 50);
    /* rank 1 has no WORK, rank 2 no split */
    ck_assert(isnan(rows[1][2 * MPP_HW_NV + MPP_HW_TOTAL]));
    ck_assert(isnan(rows[2][0 * MPP_HW_NV + MPP_HW_INSIDE]));
    /* rates per process: IPC and instructions per second */
    ck_assert_double_eq_tol(rows[0][NEV * MPP_HW_NV + 0], 2.0, TOL);
    ck_assert_double_eq_tol(rows[1][NEV * MPP_HW_NV + 0], 3.0, TOL);
    ck_assert_double_eq_tol(rows[2][NEV * MPP_HW_NV + 0], 0.5, TOL);
    ck_assert_double_eq_tol(rows[2][NEV * MPP_HW_NV + 1], 250.0, TOL);
    /* a process that did not enter the interval: NaN everywhere */
    double none[NEV * MPP_HW_NV + 16];
    double nan3[NEV * MPP_HW_NV];
    for (int k = 0; k < NEV * MPP_HW_NV; k++)
        nan3[k] = NAN;
    mpp_counter_row(nan3, local_map[2], 3, NEV, uses, nuses, NAN, none);
    for (int k = 0; k < width; k++)
        ck_assert(isnan(none[k]));
    /* zero cycles: no IPC (not infinity); zero time: no per-second rate */
    double zero[NEV * MPP_HW_NV];
    set3(&zero[0], 10, NAN), set3(&zero[MPP_HW_NV], 0, NAN), set3(&zero[2 * MPP_HW_NV], 0, NAN);
    mpp_counter_row(zero, local_map[2], 3, NEV, uses, nuses, 0.0, none);
    ck_assert(isnan(none[NEV * MPP_HW_NV + 0]));
    ck_assert(isnan(none[NEV * MPP_HW_NV + 1]));
}
END_TEST

START_TEST(test_counter_stats_reduction)
{
    /* PAPI_TOT_INS: 2000, 3000, 1000 */
    expect_stat(stat_of(0, MPP_HW_TOTAL), 6000, 1000, 2, 3000, 1, 3);
    expect_stat(stat_of(0, MPP_HW_INSIDE), 1500, 500, 0, 1000, 1, 2);
    expect_stat(stat_of(0, MPP_HW_OUTSIDE), 3500, 1500, 0, 2000, 1, 2);
    /* PAPI_TOT_CYC: 1000, 1000, 2000: the lowest rank has a tied minimum */
    expect_stat(stat_of(1, MPP_HW_TOTAL), 4000, 1000, 0, 2000, 2, 3);
    /* WORK counted on ranks 0 and 2 only */
    expect_stat(stat_of(2, MPP_HW_TOTAL), 120, 50, 0, 70, 2, 2);
    /* IPC per process 2, 3, 0.5; over all processes 6000 / 4000 */
    expect_stat(&stats[NEV * MPP_HW_NV + 0], 5.5, 0.5, 2, 3.0, 1, 3);
    ck_assert_double_eq_tol(mpp_counter_rate_overall(&uses[0], stats, 4.0), 1.5, TOL);
    /* instructions per second: 6000 over the interval's 4 s */
    ck_assert_double_eq_tol(mpp_counter_rate_overall(&uses[1], stats, 4.0), 1500.0, TOL);
    ck_assert(isnan(mpp_counter_rate_overall(&uses[1], stats, 0.0)));
    /* no cycles counted anywhere: no IPC */
    mpp_stat_t copy[NEV * MPP_HW_NV + 16];
    memcpy(copy, stats, sizeof copy);
    copy[1 * MPP_HW_NV + MPP_HW_TOTAL].count = 0;
    ck_assert(isnan(mpp_counter_rate_overall(&uses[0], copy, 4.0)));
}
END_TEST

/* --- rendering --- */

static mpp_run_info_t run;
static mpp_config_t cfg;
static mpp_reduced_t rd;
static mpp_reduced_interval_t iv;
static double iv_by[NPROC * MPP_NQ];
static double hw_by[NPROC * (NEV * MPP_HW_NV + 16)];
static int selected[NPROC] = {0, 1, 2};
static mpp_interval_result_t res;
static mpp_reduced_counters_t counters;
static mpp_reduced_event_t events[NEV];
static mpp_machine_summary_t machine;
static mpp_machine_data_t machine_data;
static mpp_machine_host_t machine_host;
static char *machine_types[1];
static char *machine_runs[2];
static mpp_report_t report;
static char *out_text;

static const char *null_getenv(const char *name)
{
    (void)name;
    return NULL;
}

static void setup_report(void)
{
    setup_counters();
    memset(&run, 0, sizeof run);
    strcpy(run.program, "./app");
    strcpy(run.cwd, "/tmp");
    strcpy(run.threads_level, "MPI_THREAD_SINGLE");
    strcpy(run.init_file, "app.c");
    run.nprocs = NPROC;
    mpp_config_parse(&cfg, null_getenv);

    memset(&iv, 0, sizeof iv);
    iv.name = (char *)"whole program";
    iv.parent = -1;
    iv.executions = 1;
    iv.processes = NPROC;
    for (int k = 0; k < MPP_NQ; k++)
        iv.q[k] = (mpp_stat_t){0, 0, 0, 0, 0, NPROC};
    iv.q[MPP_Q_EXEC] = (mpp_stat_t){7.0, 1.0, 4.0, 1, 2, NPROC};
    for (int k = 0; k < NPROC * MPP_NQ; k++)
        iv_by[k] = 0;
    iv.by_process = iv_by;
    iv.hw = stats;
    for (int p = 0; p < NPROC; p++)
        memcpy(hw_by + (size_t)p * width, rows[p], (size_t)width * sizeof(double));
    iv.hw_by_process = hw_by;

    memset(&counters, 0, sizeof counters);
    static const char *components[NEV] = {"perf_event", "perf_event", "sde"};
    static const int procs[NEV] = {3, 3, 2};
    for (int e = 0; e < NEV; e++)
        events[e] = (mpp_reduced_event_t){global_names[e], (char *)components[e], procs[e]};
    counters.library = (char *)"PAPI 7.0.0.0";
    counters.events = events;
    counters.nevents = NEV;
    counters.rates = uses;
    counters.nrates = nuses;
    counters.split = 1;

    memset(&rd, 0, sizeof rd);
    rd.nprocs = NPROC;
    rd.nnodes = 1;
    rd.nselected = NPROC;
    rd.selected = selected;
    rd.intervals = &iv;
    rd.nintervals = 1;
    rd.counters = &counters;
    memset(&res, 0, sizeof res);
    ck_assert_int_eq(mpp_characteristics(&iv, NPROC, &res), 0);

    /* Machine: one small node, ranks 0-1 bound to PU 0-1, rank 2 unbound */
    mpp_node_type_t t = {0};
    t.model = (char *)"Small CPU";
    t.packages = 1, t.cores = 2, t.pus = 2, t.numa = 1, t.memory = 1ULL << 30;
    t.core_map = (char *)"0;1";
    machine_types[0] = mpp_node_type_key(&t);
    machine_host = (mpp_machine_host_t){(char *)"node7", 0, 3, 0, (char *)"0-1"};
    machine_runs[0] = (char *)"node7\x1f"
                              "0\x1f"
                              "1\x1f"
                              "2\x1f"
                              "1\x1f"
                              "0";
    machine_runs[1] = (char *)"node7\x1f"
                              "2\x1f"
                              "0\x1f"
                              "1\x1f"
                              "0\x1f"
                              "0-1";
    machine_data = (mpp_machine_data_t){NULL, machine_types, 1, &machine_host, 1, machine_runs, 2};
    ck_assert_int_eq(mpp_machine_summarize(&machine_data, &machine), 0);

    memset(&report, 0, sizeof report);
    report.run = &run;
    report.config = &cfg;
    report.reduced = &rd;
    report.results = &res;
    report.machine = &machine;
    out_text = NULL;
}

static void teardown_report(void)
{
    free(res.by_process);
    res.by_process = NULL;
    mpp_machine_summary_free(&machine);
    free(machine_types[0]);
    free(out_text);
    out_text = NULL;
}

static const char *write_text(void)
{
    size_t len;
    free(out_text);
    FILE *f = open_memstream(&out_text, &len);
    mpp_write_text(f, &report);
    fclose(f);
    return out_text;
}

static json_t *write_json(void)
{
    size_t len;
    free(out_text);
    FILE *f = open_memstream(&out_text, &len);
    ck_assert_int_eq(mpp_write_json(f, &report), 0);
    fclose(f);
    json_error_t error;
    json_t *doc = json_loadb(out_text, len, 0, &error);
    ck_assert_msg(doc != NULL, "JSON protocol does not parse: %s", error.text);
    return doc;
}

static void expect_text(const char *text, const char *line)
{
    ck_assert_msg(strstr(text, line) != NULL, "the text protocol lacks the line\n%s\n----\n%s", line, text);
}

static json_t *at(json_t *root, const char *path)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", path);
    json_t *v = root;
    for (char *save = NULL, *tok = strtok_r(copy, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
        char *end;
        long i = strtol(tok, &end, 10);
        v = *end ? json_object_get(v, tok) : json_array_get(v, (size_t)i);
        ck_assert_msg(v != NULL, "JSON has no %s (at %s)", path, tok);
    }
    return v;
}

static void expect_json_number(json_t *root, const char *path, double expected)
{
    json_t *v = at(root, path);
    ck_assert_msg(json_is_number(v), "%s is not a number", path);
    ck_assert_msg(fabs(json_number_value(v) - expected) < 1e-6, "%s = %g, expected %g", path, json_number_value(v),
                  expected);
}

static void expect_json_string(json_t *root, const char *path, const char *expected)
{
    json_t *v = at(root, path);
    ck_assert_msg(json_is_string(v), "%s is not a string", path);
    ck_assert_str_eq(json_string_value(v), expected);
}

START_TEST(test_counter_stats_text)
{
    const char *t = write_text();
    expect_text(t, "\nHardware counters     : PAPI 7.0.0.0, 3 events, inside/outside-MPI split on, not multiplexed\n"
                   "   PAPI_TOT_INS (component perf_event, counted on 3 of 3 processes)\n"
                   "   PAPI_TOT_CYC (component perf_event, counted on 3 of 3 processes)\n"
                   "   sde:::lib::WORK (component sde, counted on 2 of 3 processes)\n"
                   "   derived: IPC (instructions per cycle) = PAPI_TOT_INS / PAPI_TOT_CYC\n"
                   "   derived: Instructions per second = PAPI_TOT_INS / execution time\n");
    expect_text(t, "\n--- Characteristics by process (predicted) ---\nn/a (see Warnings)\n--- Hardware counters ---\n"
                   "PAPI_TOT_INS  (component perf_event)\n"
                   "   total           sum=6000  min=1000 (rank 2)  max=3000 (rank 1)  mean=2000.0\n"
                   "   inside MPI      sum=1500  min=500 (rank 0)  max=1000 (rank 1)  mean=750.0\n"
                   "   outside MPI     sum=3500  min=1500 (rank 0)  max=2000 (rank 1)  mean=1750.0\n"
                   "   by process      0: 2000 (in 500, out 1500)  1: 3000 (in 1000, out 2000)  2: 1000\n"
                   "PAPI_TOT_CYC  (component perf_event)\n");
    expect_text(t, "\nsde:::lib::WORK  (component sde)\n"
                   "   total           sum=120  min=50 (rank 0)  max=70 (rank 2)  mean=60.0\n"
                   "   inside MPI      sum=0  min=0 (rank 0)  max=0 (rank 0)  mean=0.0\n"
                   "   outside MPI     sum=50  min=50 (rank 0)  max=50 (rank 0)  mean=50.0\n"
                   "   by process      0: 50 (in 0, out 50)  1: -  2: 70\n"
                   "IPC (instructions per cycle) = PAPI_TOT_INS / PAPI_TOT_CYC\n"
                   "   value           1.5  min=0.5 (rank 2)  max=3 (rank 1)  mean=1.83333\n"
                   "   by process      0: 2  1: 3  2: 0.5\n"
                   "Instructions per second = PAPI_TOT_INS / execution time\n"
                   "   value           1500  min=250 (rank 2)  max=3000 (rank 1)  mean=1416.67\n"
                   "   by process      0: 1000  1: 3000  2: 250\n"
                   "--- I/O ---\n");
    expect_text(t, "\nMachine               : 1 node type\n"
                   "   Small CPU, 1 package, 2 cores, 2 hardware threads, 1 NUMA node, 1 GiB memory; host node7\n"
                   "Placement             : 1 host\n"
                   "   node7: ranks 0-1 bound to PU 0-1; rank 2 unbound\n"
                   "   warning: node7: 3 ranks on 2 cores and rank 2 unbound: the node is oversubscribed, ranks "
                   "compete for cores\n"
                   "Hardware counters     :");
}
END_TEST

START_TEST(test_counter_stats_json)
{
    json_t *doc = write_json();
    expect_json_string(doc, "parameters.hardware_counters.library", "PAPI 7.0.0.0");
    ck_assert(json_is_true(at(doc, "parameters.hardware_counters.split_mpi")));
    expect_json_string(doc, "parameters.hardware_counters.events.2.component", "sde");
    expect_json_number(doc, "parameters.hardware_counters.events.2.processes", 2);
    expect_json_string(doc, "parameters.hardware_counters.derived.0.key", "ipc");
    expect_json_string(doc, "parameters.hardware_counters.derived.0.formula", "PAPI_TOT_INS / PAPI_TOT_CYC");
    ck_assert(json_is_null(at(doc, "parameters.hardware_counters.none_reason")));
    const char *ev = "intervals.0.hardware_counters.events.0";
    char path[128];
    static const struct {
        const char *key;
        double value;
    } ins[] = {{"total.sum", 6000},
               {"total.min", 1000},
               {"total.min_rank", 2},
               {"total.max", 3000},
               {"total.max_rank", 1},
               {"total.mean", 2000},
               {"inside_mpi.sum", 1500},
               {"outside_mpi.max", 2000},
               {"by_process.total.1", 3000},
               {"by_process.inside_mpi.0", 500},
               {"by_process.outside_mpi.1", 2000}};
    for (size_t i = 0; i < sizeof ins / sizeof *ins; i++) {
        snprintf(path, sizeof path, "%s.%s", ev, ins[i].key);
        expect_json_number(doc, path, ins[i].value);
    }
    ck_assert(json_is_null(at(doc, "intervals.0.hardware_counters.events.0.by_process.inside_mpi.2")));
    ck_assert(json_is_null(at(doc, "intervals.0.hardware_counters.events.2.by_process.total.1")));
    expect_json_number(doc, "intervals.0.hardware_counters.derived.0.value", 1.5);
    expect_json_number(doc, "intervals.0.hardware_counters.derived.0.min", 0.5);
    expect_json_number(doc, "intervals.0.hardware_counters.derived.0.min_rank", 2);
    expect_json_number(doc, "intervals.0.hardware_counters.derived.0.by_process.values.1", 3);
    expect_json_number(doc, "intervals.0.hardware_counters.derived.1.value", 1500);
    /* Machine and Placement */
    expect_json_string(doc, "parameters.machine.0.cpu_model", "Small CPU");
    expect_json_number(doc, "parameters.machine.0.cores", 2);
    expect_json_string(doc, "parameters.machine.0.hosts.0", "node7");
    ck_assert(json_is_null(at(doc, "parameters.machine.0.caches.l3")));
    expect_json_string(doc, "parameters.placement.hosts.0.text", "node7: ranks 0-1 bound to PU 0-1; rank 2 unbound");
    ck_assert(json_is_false(at(doc, "parameters.placement.hosts.0.runs.1.bound")));
    expect_json_number(doc, "parameters.placement.hosts.0.runs.0.pu_step", 1);
    ck_assert_uint_eq(json_array_size(at(doc, "parameters.placement.warnings")), 1);
    json_decref(doc);
}
END_TEST

START_TEST(test_counter_stats_none_counted)
{
    counters.nevents = 0;
    counters.nrates = 0;
    counters.none_reason = (char *)"no event of MPIPROF_PAPI_EVENTS=PAPI_TOT_INS can be counted here, see Warnings";
    iv.hw = NULL;
    iv.hw_by_process = NULL;
    const char *t = write_text();
    expect_text(t,
                "\nHardware counters     : none counted (PAPI 7.0.0.0: no event of MPIPROF_PAPI_EVENTS=PAPI_TOT_INS "
                "can be counted here, see Warnings)\nClock ");
    expect_text(t, "\n--- Hardware counters ---\nnone counted (see Hardware counters in the Parameters)\n"
                   "--- I/O ---\n");
    json_t *doc = write_json();
    ck_assert(json_is_null(at(doc, "intervals.0.hardware_counters")));
    ck_assert_uint_eq(json_array_size(at(doc, "parameters.hardware_counters.events")), 0);
    ck_assert_str_eq(json_string_value(at(doc, "parameters.hardware_counters.none_reason")), counters.none_reason);
    json_decref(doc);
}
END_TEST

START_TEST(test_counter_stats_not_available)
{
    /* built without PAPI and without hwloc: n/a lines, null in the JSON */
    counters.na_reason = (char *)"mpiprof was built without PAPI";
    mpp_machine_summary_free(&machine);
    machine_data.na_reason = (char *)"mpiprof was built without hwloc";
    ck_assert_int_eq(mpp_machine_summarize(&machine_data, &machine), 0);
    const char *t = write_text();
    expect_text(t, "\nMachine               : n/a (mpiprof was built without hwloc)\n"
                   "Placement             : n/a (mpiprof was built without hwloc)\n"
                   "Hardware counters     : n/a (mpiprof was built without PAPI)\n");
    expect_text(t, "\n--- Hardware counters ---\nn/a (see Hardware counters in the Parameters)\n");
    json_t *doc = write_json();
    ck_assert(json_is_null(at(doc, "parameters.machine")));
    ck_assert(json_is_null(at(doc, "parameters.placement")));
    ck_assert(json_is_null(at(doc, "parameters.hardware_counters")));
    ck_assert(json_is_null(at(doc, "intervals.0.hardware_counters")));
    json_decref(doc);
    /* nothing collected at all (a report made without the context) */
    rd.counters = NULL;
    report.machine = NULL;
    t = write_text();
    expect_text(t, "\nMachine               : n/a (topology and placement were not collected)\n");
    expect_text(t, "\nHardware counters     : n/a (hardware counters were not collected)\n");
    machine_data.na_reason = NULL;
}
END_TEST

START_TEST(test_counter_stats_bad_args)
{
    /* an event list with no event and no rates; rows of width 0 */
    mpp_rate_use_t u[16];
    ck_assert_int_eq(mpp_counter_rates_select(NULL, 0, u), 0);
    double row[1] = {42};
    mpp_counter_row(NULL, NULL, 0, 0, u, 0, 1.0, row);
    ck_assert_double_eq(row[0], 42); /* untouched */
    /* a map pointing outside the global list is ignored */
    double v[MPP_HW_NV] = {5, 1, 4};
    int map[1] = {7};
    double out[MPP_HW_NV];
    mpp_counter_row(v, map, 1, 1, u, 0, 1.0, out);
    ck_assert(isnan(out[MPP_HW_TOTAL]));
}
END_TEST

Suite *counter_stats_suite(void)
{
    Suite *s = suite_create("counter_stats");
    TCase *tc = tcase_create("rates");
    tcase_add_checked_fixture(tc, setup_counters, NULL);
    tcase_add_test(tc, test_counter_stats_rates_select);
    suite_add_tcase(s, tc);

    tc = tcase_create("reduction");
    tcase_add_checked_fixture(tc, setup_counters, NULL);
    tcase_add_test(tc, test_counter_stats_rows);
    tcase_add_test(tc, test_counter_stats_reduction);
    suite_add_tcase(s, tc);

    tc = tcase_create("rendering");
    tcase_add_checked_fixture(tc, setup_report, teardown_report);
    tcase_add_test(tc, test_counter_stats_text);
    tcase_add_test(tc, test_counter_stats_json);
    tcase_add_test(tc, test_counter_stats_none_counted);
    tcase_add_test(tc, test_counter_stats_not_available);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, unit_reset_warnings, NULL);
    tcase_add_test(tc, test_counter_stats_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
