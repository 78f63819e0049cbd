/*
 * mpiprof.h: public interface of the mpiprof MPI profiler.
 *
 * Programs do not need this header to be profiled: every MPI call is
 * intercepted through the MPI profiling interface.  It declares what a
 * program can ask of the profiler directly.
 */
#ifndef MPIPROF_H
#define MPIPROF_H

#define MPIPROF_VERSION_MAJOR 0
#define MPIPROF_VERSION_MINOR 1
#define MPIPROF_VERSION_PATCH 0
#define MPIPROF_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library the program runs with ("0.1.0"). */
const char *mpiprof_version(void);

#ifdef __cplusplus
}
#endif
#endif /* MPIPROF_H */
