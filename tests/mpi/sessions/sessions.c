/* sessions: a program of the MPI-4 Sessions Model, for
 * tests/mpi/sessions/test_sessions.sh.
 *
 *   sessions [MODE]
 *
 * MPI_Session_init (SESSION_INIT line), a group of the mpi://WORLD process
 * set, a communicator of it from MPI_Comm_create_from_group, then on that
 * communicator N_ALLREDUCE MPI_Allreduce (ALLREDUCE line), the interval
 * "exchange" (MPI_Pcontrol) in which rank 0 sends N_SEND messages to rank
 * 1 (SEND, RECV lines), the first of them 20 ms late, and one MPI_Barrier
 * (BARRIER line); the communicator and the session are freed
 * (SESSION_FINALIZE line).  MODE:
 *
 *   (none)   sessions only, never MPI_Init
 *   two      a second session is opened after the first (SECOND_INIT line)
 *            and finalized after it (SECOND_FINALIZE line; the first at
 *            SESSION_FINALIZE)
 *   world    MPI_Init first (INIT line) and MPI_Finalize last, around the
 *            same
 *
 * Prints "sessions: ok" on rank 0 when the results are right.  The test
 * finds lines by their MARK: comments.  Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_ALLREDUCE 100
#define N_SEND 20

static void die(const char *what, int rc)
{
    fprintf(stderr, "sessions: %s failed (%d)\n", what, rc);
    exit(1);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Session session = MPI_SESSION_NULL, second = MPI_SESSION_NULL;
    MPI_Group group = MPI_GROUP_NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    int rc, rank, size, wrong = 0;

    if (!strcmp(mode, "world"))
        MPI_Init(&argc, &argv); /* MARK:init */
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session); /* MARK:session_init */
    if (rc != MPI_SUCCESS)
        die("MPI_Session_init", rc);
    if ((rc = MPI_Group_from_session_pset(session, "mpi://WORLD", &group)) != MPI_SUCCESS)
        die("MPI_Group_from_session_pset", rc);
    rc = MPI_Comm_create_from_group(group, "org.mpiprof.test.sessions", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
    if (rc != MPI_SUCCESS)
        die("MPI_Comm_create_from_group", rc);
    MPI_Group_free(&group);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size != 2) {
        fprintf(stderr, "sessions: run with 2 processes, not %d\n", size);
        return 1;
    }
    if (!strcmp(mode, "two") && MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &second) != MPI_SUCCESS) /* MARK:second_init */
        die("the second MPI_Session_init", 0);

    for (int i = 0; i < N_ALLREDUCE; i++) {
        int in = rank + i, out = 0;
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, comm); /* MARK:allreduce */
        wrong |= out != 1 + 2 * i;
    }
    MPI_Pcontrol(1, "exchange"); /* MARK:exchange */
    for (int i = 0; i < N_SEND; i++) {
        int msg[8] = {i};
        if (rank == 0) {
            if (i == 0)
                usleep(20000); /* rank 1 waits for this one: Real sync */
            MPI_Send(msg, 8, MPI_INT, 1, 5, comm); /* MARK:send */
        } else {
            MPI_Recv(msg, 8, MPI_INT, 0, 5, comm, MPI_STATUS_IGNORE); /* MARK:recv */
            wrong |= msg[0] != i;
        }
    }
    MPI_Pcontrol(-1, "exchange");
    MPI_Barrier(comm); /* MARK:barrier */

    MPI_Comm_free(&comm);
    if ((rc = MPI_Session_finalize(&session)) != MPI_SUCCESS) /* MARK:session_finalize */
        die("MPI_Session_finalize", rc);
    if (second != MPI_SESSION_NULL && (rc = MPI_Session_finalize(&second)) != MPI_SUCCESS) /* MARK:second_finalize */
        die("the second MPI_Session_finalize", rc);
    if (!strcmp(mode, "world"))
        MPI_Finalize(); /* MARK:finalize */
    if (wrong)
        fprintf(stderr, "sessions: rank %d got wrong results\n", rank);
    else if (rank == 0)
        printf("sessions: ok\n");
    return wrong;
}
