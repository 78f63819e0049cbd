/* The profiler's world: the processes it profiles together, whose ranks in
 * it are the "world ranks" of protocols, wait states and hang dumps, and a
 * communicator over them.  Under the World Model (MPI_Init) it is
 * MPI_COMM_WORLD.  A program that starts MPI with MPI-4 sessions instead
 * gets a communicator of the mpi://WORLD process set, made at its first
 * MPI_Session_init from a session of the profiler's own (so that it lives
 * as long as the profile, whichever of the program's sessions ends first).
 * Every part of the profiler that means "world" asks mpp_world().
 *
 * The profile runs from the first MPI_Init or MPI_Session_init to the call
 * that ends the last of them: MPI_Finalize, or the MPI_Session_finalize of
 * the last session open (world.c decides, lifecycle.c does). */
#ifndef MPP_WORLD_H
#define MPP_WORLD_H

#include <mpi.h>

#include "gen/mpi_declared.h"

/* MPI_COMM_NULL before the profile's world is known and after it ended. */
extern MPI_Comm mpp_world_comm;

static inline MPI_Comm mpp_world(void) { return mpp_world_comm; }

/* Whether MPI_Init initialized the World Model, so that MPI_COMM_WORLD and
 * MPI_COMM_SELF may be used (with sessions alone they are invalid). */
int mpp_world_model(void);

/* The number of the program's sessions open now (0 without sessions). */
int mpp_world_sessions_open(void);

/* MPI_Init (any entry point) returned: the World Model is open; the world
 * is MPI_COMM_WORLD unless a session made it already.  First, the MPI the
 * process runs on must be the one the profiler is built for (mpi_family.h:
 * otherwise the process stops here). */
void mpp_world_model_opened(void);
/* MPI_Finalize is entered: 1 when the profile ends in it (its world is
 * MPI_COMM_WORLD, which MPI_Finalize invalidates, or no session of the
 * program is open any more); then lifecycle finishes it and calls
 * mpp_world_release before PMPI_Finalize. */
int mpp_world_model_closing(void);
/* After the profile ended: the profiler's own session and communicator, if
 * any, are freed (before the program's last finalize, so that MPI ends in
 * the program's call as without the profiler). */
void mpp_world_release(void);

#if defined(MPP_HAVE_MPI_Session_init) /* MPI-4 (not Open MPI 4.1) */
/* For sessions.c.  The first call to claim the world (1: the profile
 * starts in it), and giving it back when that call failed. */
int mpp_world_claim(void);
void mpp_world_unclaim(void);
/* The profiler's own session and its communicator of mpi://WORLD; 0, or
 * -1 (said on stderr: there is no protocol to say it in) and the program
 * runs unprofiled. */
int mpp_world_open_own(void);
/* The program's sessions open now. */
void mpp_world_session_opened(MPI_Session s);
void mpp_world_session_closed(MPI_Session s);
/* Closing s ends the profile: the world is the profiler's own session's,
 * the World Model is not open, and s is the program's last open session. */
int mpp_world_ends_with(MPI_Session s);
#endif

#endif
