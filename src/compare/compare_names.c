/* The names mpiprof-compare's --ignore and --include take (compare.h):
 * member names of the protocol's JSON, or its text labels turned into
 * them, checked against the two protocols so that a misspelt name is an
 * error rather than an exception that never applies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

/* Differ between any two runs: dates, the run's directory, the clock
 * offsets measured, the model calibrated, warnings quoting measured
 * values; and the protocol's own path. */
const char *const mpp_compare_run_specific[] = {
    "started", "finished", "protocol_written", "working_directory", "clock", "prediction_model", "warnings", NULL};
const char *const mpp_compare_run_specific_config[] = {"MPIPROF_OUTPUT", NULL};

static int listed(const char *const *list, const char *name)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

/* ---- the names --ignore and --include take ---- */

char *mpp_compare_name(const char *given)
{
    char *name = strdup(given);
    if (!name || !strncmp(name, "MPIPROF_", 8))
        return name;
    for (char *p = name; *p; p++)
        *p = *p == ' ' || *p == '-' ? '_' : (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    return name;
}

static int has_member(json_t *v, const char *name)
{
    const char *key;
    json_t *item;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach(v, key, item) if (!strcmp(key, name) || has_member(item, name)) return 1;
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, item) if (has_member(item, name)) return 1;
    }
    return 0;
}

int mpp_compare_check_ignore(const char *name, json_t *a, json_t *b, char *why, size_t size)
{
    static const char *const matching[] = {"id",    "name",      "file",       "level", "function",
                                           "stack", "intervals", "parameters", NULL};
    if (listed(matching, name)) {
        snprintf(why, size,
                 "%s is how intervals and SRC points are found in both protocols and cannot be ignored "
                 "(line can: intervals and frames are then matched without their lines)",
                 name);
        return -1;
    }
    if (has_member(a, name) || has_member(b, name))
        return 0;
    snprintf(why, size,
             "neither protocol has a member named %s; a name is a JSON member name of the protocol "
             "(execution_time, real_sync, calls, predicted, collection_mode, MPIPROF_DEPTH, ...) or a text "
             "label (\"Real sync\")",
             name);
    return -1;
}

int mpp_compare_check_include(const char *name, char *why, size_t size)
{
    if (listed(mpp_compare_run_specific, name) || listed(mpp_compare_run_specific_config, name))
        return 0;
    size_t at = (size_t)snprintf(why, size, "%s is compared already; --include takes one of", name);
    for (int i = 0; mpp_compare_run_specific[i] && at < size; i++)
        at += (size_t)snprintf(why + at, size - at, " %s", mpp_compare_run_specific[i]);
    for (int i = 0; mpp_compare_run_specific_config[i] && at < size; i++)
        at += (size_t)snprintf(why + at, size - at, " %s", mpp_compare_run_specific_config[i]);
    return -1;
}
