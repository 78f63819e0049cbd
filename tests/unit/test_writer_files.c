/* The protocol's output path (src/write/output.c: MPIPROF_OUTPUT's
 * template, hostile and missing paths, existing files) and the files a
 * protocol is written to, on the hand-made report of writer_fixture.c. */
#include <dirent.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "writer_fixture.h"

/* --- output path and protocol files --- */

static char tmpdir[256];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

static void setup_files(void)
{
    setup_report();
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mpiprof-unit-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    ck_assert_int_eq(chdir(tmpdir), 0);
}

static void teardown_files(void)
{
    teardown_report();
    if (chdir("/") == 0)
        nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int entries_in_cwd(void)
{
    int n = 0;
    DIR *d = opendir(".");
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static const char *output_path(const char *template_text, int overwrite, int format)
{
    static char out[4096];
    memset(out, 0, sizeof out);
    ck_assert_int_eq(mpp_output_path(template_text, "jacobi", 16, "node7", overwrite, format, out, sizeof out), 0);
    return out;
}

START_TEST(test_writer_output_template)
{
    ck_assert_str_eq(output_path("%p-%n-%h-%%.prof", 0, MPP_FORMAT_TEXT), "jacobi-16-node7-%.prof");
    ck_assert_str_eq(output_path("plain.txt", 0, MPP_FORMAT_TEXT), "plain.txt");
    ck_assert_str_eq(output_path("%%p%%", 0, MPP_FORMAT_TEXT), "%p%");
    ck_assert_str_eq(output_path("end%", 0, MPP_FORMAT_TEXT), "end%"); /* a trailing % is kept */
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    /* %u: date, time and process id */
    const char *u = output_path("%u.prof", 0, MPP_FORMAT_TEXT);
    char pid[32];
    snprintf(pid, sizeof pid, "-%ld.prof", (long)getpid());
    ck_assert_uint_eq(strlen(u), strlen(pid) + 15); /* YYYYMMDD-HHMMSS */
    ck_assert_str_eq(u + strlen(u) - strlen(pid), pid);
    ck_assert_int_eq(u[8], '-');
    /* an absolute path in an existing directory is kept */
    char abs[512], expected[512];
    snprintf(abs, sizeof abs, "%s/%%p.out", tmpdir);
    snprintf(expected, sizeof expected, "%s/jacobi.out", tmpdir);
    ck_assert_str_eq(output_path(abs, 0, MPP_FORMAT_TEXT), expected);
    ck_assert_uint_eq(mpp_warnings_count(), 0);
}
END_TEST

START_TEST(test_writer_output_unknown_placeholder)
{
    ck_assert_str_eq(output_path("run-%q.prof", 0, MPP_FORMAT_TEXT), "run-%q.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_OUTPUT='run-%q.prof'", "'%q'"), 0);
}
END_TEST

START_TEST(test_writer_output_missing_directory)
{
    ck_assert_str_eq(output_path("nodir/sub/out.prof", 0, MPP_FORMAT_TEXT), "out.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("'nodir/sub/out.prof'", "working directory", "out.prof"), 0);
    /* a path whose directory is a file */
    touch("afile");
    mpp_warnings_reset();
    ck_assert_str_eq(output_path("afile/%p.prof", 0, MPP_FORMAT_TEXT), "jacobi.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    if (geteuid() != 0) { /* root writes anywhere */
        ck_assert_int_eq(mkdir("readonly", 0500), 0);
        mpp_warnings_reset();
        ck_assert_str_eq(output_path("readonly/x.prof", 0, MPP_FORMAT_TEXT), "x.prof");
        ck_assert_uint_eq(mpp_warnings_count(), 1);
    }
}
END_TEST

/* Directories root can "access" but not write to, a directory named as the
 * output, file names too long for the file system. */
START_TEST(test_writer_output_hostile_paths)
{
    /* /proc: access(W_OK) succeeds for root, creating a file does not */
    ck_assert_str_eq(output_path("/proc/x.prof", 0, MPP_FORMAT_TEXT), "x.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("'/proc/x.prof'", "working directory", "x.prof"), 0);
    /* an existing directory: the default name inside it */
    ck_assert_int_eq(mkdir("outdir", 0700), 0);
    mpp_warnings_reset();
    const char *p = output_path("outdir", 0, MPP_FORMAT_TEXT);
    ck_assert_msg(!strncmp(p, "outdir/jacobi.16p.", 18), "%s", p);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("'outdir' is a directory", p), 0);
    /* a long program name: the file name is cut to what a file system takes */
    char program[256], out[4096];
    memset(program, 'P', 250);
    program[250] = '\0';
    mpp_warnings_reset();
    ck_assert_int_eq(mpp_output_path("%p.prof", program, 2, "h", 0, MPP_FORMAT_BOTH, out, sizeof out), 0);
    ck_assert_uint_eq(strlen(out), NAME_MAX - 32);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_OUTPUT: the protocol is written to", "longer than"), 0);
    /* a template that expands past PATH_MAX: the default instead */
    static char many[1000];
    for (int i = 0; i < 998; i += 2)
        memcpy(many + i, "%p", 2);
    mpp_warnings_reset();
    ck_assert_int_eq(mpp_output_path(many, program, 2, "h", 0, MPP_FORMAT_TEXT, out, sizeof out), 0);
    ck_assert_uint_eq(mpp_warnings_count(), 2); /* the default's name is cut too */
    ck_assert_int_ge(UNIT_WARNING_WITH("expands to a path longer than"), 0);
    ck_assert_msg(!strncmp(out, "PPPP", 4) && !strchr(out, '/'), "%s", out);
}
END_TEST

START_TEST(test_writer_output_existing_file)
{
    touch("out.prof");
    ck_assert_str_eq(output_path("out.prof", 0, MPP_FORMAT_TEXT), "out.prof.1");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("'out.prof' exists", "'out.prof.1'"), 0);
    touch("out.prof.1");
    ck_assert_str_eq(output_path("out.prof", 0, MPP_FORMAT_TEXT), "out.prof.2");
    /* overwrite: the name as asked, no warning */
    mpp_warnings_reset();
    ck_assert_str_eq(output_path("out.prof", 1, MPP_FORMAT_TEXT), "out.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    /* which file counts depends on the format */
    ck_assert_str_eq(output_path("out.prof", 0, MPP_FORMAT_JSON), "out.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    touch("j.prof.json");
    ck_assert_str_eq(output_path("j.prof", 0, MPP_FORMAT_TEXT), "j.prof");
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    ck_assert_str_eq(output_path("j.prof", 0, MPP_FORMAT_JSON), "j.prof.1");
    ck_assert_str_eq(output_path("j.prof", 0, MPP_FORMAT_BOTH), "j.prof.1");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    /* the page counts when it is written */
    mpp_warnings_reset();
    touch("h.prof.html");
    ck_assert_str_eq(output_path("h.prof", 0, MPP_FORMAT_BOTH), "h.prof");
    ck_assert_str_eq(output_path("h.prof", 0, MPP_FORMAT_TEXT | MPP_FORMAT_HTML), "h.prof.1");
    ck_assert_int_ge(UNIT_WARNING_WITH("'h.prof.html' exists", "'h.prof.1'"), 0);
}
END_TEST

START_TEST(test_writer_protocol_files)
{
    ck_assert_int_eq(mpp_write_protocol(&report, "run.txt", MPP_FORMAT_BOTH), 0);
    ck_assert(file_exists("run.txt"));
    ck_assert(file_exists("run.txt.json"));
    ck_assert_int_eq(entries_in_cwd(), 2); /* no temporary file left */
    json_error_t error;
    json_t *doc = json_load_file("run.txt.json", 0, &error);
    ck_assert_ptr_nonnull(doc);
    expect_str(doc, "format", "mpiprof-protocol");
    json_decref(doc);
    FILE *f = fopen("run.txt", "r");
    char first[64] = "";
    ck_assert_ptr_nonnull(fgets(first, sizeof first, f));
    fclose(f);
    ck_assert_str_eq(first, "mpiprof protocol\n");

    ck_assert_int_eq(mpp_write_protocol(&report, "t.txt", MPP_FORMAT_TEXT), 0);
    ck_assert(file_exists("t.txt"));
    ck_assert(!file_exists("t.txt.json"));
    ck_assert_int_eq(mpp_write_protocol(&report, "j.txt", MPP_FORMAT_JSON), 0);
    ck_assert(!file_exists("j.txt"));
    ck_assert(file_exists("j.txt.json"));
    ck_assert_int_eq(entries_in_cwd(), 4);
    ck_assert_uint_eq(mpp_warnings_count(), 0);

    /* the page: checked and drawn from the same document as the JSON */
    ck_assert_int_eq(mpp_write_protocol(&report, "a.txt", MPP_FORMAT_ALL), 0);
    ck_assert(file_exists("a.txt") && file_exists("a.txt.json") && file_exists("a.txt.html"));
    ck_assert_int_eq(mpp_write_protocol(&report, "h.txt", MPP_FORMAT_HTML), 0);
    ck_assert(!file_exists("h.txt") && !file_exists("h.txt.json") && file_exists("h.txt.html"));
    ck_assert_int_eq(entries_in_cwd(), 8);
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    f = fopen("a.txt.html", "r");
    ck_assert_ptr_nonnull(f);
    static char page[1 << 20];
    size_t n = fread(page, 1, sizeof page - 1, f);
    fclose(f);
    page[n] = '\0';
    ck_assert_msg(!strncmp(page, "<!DOCTYPE html>", 15), "%.80s", page);
    ck_assert_ptr_nonnull(strstr(page, "<script type=\"application/json\" id=\"mpiprof-data\">{\"view\":1,"));
    ck_assert_ptr_nonnull(strstr(page, "\"label\":\"a.txt\""));
    ck_assert_ptr_nonnull(strstr(page, "</html>"));
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_writer_bad_args)
{
    /* an interval without cells */
    int n = -1;
    int *ids = mpp_interval_cells_by_time(&report, 5, &n);
    ck_assert_ptr_nonnull(ids);
    ck_assert_int_eq(n, 0);
    free(ids);
    rd.ncells = 0;
    const char *t = write_text();
    expect_line(section(t, "--- SRC points ---"), "", "no MPI calls in this interval");
    free(out_text);
    out_text = NULL;
    json_t *doc = write_json();
    ck_assert_uint_eq(json_array_size(path_get(doc, "intervals.0.src")), 0);
    json_decref(doc);
    /* a one-byte output buffer: nothing written past it */
    char small[4] = {'x', 'y', 'y', 'y'};
    ck_assert_int_eq(mpp_output_path("plain.txt", "p", 1, "h", 1, MPP_FORMAT_TEXT, small, 1), 0);
    ck_assert_int_eq(small[0], '\0');
    ck_assert_int_eq(small[1], 'y');
    /* a protocol that cannot be created: -1 and a warning, nothing left behind */
    ck_assert_int_eq(mpp_write_protocol(&report, "no/such/dir/run.txt", MPP_FORMAT_TEXT), -1);
    ck_assert_int_ge(UNIT_WARNING_WITH("no/such/dir/run.txt"), 0);
    ck_assert_int_eq(entries_in_cwd(), 0);
}
END_TEST

Suite *writer_files_suite(void)
{
    Suite *s = suite_create("writer_files");
    TCase *tc;

    tc = tcase_create("output");
    tcase_add_checked_fixture(tc, setup_files, teardown_files);
    tcase_add_test(tc, test_writer_output_template);
    tcase_add_test(tc, test_writer_output_unknown_placeholder);
    tcase_add_test(tc, test_writer_output_missing_directory);
    tcase_add_test(tc, test_writer_output_hostile_paths);
    tcase_add_test(tc, test_writer_output_existing_file);
    tcase_add_test(tc, test_writer_protocol_files);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup_files, teardown_files);
    tcase_add_test(tc, test_writer_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
