/* mpi-error (correctness.md): an error MPI returned to the program, or
 * raised where the handler in effect (MPI_ERRORS_ARE_FATAL, the default
 * of communicators and windows, or MPI_ERRORS_ABORT) ends the process.
 *
 * Returned: the generated wrappers call mpp_check_mpi_error when the call
 * returns an error code.  Fatal: MPI would end the process inside the
 * call, before any wrapper sees the code, and the launcher kill the
 * others, leaving no protocol.  So with the checks on, mpiprof's own
 * handlers stand in for those two: at MPI_Init on MPI_COMM_WORLD
 * (communicators made from it inherit it; in MPICH the errors of
 * MPI_COMM_SELF and of windows go to its handler too, elsewhere ours is set
 * on them), and wherever the program sets MPI_ERRORS_ARE_FATAL or
 * MPI_ERRORS_ABORT.  Such a handler reports the finding at the thread's
 * current call, writes the partial protocol (faults.h), prints what MPI
 * would have ("Fatal error in MPI_Send: ...") and ends with PMPI_Abort,
 * with the error code (MPICH's exit status).
 *
 * The program sees the handlers it set: the wrappers of the functions
 * marked +errhandler in mpi_functions.txt call the mpp_errh_ functions
 * below in place of PMPI_.  A handler the program sets replaces ours; a
 * get returns MPI_ERRORS_ARE_FATAL (or _ABORT) where ours stands in, with
 * the reference to ours that the get took released, so that the program
 * may free the handle it got as it would without the profiler. */
#ifndef MPP_INTERCEPT_CHECK_ERRORS_H
#define MPP_INTERCEPT_CHECK_ERRORS_H

#include <mpi.h>

#include "attribute/thread_state.h"
#include "context/config.h" /* MPP_CHECK_BASIC, for MPP_CHECKS_ON */
#include "gen/mpi_declared.h"
#include "intercept/check/run.h"

/* MPI_Init, after mpp_check_run_start: with the checks on, our handlers
 * made and installed. */
void mpp_check_errors_start(void);

/* Call c returned `code` (not MPI_SUCCESS): the finding at its SRC point. */
void mpp_check_mpi_error(const mpp_call_t *c, int code) __attribute__((cold, noinline));

/* "MPI_ERR_RANK: Invalid rank, error stack: ..." of an error code, on one line. */
void mpp_check_error_text(int code, char *out, size_t size);

/* The PMPI calls of the functions marked +errhandler: the program's view
 * of error handlers, and ours on new windows. */
int mpp_errh_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int mpp_errh_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int mpp_errh_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int mpp_errh_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int mpp_errh_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int mpp_errh_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
/* The same for the Fortran entry points (gen_wrappers.py, f08_errhandler),
 * by Fortran handles: the handle to set in place of *errhandler; *errhandler
 * as the program sees it, after a get; ours on a new window. */
MPI_Fint mpp_errh_f08_in(uint32_t fid, const void *errhandler);
void mpp_errh_f08_out(uint32_t fid, void *errhandler);
void mpp_errh_f08_new_win(const void *win);
#if MPP_HAVE_MPI_Errhandler_set
int mpp_errh_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
#endif
#if MPP_HAVE_MPI_Errhandler_get
int mpp_errh_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
#endif
#if MPP_HAVE_MPI_Comm_create_from_group
int mpp_errh_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                    MPI_Comm *newcomm);
#endif
#if MPP_HAVE_MPI_Intercomm_create_from_groups
int mpp_errh_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                          int remote_leader, const char *stringtag, MPI_Info info,
                                          MPI_Errhandler errhandler, MPI_Comm *newintercomm);
#endif
int mpp_errh_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
int mpp_errh_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
int mpp_errh_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                 MPI_Win *win);
int mpp_errh_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
#if MPP_HAVE_MPI_Win_create_c
int mpp_errh_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
#endif
#if MPP_HAVE_MPI_Win_allocate_c
int mpp_errh_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                            MPI_Win *win);
#endif
#if MPP_HAVE_MPI_Win_allocate_shared_c
int mpp_errh_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                   MPI_Win *win);
#endif

#endif
