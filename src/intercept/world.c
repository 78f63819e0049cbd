/* The profiler's world (world.h): MPI_COMM_WORLD, or a communicator of
 * its own session's mpi://WORLD for a program that uses sessions without
 * MPI_Init (sessions.c starts and ends that profile).
 *
 * The first MPI_Session_init of a process opens a session of the
 * profiler's own and makes a communicator of its mpi://WORLD process set:
 * collective over every process of the job, as MPI_Init is.  The profile
 * then starts (interval 0 at that call's site) and ends in the
 * MPI_Session_finalize that closes the last session of the program still
 * open, before the MPI library is told, as MPI_Finalize does; MPI_Finalize
 * ends it instead when the World Model is the last open.  Calls of either
 * that neither start nor end the profile are timed as System calls, as the
 * generated wrappers do.  An MPI without sessions (Open MPI 4.1) has the
 * world of MPI_Init alone. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intercept/mpi_family.h"
#include "intercept/world.h"

MPI_Comm mpp_world_comm = MPI_COMM_NULL;

static int world_model_open; /* MPI_Init returned, MPI_Finalize not yet entered */
static int world_known;      /* the world was chosen (or could not be made): never again */
int mpp_world_model(void) { return world_model_open; }

#if defined(MPP_HAVE_MPI_Session_init)             /* MPI-4 (not Open MPI 4.1) */
static MPI_Session own_session = MPI_SESSION_NULL; /* the profiler's, when the world comes from it */

/* The program's sessions open now (MPI_THREAD_MULTIPLE: any thread may
 * open and close them; a few at most). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Session *open_sessions;
static int nopen, capacity;

static void remember(MPI_Session s)
{
    pthread_mutex_lock(&lock);
    if (nopen == capacity) {
        int grown = capacity ? 2 * capacity : 8;
        MPI_Session *more = realloc(open_sessions, (size_t)grown * sizeof *more);
        if (more)
            open_sessions = more, capacity = grown;
    }
    if (nopen < capacity) /* out of memory: not counted, so the profile may end early, never late */
        open_sessions[nopen++] = s;
    pthread_mutex_unlock(&lock);
}

static void forget(MPI_Session s)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nopen; i++)
        if (open_sessions[i] == s) {
            open_sessions[i] = open_sessions[--nopen];
            break;
        }
    pthread_mutex_unlock(&lock);
}

/* Whether s is the program's only open session. */
static int is_last_open(MPI_Session s)
{
    pthread_mutex_lock(&lock);
    int last = nopen == 1 && open_sessions[0] == s;
    pthread_mutex_unlock(&lock);
    return last;
}

static int sessions_open(void)
{
    pthread_mutex_lock(&lock);
    int n = nopen;
    pthread_mutex_unlock(&lock);
    return n;
}
#endif

int mpp_world_sessions_open(void)
{
#if defined(MPP_HAVE_MPI_Session_init)
    return sessions_open();
#else
    return 0;
#endif
}

void mpp_world_model_opened(void)
{
    mpp_mpi_family_check(); /* before any MPI call with a handle */
    world_model_open = 1;
    if (!world_known) {
        world_known = 1;
        mpp_world_comm = MPI_COMM_WORLD;
    }
}

int mpp_world_model_closing(void)
{
    world_model_open = 0;
#if defined(MPP_HAVE_MPI_Session_init)
    return own_session == MPI_SESSION_NULL || sessions_open() == 0;
#else
    return 1;
#endif
}

void mpp_world_release(void)
{
#if defined(MPP_HAVE_MPI_Session_init)
    if (own_session != MPI_SESSION_NULL) {
        if (mpp_world_comm != MPI_COMM_NULL)
            PMPI_Comm_free(&mpp_world_comm);
        PMPI_Session_finalize(&own_session);
        own_session = MPI_SESSION_NULL;
    }
#endif
    mpp_world_comm = MPI_COMM_NULL;
}

#if defined(MPP_HAVE_MPI_Session_init)
/* The profiler's own session and its communicator of mpi://WORLD; 0, or
 * -1 (said on stderr: there is no protocol to say it in) and the program
 * runs unprofiled. */
int mpp_world_open_own(void)
{
    MPI_Group group = MPI_GROUP_NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    const char *failed = NULL;
    if (PMPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &own_session) != MPI_SUCCESS)
        failed = "MPI_Session_init", own_session = MPI_SESSION_NULL;
    else if (PMPI_Group_from_session_pset(own_session, "mpi://WORLD", &group) != MPI_SUCCESS)
        failed = "MPI_Group_from_session_pset(mpi://WORLD)";
    else if (PMPI_Comm_create_from_group(group, "org.mpiprof.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm) !=
             MPI_SUCCESS)
        failed = "MPI_Comm_create_from_group";
    if (group != MPI_GROUP_NULL)
        PMPI_Group_free(&group);
    if (failed) {
        fprintf(stderr,
                "mpiprof: the profiler's own %s failed at the program's first MPI_Session_init; the "
                "program runs without the profiler\n",
                failed);
        if (own_session != MPI_SESSION_NULL)
            PMPI_Session_finalize(&own_session);
        own_session = MPI_SESSION_NULL;
        return -1;
    }
    mpp_world_comm = comm;
    return 0;
}

int mpp_world_claim(void)
{
    pthread_mutex_lock(&lock);
    int first = !world_known;
    world_known = 1;
    pthread_mutex_unlock(&lock);
    return first;
}

void mpp_world_unclaim(void) { world_known = 0; }

void mpp_world_session_opened(MPI_Session s) { remember(s); }

void mpp_world_session_closed(MPI_Session s) { forget(s); }

int mpp_world_ends_with(MPI_Session s)
{
    return own_session != MPI_SESSION_NULL && !world_model_open && is_last_open(s);
}
#endif /* MPP_HAVE_MPI_Session_init */
