/* libmpiprof_stub: the mpiprof API as no-ops, so that a program with
 * interval marks links without the profiler.  Preloading libmpiprof.so
 * still profiles it: the real functions come first. */
#include <stddef.h>

#include "mpiprof.h"

#define STUB __attribute__((visibility("default")))

STUB const char *mpiprof_version(void) { return "stub"; }
STUB void mpiprof_interval_begin_at(const char *name, const char *file, int line)
{
    (void)name, (void)file, (void)line;
}
STUB void mpiprof_interval_end(void) {}
STUB void mpiprof_seq_begin(void) {}
STUB void mpiprof_seq_end(void) {}
STUB void mpiprof_interval_begin_(const char *name, size_t length) { (void)name, (void)length; }
STUB void mpiprof_interval_end_(void) {}
STUB void mpiprof_seq_begin_(void) {}
STUB void mpiprof_seq_end_(void) {}
