/* MPI_Init, MPI_Init_thread and MPI_Finalize of Open MPI's Fortran bindings
 * (mpif.h and use mpi: mpi_init_; use mpi_f08: mpi_init_f08_): they call
 * PMPI_Init and PMPI_Finalize themselves, so the C wrappers of lifecycle.c
 * would not see a Fortran program start or end.  Each forwards to its
 * pmpi_ twin, referenced weakly (only Fortran programs load the libraries
 * that define them).  MPI_Abort and MPI_Pcontrol are in faults.c and
 * api.c; every other entry point is generated (f08_wrappers.c). */
#include <mpi.h>

#include "context/threads.h"
#include "gen/function_table.h"
#include "intercept/lifecycle.h"
#include "intercept/world.h"
#include "intercept/wrapper_support.h"

#if MPP_OMPI_FORTRAN
void pmpi_init_(MPI_Fint *ierror) __attribute__((weak));
void pmpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror) __attribute__((weak));
void pmpi_finalize_(MPI_Fint *ierror) __attribute__((weak));
void pmpi_init_f08_(MPI_Fint *ierror) __attribute__((weak));
void pmpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror) __attribute__((weak));
void pmpi_finalize_f08_(MPI_Fint *ierror) __attribute__((weak));

/* MPI is initialized (ierror says so; mpi_f08's may be absent). */
static void started(uint32_t fid, const MPI_Fint *ierror, void *return_address, void *frame_address)
{
    if (!mpp_f08_ok(ierror))
        return;
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    mpp_world_model_opened();
    mpp_lifecycle_start(fid, provided, return_address, frame_address);
}

#define INIT(mine, real)                                                                           \
    MPP_EXPORT void mine(MPI_Fint *ierror)                                                         \
    {                                                                                              \
        if (!real)                                                                                 \
            mpp_f08_missing(#mine, #real);                                                         \
        mpp_threads_before_init();                                                                 \
        real(ierror);                                                                              \
        started(MPP_FN_MPI_Init, ierror, __builtin_return_address(0), __builtin_frame_address(0)); \
    }

#define INIT_THREAD(mine, real)                                                                           \
    MPP_EXPORT void mine(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)                  \
    {                                                                                                     \
        if (!real)                                                                                        \
            mpp_f08_missing(#mine, #real);                                                                \
        mpp_threads_before_init();                                                                        \
        real(required, provided, ierror);                                                                 \
        started(MPP_FN_MPI_Init_thread, ierror, __builtin_return_address(0), __builtin_frame_address(0)); \
    }

#define FINALIZE(mine, real)                                                                               \
    MPP_EXPORT void mine(MPI_Fint *ierror)                                                                 \
    {                                                                                                      \
        if (!real)                                                                                         \
            mpp_f08_missing(#mine, #real);                                                                 \
        int ends = mpp_lifecycle_finalize_begins(__builtin_return_address(0), __builtin_frame_address(0)); \
        real(ierror);                                                                                      \
        if (ends)                                                                                          \
            mpp_lifecycle_finalized();                                                                     \
    }

INIT(mpi_init_, pmpi_init_)
INIT(mpi_init_f08_, pmpi_init_f08_)
INIT_THREAD(mpi_init_thread_, pmpi_init_thread_)
INIT_THREAD(mpi_init_thread_f08_, pmpi_init_thread_f08_)
FINALIZE(mpi_finalize_, pmpi_finalize_)
FINALIZE(mpi_finalize_f08_, pmpi_finalize_f08_)
#endif
