/* Which MPI family the process runs on (mpi_family.h). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autoconf.h"
#include "intercept/mpi_family.h"

/* Larger than either family's MPI_MAX_LIBRARY_VERSION_STRING (MPICH 8192,
 * Open MPI 256): the running library's may not be the mpi.h's. */
static char library[8192 + 1024];

/* The rank the launcher gave the process, before MPI can be asked: Open
 * MPI's mpiexec, MPICH's Hydra, PMIx, Slurm; -1 when none says. */
long mpp_launcher_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return strtol(v, NULL, 10);
    }
    return -1;
}

void mpp_mpi_family_check(void)
{
    int len = 0;
    if (PMPI_Get_library_version(library, &len) != 0) /* MPI_SUCCESS is 0 in both */
        return;                                       /* no answer: nothing to compare */
    library[sizeof library - 1] = '\0';
    library[strcspn(library, ",\n")] = '\0'; /* "Open MPI v4.1.4", "MPICH Version:\t4.0.2" */
    for (char *tab = strchr(library, '\t'); tab; tab = strchr(tab, '\t'))
        *tab = ' ';
    int open_mpi = strncmp(library, "Open MPI", 8) == 0;
    if (open_mpi == (strcmp(MPP_MPI_FAMILY, "openmpi") == 0))
        return;
    if (mpp_launcher_rank() <= 0)
        fprintf(stderr,
                "mpiprof: this libmpiprof is built for %s but the program runs on %s, whose handles "
                "differ: it cannot run with it; use the mpiprof built with configure --with-mpi=%s (stopped, "
                "exit status 1)\n",
                MPP_MPI_BUILT_FOR, library, open_mpi ? "openmpi" : "mpich");
    fflush(NULL);
    PMPI_Finalize();
    _exit(1);
}
