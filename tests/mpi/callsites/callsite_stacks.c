/* callsite_stacks: one call site reached by several stacks in turn, for
 * tests/mpi/callsites/test_callsite_stacks.sh.
 *
 *   callsite_stacks one|three [N]
 *
 * N (default 30000) calls of MPI_Type_size from one call site
 * at the end of a recursion: "one" always 2 levels deep,
 * "three" 1, 2 and 3 levels deep in turn (three stacks at one call site,
 * as MPICH's datatype library asks MPI_Type_size while it checks its
 * buffers).  The loop is query_loop, which the test's callgrind counts.
 * Prints "callsite_stacks: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int __attribute__((noinline)) leaf(void)
{
    int size;
    MPI_Type_size(MPI_INT, &size); /* MARK:type_size */
    return size;
}

static int __attribute__((noinline)) down(int levels)
{
    int size = levels > 1 ? down(levels - 1) : leaf();
    __asm__ volatile("" ::: "memory"); /* not a tail call: a frame per level */
    return size;
}

static long __attribute__((noinline)) query_loop(long n, int vary)
{
    long sum = 0;
    for (long i = 0; i < n; i++)
        sum += down(vary ? 1 + (int)(i % 3) : 2);
    return sum;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int vary = argc > 1 && !strcmp(argv[1], "three");
    long n = argc > 2 ? atol(argv[2]) : 30000;
    long sum = query_loop(n, vary);
    printf(sum == 4 * n ? "callsite_stacks: ok\n" : "callsite_stacks: wrong sum %ld\n", sum);
    MPI_Finalize();
    return sum != 4 * n;
}
