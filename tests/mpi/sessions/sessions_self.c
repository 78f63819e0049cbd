/* sessions_self: MPI-4 sessions at any number of processes, for
 * tests/mpi/sessions/test_sessions.sh.
 *
 *   sessions_self
 *
 * One session; for each of the process sets mpi://self and mpi://world, a
 * group, a communicator of it from MPI_Comm_create_from_group, one message
 * each process sends to itself on it (MPI_Irecv, MPI_Send, MPI_Wait: the
 * wait-state analysis pairs it with a send record to itself), one
 * MPI_Allreduce, the communicator freed; the session finalized.  MPICH
 * 4.0.2 crashes when a pending request is tested under sessions at one
 * process, which the profiler's own requests must never need.  Prints
 * "sessions_self: ok" (rank 0 of mpi://world) when every process's results
 * are right (a process with a wrong one says so on stderr and exits 1). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(const char *what, int rc)
{
    if (rc != MPI_SUCCESS)
        fprintf(stderr, "sessions_self: %s failed (%d)\n", what, rc);
    return rc != MPI_SUCCESS;
}

static int world_rank = -1;

static int use_pset(MPI_Session session, const char *pset, const char *tag)
{
    MPI_Group group = MPI_GROUP_NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Request request;
    int errs = 0, rank = -1, size = 0, sent, received = -1, sum = 0;

    errs += check("MPI_Group_from_session_pset", MPI_Group_from_session_pset(session, pset, &group));
    errs += check("MPI_Comm_create_from_group",
                  MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    errs += check("MPI_Group_free", MPI_Group_free(&group));
    if (errs)
        return errs;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (!strcmp(pset, "mpi://world"))
        world_rank = rank;
    sent = 1000 + rank;
    errs += check("MPI_Irecv", MPI_Irecv(&received, 1, MPI_INT, rank, 5, comm, &request));
    errs += check("MPI_Send", MPI_Send(&sent, 1, MPI_INT, rank, 5, comm));
    errs += check("MPI_Wait", MPI_Wait(&request, MPI_STATUS_IGNORE));
    errs += check("MPI_Allreduce", MPI_Allreduce(&sent, &sum, 1, MPI_INT, MPI_SUM, comm));
    if (received != sent || sum != 1000 * size + size * (size - 1) / 2) {
        fprintf(stderr, "sessions_self: %s: received %d (sent %d), sum %d\n", pset, received, sent, sum);
        errs++;
    }
    errs += check("MPI_Comm_free", MPI_Comm_free(&comm));
    return errs;
}

int main(void)
{
    MPI_Session session = MPI_SESSION_NULL;
    int errs = check("MPI_Session_init", MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    if (errs)
        return 1;
    errs += use_pset(session, "mpi://self", "org.mpiprof.test.self");
    errs += use_pset(session, "mpi://world", "org.mpiprof.test.world");
    errs += check("MPI_Session_finalize", MPI_Session_finalize(&session));
    if (!errs && world_rank == 0)
        printf("sessions_self: ok\n");
    return errs != 0;
}
