/* Invalid arguments (test_check_arguments.sh): each scenario passes MPI
 * one argument it forbids, on every process, after setting
 * MPI_ERRORS_RETURN so that the run goes on to MPI_Finalize (the
 * fatal-count scenario does not: MPI aborts); legal-args passes the values
 * MPI allows that look alike and must give no finding. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, peer;

static void invalid_values(const char *s)
{
    int buf[8] = {0};
    MPI_Status st;
    MPI_Request rq;
    if (!strncmp(s, "negative-count", 14) || !strcmp(s, "fatal-count")) { /* -basic: MPI's own error alone below full */
        MPI_Send(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD); /* expect negative-count,fatal-count: invalid-argument ranks=0-1 */ /* expect negative-count-basic: mpi-error ranks=0-1 */
    } else if (!strcmp(s, "bad-rank")) {
        MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* expect bad-rank: invalid-argument ranks=0-1 */
        MPI_Send(buf, 1, MPI_INT, MPI_UNDEFINED, 0, MPI_COMM_WORLD); /* expect bad-rank: invalid-argument ranks=0-1 */
        MPI_Recv(buf, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &st); /* expect bad-rank: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "bad-root")) {
        MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD); /* expect bad-root: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "bad-tag")) {
        int *ub, flag;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
        MPI_Send(buf, 1, MPI_INT, peer, -3, MPI_COMM_WORLD); /* expect bad-tag: invalid-argument ranks=0-1 */
        MPI_Send(buf, 1, MPI_INT, peer, *ub + 1, MPI_COMM_WORLD); /* expect bad-tag: invalid-argument ranks=0-1 */
        MPI_Send(buf, 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD); /* expect bad-tag: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "null-comm")) {
        MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL); /* expect null-comm: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "null-op")) {
        MPI_Allreduce(buf, buf + 4, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD); /* expect null-op: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "null-request")) {
        MPI_Irecv(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL); /* expect null-request: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "null-status")) {
        MPI_Recv(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL); /* expect null-status: invalid-argument ranks=0-1 */
    } else if (!strcmp(s, "null-buffer")) {
        MPI_Send(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD); /* expect null-buffer: invalid-argument ranks=0-1 */
        MPI_Isend(buf + 4, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq);
        MPI_Recv(NULL, 2, MPI_INT, peer, 1, MPI_COMM_WORLD, &st); /* expect null-buffer: invalid-argument ranks=0-1 */
        MPI_Recv(buf, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &st);
        MPI_Wait(&rq, &st);
    }
}

static void invalid_types(const char *s)
{
    int buf[8] = {0};
    MPI_Datatype t;
    MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    if (!strcmp(s, "uncommitted-type")) {
        MPI_Send(buf, 1, t, peer, 0, MPI_COMM_WORLD); /* expect uncommitted-type: invalid-argument ranks=0-1 */
        MPI_Type_free(&t);
    } else if (!strcmp(s, "freed-type")) {
        MPI_Type_commit(&t);
        MPI_Datatype freed = t;
        MPI_Type_free(&t);
        /* MPICH does not see it; to MPI_PROC_NULL it touches nothing */
        MPI_Send(buf, 1, freed, MPI_PROC_NULL, 0, MPI_COMM_WORLD); /* expect freed-type: invalid-argument ranks=0-1 */
        MPI_Datatype dup;
        MPI_Type_contiguous(2, MPI_INT, &dup); /* a new type may take the freed handle: then no finding */
        MPI_Type_commit(&dup);
        MPI_Send(buf, 1, dup, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
        MPI_Type_free(&dup);
    } else {
        MPI_Type_free(&t);
    }
}

/* Values that look invalid and are not. */
static void legal(void)
{
    int buf[8] = {0}, in[8];
    MPI_Status st;
    MPI_Request rq;
    /* a receive from anyone with any tag; nothing to or from MPI_PROC_NULL, a NULL buffer of no element */
    MPI_Isend(buf, 2, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
    MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Send(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(NULL, 0, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, 4, NULL, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* MPI_BOTTOM with a datatype of absolute addresses */
    MPI_Aint where;
    MPI_Get_address(&buf[2], &where);
    int one = 1;
    MPI_Datatype abs;
    MPI_Type_create_hindexed(1, &one, &where, MPI_INT, &abs);
    MPI_Type_commit(&abs);
    MPI_Sendrecv(MPI_BOTTOM, 1, abs, peer, 5, in, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&abs);
    /* the duplicate of a committed datatype is committed */
    MPI_Datatype c, d;
    MPI_Type_contiguous(2, MPI_INT, &c);
    MPI_Type_commit(&c);
    MPI_Type_dup(c, &d);
    MPI_Sendrecv(buf, 1, d, peer, 6, in, 2, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&d);
    MPI_Type_free(&c);
    /* in place; a receive buffer that matters at the root only */
    MPI_Allreduce(MPI_IN_PLACE, buf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(buf, rank == 0 ? in : NULL, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Gather(buf, 1, MPI_INT, rank == 1 ? in : NULL, 1, MPI_INT, 1, MPI_COMM_WORLD);
    /* what MPI ignores: the send count and type with MPI_IN_PLACE, a non-root's receive arguments */
    if (rank == 0)
        MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, in, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(buf, 1, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    /* MPI_NO_OP: no origin buffer */
    MPI_Win win;
    MPI_Win_create(in, sizeof in, sizeof in[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Fetch_and_op(NULL, buf, MPI_INT, peer, 0, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    /* an intercommunicator: ranks of the remote group, MPI_ROOT */
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, peer, 7, &inter);
    MPI_Bcast(rank == 0 ? buf : in, 2, MPI_INT, rank == 0 ? MPI_ROOT : 0, inter);
    MPI_Sendrecv(buf, 1, MPI_INT, 0, 8, in, 1, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank + 1) % size;
    const char *s = argc > 1 ? argv[1] : "legal-args";
    if (strncmp(s, "fatal-", 6) != 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    }
    if (!strcmp(s, "legal-args"))
        legal();
    invalid_values(s);
    invalid_types(s);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
