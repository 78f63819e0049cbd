/* io_digest: a run that is nearly all MPI-IO, for
 * tests/mpi/characteristics/test_io_digest.sh: the digest must name I/O
 * (by the method it is productive time, so K_eff alone looks healthy).
 *
 * Each rank writes ROUNDS blocks of BLOCK bytes at its own offsets of one
 * file with MPI_File_write_at_all, syncs, reads them back with
 * MPI_File_read_at_all and checks them; nothing else runs between
 * MPI_Init and MPI_Finalize but opening, closing and deleting the file
 * (MPI-IO too).  The file is FILE (the first argument).  Run with 2
 * processes; prints "io_digest: ok" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 8
#define BLOCK (4 << 20)

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *block = malloc(BLOCK), *back = malloc(BLOCK);
    if (argc < 2 || !block || !back) {
        fprintf(stderr, "usage: io_digest FILE (run with 2 processes)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    for (int r = 0; r < ROUNDS; r++) {
        memset(block, 'a' + (rank + r) % 26, BLOCK);
        MPI_Offset at = ((MPI_Offset)r * size + rank) * BLOCK;
        MPI_File_write_at_all(fh, at, block, BLOCK, MPI_CHAR, MPI_STATUS_IGNORE);
    }
    MPI_File_sync(fh);
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Offset at = ((MPI_Offset)r * size + rank) * BLOCK;
        MPI_File_read_at_all(fh, at, back, BLOCK, MPI_CHAR, MPI_STATUS_IGNORE);
        bad += back[0] != 'a' + (rank + r) % 26 || back[BLOCK - 1] != back[0];
    }
    MPI_File_close(&fh);
    if (rank == 0)
        MPI_File_delete(argv[1], MPI_INFO_NULL);
    if (rank == 0)
        printf("io_digest: %s\n", bad ? "read back wrong data" : "ok");
    free(block), free(back);
    MPI_Finalize();
    return bad != 0;
}
