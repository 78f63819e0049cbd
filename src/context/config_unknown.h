/* MPIPROF_* variables that mpiprof does not know: a misspelt name would
 * otherwise be ignored without a word (mpiprof(7), ENVIRONMENT).  Known
 * are the configuration table's (config_vars.def) and the few that
 * mpiprof's commands, build and test suite read themselves. */
#ifndef MPP_CONFIG_UNKNOWN_H
#define MPP_CONFIG_UNKNOWN_H

#include <stddef.h>

/* Whether `name` ("MPIPROF_DEPTH") is a variable mpiprof knows. */
int mpp_config_known(const char *name);

/* The known name nearest to `name` by edit distance (letters swapped,
 * missing, added or changed; case ignored), or NULL when none is near. */
const char *mpp_config_nearest(const char *name);

/* What is said of the unknown variable `name`: "NAME is not an mpiprof
 * variable; did you mean NEAREST?" and that it is ignored. */
void mpp_config_unknown_text(const char *name, char *out, size_t size);

/* One warning (mpp_warn: the protocol's Warnings, stderr where warnings
 * are echoed) for each MPIPROF_* variable of `env` (NAME=VALUE strings,
 * environ's form) that mpiprof does not know; the number of them.  At
 * MPI_Init only, never per call. */
int mpp_config_warn_unknown(char *const *env);

#endif
