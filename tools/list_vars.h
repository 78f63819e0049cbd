/* mpiprof-view --list-vars: every MPIPROF_* variable of the configuration
 * table the library parses (context/config_vars.def), with its default,
 * its value in this environment, what it accepts and what it does: the
 * ENVIRONMENT section of mpiprof(7), made from the same table, with the
 * values in effect here. */
#ifndef MPP_TOOLS_LIST_VARS_H
#define MPP_TOOLS_LIST_VARS_H

#include <stdio.h>

/* The listing on `out`, then the MPIPROF_* variables of the environment
 * that mpiprof does not know; 0, or -1 when it cannot be written. */
int mpp_list_vars(FILE *out);

#endif
