/* Every MPI-IO data-access function (explicit offsets, individual and
 * shared file pointers; blocking, nonblocking and split collective) and
 * the file calls around them, three times each, on 2 processes: the
 * trace analyzer must give each its SRC point, calls, bytes and time as
 * the dynamic mode does (test_analyze_io.sh).  The nonblocking ones are
 * completed by MPI_Wait, whose time is then I/O time in both modes. */
#include <mpi.h>
#include <stdio.h>

#define N 16

int main(int argc, char **argv)
{
    int rank, buf[N] = {0};
    MPI_File fh;
    MPI_Request rq;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "usage: io_calls FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_Offset at = rank * N, size = 0;
    for (int i = 0; i < 3; i++) {
        /* explicit offsets */
        MPI_File_write_at(fh, at, buf, N, MPI_INT, &st);
        MPI_File_read_at(fh, at, buf, N, MPI_INT, &st);
        MPI_File_write_at_all(fh, at, buf, N, MPI_INT, &st);
        MPI_File_read_at_all(fh, at, buf, N, MPI_INT, &st);
        MPI_File_iwrite_at(fh, at, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_iread_at(fh, at, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_iwrite_at_all(fh, at, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_iread_at_all(fh, at, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_write_at_all_begin(fh, at, buf, N, MPI_INT);
        MPI_File_write_at_all_end(fh, buf, &st);
        MPI_File_read_at_all_begin(fh, at, buf, N, MPI_INT);
        MPI_File_read_at_all_end(fh, buf, &st);
        /* individual file pointers */
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_write(fh, buf, N, MPI_INT, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_read(fh, buf, N, MPI_INT, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_write_all(fh, buf, N, MPI_INT, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_read_all(fh, buf, N, MPI_INT, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_iwrite(fh, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_iread(fh, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_iwrite_all(fh, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_iread_all(fh, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_write_all_begin(fh, buf, N, MPI_INT);
        MPI_File_write_all_end(fh, buf, &st);
        MPI_File_seek(fh, at, MPI_SEEK_SET);
        MPI_File_read_all_begin(fh, buf, N, MPI_INT);
        MPI_File_read_all_end(fh, buf, &st);
        /* the shared file pointer */
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        MPI_File_write_shared(fh, buf, N, MPI_INT, &st);
        MPI_File_read_shared(fh, buf, N, MPI_INT, &st);
        MPI_File_iwrite_shared(fh, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_iread_shared(fh, buf, N, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        MPI_File_write_ordered(fh, buf, N, MPI_INT, &st);
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        MPI_File_read_ordered(fh, buf, N, MPI_INT, &st);
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        MPI_File_write_ordered_begin(fh, buf, N, MPI_INT);
        MPI_File_write_ordered_end(fh, buf, &st);
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        MPI_File_read_ordered_begin(fh, buf, N, MPI_INT);
        MPI_File_read_ordered_end(fh, buf, &st);
        MPI_File_sync(fh);
        MPI_File_get_size(fh, &size);
    }
    MPI_File_close(&fh);
    if (rank == 0)
        printf("io_calls done: %lld bytes\n", (long long)size);
    MPI_Finalize();
    return 0;
}
