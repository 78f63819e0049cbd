/* The summary rank 0 prints at MPI_Finalize (mpp_write_headline in
 * src/write/output.c): its top SRC points must be told apart when several
 * share their first frame, as CloverLeaf's three "MPI_Waitall at
 * clover.f90:413" did (each is named with the caller that tells it
 * apart). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "util/srckey.h"
#include "write/writer.h"

#define FRAME(path, line, function) "\x1e" path "\x1f" #line "\x1f" function "\x1f" path ":" #line " (" function ")"
#define EXCHANGE FRAME("clover.f90", 413, "clover_exchange")

/* Four SRC points, most time first: three MPI_Waitall at one line, reached
 * through update_halo from two lines of hydro and through advection, and an
 * MPI_Allreduce alone at its line. */
static const char *const keys[] = {
    "MPI_Waitall" EXCHANGE FRAME("update_halo.f90", 120, "update_halo") FRAME("hydro.f90", 50, "hydro"),
    "MPI_Waitall" EXCHANGE FRAME("update_halo.f90", 120, "update_halo") FRAME("hydro.f90", 77, "hydro"),
    "MPI_Waitall" EXCHANGE FRAME("advection.f90", 30, "advection") FRAME("hydro.f90", 60, "hydro"),
    "MPI_Allreduce" FRAME("field_summary.f90", 90, "field_summary") FRAME("hydro.f90", 95, "hydro"),
};
#define NSRC (int)(sizeof keys / sizeof keys[0])

static mpp_reduced_src_t srcs[NSRC];
static mpp_reduced_cell_t cells[NSRC];
static mpp_reduced_t rd;
static mpp_interval_result_t whole;
static mpp_report_t report;

static void setup(void)
{
    memset(&rd, 0, sizeof rd);
    memset(&whole, 0, sizeof whole);
    memset(cells, 0, sizeof cells);
    for (int s = 0; s < NSRC; s++) {
        srcs[s] = (mpp_reduced_src_t){.id = s + 1};
        srcs[s].nframes = mpp_srckey_parse(keys[s], &srcs[s].function, &srcs[s].frames);
        cells[s] = (mpp_reduced_cell_t){.interval = 0, .src = s, .calls = 100, .time = {.sum = 4.0 - s}};
    }
    rd.srcs = srcs;
    rd.nsrcs = NSRC;
    rd.cells = cells;
    rd.ncells = NSRC;
    whole.main[MPP_M_IMBALANCE] = NAN;
    report = (mpp_report_t){.reduced = &rd, .results = &whole};
}

static void teardown(void)
{
    for (int s = 0; s < NSRC; s++) {
        free(srcs[s].function);
        mpp_srckey_free_frames(srcs[s].frames, srcs[s].nframes);
    }
}

static char *headline(void)
{
    char *text = NULL;
    size_t length;
    FILE *f = open_memstream(&text, &length);
    mpp_write_headline(f, &report);
    fclose(f);
    return text;
}

START_TEST(test_headline_tells_call_sites_apart)
{
    char *text = headline();
    /* the first frame where each stack differs from the others of its line */
    ck_assert_msg(strstr(text, "#1 SRC 1 MPI_Waitall at clover.f90:413 (clover_exchange) <- ... <- hydro.f90:50 "
                               "(hydro): 4.000000 s in 100 calls\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "#2 SRC 2 MPI_Waitall at clover.f90:413 (clover_exchange) <- ... <- hydro.f90:77 "
                               "(hydro): 3.000000 s in 100 calls\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "#3 SRC 3 MPI_Waitall at clover.f90:413 (clover_exchange) <- advection.f90:30 "
                               "(advection): 2.000000 s in 100 calls\n"),
                  "%s", text);
    free(text);
}
END_TEST

START_TEST(test_headline_first_frame_when_unique)
{
    /* The other two calls at that line are of another function: the first
     * frame tells SRC 1 apart, and SRC 4 is alone at its line anyway. */
    cells[1].time.sum = cells[2].time.sum = 0.5;
    for (int s = 1; s <= 2; s++) {
        free(srcs[s].function);
        srcs[s].function = strdup("MPI_Wait");
    }
    char *text = headline();
    ck_assert_msg(strstr(text, "#1 SRC 1 MPI_Waitall at clover.f90:413 (clover_exchange): 4.000000 s"), "%s", text);
    ck_assert_msg(strstr(text, "#2 SRC 4 MPI_Allreduce at field_summary.f90:90 (field_summary): 1.000000 s"), "%s",
                  text);
    free(text);
}
END_TEST

Suite *headline_suite(void)
{
    Suite *s = suite_create("headline");
    TCase *tc = tcase_create("summary");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_headline_tells_call_sites_apart);
    tcase_add_test(tc, test_headline_first_frame_when_unique);
    suite_add_tcase(s, tc);
    return s;
}
