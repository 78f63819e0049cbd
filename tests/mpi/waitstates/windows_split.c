/* windows_split: windows of collectives on two communicators that overlap
 * on one process's time line, for tests/mpi/waitstates/test_windows_split.sh.
 *
 * 2 processes, communicators A and B (duplicates of MPI_COMM_WORLD).
 * ITERS times: rank 0 starts MPI_Ibcast on A, computes T_GAP, starts
 * MPI_Ibcast on B, waits for both, and receives a message rank 1 sends at
 * the end of its round (so that the windows of one round overlap, not
 * those of all); rank 1 computes T_LATE, then MPI_Ibcast on A and waits,
 * computes T_GAP2, MPI_Ibcast on B and waits.  Rank 0's Potential
 * sync windows, [its entry, rank 1's entry), overlap: A's is about T_LATE
 * long, B's begins T_GAP after A's and ends T_GAP2 after it.  By the rule
 * (an instant counts for the window that began first) A's SRC point gets
 * all of its window, B's only the T_GAP2 after it; counted in the order the
 * profiler learns them instead, B (whose communicator is freed, and so
 * reduced, first) would get most of the overlap.  Each rank records its
 * entries and exits (waitstates_events.c: keys "a" and "b"; rank 0's
 * entries are its MPI_Ibcast calls) in PREFIX.RANK (PREFIX: the first
 * argument) and prints "rank=R done=1". */
#include "../lib/waitstates_events.c"

#include <mpi.h>
#include <string.h>

#define ITERS 40
#define T_LATE 0.004
#define T_GAP 0.0005
#define T_GAP2 0.001

int main(int argc, char **argv)
{
    int rank, size, a_val = 0, b_val = 0, errors = 0, token;
    MPI_Comm a, b;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "windows_split: run with 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    for (int i = 0; i < ITERS; i++) {
        double t0, t1, t2, t3;
        if (rank == 0) {
            MPI_Request req[2];
            MPI_Status statuses[2];
            a_val = i, b_val = 1000 + i;
            t0 = ws_now();
            MPI_Ibcast(&a_val, 1, MPI_INT, 0, a, &req[0]); /* MARK:ibcast_a */
            t1 = ws_now();
            ws_busy(T_GAP);
            t2 = ws_now();
            MPI_Ibcast(&b_val, 1, MPI_INT, 0, b, &req[1]); /* MARK:ibcast_b */
            MPI_Waitall(2, req, statuses);
            /* rank 1 is through: the next windows begin after these */
            MPI_Recv(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            t3 = ws_now();
            ws_record("a", i, t0, t1);
            ws_record("b", i, t2, t3);
        } else { /* nonblocking too: a blocking collective does not match a nonblocking one */
            MPI_Request req;
            ws_busy(T_LATE);
            t0 = ws_now();
            MPI_Ibcast(&a_val, 1, MPI_INT, 0, a, &req); /* MARK:bcast_a */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            t1 = ws_now();
            ws_busy(T_GAP2);
            t2 = ws_now();
            MPI_Ibcast(&b_val, 1, MPI_INT, 0, b, &req); /* MARK:bcast_b */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            t3 = ws_now();
            ws_record("a", i, t0, t1);
            ws_record("b", i, t2, t3);
            errors += a_val != i || b_val != 1000 + i;
            MPI_Send(&i, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        }
    }
    /* B first: its instances are reduced, and learnt, before A's: with a
     * third argument "settle", A's are still in their batch when B's
     * reduction ends (the barriers let it end), else they are in their
     * reduction too */
    MPI_Comm_free(&b);
    for (int i = 0; argc > 2 && !strcmp(argv[2], "settle") && i < 4; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&a);
    errors += ws_write_events(argc > 1 ? argv[1] : "events", rank);
    printf("rank=%d done=%d\n", rank, errors == 0);
    MPI_Finalize();
    return 0;
}
