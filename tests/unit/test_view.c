/* The page writer (src/write/view*.c): what it refuses, the source lines
 * it reads, and the page it writes. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites.h"
#include "write/view.h"

/* The member at a path of keys and [indexes], such as intervals[1].real. */
static json_t *at(json_t *root, const char *path)
{
    char key[128];
    const char *p = path;
    json_t *v = root;
    while (*p && v) {
        if (*p == '.')
            p++;
        if (*p == '[') {
            v = json_array_get(v, strtoul(p + 1, NULL, 10));
            p = strchr(p, ']') + 1;
            continue;
        }
        size_t n = strcspn(p, ".[");
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        v = json_object_get(v, key);
        p += n;
    }
    return v;
}

/* Set (or, with NULL, delete) the member at `path`. */
static void set_at(json_t *root, const char *path, json_t *value)
{
    char parent[256];
    snprintf(parent, sizeof parent, "%s", path);
    char *dot = strrchr(parent, '.');
    const char *key = dot ? dot + 1 : parent;
    json_t *holder = root;
    if (dot) {
        *dot = '\0';
        holder = at(root, parent);
    }
    ck_assert_msg(holder != NULL, "no %s", path);
    if (value)
        json_object_set_new(holder, key, value);
    else
        json_object_del(holder, key);
}

static void expect_refused(json_t *doc, const char *needle)
{
    char why[1024] = "";
    ck_assert_int_eq(mpp_view_check(doc, why, sizeof why), -1);
    ck_assert_msg(strstr(why, needle) != NULL, "expected '%s' in: %s", needle, why);
    json_decref(doc);
}

START_TEST(test_view_check_example)
{
    json_t *doc = unit_example_protocol();
    char why[512] = "";
    ck_assert_msg(mpp_view_check(doc, why, sizeof why) == 0, "%s", why);
    json_decref(doc);
}
END_TEST

START_TEST(test_view_check_not_a_protocol)
{
    expect_refused(json_pack("[i]", 1), "the document: an array, but a protocol is an object");
    expect_refused(json_pack("{s:s}", "format", "mpiprof-hang-dump"), "format: \"mpiprof-hang-dump\", but");
    expect_refused(json_pack("{s:i}", "a", 1), "format: missing");
    json_t *doc = unit_example_protocol();
    set_at(doc, "version", json_integer(2));
    expect_refused(doc, "version: 2, but this mpiprof reads protocols of version 1");
}
END_TEST

START_TEST(test_view_check_members)
{
    static const struct {
        const char *path;
        const char *value;
        const char *needle;
    } cases[] = {
        {"intervals", NULL, "intervals: missing (an array is required)"},
        {"intervals", "[]", "intervals: empty"},
        {"parameters.processes", "0", "parameters.processes: 0, but at least 1"},
        {"parameters.warnings", "[1]", "parameters.warnings[0]: 1, but a string is required"},
        {"parameters.partial", "true", "parameters.partial: true, but false or an object"},
        {"intervals[1].real.main.lost_time", "\"3\"",
         "intervals[1].real.main.lost_time: a string, but a number >= 0 or null"},
        {"intervals[0].real.main.parallelization_efficiency", "1.5",
         "parallelization_efficiency: 1.5, but a number from 0 to 1"},
        {"intervals[0].real.main.idle_time", "-1.0", "intervals[0].real.main.idle_time: -1, but a number >= 0"},
        {"intervals[0].real.comparative.lost_time.max_rank", NULL, "comparative.lost_time.max_rank: missing"},
        {"intervals[1].real.by_process.idle_time", "[0.1]", "by_process.idle_time: 1 entries, but 2 are required"},
        {"intervals[1].src[0].time.sum", NULL, "intervals[1].src[0].time.sum: missing (a number >= 0 is required)"},
        {"intervals[1].src[1].calls", "2.5", "intervals[1].src[1].calls: 2.5, but an integer >= 0"},
        {"intervals[1].src[0].by_process.calls", "[1]", "src[0].by_process.calls: 1 entries"},
        {"intervals[0].src[0].stack", "[{\"file\": \"a.c\"}]", "intervals[0].src[0].stack[0].path: missing"},
        {"intervals[0].src[0].stack[0].line", "0", "line 0, but a line number from 1"},
        {"intervals[1].parent", "7", "intervals[1]: parent 7 is no interval listed before it"},
        {"intervals[1].parent", "null", "intervals[1].parent: null, but an integer >= 0 is required"},
        {"intervals[0].id", "3", "the first interval has id 3"},
        {"intervals[1].predicted", "[]", "intervals[1].predicted: an array, but an object or null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *doc = unit_example_protocol();
        json_error_t error;
        set_at(doc, cases[i].path, cases[i].value ? json_loads(cases[i].value, JSON_DECODE_ANY, &error) : NULL);
        expect_refused(doc, cases[i].needle);
    }
    /* n/a where the schema allows it is no refusal */
    json_t *doc = unit_example_protocol();
    set_at(doc, "intervals[1].predicted", json_null());
    set_at(doc, "intervals[1].real.main.lost_time", json_null());
    set_at(doc, "intervals[0].src[1].real_sync", json_null());
    char why[256] = "";
    ck_assert_msg(mpp_view_check(doc, why, sizeof why) == 0, "%s", why);
    json_decref(doc);
}
END_TEST

/* --- source excerpts --- */

static char dir[64];

static void write_lines(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 1; i <= n; i++)
        fprintf(f, "line %d%s\n", i, i == 5 ? " </script><!--" : "");
    fclose(f);
}

static void setup_sources(void)
{
    snprintf(dir, sizeof dir, "/tmp/mpiprof-view-test.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/a.c", dir);
    write_lines(path, 20);
    snprintf(path, sizeof path, "%s/sub", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/sub/b.c", dir);
    write_lines(path, 3);
}

static void teardown_sources(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A protocol whose one SRC point has the frames (path, line) given. */
static json_t *doc_with_frames(const char *cwd, const char *const *paths, const int *lines, int n)
{
    json_t *doc = unit_example_protocol(), *stack = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(stack, json_pack("{s:s, s:s, s:i, s:s, s:s}", "file", "x", "path", paths[i], "line",
                                               lines[i], "function", "f", "text", "x:1 (f)"));
    set_at(doc, "parameters.working_directory", json_string(cwd));
    set_at(doc, "intervals[0].src[0].stack", stack);
    return doc;
}

START_TEST(test_view_sources_lines)
{
    char a[128], rel_dir[128];
    snprintf(a, sizeof a, "%s/a.c", dir);
    snprintf(rel_dir, sizeof rel_dir, "%s/sub", dir);
    const char *paths[] = {a, a, "b.c", "/nonexistent/c.c"};
    const int lines[] = {2, 10, 3, 7};
    json_t *doc = doc_with_frames(rel_dir, paths, lines, 4);
    json_t *sources = mpp_view_sources(doc, NULL);
    /* a.c: lines 1-5 (around 2) and 7-13 (around 10), nothing else */
    json_t *lines_a = json_object_get(json_object_get(sources, a), "lines");
    ck_assert_ptr_nonnull(lines_a);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(sources, a), "line_count")), 20);
    ck_assert_str_eq(json_string_value(json_object_get(lines_a, "1")), "line 1");
    ck_assert_str_eq(json_string_value(json_object_get(lines_a, "5")), "line 5 </script><!--");
    ck_assert_ptr_null(json_object_get(lines_a, "6"));
    ck_assert_str_eq(json_string_value(json_object_get(lines_a, "13")), "line 13");
    ck_assert_ptr_null(json_object_get(lines_a, "14"));
    ck_assert_int_eq(json_object_size(lines_a), 12);
    /* relative: from the run's working directory, up to its end */
    json_t *b = json_object_get(sources, "b.c");
    ck_assert_int_eq(json_integer_value(json_object_get(b, "line_count")), 3);
    ck_assert_int_eq(json_object_size(json_object_get(b, "lines")), 3);
    /* missing: said, with why and where */
    const char *why = json_string_value(json_object_get(json_object_get(sources, "/nonexistent/c.c"), "missing"));
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(strstr(why, "No such file or directory") && strstr(why, "/nonexistent/c.c"), "%s", why);
    json_decref(sources);
    json_decref(doc);
}
END_TEST

START_TEST(test_view_sources_elsewhere)
{
    /* the run's sources moved: --source finds them below the working
     * directory's place, then by file name */
    const char *paths[] = {"/run/dir/sub/b.c", "/other/place/a.c", "/run/dir/gone.c"};
    const int lines[] = {1, 1, 1};
    json_t *doc = doc_with_frames("/run/dir", paths, lines, 3);
    mpp_view_options_t options = {.source_dir = dir};
    json_t *sources = mpp_view_sources(doc, &options);
    char expected[128];
    snprintf(expected, sizeof expected, "%s/sub/b.c", dir);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(sources, "/run/dir/sub/b.c"), "file")),
                     expected);
    snprintf(expected, sizeof expected, "%s/a.c", dir);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(sources, "/other/place/a.c"), "file")),
                     expected);
    const char *why = json_string_value(json_object_get(json_object_get(sources, "/run/dir/gone.c"), "missing"));
    ck_assert_ptr_nonnull(why);
    snprintf(expected, sizeof expected, "%s/gone.c", dir);
    ck_assert_msg(strstr(why, expected) && strstr(why, "/run/dir/gone.c"), "%s", why);
    /* a directory is no source file */
    const char *dir_path[] = {dir};
    json_t *doc2 = doc_with_frames("/", dir_path, lines, 1);
    json_t *sources2 = mpp_view_sources(doc2, NULL);
    why = json_string_value(json_object_get(json_object_get(sources2, dir), "missing"));
    ck_assert_msg(why && strstr(why, "not a regular file"), "%s", why ? why : "(read)");
    json_decref(sources2), json_decref(doc2);
    json_decref(sources);
    json_decref(doc);
}
END_TEST

/* --- the page --- */

/* not inlined: GCC 12 takes the page for a pointer to the local "text" (-Wdangling-pointer) */
static __attribute__((noinline)) char *page_of(json_t *const *docs, int n, int *rc, char *why, size_t size)
{
    char *text = NULL;
    size_t length = 0;
    FILE *f = open_memstream(&text, &length);
    const char *labels[] = {"a", "b"};
    *rc = mpp_view_write(f, docs, labels, n, NULL, why, size);
    fclose(f);
    return text;
}

START_TEST(test_view_page)
{
    json_t *doc = unit_example_protocol();
    set_at(doc, "intervals[1].name", json_string("</script><script>alert(1)</script><!--"));
    char why[256] = "";
    int rc;
    char *page = page_of(&doc, 1, &rc, why, sizeof why);
    ck_assert_msg(rc == 0, "%s", why);
    ck_assert_msg(!strncmp(page, mpp_view_page_head, strlen(mpp_view_page_head)),
                  "the page begins with the template");
    ck_assert_msg(!strcmp(page + strlen(page) - strlen(mpp_view_page_tail), mpp_view_page_tail), "and ends with it");
    /* the one "</script>" of the data block is its end, and no "<!--" opens in it */
    char *data = page + strlen(mpp_view_page_head);
    char *end = strstr(data, "</script>");
    ck_assert_ptr_eq(end, page + strlen(page) - strlen(mpp_view_page_tail));
    ck_assert_ptr_null(memmem(data, (size_t)(end - data), "<", 1));
    ck_assert_ptr_nonnull(strstr(data, "\\u003c/script>\\u003cscript>alert(1)"));
    /* the data: stacks once per SRC number, not in every interval */
    *end = '\0';
    json_error_t error;
    json_t *d = json_loads(data, 0, &error);
    ck_assert_msg(d != NULL, "data block: %s", error.text);
    ck_assert_int_eq(json_integer_value(json_object_get(d, "view")), 1);
    json_t *p = json_array_get(json_object_get(d, "protocols"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(p, "label")), "a");
    ck_assert_ptr_null(at(p, "doc.intervals[0].src[0].stack"));
    ck_assert_ptr_null(at(p, "doc.intervals[1].src[0].stack"));
    char first_stack[64]; /* by the SRC number of interval 0's first SRC point */
    snprintf(first_stack, sizeof first_stack, "doc.stacks.%lld",
             (long long)json_integer_value(at(doc, "intervals[0].src[0].id")));
    ck_assert(json_equal(at(p, first_stack), at(doc, "intervals[0].src[0].stack")));
    ck_assert(json_equal(at(p, "doc.intervals[1].src[0].time"), at(doc, "intervals[1].src[0].time")));
    ck_assert_ptr_nonnull(at(p, "sources"));
    json_decref(d);
    free(page);
    json_decref(doc);
}
END_TEST

START_TEST(test_view_page_refused)
{
    json_t *docs[2] = {unit_example_protocol(), unit_example_protocol()};
    set_at(docs[1], "intervals[0].real", NULL);
    char why[512] = "";
    int rc;
    char *page = page_of(docs, 2, &rc, why, sizeof why);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(page, ""); /* nothing of the page */
    ck_assert_msg(strstr(why, "b: not a valid mpiprof protocol: intervals[0].real: missing"), "%s", why);
    free(page);
    page = page_of(docs, 0, &rc, why, sizeof why);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(why, "0 protocols given"), "%s", why);
    free(page);
    json_decref(docs[0]), json_decref(docs[1]);
}
END_TEST

Suite *view_suite(void)
{
    Suite *s = suite_create("view");
    TCase *check = tcase_create("check");
    tcase_add_test(check, test_view_check_example);
    tcase_add_test(check, test_view_check_not_a_protocol);
    tcase_add_test(check, test_view_check_members);
    suite_add_tcase(s, check);
    TCase *sources = tcase_create("sources");
    tcase_add_checked_fixture(sources, setup_sources, teardown_sources);
    tcase_add_test(sources, test_view_sources_lines);
    tcase_add_test(sources, test_view_sources_elsewhere);
    suite_add_tcase(s, sources);
    TCase *page = tcase_create("page");
    tcase_add_test(page, test_view_page);
    tcase_add_test(page, test_view_page_refused);
    suite_add_tcase(s, page);
    return s;
}
