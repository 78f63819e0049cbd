/* fuzz_config: a small MPI program for tests/mpi/context/test_fuzz_config.sh that
 * sets MPIPROF_* variables itself before MPI_Init (the profiler reads them
 * there), so that any byte string reaches the profiler exactly as written:
 * empty, 5000 bytes long, control characters, and no launcher or shell
 * between the test and the environment.
 *
 *   mpiexec -n 2 ./fuzz_config [SETTINGS]
 *
 * SETTINGS is a file of NAME=VALUE entries, each ended by a NUL byte.  The
 * program's output (rank 0, one line on stdout) must never change, whatever
 * the settings.  Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void apply_settings(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(buf + i) + 1) {
        char *entry = buf + i, *eq = strchr(entry, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (setenv(entry, eq + 1, 1) != 0) {
            perror("setenv");
            exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, sum = 0, token = 0;

    if (argc > 1)
        apply_settings(argv[1]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (size > 1) {
        if (rank == 0)
            MPI_Send(&sum, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(&token, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0)
        printf("fuzz_config: %d processes, rank sum %d\n", size, sum);
    MPI_Finalize();
    return 0;
}
