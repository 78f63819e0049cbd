/* The MPI_Init, MPI_Init_thread and MPI_Finalize entry points of C and of
 * MPICH's mpi_f08 bindings (which call PMPI_Init and PMPI_Finalize directly,
 * so the C wrappers would not see them): the library's own call, then the
 * profile started (lifecycle.h), or the profile ended, then the library's.
 * Open MPI's Fortran entry points are in fortran_ompi.c, MPI sessions' in
 * world.c. */
#include <mpi.h>
#include <stdint.h>

#include "context/threads.h"
#include "gen/function_table.h"
#include "intercept/lifecycle.h"
#include "intercept/world.h"
#include "intercept/wrapper_support.h"
#include "util/common.h"

MPP_EXPORT int MPI_Init(int *argc, char ***argv)
{
    mpp_threads_before_init(); /* the threads MPI starts are not the program's */
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) {
        int provided = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&provided);
        mpp_world_model_opened();
        mpp_lifecycle_start(MPP_FN_MPI_Init, provided, __builtin_return_address(0), __builtin_frame_address(0));
    }
    return rc;
}

MPP_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    mpp_threads_before_init();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) {
        mpp_world_model_opened();
        mpp_lifecycle_start(MPP_FN_MPI_Init_thread, *provided, __builtin_return_address(0),
                            __builtin_frame_address(0));
    }
    return rc;
}

MPP_EXPORT int MPI_Finalize(void)
{
    int ends = mpp_lifecycle_finalize_begins(__builtin_return_address(0), __builtin_frame_address(0));
    int rc = PMPI_Finalize();
    if (ends)
        mpp_lifecycle_finalized();
    return rc;
}

#if MPP_F08_WRAPPERS
/* mpi_f08 entry points of the same (MPICH's f08 bindings call PMPI_Init and
 * PMPI_Finalize directly, so the C wrappers above would not see them). */
intptr_t pmpir_init_f08_(void *ierror) __attribute__((weak));
intptr_t pmpir_init_thread_f08_(void *required, void *provided, void *ierror) __attribute__((weak));
intptr_t pmpir_finalize_f08_(void *ierror) __attribute__((weak));

static int f08_ok(const void *ierror) { return !ierror || *(const int *)ierror == MPI_SUCCESS; }

MPP_EXPORT intptr_t mpi_init_f08_(void *ierror)
{
    mpp_threads_before_init();
    intptr_t rc = pmpir_init_f08_(ierror);
    if (f08_ok(ierror)) {
        int provided = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&provided);
        mpp_world_model_opened();
        mpp_lifecycle_start(MPP_FN_MPI_Init, provided, __builtin_return_address(0), __builtin_frame_address(0));
    }
    return rc;
}

MPP_EXPORT intptr_t mpi_init_thread_f08_(void *required, void *provided, void *ierror)
{
    mpp_threads_before_init();
    intptr_t rc = pmpir_init_thread_f08_(required, provided, ierror);
    if (f08_ok(ierror)) {
        mpp_world_model_opened();
        mpp_lifecycle_start(MPP_FN_MPI_Init_thread, *(int *)provided, __builtin_return_address(0),
                            __builtin_frame_address(0));
    }
    return rc;
}

MPP_EXPORT intptr_t mpi_finalize_f08_(void *ierror)
{
    int ends = mpp_lifecycle_finalize_begins(__builtin_return_address(0), __builtin_frame_address(0));
    intptr_t rc = pmpir_finalize_f08_(ierror);
    if (ends)
        mpp_lifecycle_finalized();
    return rc;
}
#endif /* MPP_F08_WRAPPERS */
