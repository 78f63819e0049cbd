/* openmp_hybrid: a hybrid MPI+OpenMP program for test_threads_openmp.sh.
 *
 *   OMP_NUM_THREADS=T mpiexec -n 2 ./openmp_hybrid
 *
 * MPI_THREAD_FUNNELED; an OpenMP parallel region of the default team (T
 * threads) computes, the main thread alone calls MPI (an MPI_Allreduce of
 * the sum).  Rank 0 prints "openmp_hybrid: T threads ok" (built without
 * -fopenmp: 1 thread, whatever OMP_NUM_THREADS says). */
#include <mpi.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_num_threads(void) { return 1; } /* built without -fopenmp: one thread */
#endif

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double sum = 0;
    int team = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp master
        team = omp_get_num_threads();
        volatile double x = 0;
        for (int i = 0; i < 2000000; i++)
            x += 1e-9 * i;
        sum += x;
    }
    double all = 0;
    MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("openmp_hybrid: %d threads %s\n", team, all > 0 ? "ok" : "wrong");
    MPI_Finalize();
    return 0;
}
