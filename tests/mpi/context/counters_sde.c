/* counters_sde: counters whose values the program decides, so that the
 * protocol's per-interval counts are known exactly.  The program registers
 * two software-defined events with PAPI's libsde (library "mpiprof_test"):
 *   WORK    incremented by the program outside MPI, and by a user-defined
 *           reduction operator, which MPI calls inside MPI_Reduce_local:
 *           those increments happen inside an MPI call
 *   PHASES  incremented once each time the interval "phase" begins
 * Per rank r (PAPI starts counting at MPI_Init):
 *   interval 0:       WORK += 100 before "phase", WORK += 5 after it
 *   "phase":          WORK += 1000 * (r + 1) outside MPI, then 3 calls of
 *                     MPI_Reduce_local whose operator adds 10 each (inside)
 *   "only0" (rank 0): WORK += 3
 * so with MPIPROF_PAPI_SRC=on, per rank: "phase" total 1000(r+1)+30, inside
 * 30; interval 0 total 1000(r+1)+135 (+3 on rank 0), inside 30.
 * Run with MPIPROF_PAPI_EVENTS=sde:::mpiprof_test::WORK,sde:::mpiprof_test::PHASES. */
#include <mpi.h>
#include <sde_lib.h>
#include <stdio.h>

#include "mpiprof.h"

static long long work, phases;

static void add_ten(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
    work += 10; /* runs inside MPI_Reduce_local */
}

int main(int argc, char **argv)
{
    papi_handle_t sde = papi_sde_init("mpiprof_test");
    papi_sde_register_counter(sde, "WORK", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &work);
    papi_sde_register_counter(sde, "PHASES", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &phases);
    work = 1000000; /* before MPI_Init: not counted */

    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Op op;
    MPI_Op_create(add_ten, 1, &op);

    work += 100;
    MPIPROF_INTERVAL_BEGIN("phase");
    phases++;
    work += 1000 * (rank + 1);
    int a = 1, b = 2;
    for (int i = 0; i < 3; i++)
        MPI_Reduce_local(&a, &b, 1, MPI_INT, op);
    MPIPROF_INTERVAL_END();
    if (rank == 0) {
        MPIPROF_INTERVAL_BEGIN("only0");
        work += 3;
        MPIPROF_INTERVAL_END();
    }
    work += 5;

    MPI_Op_free(&op);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("counters_sde: ok\n");
    MPI_Finalize();
    papi_sde_shutdown(sde);
    return 0;
}
