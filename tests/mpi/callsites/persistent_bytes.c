/* persistent_bytes: a persistent barrier (MPI_Barrier_init) started 10
 * times.  A barrier moves no data: its MPI_Start's bytes are 0.  The stack
 * is dirtied before MPI_Barrier_init, so that bytes the wrapper leaves
 * unset come out as garbage, not as a lucky 0.  An MPI-3 library has no
 * persistent collectives: it says so, and the test is skipped. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void __attribute__((noinline)) dirty_stack(void)
{
    volatile unsigned char junk[16384];
    memset((void *)junk, 0xa5, sizeof junk);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#if MPI_VERSION >= 4
    MPI_Request req;
    dirty_stack();
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* MARK:barrier_init */
    for (int i = 0; i < 10; i++) {
        MPI_Start(&req); /* MARK:start */
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* MARK:wait */
    }
    MPI_Request_free(&req);
#endif
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf(MPI_VERSION >= 4 ? "persistent_bytes: ok\n" : "persistent_bytes: MPI-%d has no MPI_Barrier_init\n",
               MPI_VERSION);
    MPI_Finalize();
    return 0;
}
