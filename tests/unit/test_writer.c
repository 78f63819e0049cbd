/* The protocol writers (src/write/text.c, json.c) on the hand-made report
 * of writer_fixture.c: the text and JSON protocols, with and without the
 * communication model.  Output paths and files: test_writer_files.c. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer_fixture.h"

/* --- the text protocol --- */

START_TEST(test_writer_text_structure)
{
    const char *t = write_text();
    EXPECT_IN_ORDER(
        t, "mpiprof protocol\n", "\nParameters\n", "\nProgram ", "\nWorking directory ", "\nStarted ", "\nFinished ",
        "\nProtocol written ", "\nProcesses ", "\nNodes ", "\nThreads level ", "\nMPI library ", "\nMPI standard ",
        "\nProfiler ", "\nCollection mode ", "\nConfiguration ", "\nMachine ", "\nPlacement ", "\nHardware counters ",
        "\nClock ", "\nPrediction model ", "\nWarnings ",
        "\n==== Interval 0  \"whole program\"  file=main.c line=12  level=0  parent=none  "
        "executions=1 ====\n",
        "\n--- Main characteristics (real) ---\n", "\nParallelization efficiency ", "\nExecution time ",
        "\nProcessors ", "\nTotal time ", "\nProductive time ", "\nLost time ", "\n   Insufficient parallelism ",
        "\n   Communication ", "\n   Idle time ", "\nLoad imbalance ", "\nPotential sync ", "\nTime variation ",
        "\nOverlap ", "\n--- Comparative characteristics (real) ---\n", "Tmin", "Rank", "Tmax", "Rank", "Tmean",
        "\nExecution time ", "\nProductive time ", "\nLost time ", "\nInsufficient parallelism ", "\nCommunication ",
        "\nSendRecv ", "\nReal sync ", "\nCollective ", "\nSystem ", "\nIdle time ", "\nLoad imbalance ",
        "\nPotential sync ", "\nTime variation ", "\nOverlap ", "\n--- Characteristics by process (real) ---\n",
        "\nExecution time ", "\nOverlap ", "\n--- Main characteristics (predicted) ---\n",
        "\n--- Comparative characteristics (predicted) ---\n", "\n--- Characteristics by process (predicted) ---\n",
        "\n--- SRC points ---\n", "\nSRC 2  MPI_Send  calls=10  bytes_sent=80  bytes_recv=0\n", "\n   time ",
        "\n   stack ", "\nSRC 1  MPI_Allreduce  calls=400  bytes_sent=3200  bytes_recv=3200\n", "\n   time ",
        "\n   stack ");
    /* the whole-program header once, and nothing after the last SRC point's stack */
    ck_assert_ptr_null(strstr(strstr(t, "==== Interval 0") + 1, "==== Interval"));
    ck_assert_int_eq(t[strlen(t) - 1], '\n');
}
END_TEST

START_TEST(test_writer_text_parameters)
{
    const char *t = write_text();
    const char *p = section(t, "\nParameters\n");
    expect_line(p, "Program", ": ./jacobi -n 100");
    expect_line(p, "Working directory", ": /home/u");
    expect_line(p, "Started", ": 2024-05-01T10:00:00+02:00");
    expect_line(p, "Processes", ": 2");
    expect_line(p, "Nodes", ": 1");
    expect_line(p, "Threads level", ": MPI_THREAD_SINGLE");
    expect_line(p, "MPI library", ": Open MPI v4.1.6");
    expect_line(p, "MPI standard", ": 3.1");
    expect_line(p, "Profiler", ": mpiprof " PACKAGE_VERSION);
    expect_line(p, "Collection mode", ": dynamic");
    expect_line(p, "Clock", ": monotonic, resolution 1 ns");
    expect_line(p, "Warnings", ": 1");
    expect_line(p, "   rank 1: something odd", "");
    /* one variable a line, under the Configuration line */
    const char *conf = section(p, "\nConfiguration ");
    for (int i = 0; i < MPP_NVARS; i++) {
        char item[MPP_CONFIG_STRING_MAX + 64];
        snprintf(item, sizeof item, "\n   MPIPROF_%s=%s (default)\n", mpp_vars[i].name, mpp_vars[i].default_value);
        ck_assert_msg(strstr(conf, item) != NULL, "Configuration lacks '%s': %s", item, conf);
    }
}
END_TEST

START_TEST(test_writer_text_main)
{
    char productive[128];
    const char *t = write_text();
    const char *m = section(t, "--- Main characteristics (real) ---");
    /* I/O as measured (0.75), CPU and Sys the rest (8.5) in getrusage's ratio 14 : 1.5 */
    snprintf(productive, sizeof productive, "9.250000 (CPU=%.6f Sys=%.6f I/O=%.6f)", 8.5 * 14 / 15.5,
             8.5 * 1.5 / 15.5, 0.75);
    expect_line(m, "Parallelization efficiency", "0.4625");
    expect_line(m, "Execution time", "10.000000");
    expect_line(m, "Processors", "2");
    expect_line(m, "Total time", "20.000000");
    expect_line(m, "Productive time", productive);
    expect_line(m, "Lost time", "10.750000");
    expect_line(m, "   Insufficient parallelism", "2.000000");
    expect_line(m, "   Communication",
                "6.750000 (SendRecv=3.000000 Real_sync=n/a Collective=3.000000 System=0.750000)");
    expect_line(m, "   Idle time", "2.000000");
    expect_line(m, "Load imbalance", "1.500000");
    expect_line(m, "Potential sync", "n/a");
    expect_line(m, "Time variation", "n/a");
    expect_line(m, "Overlap", "n/a");
}
END_TEST

START_TEST(test_writer_text_comparative_by_process)
{
    const char *t = write_text();
    const char *c = section(t, "--- Comparative characteristics (real) ---");
    expect_line(c, "Execution time", "8.000000 1 10.000000 0 9.000000");
    expect_line(c, "Productive time", "3.750000 1 5.500000 0 4.625000");
    expect_line(c, "Lost time", "4.500000 0 6.250000 1 5.375000");
    expect_line(c, "Idle time", "0.000000 0 2.000000 1 1.000000");
    expect_line(c, "Load imbalance", "0.000000 0 1.500000 1 0.750000");
    expect_line(c, "Real sync", "n/a - n/a - n/a");
    expect_line(c, "Overlap", "n/a - n/a - n/a");
    const char *b = section(t, "--- Characteristics by process (real) ---");
    expect_line(b, "", "0 1"); /* the line of ranks */
    expect_line(b, "Execution time", "10.000000 8.000000");
    expect_line(b, "Lost time", "4.500000 6.250000");
    expect_line(b, "Idle time", "0.000000 2.000000");
    expect_line(b, "Real sync", "n/a n/a");
    const char *pred = section(t, "--- Main characteristics (predicted) ---");
    expect_line(pred, "", "n/a (see Warnings)");
}
END_TEST

START_TEST(test_writer_text_src_points)
{
    const char *t = write_text();
    const char *s = section(t, "--- SRC points ---");
    /* descending summed time: SRC 2 (3 s) before SRC 1 (1.2 s) */
    const char *send = section(s, "\nSRC 2  MPI_Send");
    const char *allr = section(s, "\nSRC 1  MPI_Allreduce");
    ck_assert_msg(send < allr, "SRC 2 (3 s) must come before SRC 1 (1.2 s)");
    expect_line(send, "   time", "sum=3.000000 min=1.000000 (rank 0) max=2.000000 (rank 1) mean=1.500000");
    expect_line(send, "   real sync", "n/a");
    expect_line(send, "   by process", "0: 1.000000 1: 2.000000");
    expect_line(send, "   stack", "libfoo.so+0x1a2b");
    expect_line(allr, "   time", "sum=1.200000 min=0.500000 (rank 1) max=0.700000 (rank 0) mean=0.600000");
    expect_line(allr, "   by process", "0: 0.700000 1: 0.500000");
    expect_line(allr, "   stack", "jacobi.c:88 (exchange) <- main.c:40 (main)");
    /* only the wait states that apply: n/a here (not analysed) */
    expect_line(allr, "   potential sync", "n/a");
    /* SRC 2 (MPI_Send) comes first: its block ends where SRC 1's begins */
    ck_assert(strstr(send, "   potential sync") > allr);
    ck_assert_ptr_null(strstr(allr, "   real sync"));
}
END_TEST

START_TEST(test_writer_waitstates)
{
    rd.waitstates = 1;
    iv.waitstates_known = 1;
    cells[1].wait[0] = (mpp_stat_t){0.4, 0.0, 0.4, 1, 0, 2};   /* MPI_Send? a receive in a real run; the */
    cells[0].wait[1] = (mpp_stat_t){0.25, 0.05, 0.2, 1, 0, 2}; /* writer does not care which */
    cells[0].wait[2] = (mpp_stat_t){0.01, 0.0, 0.01, 0, 1, 2};
    cell_by[0][MPP_CELL_POTSYNC] = 0.2, cell_by[0][MPP_NCELLV + MPP_CELL_POTSYNC] = 0.05;
    cell_by[1][MPP_CELL_REALSYNC] = 0.4, cell_by[1][MPP_NCELLV + MPP_CELL_REALSYNC] = 0.0;
    const char *t = write_text();
    const char *s = section(t, "--- SRC points ---");
    const char *send = section(s, "\nSRC 2  MPI_Send");
    const char *allr = section(s, "\nSRC 1  MPI_Allreduce");
    expect_line(send, "   real sync", "sum=0.400000 min=0.000000 (rank 1) max=0.400000 (rank 0) mean=0.200000");
    expect_line(send, "   by process (real sync)", "0: 0.400000 1: 0.000000");
    expect_line(allr, "   potential sync", "sum=0.250000 min=0.050000 (rank 1) max=0.200000 (rank 0) mean=0.125000");
    expect_line(allr, "   time variation", "sum=0.010000 min=0.000000 (rank 0) max=0.010000 (rank 1) mean=0.005000");
    expect_line(allr, "   by process (pot. sync)", "0: 0.200000 1: 0.050000");
    free(out_text); /* the JSON goes to a buffer of its own */
    out_text = NULL;
    json_t *doc = write_json();
    json_t *src = json_array_get(json_object_get(json_array_get(json_object_get(doc, "intervals"), 0), "src"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(src, "function")), "MPI_Send");
    ck_assert_double_eq_tol(json_real_value(json_object_get(json_object_get(src, "real_sync"), "sum")), 0.4, 1e-12);
    ck_assert(json_is_null(json_object_get(src, "potential_sync")));
    json_t *col = json_object_get(json_object_get(src, "by_process"), "real_sync");
    ck_assert_double_eq_tol(json_real_value(json_array_get(col, 0)), 0.4, 1e-12);
    ck_assert(json_is_null(json_array_get(json_object_get(json_object_get(src, "by_process"), "time_variation"), 0)));
    json_decref(doc);
}
END_TEST

START_TEST(test_writer_cells_by_time)
{
    int n = -1;
    int *ids = mpp_interval_cells_by_time(&report, 0, &n);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(ids[0], 1);
    ck_assert_int_eq(ids[1], 0);
    free(ids);
    cells[1].time.sum = cells[0].time.sum; /* a tie: by SRC number */
    ids = mpp_interval_cells_by_time(&report, 0, &n);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(ids[0], 0);
    ck_assert_int_eq(ids[1], 1);
    free(ids);
}
END_TEST

START_TEST(test_writer_text_not_entered)
{
    build_interval(1);
    cell_by[0][MPP_NCELLV + MPP_CELL_TIME] = NAN; /* rank 1 made no such call */
    const char *t = write_text();
    const char *b = section(t, "--- Characteristics by process (real) ---");
    expect_line(b, "Execution time", "10.000000 not entered");
    expect_line(b, "Idle time", "0.000000 not entered");
    const char *m = section(t, "--- Main characteristics (real) ---");
    expect_line(m, "Processors", "1");
    const char *allr = section(t, "\nSRC 1  MPI_Allreduce");
    expect_line(allr, "   by process", "0: 0.700000 1: -");
}
END_TEST

START_TEST(test_writer_text_none_selected)
{
    rd.nselected = 0;
    build_interval(0);
    const char *t = write_text();
    const char *b = section(t, "--- Characteristics by process (real) ---");
    expect_line(b, "", "no process selected (MPIPROF_RANKS=auto)");
    ck_assert_ptr_null(strstr(t, "\n   by process"));
}
END_TEST

START_TEST(test_writer_headline)
{
    size_t len;
    FILE *f = open_memstream(&out_text, &len);
    mpp_write_headline(f, &report);
    fclose(f);
    /* Lost time by its parts, largest first (a tie keeps the protocol's order) */
    EXPECT_IN_ORDER(out_text, "Parallelization efficiency 0.4625, execution time 10.000000 s on 2 processes",
                    "Lost time 10.750000 s",
                    "largest cause: SendRecv 3.000000 s; then Collective 3.000000 s, Insufficient parallelism "
                    "2.000000 s, Idle time 2.000000 s, System 0.750000 s",
                    "Load imbalance (potential loss) 1.500000 s",
                    "#1 SRC 2 MPI_Send at libfoo.so+0x1a2b: 3.000000 s in 10 calls, 27.9% of Lost time",
                    "#2 SRC 1 MPI_Allreduce at jacobi.c:88 (exchange): 1.200000 s in 400 calls, 11.2% of Lost time",
                    "Warnings: 1");
}
END_TEST

/* --- the JSON protocol --- */

START_TEST(test_writer_json_parameters)
{
    json_t *doc = write_json();
    expect_str(doc, "format", "mpiprof-protocol");
    expect_int(doc, "version", 1);
    expect_str(doc, "parameters.program", "./jacobi -n 100");
    expect_str(doc, "parameters.working_directory", "/home/u");
    expect_int(doc, "parameters.processes", 2);
    expect_int(doc, "parameters.nodes", 1);
    expect_str(doc, "parameters.profiler", "mpiprof " PACKAGE_VERSION);
    expect_str(doc, "parameters.collection_mode", "dynamic");
    ck_assert(json_is_false(path_get(doc, "parameters.partial")));
    expect_str(doc, "parameters.configuration.MPIPROF_DEPTH.value", "4");
    ck_assert(json_is_true(path_get(doc, "parameters.configuration.MPIPROF_DEPTH.default")));
    ck_assert_uint_eq(json_object_size(path_get(doc, "parameters.configuration")), MPP_NVARS);
    expect_null(doc, "parameters.machine");
    expect_null(doc, "parameters.prediction_model");
    ck_assert_uint_eq(json_array_size(path_get(doc, "parameters.warnings")), 1);
    expect_str(doc, "parameters.warnings.0", "rank 1: something odd");
    json_decref(doc);
}
END_TEST

START_TEST(test_writer_json_interval)
{
    json_t *doc = write_json();
    ck_assert_uint_eq(json_array_size(path_get(doc, "intervals")), 1);
    expect_int(doc, "intervals.0.id", 0);
    expect_str(doc, "intervals.0.name", "whole program");
    expect_str(doc, "intervals.0.file", "main.c");
    expect_int(doc, "intervals.0.line", 12);
    expect_int(doc, "intervals.0.level", 0);
    expect_null(doc, "intervals.0.parent");
    expect_int(doc, "intervals.0.executions", 1);
    expect_null(doc, "intervals.0.predicted");
    /* main: every key, null for n/a */
    json_t *main = path_get(doc, "intervals.0.real.main");
    ck_assert_uint_eq(json_object_size(main), MPP_NMAIN);
    for (int m = 0; m < MPP_NMAIN; m++) {
        json_t *v = json_object_get(main, mpp_main_names[m].json_key);
        ck_assert_msg(v != NULL, "main lacks %s", mpp_main_names[m].json_key);
        if (isnan(res.main[m]))
            ck_assert_msg(json_is_null(v), "%s should be null", mpp_main_names[m].json_key);
        else
            ck_assert_msg(fabs(json_number_value(v) - res.main[m]) < TOL, "%s = %g, expected %g",
                          mpp_main_names[m].json_key, json_number_value(v), res.main[m]);
    }
    expect_real(doc, "intervals.0.real.main.parallelization_efficiency", 0.4625);
    expect_int(doc, "intervals.0.real.main.processors", 2);
    expect_real(doc, "intervals.0.real.main.lost_time", 10.75);
    expect_null(doc, "intervals.0.real.main.real_sync");
    expect_null(doc, "intervals.0.real.main.overlap");
    /* comparative */
    expect_real(doc, "intervals.0.real.comparative.execution_time.min", 8);
    expect_int(doc, "intervals.0.real.comparative.execution_time.min_rank", 1);
    expect_real(doc, "intervals.0.real.comparative.execution_time.max", 10);
    expect_int(doc, "intervals.0.real.comparative.execution_time.max_rank", 0);
    expect_real(doc, "intervals.0.real.comparative.execution_time.mean", 9);
    expect_int(doc, "intervals.0.real.comparative.idle_time.max_rank", 1);
    expect_null(doc, "intervals.0.real.comparative.real_sync");
    expect_null(doc, "intervals.0.real.comparative.potential_sync");
    /* by process */
    expect_int(doc, "intervals.0.real.by_process.ranks.0", 0);
    expect_int(doc, "intervals.0.real.by_process.ranks.1", 1);
    expect_real(doc, "intervals.0.real.by_process.execution_time.0", 10);
    expect_real(doc, "intervals.0.real.by_process.execution_time.1", 8);
    expect_real(doc, "intervals.0.real.by_process.lost_time.1", 6.25);
    expect_null(doc, "intervals.0.real.by_process.real_sync.0");
    ck_assert(json_is_true(path_get(doc, "intervals.0.real.by_process.entered.1")));
    json_decref(doc);
}
END_TEST

START_TEST(test_writer_json_src)
{
    json_t *doc = write_json();
    json_t *src = path_get(doc, "intervals.0.src");
    ck_assert_uint_eq(json_array_size(src), 2);
    /* descending time */
    expect_int(doc, "intervals.0.src.0.id", 2);
    expect_str(doc, "intervals.0.src.0.function", "MPI_Send");
    expect_int(doc, "intervals.0.src.0.calls", 10);
    expect_int(doc, "intervals.0.src.0.bytes_sent", 80);
    expect_int(doc, "intervals.0.src.0.bytes_recv", 0);
    expect_real(doc, "intervals.0.src.0.time.sum", 3);
    expect_int(doc, "intervals.0.src.0.time.max_rank", 1);
    expect_null(doc, "intervals.0.src.0.real_sync");
    expect_null(doc, "intervals.0.src.0.potential_sync");
    expect_null(doc, "intervals.0.src.0.time_variation");
    expect_real(doc, "intervals.0.src.0.by_process.time.1", 2);
    expect_int(doc, "intervals.0.src.0.by_process.calls.0", 5);
    expect_int(doc, "intervals.0.src.0.by_process.bytes_sent.1", 40);
    ck_assert_uint_eq(json_array_size(path_get(doc, "intervals.0.src.0.stack")), 1);
    expect_str(doc, "intervals.0.src.0.stack.0.file", "libfoo.so");
    expect_null(doc, "intervals.0.src.0.stack.0.line"); /* unresolved */
    expect_null(doc, "intervals.0.src.0.stack.0.function");
    expect_str(doc, "intervals.0.src.0.stack.0.text", "libfoo.so+0x1a2b");
    expect_int(doc, "intervals.0.src.1.id", 1);
    expect_str(doc, "intervals.0.src.1.function", "MPI_Allreduce");
    expect_int(doc, "intervals.0.src.1.calls", 400);
    ck_assert_uint_eq(json_array_size(path_get(doc, "intervals.0.src.1.stack")), 2);
    expect_str(doc, "intervals.0.src.1.stack.0.file", "jacobi.c");
    expect_str(doc, "intervals.0.src.1.stack.0.path", "/home/u/jacobi.c");
    expect_int(doc, "intervals.0.src.1.stack.0.line", 88);
    expect_str(doc, "intervals.0.src.1.stack.0.function", "exchange");
    expect_str(doc, "intervals.0.src.1.stack.1.text", "main.c:40 (main)");
    json_decref(doc);
}
END_TEST

START_TEST(test_writer_json_not_entered)
{
    build_interval(1);
    cell_by[0][MPP_NCELLV + MPP_CELL_TIME] = NAN;
    cell_by[0][MPP_NCELLV + MPP_CELL_CALLS] = NAN;
    json_t *doc = write_json();
    ck_assert(json_is_true(path_get(doc, "intervals.0.real.by_process.entered.0")));
    ck_assert(json_is_false(path_get(doc, "intervals.0.real.by_process.entered.1")));
    expect_null(doc, "intervals.0.real.by_process.execution_time.1");
    expect_real(doc, "intervals.0.real.by_process.execution_time.0", 10);
    expect_int(doc, "intervals.0.real.main.processors", 1);
    expect_null(doc, "intervals.0.src.1.by_process.time.1");
    expect_null(doc, "intervals.0.src.1.by_process.calls.1");
    json_decref(doc);
}
END_TEST

/* LIBRARY BUG (src/write/json.c): json_string()/json_pack("s") return NULL
 * for text that is not valid UTF-8, and the writer adds that NULL unchecked,
 * so the key or the stack frame silently disappears from the JSON protocol.
 * Command lines, paths and interval names are bytes, not necessarily UTF-8. */
START_TEST(test_writer_json_non_utf8)
{
    strcpy(run.program, "./jacobi caf\xe9.dat");
    free(srcs[1].function);
    mpp_srckey_free_frames(srcs[1].frames, srcs[1].nframes);
    srcs[1].nframes = mpp_srckey_parse("MPI_Send\x1e/data/caf\xe9/libfoo.so\x1f"
                                       "0\x1f\x1f"
                                       "libfoo.so+0x1a2b",
                                       &srcs[1].function, &srcs[1].frames);
    json_t *doc = write_json();
    json_t *program = json_object_get(path_get(doc, "parameters"), "program");
    ck_assert_msg(json_is_string(program), "parameters.program is missing from the JSON protocol");
    ck_assert_int_eq(strncmp(json_string_value(program), "./jacobi caf", 12), 0);
    ck_assert_msg(json_array_size(path_get(doc, "intervals.0.src.0.stack")) == 1,
                  "the frame with a non-UTF-8 path is missing from the JSON stack");
    expect_str(doc, "intervals.0.src.0.stack.0.text", "libfoo.so+0x1a2b");
    json_decref(doc);
}
END_TEST

/* --- the communication model's part: Prediction model, predicted
 * sections, Overlap, SRC predicted time --- */

static mpp_model_setup_t model;
static double pred_by[2 * MPP_NQ];
static double cell_model_by[2][2 * MPP_NCELLP];
static mpp_interval_result_t pres;

/* The report as when the model ran (MPIPROF_MODEL given): each process's
 * predicted quantities from its real ones, speeds 1, and the model's MPI
 * times below; the cells' predicted times and Overlap. */
static void with_model(void)
{
    memset(&model, 0, sizeof model);
    model.enabled = 1;
    unsigned given;
    char why[64];
    ck_assert_int_eq(mpp_model_parse("lat_intra=0.5us,bw_intra=4GB/s,lat_inter=3us,bw_inter=2GB/s", &model.model,
                                     &given, why, sizeof why),
                     0);
    for (int k = 0; k < MPP_NMP; k++)
        model.source[k] = MPP_PSRC_GIVEN;
    model.pair[0][0] = model.pair[0][1] = model.pair[1][0] = model.pair[1][1] = -1;
    model.nodes = 1;
    model.speed_min = model.speed_max = 1;
    model.speed_loop = 7e-5;
    model.seconds = 0.001;
    /* predicted MPI time: rank 0 1 s SendRecv + 0.5 s Collective, rank 1 0.5 + 0.5; I/O as measured */
    const double pcat[2][MPP_NCAT] = {{1, 0.5, 0, 0.5}, {0.5, 0.5, 0, 0.25}};
    double work = 0, iwork = 0;
    for (int p = 0; p < 2; p++) {
        double w, iw;
        mpp_process_work(&iv_by[p * MPP_NQ], 1.0, &w, &iw);
        work += w, iwork += iw;
    }
    for (int k = 0; k < MPP_NQ; k++)
        iv.pq[k] = (mpp_stat_t){0, INFINITY, -INFINITY, -1, -1, 0};
    for (int p = 0; p < 2; p++) {
        double *v = &pred_by[p * MPP_NQ];
        iv_by[p * MPP_NQ + MPP_Q_OVERLAP] = v[MPP_Q_OVERLAP] = 0.25 * (p + 1);
        mpp_predicted_quantities(&iv_by[p * MPP_NQ], pcat[p], 1.0, work / 2, iwork / 2, v);
        for (int k = 0; k < MPP_NQ; k++) {
            mpp_stat_t *st = &iv.pq[k];
            st->sum += v[k];
            if (v[k] < st->min)
                st->min = v[k], st->min_rank = p;
            if (v[k] > st->max)
                st->max = v[k], st->max_rank = p;
            st->count++;
        }
    }
    iv.q[MPP_Q_OVERLAP] = (mpp_stat_t){0.75, 0.25, 0.5, 0, 1, 2};
    iv.predicted = iv.overlap_known = 1;
    iv.pred_by_process = pred_by;
    rd.predicted = 1;
    free(res.by_process);
    ck_assert_int_eq(mpp_characteristics(&iv, 2, &res), 0);
    memset(&pres, 0, sizeof pres);
    ck_assert_int_eq(mpp_characteristics_predicted(&iv, 2, &pres), 0);
    /* MPI_Allreduce: 0.25 + 0.5 s predicted, no Overlap; MPI_Send: 0.5 + 0.375 s, Overlap 0.125 s */
    cells[0].predicted = (mpp_stat_t){0.75, 0.25, 0.5, 0, 1, 2};
    cells[0].overlap = 0;
    const double m0[2 * MPP_NCELLP] = {0.25, 0, 0.5, 0};
    cells[1].predicted = (mpp_stat_t){0.875, 0.375, 0.5, 1, 0, 2};
    cells[1].overlap = 0.125;
    const double m1[2 * MPP_NCELLP] = {0.5, 0.125, 0.375, 0};
    memcpy(cell_model_by[0], m0, sizeof m0);
    memcpy(cell_model_by[1], m1, sizeof m1);
    cells[0].model_by_process = cell_model_by[0];
    cells[1].model_by_process = cell_model_by[1];
    report.predicted = &pres;
    report.model = &model;
}

static void teardown_model(void)
{
    free(pres.by_process);
    memset(&pres, 0, sizeof pres);
    report.predicted = NULL;
    report.model = NULL;
    teardown_report();
}

START_TEST(test_writer_text_predicted)
{
    with_model();
    const char *t = write_text();
    const char *p = section(t, "\nParameters\n");
    char keff[32], exec[32], comm[128];
    expect_line(p, "Prediction model",
                ": message = latency + bytes/bandwidth (intra-node and inter-node parameters); "
                "collectives by MPICH's algorithms for their size; computation = the mean over "
                "processes, by core speed (mpiprof(7), MODEL)");
    expect_line(p, "   intra-node:", "lat_intra=0.5us bw_intra=4GB/s (given in MPIPROF_MODEL)");
    expect_line(p, "   inter-node:", "lat_inter=3us bw_inter=2GB/s (given in MPIPROF_MODEL)");
    expect_line(p, "   core speed:",
                "relative 1.000 (rank 0) to 1.000 (rank 0), mean 1, from a 0.07 ms compute "
                "loop timed on every process at MPI_Init");
    const char *real = section(t, "--- Main characteristics (real) ---");
    expect_line(real, "Overlap", "0.750000");
    const char *m = section(t, "--- Main characteristics (predicted) ---");
    /* computation 6 and 4.5 s -> 5.25 s each; MPI 1.5 + I/O 0.5 and 1 + 0.25 s */
    snprintf(exec, sizeof exec, "%.6f", 7.25);
    snprintf(keff, sizeof keff, "%.4f", pres.main[MPP_M_KEFF]);
    snprintf(comm, sizeof comm, "%.6f (SendRecv=1.500000 Real_sync=n/a Collective=1.000000 System=0.000000)",
             pres.main[MPP_M_COMM]);
    expect_line(m, "Parallelization efficiency", keff);
    expect_line(m, "Execution time", exec);
    expect_line(m, "   Communication", comm);
    expect_line(m, "   Idle time", "0.750000");
    expect_line(m, "Load imbalance", "0.000000");
    expect_line(m, "Overlap", "0.750000");
    const char *c = section(t, "--- Comparative characteristics (predicted) ---");
    expect_line(c, "Execution time", "6.500000 1 7.250000 0 6.875000");
    expect_line(c, "Overlap", "0.250000 0 0.500000 1 0.375000");
    const char *b = section(t, "--- Characteristics by process (predicted) ---");
    expect_line(b, "Execution time", "7.250000 6.500000");
    expect_line(b, "Idle time", "0.000000 0.750000");
    ck_assert_ptr_null(strstr(t, "n/a (see Warnings)"));
    const char *send = section(section(t, "--- SRC points ---"), "\nSRC 2  MPI_Send");
    expect_line(send, "   predicted time", "sum=0.875000 min=0.375000 (rank 1) max=0.500000 (rank 0) mean=0.437500");
    expect_line(send, "   overlap", "sum=0.125000");
    expect_line(send, "   by process (predicted)", "0: 0.500000 1: 0.375000");
    expect_line(send, "   by process (overlap)", "0: 0.125000 1: 0.000000");
    EXPECT_IN_ORDER(send, "\n   time ", "\n   predicted time ", "\n   overlap ", "\n   real sync ",
                    "\n   by process ", "\n   by process (predicted) ", "\n   by process (overlap) ", "\n   stack ");
}
END_TEST

START_TEST(test_writer_text_predict_off)
{
    with_model();
    model.enabled = 0;
    report.predicted = NULL;
    rd.predicted = 0;
    const char *t = write_text();
    expect_line(section(t, "\nParameters\n"), "Prediction model", ": n/a (MPIPROF_PREDICT=off)");
    expect_line(section(t, "--- Main characteristics (predicted) ---"), "", "n/a (see Warnings)");
    expect_line(section(t, "\nSRC 2  MPI_Send"), "   predicted time", "n/a");
    expect_line(section(t, "\nSRC 2  MPI_Send"), "   overlap", "n/a");
    /* no model at all (a report without it) */
    report.model = NULL;
    free(out_text);
    t = write_text();
    expect_line(section(t, "\nParameters\n"), "Prediction model", ": n/a (the communication model did not run)");
}
END_TEST

START_TEST(test_writer_json_predicted)
{
    with_model();
    json_t *doc = write_json();
    expect_str(doc, "parameters.prediction_model.parameters.lat_intra.text", "0.5us");
    expect_real(doc, "parameters.prediction_model.parameters.lat_intra.value", 0.5e-6);
    expect_str(doc, "parameters.prediction_model.parameters.lat_intra.unit", "s");
    expect_str(doc, "parameters.prediction_model.parameters.bw_inter.source", "given");
    expect_str(doc, "parameters.prediction_model.parameters.bw_inter.source_text", "given in MPIPROF_MODEL");
    expect_real(doc, "parameters.prediction_model.parameters.bw_inter.value", 2e9);
    expect_real(doc, "parameters.prediction_model.core_speed.max", 1);
    expect_int(doc, "parameters.prediction_model.nodes", 1);
    ck_assert_uint_eq(json_array_size(path_get(doc, "parameters.prediction_model.text")), 5);
    expect_str(doc, "parameters.prediction_model.text.1",
               "intra-node: lat_intra=0.5us bw_intra=4GB/s (given in MPIPROF_MODEL)");
    /* the predicted part has the shape of the real one */
    for (int k = 0; k < MPP_NMAIN; k++) {
        char path[128];
        snprintf(path, sizeof path, "intervals.0.predicted.main.%s", mpp_main_names[k].json_key);
        if (isnan(pres.main[k]))
            expect_null(doc, path);
        else
            expect_real(doc, path, pres.main[k]);
    }
    expect_real(doc, "intervals.0.predicted.main.execution_time", 7.25);
    expect_real(doc, "intervals.0.real.main.overlap", 0.75);
    expect_real(doc, "intervals.0.predicted.comparative.execution_time.min", 6.5);
    expect_int(doc, "intervals.0.predicted.comparative.execution_time.min_rank", 1);
    expect_real(doc, "intervals.0.predicted.by_process.idle_time.1", 0.75);
    ck_assert(json_is_true(path_get(doc, "intervals.0.predicted.by_process.entered.1")));
    /* SRC points */
    expect_real(doc, "intervals.0.src.0.predicted_time.sum", 0.875);
    expect_int(doc, "intervals.0.src.0.predicted_time.min_rank", 1);
    expect_real(doc, "intervals.0.src.0.overlap", 0.125);
    expect_real(doc, "intervals.0.src.0.by_process.predicted_time.1", 0.375);
    expect_real(doc, "intervals.0.src.0.by_process.overlap.0", 0.125);
    expect_real(doc, "intervals.0.src.1.overlap", 0);
    json_decref(doc);
    /* off: null, with the same shape otherwise */
    model.enabled = 0;
    report.predicted = NULL;
    rd.predicted = 0;
    cells[0].model_by_process = cells[1].model_by_process = NULL;
    free(out_text);
    doc = write_json();
    expect_null(doc, "parameters.prediction_model");
    expect_null(doc, "intervals.0.predicted");
    expect_null(doc, "intervals.0.src.0.predicted_time");
    expect_null(doc, "intervals.0.src.0.overlap");
    ck_assert_ptr_null(json_object_get(path_get(doc, "intervals.0.src.0.by_process"), "predicted_time"));
    json_decref(doc);
}
END_TEST

Suite *writer_suite(void)
{
    Suite *s = suite_create("writer");
    TCase *tc;

    tc = tcase_create("text");
    tcase_add_checked_fixture(tc, setup_report, teardown_report);
    tcase_add_test(tc, test_writer_text_structure);
    tcase_add_test(tc, test_writer_text_parameters);
    tcase_add_test(tc, test_writer_text_main);
    tcase_add_test(tc, test_writer_text_comparative_by_process);
    tcase_add_test(tc, test_writer_text_src_points);
    tcase_add_test(tc, test_writer_waitstates);
    tcase_add_test(tc, test_writer_cells_by_time);
    tcase_add_test(tc, test_writer_text_not_entered);
    tcase_add_test(tc, test_writer_text_none_selected);
    tcase_add_test(tc, test_writer_headline);
    suite_add_tcase(s, tc);

    tc = tcase_create("json");
    tcase_add_checked_fixture(tc, setup_report, teardown_report);
    tcase_add_test(tc, test_writer_json_parameters);
    tcase_add_test(tc, test_writer_json_interval);
    tcase_add_test(tc, test_writer_json_src);
    tcase_add_test(tc, test_writer_json_not_entered);
    tcase_add_test(tc, test_writer_json_non_utf8);
    suite_add_tcase(s, tc);

    tc = tcase_create("predicted");
    tcase_add_checked_fixture(tc, setup_report, teardown_model);
    tcase_add_test(tc, test_writer_text_predicted);
    tcase_add_test(tc, test_writer_text_predict_off);
    tcase_add_test(tc, test_writer_json_predicted);
    suite_add_tcase(s, tc);

    return s;
}
