/* many_collectives: 10^5 short collectives with a known Time variation
 * each, for tests/mpi/waitstates/test_many_collectives.sh.
 *
 * 2 processes, N rounds (first argument, default 100000): both start
 * MPI_Ibarrier; rank 1 computes T_HOLD (second argument, default 20 us)
 * before its MPI_Wait, rank 0 waits at once.  Rank 0 leaves each instance when rank 1 has entered it and rank 1
 * T_HOLD later: rank 0's Time variation is about T_HOLD per instance, and
 * the next round's Potential sync about as much.  Each rank times its own
 * entry (the MPI_Ibarrier) and exit (the MPI_Wait) of every instance; rank
 * 0 gathers rank 1's and prints what the definitions give
 * (characteristics.md: sums over instances and processes, each instant of a
 * process's windows once):
 *   known potential_sync=S time_variation=S rounds=N
 * then "many_collectives: ok". */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#define T_HOLD (argc > 2 ? atof(argv[2]) : 20e-6)

/* Sum over instances and ranks of (max over ranks - own), each rank's
 * windows [own, max) counted once where they overlap (they follow one
 * another here, but the definition says so). */
static double spread(const double *own0, const double *own1, int n)
{
    double total = 0, reach[2] = {-1e300, -1e300};
    for (int i = 0; i < n; i++) {
        double v[2] = {own0[i], own1[i]}, max = v[0] > v[1] ? v[0] : v[1];
        for (int r = 0; r < 2; r++) {
            double from = v[r] > reach[r] ? v[r] : reach[r];
            if (max > from) {
                total += max - from;
                reach[r] = max;
            }
        }
    }
    return total;
}

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 100000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || n <= 0) {
        if (rank == 0)
            fprintf(stderr, "many_collectives: run with 2 processes and a positive count\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double *in = malloc(4 * (size_t)n * sizeof *in), *out = in + n, *in1 = in + 2 * (size_t)n, *out1 = in + 3 * (size_t)n;
    if (!in)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 0; i < n; i++) {
        MPI_Request req;
        in[i] = ws_now();
        MPI_Ibarrier(MPI_COMM_WORLD, &req); /* MARK:ibarrier */
        if (rank == 1)
            ws_busy(T_HOLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* MARK:wait */
        out[i] = ws_now();
    }
    if (rank == 1) {
        MPI_Send(in, 2 * n, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(in1, 2 * n, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("known potential_sync=%.9f time_variation=%.9f rounds=%d\n", spread(in, in1, n),
               spread(out, out1, n), n);
        printf("many_collectives: ok\n");
    }
    free(in);
    MPI_Finalize();
    return 0;
}
