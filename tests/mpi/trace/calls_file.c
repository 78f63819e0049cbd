/* The MPI-IO functions io_calls.c leaves out, on 2 processes: the
 * large-count _c form of each data-access function, and the calls on a
 * file's handle, view, size, atomicity, info, group and error handler,
 * file deletion and data representations; twice each.  The trace analyzer
 * must give each the SRC point, calls and bytes of the dynamic mode
 * (test_analyze_functions.sh). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 16
#define ITER 2

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "calls_file: %s failed (%d)\n", what, err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void on_error(MPI_File *fh, int *err, ...)
{
    (void)fh;
    (void)err;
}

static int conversion(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position, void *state)
{
    (void)userbuf, (void)type, (void)count, (void)filebuf, (void)position, (void)state;
    return MPI_SUCCESS;
}

static int conversion_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf, MPI_Offset position,
                        void *state)
{
    (void)userbuf, (void)type, (void)count, (void)filebuf, (void)position, (void)state;
    return MPI_SUCCESS;
}

static int extent(MPI_Datatype type, MPI_Aint *file_extent, void *state)
{
    (void)type, (void)state;
    *file_extent = sizeof(int);
    return MPI_SUCCESS;
}

/* the large-count data access, at explicit offsets and through both file pointers */
static void large_count(MPI_File fh, MPI_Offset at, int *buf)
{
    MPI_Request rq;
    MPI_Status st;
    MPI_File_write_at_c(fh, at, buf, N, MPI_INT, &st);
    MPI_File_read_at_c(fh, at, buf, N, MPI_INT, &st);
    MPI_File_write_at_all_c(fh, at, buf, N, MPI_INT, &st);
    MPI_File_read_at_all_c(fh, at, buf, N, MPI_INT, &st);
    MPI_File_iwrite_at_c(fh, at, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iread_at_c(fh, at, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iwrite_at_all_c(fh, at, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iread_at_all_c(fh, at, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_write_at_all_begin_c(fh, at, buf, N, MPI_INT);
    MPI_File_write_at_all_end(fh, buf, &st);
    MPI_File_read_at_all_begin_c(fh, at, buf, N, MPI_INT);
    MPI_File_read_at_all_end(fh, buf, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_write_c(fh, buf, N, MPI_INT, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_read_c(fh, buf, N, MPI_INT, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_write_all_c(fh, buf, N, MPI_INT, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_read_all_c(fh, buf, N, MPI_INT, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_iwrite_c(fh, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_iread_c(fh, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_iwrite_all_c(fh, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_iread_all_c(fh, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_write_all_begin_c(fh, buf, N, MPI_INT);
    MPI_File_write_all_end(fh, buf, &st);
    MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_File_read_all_begin_c(fh, buf, N, MPI_INT);
    MPI_File_read_all_end(fh, buf, &st);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_write_shared_c(fh, buf, N, MPI_INT, &st);
    MPI_File_read_shared_c(fh, buf, N, MPI_INT, &st);
    MPI_File_iwrite_shared_c(fh, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_iread_shared_c(fh, buf, N, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_write_ordered_c(fh, buf, N, MPI_INT, &st);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_read_ordered_c(fh, buf, N, MPI_INT, &st);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_write_ordered_begin_c(fh, buf, N, MPI_INT);
    MPI_File_write_ordered_end(fh, buf, &st);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_read_ordered_begin_c(fh, buf, N, MPI_INT);
    MPI_File_read_ordered_end(fh, buf, &st);
}

/* the calls on the file's handle */
static void handle(MPI_File fh)
{
    MPI_Offset off, disp, bytes;
    MPI_Datatype etype, ftype;
    MPI_Aint ext;
    MPI_Count cext;
    MPI_Group group;
    MPI_Info info;
    MPI_Errhandler eh, old;
    char rep[MPI_MAX_DATAREP_STRING];
    int amode, flag;
    if (MPI_File_f2c(MPI_File_c2f(fh)) != fh)
        check(1, "MPI_File_f2c of MPI_File_c2f");
    MPI_File_get_amode(fh, &amode);
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &flag);
    MPI_File_set_atomicity(fh, 0);
    MPI_File_get_position(fh, &off);
    MPI_File_get_position_shared(fh, &off);
    MPI_File_get_byte_offset(fh, off, &bytes);
    MPI_File_get_type_extent(fh, MPI_INT, &ext);
    MPI_File_get_type_extent_c(fh, MPI_INT, &cext);
    MPI_File_get_view(fh, &disp, &etype, &ftype, rep);
    MPI_File_get_group(fh, &group);
    MPI_Group_free(&group);
    MPI_File_get_info(fh, &info);
    MPI_File_set_info(fh, info);
    MPI_Info_free(&info);
    MPI_File_preallocate(fh, 4 * N * sizeof(int));
    MPI_File_set_size(fh, 4 * N * sizeof(int));
    MPI_File_create_errhandler(on_error, &eh);
    MPI_File_get_errhandler(fh, &old);
    MPI_File_set_errhandler(fh, eh);
    MPI_File_call_errhandler(fh, MPI_ERR_OTHER);
    MPI_File_set_errhandler(fh, old);
    MPI_Errhandler_free(&eh);
    MPI_Errhandler_free(&old);
}

int main(int argc, char **argv)
{
    int rank, buf[N] = {0};
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "usage: calls_file FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* ROMIO may refuse both (MPICH 4.0.2 does): only the calls matter here */
    MPI_Register_datarep("calls_file", conversion, conversion, extent, NULL);
    MPI_Register_datarep_c("calls_file_c", conversion_c, conversion_c, extent, NULL);
    for (int i = 0; i < ITER; i++) {
        check(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
              "MPI_File_open");
        MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
        large_count(fh, rank * N, buf);
        handle(fh);
        MPI_File_sync(fh);
        check(MPI_File_close(&fh), "MPI_File_close");
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            check(MPI_File_delete(argv[1], MPI_INFO_NULL), "MPI_File_delete");
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("calls_file done\n");
    MPI_Finalize();
    return 0;
}
