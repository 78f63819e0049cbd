/* model_pingpong: the ping-pong of bench/mpibench.c (8 bytes between ranks
 * 0 and 1, time per call = loop time / 2 calls per round trip), and the same
 * with 128 KiB messages for a bandwidth, for tests/mpi/test_model_calibration.sh,
 * which compares them with the model's calibration.  Built with plain mpicc
 * (the benchmark's unprofiled run) and with mpicc-prof.  Rank 0 prints
 *   pingpong_ns=NS bandwidth=BYTES_PER_SECOND
 * Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>

enum { ROUND_TRIPS = 20000, LARGE = 128 * 1024, LARGE_TRIPS = 200 };

static char buf[LARGE];

/* seconds per one-way message: the loop's time over 2 calls per round trip */
static double pingpong(int rank, int bytes, int n)
{
    for (int pass = 0; pass < 2; pass++) { /* an untimed warm-up of a tenth first */
        int m = pass ? n : n / 10;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < m; i++) {
            if (rank == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (pass)
            return (MPI_Wtime() - t0) / (2.0 * m);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "model_pingpong: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double small = pingpong(rank, 8, ROUND_TRIPS);
    double large = pingpong(rank, LARGE, LARGE_TRIPS);
    if (rank == 0)
        printf("pingpong_ns=%.1f bandwidth=%.4g\n", small * 1e9, LARGE / (large - small));
    MPI_Finalize();
    return 0;
}
