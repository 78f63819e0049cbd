/* callsite_nofp_lib: the shared library of tests/mpi/callsites/callsite_nofp.c, built
 * with mpicc -O2 -fomit-frame-pointer: MPI calls two levels down. */
#include <mpi.h>

static double __attribute__((noinline)) lib_reduce(double x)
{
    volatile double frame[64];
    double y = 0;
    frame[(int)x & 63] = x;
    MPI_Allreduce((const void *)&frame[(int)x & 63], &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    return y;
}

double lib_exchange(double x, int peer)
{
    double got = 0;
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, peer, 7, &got, 1, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:sendrecv */
    return lib_reduce(got + x); /* MARK:reduce */
}
