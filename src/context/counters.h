/* Hardware counters of this process with PAPI (src/context/counters.c,
 * built when configure found PAPI): the events of MPIPROF_PAPI_EVENTS are
 * counted for the thread that called MPI_Init and read at interval
 * boundaries only, through the hook intervals.c calls.  With
 * MPIPROF_PAPI_SRC=on they are also read at the entry and exit of that
 * thread's MPI calls (mpp_counters_enter/leave, called from
 * thread_state.h), to split each interval's counts into inside and outside
 * MPI; off, the MPI call path does not touch them. */
#ifndef MPP_COUNTERS_H
#define MPP_COUNTERS_H

#include <stdint.h>

#include "autoconf.h"

/* Called by intervals.c when interval `id` opens (opening 1) or closes
 * (0); NULL while no counter runs.  Defined in intervals.c. */
extern void (*mpp_interval_counters)(uint32_t id, int opening);

#if MPIPROF_HAVE_PAPI

/* 1 while the inside/outside-MPI split is measured. */
extern int mpp_counters_split_on;
void mpp_counters_enter(void);
void mpp_counters_leave(void);

/* At MPI_Init, before interval 0 opens: initialize PAPI, add the events of
 * `spec` (comma-separated names, or "none"), start them.  Every problem is
 * a warning naming PAPI's reason; what cannot be counted is dropped. */
void mpp_counters_start(const char *spec, int split);
/* At MPI_Finalize, after the intervals closed. */
void mpp_counters_stop(void);

/* What was counted, for the profile (profile.h, mpp_local_context_t):
 *   na       why there are no counters at all (NULL: PAPI ran)
 *   events   "name US component" of each counted event
 *   facts    "label US value" records (dictionary.h, MPP_REC_FACT)
 *   values   [nintervals][nevents][MPP_HW_NV] (reduced.h), NULL if none
 * Everything stays owned by this module until mpp_counters_release. */
int mpp_counters_export(int nintervals, const char **na, char ***events, int *nevents, char ***facts, int *nfacts,
                        double **values);
void mpp_counters_release(void);

#else

#define mpp_counters_split_on 0
static inline void mpp_counters_enter(void) {}
static inline void mpp_counters_leave(void) {}
static inline void mpp_counters_start(const char *spec, int split) { (void)spec, (void)split; }
static inline void mpp_counters_stop(void) {}
static inline int mpp_counters_export(int nintervals, const char **na, char ***events, int *nevents, char ***facts,
                                      int *nfacts, double **values)
{
    (void)nintervals;
    *na = "mpiprof was built without PAPI: configure found no libpapi-dev, or was given --without-papi";
    *events = *facts = NULL;
    *nevents = *nfacts = 0;
    *values = NULL;
    return 0;
}
static inline void mpp_counters_release(void) {}

#endif

#endif
