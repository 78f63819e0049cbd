/*
 * mpiprof.h: public interface of the mpiprof MPI profiler.
 *
 * Programs do not need this header to be profiled: every MPI call is
 * intercepted through the MPI profiling interface.  It lets a program mark
 * intervals (parts whose characteristics the protocol gives separately) and
 * replicated code (computation every process repeats), see
 * mpiprof_interval_begin(3).
 *
 * Compiling with -DMPIPROF_DISABLE turns the macros into nothing; a program
 * that calls the functions but is built without the profiler links with
 * -lmpiprof_stub (no-op versions of everything declared here).
 */
#ifndef MPIPROF_H
#define MPIPROF_H

#define MPIPROF_VERSION_MAJOR 0
#define MPIPROF_VERSION_MINOR 2
#define MPIPROF_VERSION_PATCH 0
#define MPIPROF_VERSION_STRING "0.2.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library the program runs with. */
const char *mpiprof_version(void);

/* Begin an interval named `name` at file:line (nested in the interval open
 * now).  An interval is identified by its name, this position and its parent. */
void mpiprof_interval_begin_at(const char *name, const char *file, int line);
/* End the innermost open interval. */
void mpiprof_interval_end(void);
/* Replicated (sequential) code: every process computes the same thing; its
 * time counts as insufficient parallelism, t * (P-1)/P per process. */
void mpiprof_seq_begin(void);
void mpiprof_seq_end(void);

#ifdef __cplusplus
}
#endif

#if defined(MPIPROF_DISABLE) || defined(MPIPROF_DISABLE_MACROS)
#define MPIPROF_INTERVAL_BEGIN(name) ((void)0)
#define MPIPROF_INTERVAL_END() ((void)0)
#define MPIPROF_SEQ_BEGIN() ((void)0)
#define MPIPROF_SEQ_END() ((void)0)
#else
#define MPIPROF_INTERVAL_BEGIN(name) mpiprof_interval_begin_at((name), __FILE__, __LINE__)
#define MPIPROF_INTERVAL_END() mpiprof_interval_end()
#define MPIPROF_SEQ_BEGIN() mpiprof_seq_begin()
#define MPIPROF_SEQ_END() mpiprof_seq_end()
#endif

#endif /* MPIPROF_H */
