/* The hand-made report of the writers' unit tests (writer_fixture.h):
 * 2 processes, interval 0, 2 SRC points; and what reads the protocols
 * written from it. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer_fixture.h"

/* --- the hand-made report --- */

typedef struct {
    double exec, sendrecv, collective, system, io, seq, cpu, sys;
} proc_t;

static const proc_t procs[2] = {
    {10, 1, 2, 0.5, 0.5, 2, 8, 1},
    {8, 2, 1, 0.25, 0.25, 2, 6, 0.5},
};

mpp_run_info_t run;
mpp_config_t cfg;
mpp_reduced_t rd;
mpp_reduced_interval_t iv;
double iv_by[2 * MPP_NQ];
mpp_reduced_src_t srcs[2];
mpp_reduced_cell_t cells[2];
double cell_by[2][2 * MPP_NCELLV];
int selected[2] = {0, 1};
mpp_interval_result_t res;
static const char *const warnings[1] = {"rank 1: something odd"};
mpp_report_t report;
char *out_text; /* what a writer produced */

static const char *null_getenv(const char *name)
{
    (void)name;
    return NULL;
}

/* The interval from per-process values; `absent`: rank 1 did not enter. */
void build_interval(int absent)
{
    free(res.by_process);
    memset(&iv, 0, sizeof iv);
    iv.id = 0;
    iv.name = (char *)"whole program";
    /* interval 0's position, as the lifecycle puts it there from MPI_Init's call */
    iv.file = (char *)"main.c";
    iv.line = 12;
    iv.parent = -1;
    iv.executions = 1;
    iv.processes = absent ? 1 : 2;
    for (int k = 0; k < MPP_NQ; k++)
        iv.q[k] = (mpp_stat_t){0, INFINITY, -INFINITY, -1, -1, 0};
    for (int p = 0; p < 2; p++) {
        double *v = &iv_by[p * MPP_NQ];
        if (absent && p == 1) {
            for (int k = 0; k < MPP_NQ; k++)
                v[k] = NAN;
            continue;
        }
        mpp_local_interval_t li;
        memset(&li, 0, sizeof li);
        li.exec = procs[p].exec, li.seq = procs[p].seq, li.cpu = procs[p].cpu, li.sys = procs[p].sys;
        li.cat[MPP_CAT_SENDRECV] = procs[p].sendrecv;
        li.cat[MPP_CAT_COLLECTIVE] = procs[p].collective;
        li.cat[MPP_CAT_SYSTEM] = procs[p].system;
        li.cat[MPP_CAT_IO] = procs[p].io;
        mpp_process_quantities(&li, iv.processes, v);
        for (int k = 0; k < MPP_NQ; k++) {
            mpp_stat_t *s = &iv.q[k];
            s->sum += v[k];
            if (v[k] < s->min)
                s->min = v[k], s->min_rank = p;
            if (v[k] > s->max)
                s->max = v[k], s->max_rank = p;
            s->count++;
        }
    }
    iv.by_process = iv_by;
    ck_assert_int_eq(mpp_characteristics(&iv, rd.nselected, &res), 0);
}

void setup_report(void)
{
    unit_reset_warnings();
    memset(&run, 0, sizeof run);
    strcpy(run.program, "./jacobi -n 100");
    strcpy(run.program_name, "jacobi");
    strcpy(run.cwd, "/home/u");
    strcpy(run.started, "2024-05-01T10:00:00+02:00");
    strcpy(run.finished, "2024-05-01T10:00:20+02:00");
    strcpy(run.written, "2024-05-01T10:00:21+02:00");
    run.nprocs = 2;
    strcpy(run.threads_level, "MPI_THREAD_SINGLE");
    strcpy(run.mpi_library, "Open MPI v4.1.6");
    strcpy(run.mpi_standard, "3.1");
    strcpy(run.hostname, "node1");
    strcpy(run.init_file, "main.c");
    run.init_line = 12;
    strcpy(run.clock, "monotonic, resolution 1 ns");
    mpp_config_parse(&cfg, null_getenv);

    memset(&rd, 0, sizeof rd);
    rd.nprocs = 2;
    rd.nnodes = 1;
    rd.nselected = 2;
    rd.selected = selected;
    memset(&res, 0, sizeof res);
    build_interval(0);
    rd.intervals = &iv;
    rd.nintervals = 1;

    memset(srcs, 0, sizeof srcs);
    srcs[0].id = 1;
    srcs[0].nframes = mpp_srckey_parse(KEY_ALLR, &srcs[0].function, &srcs[0].frames);
    srcs[1].id = 2;
    srcs[1].nframes = mpp_srckey_parse(KEY_SEND, &srcs[1].function, &srcs[1].frames);
    srcs[0].waits = MPP_SRC_COLLECTIVE_WAITS; /* MPI_Allreduce */
    srcs[1].waits = MPP_SRC_REALSYNC;         /* MPI_Send */
    rd.srcs = srcs;
    rd.nsrcs = 2;

    memset(cells, 0, sizeof cells);
    const mpp_stat_t no_model = {0, 0, 0, 0, 0, 0}; /* the model's part: with_model() */
    cells[0] = (mpp_reduced_cell_t){.interval = 0,
                                    .src = 0,
                                    .calls = 400,
                                    .bytes_sent = 3200,
                                    .bytes_recv = 3200,
                                    .time = {1.2, 0.5, 0.7, 1, 0, 2},
                                    .by_process = cell_by[0],
                                    .predicted = no_model};
    cells[1] = (mpp_reduced_cell_t){.interval = 0,
                                    .src = 1,
                                    .calls = 10,
                                    .bytes_sent = 80,
                                    .bytes_recv = 0,
                                    .time = {3.0, 1.0, 2.0, 0, 1, 2},
                                    .by_process = cell_by[1],
                                    .predicted = no_model};
    /* per process: time, calls, bytes sent, received, wait states (none analysed) */
    const double c0[2 * MPP_NCELLV] = {0.7, 200, 1600, 1600, 0, 0, 0, 0.5, 200, 1600, 1600, 0, 0, 0};
    const double c1[2 * MPP_NCELLV] = {1.0, 5, 40, 0, 0, 0, 0, 2.0, 5, 40, 0, 0, 0, 0};
    memcpy(cell_by[0], c0, sizeof c0);
    memcpy(cell_by[1], c1, sizeof c1);
    rd.cells = cells;
    rd.ncells = 2;

    report.run = &run;
    report.config = &cfg;
    report.reduced = &rd;
    report.results = &res;
    report.warnings = warnings;
    report.nwarnings = 1;
    out_text = NULL;
}

void teardown_report(void)
{
    for (int s = 0; s < 2; s++) {
        free(srcs[s].function);
        mpp_srckey_free_frames(srcs[s].frames, srcs[s].nframes);
    }
    free(res.by_process);
    res.by_process = NULL;
    free(out_text);
    out_text = NULL;
}

const char *write_text(void)
{
    size_t len;
    FILE *f = open_memstream(&out_text, &len);
    ck_assert_ptr_nonnull(f);
    mpp_write_text(f, &report);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_uint_eq(strlen(out_text), len); /* no NUL inside */
    /* every line within 160 characters; then the lines broken for it
     * ("\\", a newline, six blanks) joined again, as readers do */
    for (const char *line = out_text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        ck_assert_msg(n <= 160, "a line of %zu characters: %.*s", n, (int)n, line);
        line += n + (end != NULL);
    }
    char *to = out_text;
    for (const char *from = out_text; *from;) {
        if (!strncmp(from, "\\\n      ", 8)) {
            from += 8;
        } else {
            *to++ = *from++;
        }
    }
    *to = '\0';
    return out_text;
}

json_t *write_json(void)
{
    size_t len;
    FILE *f = open_memstream(&out_text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(mpp_write_json(f, &report), 0);
    ck_assert_int_eq(fclose(f), 0);
    json_error_t error;
    json_t *doc = json_loadb(out_text, len, 0, &error);
    ck_assert_msg(doc != NULL, "JSON protocol does not parse: %s (line %d)", error.text, error.line);
    return doc;
}

/* --- text helpers --- */

/* `needles` appear in `text` in this order; returns where the last one is. */
const char *expect_in_order(const char *text, const char *const *needles)
{
    const char *at = text;
    for (const char *const *n = needles; *n; n++) {
        const char *found = strstr(at, *n);
        ck_assert_msg(found != NULL, "'%s' missing or out of order in the protocol", *n);
        at = found + strlen(*n);
        if (at[-1] == '\n')
            at--; /* a line's newline also starts the next needle */
    }
    return at;
}

/* The start of the section headed `header`, which must be in `text`. */
const char *section(const char *text, const char *header)
{
    const char *s = strstr(text, header);
    ck_assert_msg(s != NULL, "no section '%s'", header);
    return s;
}

/* The rest of the first line after `from` that begins with `label`, spaces
 * collapsed and trimmed. */
const char *rest_of_line(const char *from, const char *label)
{
    static char buf[1024];
    char needle[256];
    snprintf(needle, sizeof needle, "\n%s", label);
    const char *at = strstr(from, needle);
    ck_assert_msg(at != NULL, "no line '%s'", label);
    at += strlen(needle);
    size_t j = 0;
    for (; *at && *at != '\n' && j + 1 < sizeof buf; at++) {
        if (*at == ' ' && (j == 0 || buf[j - 1] == ' '))
            continue;
        buf[j++] = *at;
    }
    while (j && buf[j - 1] == ' ')
        j--;
    buf[j] = '\0';
    return buf;
}

void expect_line(const char *from, const char *label, const char *expected)
{
    const char *got = rest_of_line(from, label);
    ck_assert_msg(!strcmp(got, expected), "line '%s': '%s', expected '%s'", label, got, expected);
}

/* --- JSON helpers --- */

json_t *path_get(json_t *root, const char *path)
{
    /* "a.b.0.c": objects by key, arrays by index */
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", path);
    json_t *at = root;
    for (char *part = strtok_r(buf, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
        if (json_is_array(at))
            at = json_array_get(at, (size_t)atoi(part));
        else
            at = json_object_get(at, part);
        ck_assert_msg(at != NULL, "JSON has no '%s' (at '%s')", path, part);
    }
    return at;
}

void expect_real(json_t *root, const char *path, double expected)
{
    json_t *v = path_get(root, path);
    ck_assert_msg(json_is_number(v), "%s is not a number", path);
    ck_assert_msg(fabs(json_number_value(v) - expected) < TOL, "%s = %g, expected %g", path, json_number_value(v),
                  expected);
}

void expect_int(json_t *root, const char *path, long long expected)
{
    json_t *v = path_get(root, path);
    ck_assert_msg(json_is_integer(v), "%s is not an integer", path);
    ck_assert_int_eq(json_integer_value(v), expected);
}

void expect_str(json_t *root, const char *path, const char *expected)
{
    json_t *v = path_get(root, path);
    ck_assert_msg(json_is_string(v), "%s is not a string", path);
    ck_assert_str_eq(json_string_value(v), expected);
}

void expect_null(json_t *root, const char *path)
{
    ck_assert_msg(json_is_null(path_get(root, path)), "%s should be null", path);
}
