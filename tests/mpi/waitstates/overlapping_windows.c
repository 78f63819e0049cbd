/* overlapping_windows: operations whose Potential sync, Time variation or
 * Overlap windows overlap on one process's time line, for
 * tests/mpi/waitstates/test_overlapping_windows.sh: each is a part of the
 * processes' time and cannot exceed it.
 *
 * Four phases, each an interval that both ranks enter and leave together
 * (an MPI_Sendrecv, point to point, at its start and end):
 *
 *   bcast_race   rank 1 computes T_LATE, rank 0 (the root) runs through
 *                N_RACE MPI_Bcast at once (small messages: the root does
 *                not wait), then rank 1 makes its N_RACE.  Every instance's
 *                window of rank 0, [its entry, rank 1's entry), covers the
 *                same T_LATE of its time line: counted once, Potential sync
 *                ~ T_LATE, not N_RACE x T_LATE; Time variation likewise.
 *   gather_race  the same with MPI_Gather, rank 0 (the root) late: rank 1
 *                runs ahead.
 *   icoll        rank 1 computes T_LATE; both ranks start N_NB nonblocking
 *                collectives (MPI_Ibcast and MPI_Iallreduce in turn), rank 0
 *                computes T_WORK and both complete them with MPI_Waitall:
 *                N_NB Potential sync windows of rank 0 over one stretch, and
 *                N_NB requests in flight at once, each with a model transfer
 *                time (MPIPROF_MODEL, set by the test) shorter than T_WORK:
 *                their Overlap windows cover one stretch too.
 *   p2p          both ranks start N_P2P MPI_Irecv and N_P2P MPI_Isend of
 *                P2P_BYTES to each other, compute T_WORK, MPI_Waitall: 2 x
 *                N_P2P requests in flight at once.
 *
 * Rank R records (waitstates_events.c, PREFIX.R, PREFIX the first argument,
 * default "events") the entry and exit of every collective instance
 * ("bcast", "gather", "icoll": from the initiating call's entry to the
 * MPI_Waitall's exit), and for every nonblocking request the return of the
 * call that started it and the entry of the MPI_Waitall that completed it
 * ("req_icoll", "req_p2p").  The checker computes from them what the
 * definitions give when each instant of a process's time counts once.
 * Run with 2 processes. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N_RACE 100
#define N_NB 48
#define N_P2P 48
#define P2P_BYTES 4096
#define T_LATE 0.080
#define T_WORK 0.040

static int rank;

static void align(void)
{
    int in = rank, out = -1;
    MPI_Sendrecv(&in, 1, MPI_INT, 1 - rank, 99, &out, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:align */
}

static int values[N_NB], ins[N_NB], sums[N_NB], gathered[2 * N_RACE];
static char sendbuf[N_P2P][P2P_BYTES], recvbuf[N_P2P][P2P_BYTES];
static MPI_Request reqs[2 * N_P2P + N_NB];
static double returned[2 * N_P2P + N_NB];
/* not MPI_STATUSES_IGNORE: GCC 12 takes it for an array of size 0 */
static MPI_Status statuses[2 * N_P2P + N_NB];

static int bcast_race(void)
{
    int errors = 0;
    if (rank == 1)
        ws_busy(T_LATE);
    for (int i = 0; i < N_RACE; i++) {
        int v = rank == 0 ? i : -1;
        double t = ws_now();
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD); /* MARK:bcast */
        ws_record("bcast", i, t, ws_now());
        errors += v != i;
    }
    return errors;
}

static int gather_race(void)
{
    int errors = 0;
    if (rank == 0)
        ws_busy(T_LATE);
    for (int i = 0; i < N_RACE; i++) {
        int v = 10 * i + rank;
        double t = ws_now();
        MPI_Gather(&v, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD); /* MARK:gather */
        ws_record("gather", i, t, ws_now());
        errors += rank == 0 && (gathered[0] != 10 * i || gathered[1] != 10 * i + 1);
    }
    return errors;
}

static int icoll(void)
{
    int errors = 0;
    double start[N_NB];
    if (rank == 1)
        ws_busy(T_LATE);
    for (int i = 0; i < N_NB; i++) {
        values[i] = rank == 1 ? i : -1;
        ins[i] = i;
        start[i] = ws_now();
        if (i % 2)
            MPI_Ibcast(&values[i], 1, MPI_INT, 1, MPI_COMM_WORLD, &reqs[i]); /* MARK:ibcast */
        else
            MPI_Iallreduce(&ins[i], &sums[i], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[i]); /* MARK:iallreduce */
        returned[i] = ws_now();
    }
    if (rank == 0)
        ws_busy(T_WORK);
    double t = ws_now();
    MPI_Waitall(N_NB, reqs, statuses); /* MARK:icoll_waitall */
    double t1 = ws_now();
    for (int i = 0; i < N_NB; i++) {
        ws_record("icoll", i, start[i], t1);
        ws_record("req_icoll", i, returned[i], t);
        errors += i % 2 ? values[i] != i : sums[i] != 2 * i;
    }
    return errors;
}

static int p2p(void)
{
    int errors = 0, peer = 1 - rank;
    for (int i = 0; i < N_P2P; i++) {
        MPI_Irecv(recvbuf[i], P2P_BYTES, MPI_BYTE, peer, i, MPI_COMM_WORLD, &reqs[2 * i]); /* MARK:irecv */
        returned[2 * i] = ws_now();
        sendbuf[i][0] = (char)(i + rank);
        MPI_Isend(sendbuf[i], P2P_BYTES, MPI_BYTE, peer, i, MPI_COMM_WORLD, &reqs[2 * i + 1]); /* MARK:isend */
        returned[2 * i + 1] = ws_now();
    }
    ws_busy(T_WORK);
    double t = ws_now();
    MPI_Waitall(2 * N_P2P, reqs, statuses); /* MARK:p2p_waitall */
    for (int i = 0; i < 2 * N_P2P; i++)
        ws_record("req_p2p", i, returned[i], t);
    for (int i = 0; i < N_P2P; i++)
        errors += recvbuf[i][0] != (char)(i + peer);
    return errors;
}

int main(int argc, char **argv)
{
    int size, errors = 0;
    const char *prefix = argc > 1 ? argv[1] : "events";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "overlapping_windows: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    align();
    MPIPROF_INTERVAL_BEGIN("bcast_race");
    errors += bcast_race();
    align();
    MPIPROF_INTERVAL_END();

    align();
    MPIPROF_INTERVAL_BEGIN("gather_race");
    errors += gather_race();
    align();
    MPIPROF_INTERVAL_END();

    align();
    MPIPROF_INTERVAL_BEGIN("icoll");
    errors += icoll();
    align();
    MPIPROF_INTERVAL_END();

    align();
    MPIPROF_INTERVAL_BEGIN("p2p");
    errors += p2p();
    align();
    MPIPROF_INTERVAL_END();

    if (errors)
        fprintf(stderr, "overlapping_windows: rank %d: %d wrong values\n", rank, errors);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d done=1\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
