/* model_overlap: MPI_Irecv + MPI_Isend of a known size, then known
 * computation, then MPI_Waitall, for tests/mpi/model/test_model_overlap.sh (run
 * with MPIPROF_MODEL=lat_intra=10us,bw_intra=100MB/s: a 200000-byte
 * transfer takes 10 us + 2 ms in the model).
 *
 *   interval "short": 20 iterations computing 1 ms  (< the transfer)
 *   interval "long":  20 iterations computing 5 ms  (> the transfer)
 *
 * Each request's Overlap window is min(computation, transfer) long: ~1 ms in
 * "short", 2.01 ms in "long"; the two requests of an iteration are in
 * flight together, and their windows count once.  Each
 * rank R writes the computation of each iteration (its own clock; a process
 * descheduled meanwhile computes longer) to model_overlap.R (not stdout,
 * where mpiexec may interleave the ranks' lines):
 *   rank=R short=SECONDS,SECONDS,...
 *   rank=R long=SECONDS,SECONDS,...
 * Computation is a busy loop on the clock.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <mpiprof.h>
#include <stdio.h>
#include <time.h>

enum { ITERATIONS = 20, BYTES = 200000 };

static char sendbuf[BYTES], recvbuf[BYTES];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double busy(double seconds)
{
    double start = now(), t;
    while ((t = now()) < start + seconds)
        ;
    return t - start;
}

static void phase(int peer, double compute, double *computed)
{
    for (int i = 0; i < ITERATIONS; i++) {
        MPI_Request req[2];
        MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: GCC 12 takes it for an array of size 0 */
        MPI_Irecv(recvbuf, BYTES, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &req[0]); /* MARK:irecv */
        MPI_Isend(sendbuf, BYTES, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &req[1]); /* MARK:isend */
        computed[i] = busy(compute);
        MPI_Waitall(2, req, st); /* MARK:waitall */
    }
}

static void print(FILE *f, int rank, const char *name, const double *t)
{
    fprintf(f, "rank=%d %s=", rank, name);
    for (int i = 0; i < ITERATIONS; i++)
        fprintf(f, "%s%.9f", i ? "," : "", t[i]);
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "model_overlap: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double s[ITERATIONS], l[ITERATIONS];
    MPIPROF_INTERVAL_BEGIN("short");
    phase(1 - rank, 1e-3, s);
    MPIPROF_INTERVAL_END();
    MPIPROF_INTERVAL_BEGIN("long");
    phase(1 - rank, 5e-3, l);
    MPIPROF_INTERVAL_END();
    char name[32];
    snprintf(name, sizeof name, "model_overlap.%d", rank);
    FILE *f = fopen(name, "w");
    if (!f) {
        perror(name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    print(f, rank, "short", s);
    print(f, rank, "long", l);
    fclose(f);
    MPI_Finalize();
    return 0;
}
