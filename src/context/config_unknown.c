/* MPIPROF_* variables that mpiprof does not know (config_unknown.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "context/config.h"
#include "context/config_unknown.h"
#include "util/warnings.h"

/* Variables read outside the configuration table (without MPIPROF_):
 * mpicc-prof(1)'s, and the build's and test suite's (maint/test.sh,
 * tests/mpi/lib/run-mpi-test), which its jobs inherit. */
static const char *const others[] = {"WRAPPER_LIBDIR", "WRAPPER_INCDIR", "WRAPPER_NO_DEBUG", "MPICC",
                                     "MPICXX",         "MPIFORT",        "LIBDIR",           "CONFIGURE_FLAGS",
                                     "CI_FULL",        "CI_OPENMPI",     "CI_SANITIZERS"};
/* Families of the test suite's own variables (MPIPROF_TEST_ and the like) and
 * of maint/mpich-testsuite.sh's: known by their prefix, as the suite adds
 * them (the table's MPIPROF_TEST_* are parsed as any other). */
static const char *const families[] = {"TEST_", "SUITE_"};

#define PREFIX "MPIPROF_"
#define PREFIX_LEN (sizeof PREFIX - 1)
#define NOTHERS (sizeof others / sizeof *others)

int mpp_config_known(const char *name)
{
    if (strncmp(name, PREFIX, PREFIX_LEN) != 0)
        return 0;
    const char *rest = name + PREFIX_LEN;
    for (int i = 0; i < MPP_NVARS; i++)
        if (!strcmp(rest, mpp_vars[i].name))
            return 1;
    for (size_t i = 0; i < NOTHERS; i++)
        if (!strcmp(rest, others[i]))
            return 1;
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        if (!strncmp(rest, families[i], strlen(families[i])))
            return 1;
    return 0;
}

enum { NAME_MAX_LEN = 64 };

/* The optimal string alignment distance of a and b, case ignored: the
 * edits (insert, delete, change, swap two neighbours) that make one the
 * other; names longer than NAME_MAX_LEN are far from every name. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > NAME_MAX_LEN || m > NAME_MAX_LEN)
        return NAME_MAX_LEN;
    int d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int same = toupper((unsigned char)a[i - 1]) == toupper((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + !same;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && toupper((unsigned char)a[i - 1]) == toupper((unsigned char)b[j - 2]) &&
                toupper((unsigned char)a[i - 2]) == toupper((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *mpp_config_nearest(const char *name)
{
    static char found[NAME_MAX_LEN + PREFIX_LEN + 1];
    const char *rest = strncmp(name, PREFIX, PREFIX_LEN) ? name : name + PREFIX_LEN;
    size_t len = strlen(rest);
    /* near: a third of the name's letters at most, and 1 to 3 edits */
    int limit = len < 4 ? 1 : len < 9 ? 2 : 3, best = limit + 1;
    const char *nearest = NULL;
    for (size_t i = 0; i < (size_t)MPP_NVARS + NOTHERS; i++) {
        const char *candidate = i < (size_t)MPP_NVARS ? mpp_vars[i].name : others[i - MPP_NVARS];
        int d = distance(rest, candidate);
        if (d < best)
            best = d, nearest = candidate;
    }
    if (!nearest)
        return NULL;
    snprintf(found, sizeof found, PREFIX "%s", nearest);
    return found;
}

void mpp_config_unknown_text(const char *name, char *out, size_t size)
{
    const char *nearest = mpp_config_nearest(name);
    if (nearest)
        snprintf(out, size, "%s is not an mpiprof variable; did you mean %s? (it is ignored)", name, nearest);
    else
        snprintf(out, size,
                 "%s is not an mpiprof variable (it is ignored; mpiprof(7), ENVIRONMENT, and "
                 "mpiprof-view --list-vars list them)",
                 name);
}

int mpp_config_warn_unknown(char *const *env)
{
    int n = 0;
    for (; env && *env; env++) {
        if (strncmp(*env, PREFIX, PREFIX_LEN) != 0)
            continue;
        char name[NAME_MAX_LEN + PREFIX_LEN + 1];
        size_t len = strcspn(*env, "=");
        if (len >= sizeof name)
            len = sizeof name - 1; /* shown cut; a name that long is unknown anyway */
        memcpy(name, *env, len);
        name[len] = '\0';
        if (mpp_config_known(name))
            continue;
        char text[MPP_WARNING_LEN];
        mpp_config_unknown_text(name, text, sizeof text);
        mpp_warn("%s", text);
        n++;
    }
    return n;
}
