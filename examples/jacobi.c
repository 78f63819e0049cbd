/* jacobi.c: Jacobi iteration for the Laplace equation on a square grid,
 * a model MPI program to try mpiprof on.
 *
 *   mpicc-prof -O2 -o jacobi jacobi.c
 *   mpiexec -n 2 ./jacobi [N [ITERATIONS]]      (default 768 x 768, 1000)
 *
 * The N x N grid (boundary included) is split into blocks of whole rows, one
 * block per process.  The top boundary is held at 1, the other three at 0.
 * Each iteration
 *   1. exchanges halo rows with the neighbours above and below
 *      (MPI_Sendrecv; MPI_PROC_NULL at the top and bottom of the grid),
 *   2. replaces every interior point by the mean of its four neighbours,
 *   3. sums the squared changes over all processes (MPI_Allreduce): the
 *      residual, which falls as the iteration converges.
 * Rank 0 prints one line with the final residual and the time taken. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Element (i, j) of a block of rows, N columns wide; local row 0 and row
 * nrows + 1 are the halo rows. */
#define AT(a, i, j) ((a)[(size_t)(i) * (size_t)n + (size_t)(j)])

/* Exchange halo rows with the neighbours: send the first own row up and the
 * last one down, receive the neighbours' rows into the halo rows. */
static void exchange_halo(double *a, int n, int nrows, int up, int down)
{
    MPI_Sendrecv(&AT(a, 1, 0), n, MPI_DOUBLE, up, 0, &AT(a, nrows + 1, 0), n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(a, nrows, 0), n, MPI_DOUBLE, down, 1, &AT(a, 0, 0), n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

/* One Jacobi sweep from a into b over the own rows; rows first..last
 * (local numbering) are the interior ones.  Returns the local sum of
 * squared changes. */
static double sweep(const double *a, double *b, int n, int first, int last)
{
    double sum = 0.0;
    for (int i = first; i <= last; i++)
        for (int j = 1; j < n - 1; j++) {
            double v = 0.25 * (AT(a, i - 1, j) + AT(a, i + 1, j) + AT(a, i, j - 1) + AT(a, i, j + 1));
            double d = v - AT(a, i, j);
            AT(b, i, j) = v;
            sum += d * d;
        }
    return sum;
}

int main(int argc, char **argv)
{
    int rank, size, n = 768, iterations = 1000;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        iterations = atoi(argv[2]);
    if (n < 3 || iterations < 1 || n < size) {
        if (rank == 0)
            fprintf(stderr, "usage: jacobi [N [ITERATIONS]] with N >= 3 and "
                            "N >= processes, ITERATIONS >= 1\n");
        MPI_Finalize();
        return 1;
    }

    /* My rows of the grid: global rows row0 .. row0 + nrows - 1. */
    int nrows = n / size + (rank < n % size);
    int row0 = rank * (n / size) + (rank < n % size ? rank : n % size);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    /* Interior rows among mine (global rows 0 and n - 1 are boundary). */
    int first = row0 == 0 ? 2 : 1;
    int last = row0 + nrows == n ? nrows - 1 : nrows;

    size_t count = (size_t)(nrows + 2) * (size_t)n;
    double *a = calloc(count, sizeof *a);
    double *b = calloc(count, sizeof *b);
    if (a == NULL || b == NULL) {
        fprintf(stderr, "jacobi: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (row0 == 0) /* the top boundary, kept in both arrays */
        for (int j = 0; j < n; j++)
            AT(a, 1, j) = AT(b, 1, j) = 1.0;

    double start = MPI_Wtime();
    double residual = 0.0;
    for (int it = 0; it < iterations; it++) {
        exchange_halo(a, n, nrows, up, down);
        double local = sweep(a, b, n, first, last);
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double *t = a; /* the new values become the old ones */
        a = b;
        b = t;
    }
    double elapsed = MPI_Wtime() - start;

    if (rank == 0)
        printf("jacobi: %d x %d grid, %d processes, %d iterations, "
               "residual %.6e, %.3f s\n",
               n, n, size, iterations, residual, elapsed);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
