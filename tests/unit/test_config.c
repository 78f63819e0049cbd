/* MPIPROF_* parsing (src/context/config.c): defaults, good values of every
 * kind, malformed values (one warning naming variable, value and default;
 * the default used), and the selection of ranks for per-process columns. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/config.h"
#include "suites.h"
#include "util/common.h"

/* --- an injected environment --- */

#define MAX_FAKE 16
static struct {
    const char *name, *value;
} fake[MAX_FAKE];
static int nfake;

static void fake_set(const char *name, const char *value)
{
    ck_assert_int_lt(nfake, MAX_FAKE);
    fake[nfake].name = name;
    fake[nfake].value = value;
    nfake++;
}

static const char *fake_getenv(const char *name)
{
    for (int i = 0; i < nfake; i++)
        if (!strcmp(fake[i].name, name))
            return fake[i].value;
    return NULL;
}

static const char *null_getenv(const char *name)
{
    (void)name;
    return NULL;
}

static void setup(void)
{
    nfake = 0;
    unit_reset_warnings();
}

static void teardown(void)
{
    nfake = 0;
    mpp_warnings_reset();
}

/* Number the default of `id` parses to. */
static long default_number(int id)
{
    mpp_config_t cfg;
    mpp_config_parse(&cfg, null_getenv);
    return cfg.number[id];
}

/* MPIPROF_<name>=value alone: accepted with `number`, no warning. */
static void expect_accepted(int id, const char *value, long number)
{
    char env[64];
    mpp_config_t cfg;
    snprintf(env, sizeof env, "MPIPROF_%s", mpp_vars[id].name);
    nfake = 0;
    mpp_warnings_reset();
    fake_set(env, value);
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_msg(!cfg.is_default[id], "%s='%s' should be accepted", env, value);
    ck_assert_msg(cfg.number[id] == number, "%s='%s' gives %ld, expected %ld", env, value, cfg.number[id], number);
    ck_assert_str_eq(cfg.text[id], value);
    ck_assert_msg(mpp_warnings_count() == 0, "%s='%s' gave a warning: %s", env, value, mpp_warning_text(0));
}

/* MPIPROF_<name>=value alone: exactly one warning naming the variable, the
 * value as shown (`shown`) and the default; the default in effect. */
static void expect_rejected(int id, const char *value, const char *shown)
{
    char env[64], named[MPP_WARNING_LEN], def[MPP_CONFIG_STRING_MAX + 4];
    mpp_config_t cfg;
    long number = default_number(id);
    snprintf(env, sizeof env, "MPIPROF_%s", mpp_vars[id].name);
    snprintf(named, sizeof named, "%s='%s'", env, shown);
    snprintf(def, sizeof def, "'%s'", mpp_vars[id].default_value);
    nfake = 0;
    mpp_warnings_reset();
    fake_set(env, value);
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_msg(cfg.is_default[id], "%s='%s' should be rejected", env, shown);
    ck_assert_str_eq(cfg.text[id], mpp_vars[id].default_value);
    ck_assert_int_eq(cfg.number[id], number);
    ck_assert_msg(mpp_warnings_count() == 1, "%s='%s': %zu warnings, expected 1", env, shown, mpp_warnings_count());
    const char *w = mpp_warning_text(0);
    ck_assert_msg(strstr(w, named) != NULL, "warning does not name %s: %s", named, w);
    ck_assert_msg(strstr(w, def) != NULL, "warning does not name the default %s: %s", def, w);
    ck_assert_msg(strstr(w, mpp_vars[id].accepted) != NULL, "warning does not say what is accepted: %s", w);
    for (const char *c = w; *c; c++)
        ck_assert_msg((unsigned char)*c >= 0x20 && *c != 0x7f, "warning carries a control character: %s", w);
    /* every other variable untouched */
    for (int i = 0; i < MPP_NVARS; i++)
        ck_assert_int_eq(cfg.is_default[i], 1);
}

/* --- defaults --- */

START_TEST(test_config_defaults)
{
    mpp_config_t cfg;
    memset(&cfg, 0x5a, sizeof cfg);
    mpp_config_parse(&cfg, null_getenv);
    ck_assert_int_eq(MPP_NVARS, 28); /* a new variable needs its default tested here */
    for (int i = 0; i < MPP_NVARS; i++) {
        ck_assert_int_eq(cfg.is_default[i], 1);
        ck_assert_str_eq(cfg.text[i], mpp_vars[i].default_value);
    }
    ck_assert_str_eq(cfg.text[MPP_CFG_OUTPUT], "%p.%np.%u.prof");
    ck_assert_str_eq(cfg.text[MPP_CFG_TEST_CLOCK_SKEW], "0");       /* no skew */
    ck_assert_str_eq(cfg.text[MPP_CFG_TEST_CLOCK_PONG_DELAY], "0"); /* no slow reply */
    ck_assert_int_eq(cfg.number[MPP_CFG_TEST_CLOCK_PONG_SPLIT], 0); /* ... nor one split */
    ck_assert_int_eq(cfg.number[MPP_CFG_OUTPUT], 0);
    ck_assert_str_eq(cfg.text[MPP_CFG_FORMAT], "text");
    ck_assert_int_eq(cfg.number[MPP_CFG_FORMAT], MPP_FORMAT_TEXT);
    ck_assert_int_eq(cfg.number[MPP_CFG_DEPTH], 4);
    ck_assert_str_eq(cfg.text[MPP_CFG_RANKS], "auto");
    ck_assert_int_eq(cfg.number[MPP_CFG_RANKS], 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_DISABLE], 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_QUIET], 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_OVERWRITE], 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_MAX_SRC], 16384);
    ck_assert_int_eq(cfg.number[MPP_CFG_MATRIX], 1); /* the communication matrix on */
    ck_assert_int_eq(cfg.number[MPP_CFG_MATRIX_RANKS], 64);
    ck_assert_int_eq(cfg.number[MPP_CFG_CHECK], MPP_CHECK_OFF);
    ck_assert_int_eq(cfg.number[MPP_CFG_MAX_FINDINGS], 1024);
    ck_assert_int_eq(cfg.number[MPP_CFG_UNWIND], MPP_UNWIND_AUTO);
    ck_assert_int_eq(cfg.number[MPP_CFG_CLOCK], MPP_CLOCK_AUTO);
    ck_assert_int_eq(cfg.number[MPP_CFG_MAX_INTERVALS], 1024);
    ck_assert_int_eq(cfg.number[MPP_CFG_MAX_NESTING], 64);
    ck_assert_str_eq(cfg.text[MPP_CFG_PAPI_EVENTS], "PAPI_TOT_INS,PAPI_TOT_CYC");
    ck_assert_int_eq(cfg.number[MPP_CFG_PAPI_SRC], 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_PREDICT], 1);
    ck_assert_str_eq(cfg.text[MPP_CFG_MODEL], "calibrate");
    ck_assert_int_eq(cfg.number[MPP_CFG_WAITSTATES], 1);
    ck_assert_int_eq(cfg.number[MPP_CFG_SYNC_BATCH], 256);
    ck_assert_int_eq(cfg.number[MPP_CFG_HANG_TIMEOUT], 0); /* off */
    ck_assert_int_eq(cfg.number[MPP_CFG_TRACE], 0);        /* off */
    ck_assert_int_eq(cfg.number[MPP_CFG_TRACE_BUFFER], 16777216);
    ck_assert_int_eq(mpp_warnings_count(), 0);
}
END_TEST

START_TEST(test_config_table_complete)
{
    for (int i = 0; i < MPP_NVARS; i++) {
        const mpp_var_info_t *v = &mpp_vars[i];
        ck_assert_msg(v->name && *v->name, "variable %d has no name", i);
        ck_assert_msg(v->default_value && v->accepted && *v->accepted, "%s: no default or accepted", v->name);
        ck_assert_msg(v->description && strlen(v->description) > 20, "%s: no description", v->name);
        if (v->kind == MPP_VT_INT) {
            long d = atol(v->default_value);
            ck_assert_msg(v->min <= d && d <= v->max, "%s: default outside %ld..%ld", v->name, v->min, v->max);
        }
    }
    ck_assert_str_eq(mpp_vars[MPP_CFG_DEPTH].name, "DEPTH");
    ck_assert_int_eq(mpp_vars[MPP_CFG_DEPTH].max, MPP_MAX_DEPTH);
}
END_TEST

/* --- good values --- */

START_TEST(test_config_bool_values)
{
    static const struct {
        const char *text;
        long value;
    } cases[] = {{"yes", 1},  {"NO", 0},    {"1", 1}, {"off", 0}, {"On", 1},
                 {"TRUE", 1}, {"false", 0}, {"0", 0}, {"y", 1},   {"N", 0}};
    static const int bools[] = {MPP_CFG_DISABLE,  MPP_CFG_QUIET,   MPP_CFG_OVERWRITE,
                                MPP_CFG_PAPI_SRC, MPP_CFG_PREDICT, MPP_CFG_TRACE};
    for (size_t b = 0; b < MPP_ARRAY_LEN(bools); b++)
        for (size_t i = 0; i < MPP_ARRAY_LEN(cases); i++)
            expect_accepted(bools[b], cases[i].text, cases[i].value);
}
END_TEST

START_TEST(test_config_int_bounds)
{
    expect_accepted(MPP_CFG_DEPTH, "1", 1);
    expect_accepted(MPP_CFG_DEPTH, "16", 16);
    expect_accepted(MPP_CFG_DEPTH, "7", 7);
    expect_accepted(MPP_CFG_MAX_SRC, "16", 16);
    expect_accepted(MPP_CFG_MAX_SRC, "4194304", 4194304);
    expect_accepted(MPP_CFG_MAX_SRC, "1000", 1000);
    expect_accepted(MPP_CFG_MAX_INTERVALS, "1", 1);
    expect_accepted(MPP_CFG_MAX_INTERVALS, "1048576", 1048576);
    expect_accepted(MPP_CFG_MAX_NESTING, "1", 1);
    expect_accepted(MPP_CFG_MAX_NESTING, "4096", 4096);
    expect_accepted(MPP_CFG_HANG_TIMEOUT, "1", 1);
    expect_accepted(MPP_CFG_HANG_TIMEOUT, "604800", 604800);
    expect_accepted(MPP_CFG_TRACE_BUFFER, "262144", 262144);
    expect_accepted(MPP_CFG_TRACE_BUFFER, "1073741824", 1073741824);
}
END_TEST

START_TEST(test_config_enum_case_insensitive)
{
    expect_accepted(MPP_CFG_FORMAT, "text", MPP_FORMAT_TEXT);
    expect_accepted(MPP_CFG_FORMAT, "JSON", MPP_FORMAT_JSON);
    expect_accepted(MPP_CFG_FORMAT, "Both", MPP_FORMAT_BOTH);
    expect_accepted(MPP_CFG_FORMAT, "html", MPP_FORMAT_HTML);
    expect_accepted(MPP_CFG_FORMAT, "ALL", MPP_FORMAT_ALL);
    expect_accepted(MPP_CFG_FORMAT, "text,json,html", MPP_FORMAT_ALL);
    expect_accepted(MPP_CFG_FORMAT, "html,Text", MPP_FORMAT_HTML | MPP_FORMAT_TEXT);
    expect_accepted(MPP_CFG_FORMAT, "both,html", MPP_FORMAT_ALL);
    expect_accepted(MPP_CFG_UNWIND, "AUTO", MPP_UNWIND_AUTO);
    expect_accepted(MPP_CFG_UNWIND, "fp", MPP_UNWIND_FP);
    expect_accepted(MPP_CFG_UNWIND, "DWARF", MPP_UNWIND_DWARF);
    expect_accepted(MPP_CFG_CLOCK, "Tsc", MPP_CLOCK_TSC);
    expect_accepted(MPP_CFG_CLOCK, "monotonic", MPP_CLOCK_MONOTONIC);
    expect_accepted(MPP_CFG_CHECK, "off", MPP_CHECK_OFF);
    expect_accepted(MPP_CFG_CHECK, "Basic", MPP_CHECK_BASIC);
    expect_accepted(MPP_CFG_CHECK, "FULL", MPP_CHECK_FULL);
    expect_accepted(MPP_CFG_CHECK, "full,checksum", MPP_CHECK_FULL | MPP_CHECK_CHECKSUM);
    expect_accepted(MPP_CFG_CHECK, "basic,Checksum", MPP_CHECK_BASIC | MPP_CHECK_CHECKSUM);
}
END_TEST

START_TEST(test_config_check_rejected)
{
    static const char *const bad[] = {
        "", "on", "full,", "off,checksum", "checksum", "full,checksum,checksum", "basic,full", "full checksum"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        long v = 99;
        ck_assert_msg(mpp_config_parse_check(bad[i], &v) == -1, "'%s' accepted", bad[i]);
        ck_assert_int_eq(v, 99);
    }
}
END_TEST

START_TEST(test_config_ranks_values)
{
    expect_accepted(MPP_CFG_RANKS, "0-3,7", 0);
    expect_accepted(MPP_CFG_RANKS, "all", 0);
    expect_accepted(MPP_CFG_RANKS, "NONE", 0);
    expect_accepted(MPP_CFG_RANKS, "Auto", 0);
    expect_accepted(MPP_CFG_RANKS, "5", 0);
    expect_accepted(MPP_CFG_RANKS, "0,2,4-6,100", 0);
}
END_TEST

START_TEST(test_config_string_values)
{
    static char longest[MPP_CONFIG_STRING_MAX];
    expect_accepted(MPP_CFG_OUTPUT, "run.%n.prof", 0);
    expect_accepted(MPP_CFG_OUTPUT, "/tmp/out dir/r\xc3\xa9sultat.prof", 0); /* spaces, UTF-8 */
    expect_accepted(MPP_CFG_OUTPUT, "%n%n", 0); /* a template, printed with %s: no format injection */
    expect_accepted(MPP_CFG_PAPI_EVENTS, "sde:::lib::WORK, PAPI_TOT_CYC,perf::TASK-CLOCK", 0);
    expect_accepted(MPP_CFG_PAPI_EVENTS, "none", 0);
    memset(longest, 'a', sizeof longest - 1);
    for (size_t i = 200; i < sizeof longest - 1; i += 201)
        longest[i] = '/'; /* file names of 200 characters */
    longest[sizeof longest - 1] = '\0';
    expect_accepted(MPP_CFG_OUTPUT, longest, 0); /* MPP_CONFIG_STRING_MAX - 1 characters */
    static char name[NAME_MAX - 32 + 1];
    memset(name, 'n', sizeof name - 1);
    expect_accepted(MPP_CFG_OUTPUT, name, 0);   /* the longest file name */
    expect_accepted(MPP_CFG_OUTPUT, "end%", 0); /* a trailing % is a percent sign */
    expect_accepted(MPP_CFG_OUTPUT, "./.x", 0);
    expect_accepted(MPP_CFG_PAPI_EVENTS, "PAPI_TOT_INS", 0);
    expect_accepted(MPP_CFG_PAPI_EVENTS, "perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS,cpu=0,a.b+c/d@e", 0);
    expect_accepted(MPP_CFG_RANKS, "0,1", 0);
}
END_TEST

START_TEST(test_config_several_values)
{
    mpp_config_t cfg;
    fake_set("MPIPROF_FORMAT", "both");
    fake_set("MPIPROF_DEPTH", "8");
    fake_set("MPIPROF_OUTPUT", "x.prof");
    fake_set("MPIPROF_QUIET", "yes");
    fake_set("MPIPROF_NOT_A_VARIABLE", "1");
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_int_eq(cfg.number[MPP_CFG_FORMAT], MPP_FORMAT_BOTH);
    ck_assert_int_eq(cfg.number[MPP_CFG_DEPTH], 8);
    ck_assert_str_eq(cfg.text[MPP_CFG_OUTPUT], "x.prof");
    ck_assert_int_eq(cfg.number[MPP_CFG_QUIET], 1);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_DISABLE], 1);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_RANKS], 1);
    ck_assert_int_eq(mpp_warnings_count(), 0);
}
END_TEST

/* --- malformed values --- */

START_TEST(test_config_bad_int)
{
    expect_rejected(MPP_CFG_DEPTH, "", "");
    expect_rejected(MPP_CFG_DEPTH, "abc", "abc");
    expect_rejected(MPP_CFG_DEPTH, "-1", "-1");
    expect_rejected(MPP_CFG_DEPTH, "0", "0");
    expect_rejected(MPP_CFG_DEPTH, "17", "17");
    expect_rejected(MPP_CFG_DEPTH, "99999999999999999999", "99999999999999999999");
    expect_rejected(MPP_CFG_DEPTH, "4x", "4x");
    expect_rejected(MPP_CFG_DEPTH, "%n%n", "%n%n");
    expect_rejected(MPP_CFG_DEPTH, "4\x01", "4?");
    expect_rejected(MPP_CFG_DEPTH, "\x1b[31m4", "?[31m4");
    expect_rejected(MPP_CFG_HANG_TIMEOUT, "off", "off");
    expect_rejected(MPP_CFG_HANG_TIMEOUT, "1.5", "1.5");
    expect_rejected(MPP_CFG_HANG_TIMEOUT, "60s", "60s");
    expect_rejected(MPP_CFG_HANG_TIMEOUT, "604801", "604801");
    expect_rejected(MPP_CFG_TRACE_BUFFER, "262143", "262143");
    expect_rejected(MPP_CFG_TRACE_BUFFER, "1073741825", "1073741825");
    expect_rejected(MPP_CFG_TRACE_BUFFER, "16M", "16M");
    expect_rejected(MPP_CFG_TRACE, "maybe", "maybe");
    expect_rejected(MPP_CFG_MAX_SRC, "-1", "-1");
    expect_rejected(MPP_CFG_MAX_SRC, "15", "15");
    expect_rejected(MPP_CFG_MAX_SRC, "4194305", "4194305");
    expect_rejected(MPP_CFG_MAX_SRC, "1e3", "1e3");
    expect_rejected(MPP_CFG_MAX_SRC, "0x100", "0x100");
    expect_rejected(MPP_CFG_MAX_INTERVALS, "0", "0");
    expect_rejected(MPP_CFG_MAX_INTERVALS, "1048577", "1048577");
    expect_rejected(MPP_CFG_MAX_NESTING, "-1", "-1");
    expect_rejected(MPP_CFG_MAX_NESTING, "4097", "4097");
    expect_rejected(MPP_CFG_DEPTH, " 4", " 4"); /* strtol would skip the blank */
    expect_rejected(MPP_CFG_DEPTH, "4 ", "4 ");
    expect_rejected(MPP_CFG_MAX_SRC, "1000000000000000000000000000000", "1000000000000000000000000000000");
    expect_rejected(MPP_CFG_MAX_SRC, "9223372036854775808", "9223372036854775808");
    expect_rejected(MPP_CFG_MAX_SRC, "-9223372036854775809", "-9223372036854775809");
}
END_TEST

START_TEST(test_config_bad_bool)
{
    expect_rejected(MPP_CFG_DISABLE, "", "");
    expect_rejected(MPP_CFG_DISABLE, "abc", "abc");
    expect_rejected(MPP_CFG_DISABLE, "-1", "-1");
    expect_rejected(MPP_CFG_DISABLE, "2", "2");
    expect_rejected(MPP_CFG_QUIET, "99999999999999999999", "99999999999999999999");
    expect_rejected(MPP_CFG_QUIET, "4x", "4x");
    expect_rejected(MPP_CFG_QUIET, "%n%n", "%n%n");
    expect_rejected(MPP_CFG_OVERWRITE, "yes\n", "yes?");
    expect_rejected(MPP_CFG_OVERWRITE, "yes please", "yes please");
}
END_TEST

START_TEST(test_config_bad_enum)
{
    expect_rejected(MPP_CFG_FORMAT, "", "");
    expect_rejected(MPP_CFG_FORMAT, "abc", "abc");
    expect_rejected(MPP_CFG_FORMAT, "-1", "-1");
    expect_rejected(MPP_CFG_FORMAT, "1", "1");
    expect_rejected(MPP_CFG_FORMAT, "tex", "tex");
    expect_rejected(MPP_CFG_FORMAT, "texts", "texts");
    expect_rejected(MPP_CFG_FORMAT, "text|json", "text|json");
    expect_rejected(MPP_CFG_FORMAT, "text,", "text,");
    expect_rejected(MPP_CFG_FORMAT, ",html", ",html");
    expect_rejected(MPP_CFG_FORMAT, "text,,json", "text,,json");
    expect_rejected(MPP_CFG_FORMAT, "text,text", "text,text");
    expect_rejected(MPP_CFG_FORMAT, "both,json", "both,json");
    expect_rejected(MPP_CFG_FORMAT, "text, json", "text, json");
    expect_rejected(MPP_CFG_FORMAT, "htm", "htm");
    expect_rejected(MPP_CFG_UNWIND, "99999999999999999999", "99999999999999999999");
    expect_rejected(MPP_CFG_UNWIND, "4x", "4x");
    expect_rejected(MPP_CFG_CLOCK, "%n%n", "%n%n");
    expect_rejected(MPP_CFG_CLOCK, "ts\x7f", "ts?");
}
END_TEST

START_TEST(test_config_bad_ranks)
{
    expect_rejected(MPP_CFG_RANKS, "", "");
    expect_rejected(MPP_CFG_RANKS, "abc", "abc");
    expect_rejected(MPP_CFG_RANKS, "-1", "-1");
    expect_rejected(MPP_CFG_RANKS, "99999999999999999999", "99999999999999999999");
    expect_rejected(MPP_CFG_RANKS, "4x", "4x");
    expect_rejected(MPP_CFG_RANKS, "%n%n", "%n%n");
    expect_rejected(MPP_CFG_RANKS, "3-1", "3-1");
    expect_rejected(MPP_CFG_RANKS, "0-", "0-");
    expect_rejected(MPP_CFG_RANKS, "1,,2", "1,,2");
    expect_rejected(MPP_CFG_RANKS, "0-3\t", "0-3?");
    expect_rejected(MPP_CFG_RANKS, "1,", "1,");
    expect_rejected(MPP_CFG_RANKS, ",", ",");
    /* valid syntax, but longer than can be kept: rejected, never cut */
    static char many[5001];
    for (int i = 0; i < 5000; i += 2)
        memcpy(many + i, "0,", 2);
    many[4999] = '1';
    mpp_config_t cfg;
    nfake = 0;
    mpp_warnings_reset();
    fake_set("MPIPROF_RANKS", many);
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_RANKS], 1);
    ck_assert_str_eq(cfg.text[MPP_CFG_RANKS], "auto");
    ck_assert_int_eq(mpp_warnings_count(), 1);
}
END_TEST

START_TEST(test_config_bad_string)
{
    static char overlong[5001], shown[128];
    expect_rejected(MPP_CFG_OUTPUT, "", "");
    expect_rejected(MPP_CFG_OUTPUT,
                    "a\x01"
                    "b",
                    "a?b");
    expect_rejected(MPP_CFG_OUTPUT, "a\tb", "a?b");
    expect_rejected(MPP_CFG_OUTPUT, "run\n.prof", "run?.prof");
    expect_rejected(MPP_CFG_OUTPUT, "a\x7f", "a?");
    /* 5000 characters: rejected, shown as its first 81 characters and "..." */
    memset(overlong, 'x', 5000);
    overlong[0] = 'A';
    overlong[5000] = '\0';
    memset(shown, 'x', 81);
    shown[0] = 'A';
    strcpy(shown + 81, "...");
    expect_rejected(MPP_CFG_OUTPUT, overlong, shown);
    ck_assert_uint_lt(strlen(mpp_warning_text(0)), MPP_WARNING_LEN - 1); /* the warning was not cut */
    /* one over the limit */
    static char over[MPP_CONFIG_STRING_MAX + 1];
    memset(over, 'a', MPP_CONFIG_STRING_MAX);
    over[MPP_CONFIG_STRING_MAX] = '\0';
    mpp_config_t cfg;
    nfake = 0;
    mpp_warnings_reset();
    fake_set("MPIPROF_OUTPUT", over);
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_OUTPUT], 1);
    ck_assert_int_eq(mpp_warnings_count(), 1);
    /* templates: only the documented placeholders */
    expect_rejected(MPP_CFG_OUTPUT, "%n%n%s%s", "%n%n%s%s");
    expect_rejected(MPP_CFG_OUTPUT, "run-%q.prof", "run-%q.prof");
    /* a file name no file system can create, a directory instead of a file */
    static char long_name[400];
    strcpy(long_name, "/tmp/");
    memset(long_name + 5, 'L', 300);
    strcpy(long_name + 305, ".prof");
    expect_rejected(MPP_CFG_OUTPUT, long_name,
                    "/tmp/LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL...");
    expect_rejected(MPP_CFG_OUTPUT, "/tmp/", "/tmp/");
    expect_rejected(MPP_CFG_OUTPUT, ".", ".");
    expect_rejected(MPP_CFG_OUTPUT, "a/..", "a/..");
    /* event lists */
    expect_rejected(MPP_CFG_PAPI_EVENTS, "", "");
    expect_rejected(MPP_CFG_PAPI_EVENTS, "%n%n%s%s", "%n%n%s%s");
    expect_rejected(MPP_CFG_PAPI_EVENTS, ",,,", ",,,");
    expect_rejected(MPP_CFG_PAPI_EVENTS, " ", " ");
    expect_rejected(MPP_CFG_PAPI_EVENTS, "PAPI_TOT_INS,", "PAPI_TOT_INS,");
    expect_rejected(MPP_CFG_PAPI_EVENTS, "PAPI_TOT_INS PAPI_TOT_CYC", "PAPI_TOT_INS PAPI_TOT_CYC");
    expect_rejected(MPP_CFG_PAPI_EVENTS, "PAPI_TOT_INS;rm", "PAPI_TOT_INS;rm");
    expect_rejected(MPP_CFG_PAPI_EVENTS, "PAPI_TOT_INS\n", "PAPI_TOT_INS?");
    /* seconds: a wait is never negative, nor beyond an hour */
    expect_rejected(MPP_CFG_TEST_CLOCK_PONG_DELAY, "-0.01", "-0.01");
    expect_rejected(MPP_CFG_TEST_CLOCK_PONG_DELAY, "3601", "3601");
    expect_rejected(MPP_CFG_TEST_CLOCK_PONG_DELAY, "10ms", "10ms");
    expect_rejected(MPP_CFG_TEST_CLOCK_SKEW, "-3601", "-3601");
}
END_TEST

START_TEST(test_config_bad_values_one_warning_each)
{
    mpp_config_t cfg;
    fake_set("MPIPROF_DEPTH", "abc");
    fake_set("MPIPROF_FORMAT", "xml");
    fake_set("MPIPROF_QUIET", "maybe");
    fake_set("MPIPROF_MAX_SRC", "8");
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_int_eq(mpp_warnings_count(), 4);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_DEPTH='abc'", "'4'"), 0);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_FORMAT='xml'", "'text'"), 0);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_QUIET='maybe'", "'no'"), 0);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_MAX_SRC='8'", "'16384'"), 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_DEPTH], 4);
    ck_assert_int_eq(cfg.number[MPP_CFG_FORMAT], MPP_FORMAT_TEXT);
    ck_assert_int_eq(cfg.number[MPP_CFG_QUIET], 0);
    ck_assert_int_eq(cfg.number[MPP_CFG_MAX_SRC], 16384);
    /* parsing again with the same bad values adds no duplicate warning */
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_int_eq(mpp_warnings_count(), 4);
}
END_TEST

/* --- selection of ranks --- */

static int select_with(const char *ranks, int nprocs, unsigned char *selected)
{
    mpp_config_t cfg;
    nfake = 0;
    if (ranks)
        fake_set("MPIPROF_RANKS", ranks);
    mpp_config_parse(&cfg, fake_getenv);
    ck_assert_msg(ranks == NULL || !cfg.is_default[MPP_CFG_RANKS], "RANKS='%s' rejected", ranks);
    memset(selected, 0xee, (size_t)nprocs + 1);
    int n = mpp_config_select_ranks(&cfg, nprocs, selected);
    ck_assert_msg(selected[nprocs] == 0xee, "select_ranks wrote past nprocs");
    return n;
}

static void expect_selected(const unsigned char *selected, int nprocs, const char *pattern)
{
    /* pattern: one '1' or '0' per rank */
    ck_assert_int_eq((int)strlen(pattern), nprocs);
    for (int r = 0; r < nprocs; r++)
        ck_assert_msg(selected[r] == (pattern[r] == '1'), "rank %d: selected=%d, expected %c", r, selected[r],
                      pattern[r]);
}

START_TEST(test_config_select_auto)
{
    unsigned char sel[200];
    ck_assert_int_eq(select_with(NULL, 64, sel), 64);
    for (int r = 0; r < 64; r++)
        ck_assert_int_eq(sel[r], 1);
    ck_assert_int_eq(select_with(NULL, 65, sel), 0);
    for (int r = 0; r < 65; r++)
        ck_assert_int_eq(sel[r], 0);
    ck_assert_int_eq(select_with("AUTO", 64, sel), 64);
    ck_assert_int_eq(select_with("auto", 65, sel), 0);
    ck_assert_int_eq(select_with("auto", 1, sel), 1);
    ck_assert_int_eq(mpp_warnings_count(), 0);
}
END_TEST

START_TEST(test_config_select_all_none)
{
    unsigned char sel[200];
    ck_assert_int_eq(select_with("all", 64, sel), 64);
    ck_assert_int_eq(select_with("ALL", 65, sel), 65);
    for (int r = 0; r < 65; r++)
        ck_assert_int_eq(sel[r], 1);
    ck_assert_int_eq(select_with("none", 64, sel), 0);
    for (int r = 0; r < 64; r++)
        ck_assert_int_eq(sel[r], 0);
    ck_assert_int_eq(select_with("None", 65, sel), 0);
    ck_assert_int_eq(mpp_warnings_count(), 0);
}
END_TEST

START_TEST(test_config_select_list)
{
    unsigned char sel[200];
    ck_assert_int_eq(select_with("0-3,7", 8, sel), 5);
    expect_selected(sel, 8, "11110001");
    ck_assert_int_eq(select_with("0-3,7", 64, sel), 5);
    for (int r = 8; r < 64; r++)
        ck_assert_int_eq(sel[r], 0);
    ck_assert_int_eq(select_with("0-3,7", 65, sel), 5); /* a list is not affected by the auto limit */
    ck_assert_int_eq(select_with("5", 8, sel), 1);
    expect_selected(sel, 8, "00000100");
    ck_assert_int_eq(select_with("1,1,0-2,2-2", 4, sel), 3); /* duplicates counted once */
    expect_selected(sel, 4, "1110");
    ck_assert_int_eq(select_with("6-7,0", 8, sel), 3);
    expect_selected(sel, 8, "10000011");
    ck_assert_int_eq(mpp_warnings_count(), 0);
}
END_TEST

START_TEST(test_config_select_out_of_range)
{
    unsigned char sel[200];
    ck_assert_int_eq(select_with("0,7,100", 8, sel), 2);
    expect_selected(sel, 8, "10000001");
    ck_assert_int_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_RANKS='0,7,100'", "8 processes"), 0);

    mpp_warnings_reset();
    ck_assert_int_eq(select_with("2-9,12", 4, sel), 2);
    expect_selected(sel, 4, "0011");
    ck_assert_int_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_RANKS='2-9,12'", "4 processes"), 0);

    mpp_warnings_reset();
    ck_assert_int_eq(select_with("8", 8, sel), 0); /* rank P is already out of range */
    expect_selected(sel, 8, "00000000");
    ck_assert_int_eq(mpp_warnings_count(), 1);
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_config_bad_args)
{
    unsigned char sel[4] = {0xee, 0xee, 0xee, 0xee};
    mpp_config_t cfg;
    mpp_config_parse(&cfg, null_getenv);
    /* no processes: nothing selected, nothing written */
    ck_assert_int_eq(mpp_config_select_ranks(&cfg, 0, sel), 0);
    ck_assert_int_eq(sel[0], 0xee);
    ck_assert_int_eq(mpp_warnings_count(), 0);
    /* a NULL getenv function means the process environment */
    for (int i = 0; i < MPP_NVARS; i++) {
        char env[64];
        snprintf(env, sizeof env, "MPIPROF_%s", mpp_vars[i].name);
        unsetenv(env);
    }
    setenv("MPIPROF_DEPTH", "7", 1);
    setenv("MPIPROF_FORMAT", "nonsense", 1);
    mpp_config_parse(&cfg, NULL);
    ck_assert_int_eq(cfg.number[MPP_CFG_DEPTH], 7);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_DEPTH], 0);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_FORMAT], 1);
    ck_assert_int_eq(cfg.is_default[MPP_CFG_OUTPUT], 1);
    ck_assert_int_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_FORMAT='nonsense'"), 0);
}
END_TEST

Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc;

    tc = tcase_create("defaults");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_defaults);
    tcase_add_test(tc, test_config_table_complete);
    suite_add_tcase(s, tc);

    tc = tcase_create("good_values");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_bool_values);
    tcase_add_test(tc, test_config_int_bounds);
    tcase_add_test(tc, test_config_enum_case_insensitive);
    tcase_add_test(tc, test_config_ranks_values);
    tcase_add_test(tc, test_config_string_values);
    tcase_add_test(tc, test_config_several_values);
    suite_add_tcase(s, tc);

    tc = tcase_create("malformed_values");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_bad_int);
    tcase_add_test(tc, test_config_bad_bool);
    tcase_add_test(tc, test_config_bad_enum);
    tcase_add_test(tc, test_config_bad_ranks);
    tcase_add_test(tc, test_config_bad_string);
    tcase_add_test(tc, test_config_bad_values_one_warning_each);
    suite_add_tcase(s, tc);

    tc = tcase_create("select_ranks");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_select_auto);
    tcase_add_test(tc, test_config_select_all_none);
    tcase_add_test(tc, test_config_check_rejected);
    tcase_add_test(tc, test_config_select_list);
    tcase_add_test(tc, test_config_select_out_of_range);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
