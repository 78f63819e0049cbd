/* Facts of a process's context that the reduction merges as records
 * (reduce/dictionary.h, MPP_REC_FACT: "label US value"): the labels, which
 * context/ writes and reduce/ reads. */
#ifndef MPP_RECORDS_FACTS_H
#define MPP_RECORDS_FACTS_H

/* Labels of MPP_REC_FACT records. */
#define MPP_FACT_PAPI "papi"               /* PAPI version: "PAPI 7.0.0.0" */
#define MPP_FACT_MULTIPLEXED "multiplexed" /* "perf_event: 8 events on 6 counters" */
#define MPP_FACT_SPLIT "split"             /* "on": inside/outside-MPI counts measured */
#define MPP_FACT_NONE "none"               /* why this process counts no event */
#define MPP_FACT_TOPOLOGY "topology"       /* "host: why its topology could not be read" */
/* context/threads.h: "host US alive US mpi US omp US source" of a process,
 * and the same with its rank instead of the host for a selected process */
#define MPP_FACT_THREADS "threads"
#define MPP_FACT_THREADS_RANK "threads-rank"
/* In the union of the keys (not the context's): some process gives
 * per-thread times, so every process reduces them (the same layout) */
#define MPP_FACT_THREAD_TIMES "thread-times"

#endif
