/* model_pingpong: the ping-pong of bench/mpibench.c (8 bytes between ranks
 * 0 and 1, time per call = a loop's time / 2 calls per round trip), and the
 * same with 128 KiB messages for a bandwidth, for
 * tests/mpi/model/test_model_calibration.sh, which compares them with the model's
 * calibration.  Each is the fastest of SLICES slices of the loop, as
 * bench/run compares slice by slice: a slice during which another process
 * had the cores (CI builds beside the tests) does not count, as it does
 * not in the calibration, which keeps the better of two.  Built with plain
 * mpicc (the benchmark's unprofiled run) and with mpicc-prof.  Rank 0 prints
 *   pingpong_ns=NS bandwidth=BYTES_PER_SECOND
 * Run with 2 processes. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

enum { ROUND_TRIPS = 20000, LARGE = 128 * 1024, LARGE_TRIPS = 200, SLICES = 40 };

static char buf[LARGE];

static void exchange(int rank, int bytes, int round_trips)
{
    for (int i = 0; i < round_trips; i++) {
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
}

/* seconds per one-way message: the fastest slice's time over 2 calls per
 * round trip, after an untimed warm-up of a tenth */
static double pingpong(int rank, int bytes, int n)
{
    int per_slice = n / SLICES;
    MPI_Barrier(MPI_COMM_WORLD);
    exchange(rank, bytes, n / 10);
    double best = HUGE_VAL;
    for (int s = 0; s < SLICES; s++) {
        double t0 = MPI_Wtime();
        exchange(rank, bytes, per_slice);
        double t = (MPI_Wtime() - t0) / (2.0 * per_slice);
        if (t < best)
            best = t;
    }
    return best;
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
