/* The machine a process runs on (hwloc), for the protocol's Machine and
 * Placement (src/context/topology.c, built when configure found hwloc).
 * Nothing here runs on the MPI call path: the binding is read once at
 * MPI_Init, the topology is loaded once, at MPI_Finalize, and only by the
 * lowest rank of each host (the reduction decides which, by host name). */
#ifndef MPP_TOPOLOGY_H
#define MPP_TOPOLOGY_H

#include <stddef.h>

#include "autoconf.h"

#if MPIPROF_HAVE_HWLOC

/* At MPI_Init: remember the PUs this process may run on. */
void mpp_topology_start(void);
/* Those PUs as an id list ("0-3", OS indexes as hwloc-bind --get shows
 * them), NULL when they could not be read. */
const char *mpp_topology_binding(void);
/* Load this node's topology and describe it: the node-type key and the PUs
 * the node lets this job use (machine.h), allocated; on failure -1 and
 * *error (allocated). */
int mpp_topology_describe(char **type_key, char **allowed, char **error);
/* NULL: Machine and Placement are collected. */
static inline const char *mpp_topology_na(void) { return NULL; }

#else

static inline void mpp_topology_start(void) {}
static inline const char *mpp_topology_binding(void) { return NULL; }
#define mpp_topology_describe NULL
static inline const char *mpp_topology_na(void)
{
    return "mpiprof was built without hwloc: configure found no libhwloc-dev, or was given --without-hwloc";
}

#endif

#endif
