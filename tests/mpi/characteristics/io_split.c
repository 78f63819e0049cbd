/* io_split: MPI-IO, computation, sleeping and waiting, for
 * tests/mpi/characteristics/test_io_split.sh: the I/O part of Productive
 * time is the time measured in the MPI-IO calls.
 *
 * Each rank writes ROUNDS blocks of BLOCK bytes at its own offsets of one
 * file (MPI_File_write_at), syncs it, reads them back (MPI_File_read_at)
 * and checks them, computes T_WORK (busy loop) and sleeps T_SLEEP between
 * rounds; rank 1 computes T_WORK more before a message rank 0 waits for in
 * MPI_Recv (MPICH polls: CPU time that is Communication, not productive).
 * The file is FILE (the first argument) and is deleted at the end.
 *
 * Each rank prints its user and system CPU time (getrusage) from MPI_Init's
 * return to MPI_Finalize's entry:
 *   rank=R user=SECONDS sys=SECONDS
 * Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define ROUNDS 4
#define BLOCK (1 << 20)
#define T_WORK 0.030
#define T_SLEEP 0.030

#include "../lib/busy.h"

static void cpu(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
    *sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    double u0, s0, u1, s1;
    MPI_File fh;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    cpu(&u0, &s0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc < 2) {
        if (rank == 0)
            fprintf(stderr, "io_split: run with 2 processes and a file name\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *block = malloc(BLOCK), *back = malloc(BLOCK);
    if (!block || !back)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) != MPI_SUCCESS) /* MARK:open */
        MPI_Abort(MPI_COMM_WORLD, 4);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Offset at = ((MPI_Offset)i * size + rank) * BLOCK;
        memset(block, 'a' + (i + rank) % 26, BLOCK);
        MPI_File_write_at(fh, at, block, BLOCK, MPI_BYTE, &st); /* MARK:write */
        MPI_File_sync(fh); /* MARK:sync */
        MPI_File_read_at(fh, at, back, BLOCK, MPI_BYTE, &st); /* MARK:read */
        errors += memcmp(block, back, BLOCK) != 0;
        busy(T_WORK);
        struct timespec ts = {0, (long)(T_SLEEP * 1e9)};
        nanosleep(&ts, NULL);
        int v = i;
        if (rank == 1) {
            busy(T_WORK);
            MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:send */
        } else {
            MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &st); /* MARK:recv */
            errors += v != i;
        }
    }
    MPI_File_close(&fh); /* MARK:close */
    if (rank == 0)
        MPI_File_delete(argv[1], MPI_INFO_NULL); /* MARK:delete */
    free(block);
    free(back);
    if (errors)
        fprintf(stderr, "io_split: rank %d: %d wrong values\n", rank, errors);
    cpu(&u1, &s1);
    printf("rank=%d user=%.6f sys=%.6f\n", rank, u1 - u0, s1 - s0);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
