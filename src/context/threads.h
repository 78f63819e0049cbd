/* How many threads a process ran, and its OpenMP team size, for the
 * protocol's Parameters and the oversubscription warning (man
 * mpiprof-protocol, Threads).  Sampled off the call path: before and after
 * MPI's initialization, at each thread's first MPI call (its state is made
 * then: thread_state.c; after the first 64, at most every 10 ms) and at
 * MPI_Finalize.  The MPI library's own
 * threads (those its initialization started) and the profiler's (the hang
 * watchdog) are not the program's: they are subtracted. */
#ifndef MPP_CONTEXT_THREADS_H
#define MPP_CONTEXT_THREADS_H

#include <stddef.h>

/* Where the OpenMP team size came from. */
enum { MPP_OMP_NONE = 0, MPP_OMP_RUNTIME, MPP_OMP_ENV, MPP_OMP_UNKNOWN /* n/a: a trace that does not say */ };

typedef struct {
    int alive;  /* the program's threads alive at once, at most (0: not read; -1: n/a, a trace's) */
    int mpi;    /* distinct threads that called MPI */
    int omp;    /* OpenMP team size (0: no OpenMP; -1: n/a with MPP_OMP_UNKNOWN) */
    int source; /* MPP_OMP_* */
} mpp_thread_counts_t;

/* In the MPI_Init (and Session_init) wrappers, before the library's own
 * call: the threads the program has, so that those MPI starts are known. */
void mpp_threads_before_init(void);
/* After it, at the start of the profile: a new count. */
void mpp_threads_start(void);
/* A thread's first MPI call (1), MPI_Finalize (0): the threads alive, the
 * OpenMP team this thread is in. */
void mpp_threads_sample(int new_mpi_thread);
/* The profiler started (+1) or ended (-1) a thread of its own. */
void mpp_threads_own(int delta);
void mpp_threads_counts(mpp_thread_counts_t *out);

/* The counts as the value of an MPP_FACT_THREADS record, after `first`
 * (the host, or the rank): "first US alive US mpi US omp US source";
 * allocated, NULL when memory ran out. */
char *mpp_threads_fact(const char *first, const mpp_thread_counts_t *c);
/* The facts of a process with its counts on `host` appended: *facts
 * becomes an array of this module's (the strings stay their owners'),
 * valid until the next call; -1 when memory ran out (*facts unchanged). */
int mpp_threads_add_fact(char ***facts, int *nfacts, const char *host);
/* ... and back: `first` copied into first[size]; 0, -1 when malformed. */
int mpp_threads_fact_parse(const char *value, char *first, size_t size, mpp_thread_counts_t *c);
/* "omp_get_max_threads" or "OMP_NUM_THREADS" (MPP_OMP_*), "" for none. */
const char *mpp_threads_source_name(int source);

#endif
