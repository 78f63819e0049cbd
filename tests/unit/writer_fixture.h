/* The writers' unit tests share one hand-made report (writer_fixture.c):
 * 2 processes, interval 0, 2 SRC points (KEY_ALLR, KEY_SEND), set up by
 * setup_report() as a Check fixture, and helpers that read what a writer
 * produced. */
#ifndef MPP_UNIT_WRITER_FIXTURE_H
#define MPP_UNIT_WRITER_FIXTURE_H

#include <jansson.h>

#include "analyze/characteristics.h"
#include "autoconf.h"
#include "context/config.h"
#include "suites.h"
#include "write/writer.h"

#define TOL 1e-9

#define KEY_ALLR                            \
    "MPI_Allreduce\x1e/home/u/jacobi.c\x1f" \
    "88\x1f"                                \
    "exchange\x1f"                          \
    "jacobi.c:88 (exchange)"                \
    "\x1e/home/u/main.c\x1f"                \
    "40\x1f"                                \
    "main\x1f"                              \
    "main.c:40 (main)"
#define KEY_SEND                \
    "MPI_Send\x1elibfoo.so\x1f" \
    "0\x1f\x1f"                 \
    "libfoo.so+0x1a2b"

extern mpp_run_info_t run;
extern mpp_config_t cfg;
extern mpp_reduced_t rd;
extern mpp_reduced_interval_t iv;
extern double iv_by[2 * MPP_NQ];
extern mpp_reduced_src_t srcs[2];
extern mpp_reduced_cell_t cells[2];
extern double cell_by[2][2 * MPP_NCELLV];
extern int selected[2];
extern mpp_interval_result_t res;
extern mpp_report_t report;
extern char *out_text; /* what a writer produced */

/* The interval from per-process values; `absent`: rank 1 did not enter. */
void build_interval(int absent);
void setup_report(void);
void teardown_report(void);
const char *write_text(void);
json_t *write_json(void);

/* `needles` appear in `text` in this order; returns where the last one is. */
const char *expect_in_order(const char *text, const char *const *needles);
#define EXPECT_IN_ORDER(text, ...) expect_in_order(text, (const char *const[]){__VA_ARGS__, NULL})
/* The start of the section headed `header`, which must be in `text`. */
const char *section(const char *text, const char *header);
/* The rest of the first line after `from` that begins with `label`, spaces
 * collapsed and trimmed. */
const char *rest_of_line(const char *from, const char *label);
void expect_line(const char *from, const char *label, const char *expected);

/* "a.b.0.c": objects by key, arrays by index */
json_t *path_get(json_t *root, const char *path);
void expect_real(json_t *root, const char *path, double expected);
void expect_int(json_t *root, const char *path, long long expected);
void expect_str(json_t *root, const char *path, const char *expected);
void expect_null(json_t *root, const char *path);

#endif
