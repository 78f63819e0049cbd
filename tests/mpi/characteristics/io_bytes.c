/* io_bytes: MPI-IO with known bytes (test_io_bytes.sh), on 2 processes.
 * In the interval "write phase" each rank writes 3 blocks of 4096 bytes
 * with MPI_File_write_at; after it, reads 2 blocks of 8192 bytes with
 * MPI_File_read_at_all and writes 1000 ints with MPI_File_iwrite_at
 * completed by MPI_Wait.  A point-to-point message of 64 bytes is the
 * only bytes_sent.  Prints "io_bytes: rank R done". */
#include <mpi.h>
#include <mpiprof.h>
#include <stdio.h>

static char block[8192];
static int ints[1000];

int main(int argc, char **argv)
{
    int rank;
    MPI_File fh;
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "usage: io_bytes FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    MPI_Offset base = (MPI_Offset)rank * 65536;
    MPIPROF_INTERVAL_BEGIN("write phase");
    for (int i = 0; i < 3; i++)
        MPI_File_write_at(fh, base + i * 4096, block, 4096, MPI_CHAR, MPI_STATUS_IGNORE);
    MPIPROF_INTERVAL_END();
    for (int i = 0; i < 2; i++)
        MPI_File_read_at_all(fh, base + i * 8192, block, 8192, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_iwrite_at(fh, base + 32768, ints, 1000, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Send(block, 64, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(block, 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    printf("io_bytes: rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
