/* callsite_nofp: MPI calls from code built without frame pointers (plain
 * mpicc -O2 -fomit-frame-pointer, with callsite_nofp_lib.c in a shared
 * library built the same way), profiled by LD_PRELOAD, for
 * tests/mpi/callsites/test_callsite_nofp.sh.
 *
 * The frame-pointer register holds garbage where the program calls MPI, as
 * optimized code leaves it: at MPI_Init a value far above the stack (a walk
 * that trusts it faults), in phase_a a dead stack's fill pattern.  The call
 * sites (each marked call on one line, with a MARK comment the test finds):
 *   MPI_Init
 *   N x (phase_a, phase_b) -> lib_exchange -> MPI_Sendrecv and
 *        lib_reduce -> MPI_Allreduce     (two SRC points each, told apart by
 *                                         the phase)
 *   1 x MPI_Bcast
 * Run with exactly 2 processes. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#define N 5

double lib_exchange(double x, int peer);

static int __attribute__((noinline)) init_with_garbage_bp(int *argc, char ***argv)
{
    register uintptr_t garbage __asm__("rbp") = ((uintptr_t)argv & ~(uintptr_t)15) + ((uintptr_t)1 << 40);
    __asm__ volatile("" : "+r"(garbage));
    int rc = MPI_Init(argc, argv); /* MARK:init */
    __asm__ volatile("" : "+r"(garbage));
    return rc + (garbage == 0);
}

static double __attribute__((noinline)) phase_a(int i, int peer)
{
    register uintptr_t garbage __asm__("rbp") = (uintptr_t)0x1a1a1a1a1a1a1a1aull + (uintptr_t)i;
    volatile double big[2000];
    big[i] = i;
    __asm__ volatile("" : "+r"(garbage));
    double r = lib_exchange(big[i], peer); /* MARK:phase_a */
    __asm__ volatile("" : "+r"(garbage));
    return r + (double)(garbage & 1);
}

static double __attribute__((noinline)) phase_b(int i, int peer)
{
    volatile double small[3];
    small[i % 3] = 2.0 * i;
    return lib_exchange(small[i % 3], peer) / 2; /* MARK:phase_b */
}

int main(int argc, char **argv)
{
    int rank, size;
    double sum = 0, token = 0;
    if (init_with_garbage_bp(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "callsite_nofp: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < N; i++) {
        sum += phase_a(i, 1 - rank); /* MARK:call_a */
        sum += phase_b(i, 1 - rank); /* MARK:call_b */
    }
    token = rank == 0 ? sum : -1;
    MPI_Bcast(&token, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* MARK:bcast */
    if (rank == 0)
        printf("callsite_nofp: %s\n", token == sum ? "ok" : "wrong");
    MPI_Finalize();
    return 0;
}
