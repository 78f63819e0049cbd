/* Trace mode carries each process's Threads parameter (context/threads.h)
 * to mpiprof-analyze: a record "P alive mpi omp source" in what the process
 * sends rank 0 at MPI_Finalize, written as the property mpiprof::threads of
 * its location group (mpiprof-trace(5)).  Its counts are final there:
 * MPI_Finalize sampled them before the trace is closed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/threads.h"
#include "trace/trace_local.h"

int mpp_trace_threads_put(trace_blob_t *b)
{
    mpp_thread_counts_t c;
    mpp_threads_counts(&c);
    return mpp_trace_put(b, "P%d %d %d %d", c.alive, c.mpi, c.omp, c.source);
}

void mpp_trace_threads_record(trace_unify_t *u, int rank, const char *value)
{
    if (!u->threads)
        u->threads = calloc((size_t)mpp_trace_nprocs, sizeof *u->threads);
    if (u->threads && rank >= 0 && rank < mpp_trace_nprocs)
        free(u->threads[rank]), u->threads[rank] = strdup(value);
}

void mpp_trace_threads_write(OTF2_GlobalDefWriter *w, const trace_unify_t *u, uint32_t *next)
{
    uint32_t name = UINT32_MAX;
    for (int r = 0; u->threads && r < mpp_trace_nprocs; r++) {
        if (!u->threads[r])
            continue;
        if (name == UINT32_MAX)
            name = mpp_trace_string_def(w, next, "mpiprof::threads");
        OTF2_AttributeValue value = {.stringRef = mpp_trace_string_def(w, next, u->threads[r])};
        OTF2_GlobalDefWriter_WriteLocationGroupProperty(w, (uint32_t)r, name, OTF2_TYPE_STRING, value);
    }
}

void mpp_trace_threads_free(trace_unify_t *u)
{
    for (int r = 0; u->threads && r < mpp_trace_nprocs; r++)
        free(u->threads[r]);
    free(u->threads);
    u->threads = NULL;
}
