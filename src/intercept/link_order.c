/* The link-order check at load time.  A program linked with the MPI
 * library before libmpiprof (`-lmpich -lmpiprof`, or CMake's MPI::MPI_C
 * ahead of the profiler) loads libmpiprof but binds MPI_Init to MPI's own:
 * none of the profiler's wrappers is ever called, so this constructor is
 * the only code of it that runs.  It says so in one line and lets the run
 * go on.  Preloaded, or linked in the right order, every entry point that
 * starts MPI resolves to the profiler's own; a process that is no MPI
 * program (mpiexec, Hydra's proxy, a shell, under LD_PRELOAD) resolves
 * them to the preloaded library too, so neither is told anything. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "context/config.h"
#include "intercept/mpi_family.h"
#include "util/common.h"

/* The entry points that start MPI, C and Fortran (MPICH's mpi_f08, Open
 * MPI's mpif.h, use mpi and use mpi_f08: init_finalize.c, fortran_ompi.c,
 * world.c); the ones this build does not define are skipped. */
static const char *const init_entries[] = {
    "MPI_Init",         "MPI_Init_thread", "MPI_Session_init",     "mpi_init_",
    "mpi_init_thread_", "mpi_init_f08_",   "mpi_init_thread_f08_",
};

static const char *quiet_or_off(const char *name)
{
    return strcmp(name, "MPIPROF_QUIET") == 0 || strcmp(name, "MPIPROF_DISABLE") == 0 ? getenv(name) : NULL;
}

/* MPIPROF_QUIET, or MPIPROF_DISABLE (no profile asked for: nothing is
 * lost), as the library parses them at MPI_Init (the rest of the
 * configuration stays unread: only this rare path asks). */
static int silent(void)
{
    static mpp_config_t cfg;
    mpp_config_parse(&cfg, quiet_or_off);
    return cfg.number[MPP_CFG_QUIET] || cfg.number[MPP_CFG_DISABLE];
}

/* The first entry point that the process binds elsewhere than to this
 * library, and where (the file of its definition); NULL when none. */
static const char *misbound(void *self, const void *self_base, const char **where)
{
    for (size_t i = 0; i < MPP_ARRAY_LEN(init_entries); i++) {
        void *own = dlsym(self, init_entries[i]);
        void *bound = dlsym(RTLD_DEFAULT, init_entries[i]);
        Dl_info info;
        /* (dlsym(self) also searches the library's dependencies: an entry
         * point found there is not the profiler's.) */
        if (!own || !bound || own == bound || !dladdr(own, &info) || info.dli_fbase != self_base)
            continue;
        *where = dladdr(bound, &info) && info.dli_fname && *info.dli_fname ? info.dli_fname : "another library";
        return init_entries[i];
    }
    return NULL;
}

__attribute__((constructor)) static void link_order_check(void)
{
    Dl_info info;
    if (!dladdr((void *)link_order_check, &info) || !info.dli_fname)
        return;
    void *self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!self)
        return;
    const char *where = NULL;
    const char *entry = misbound(self, info.dli_fbase, &where);
    dlclose(self);
    /* Once per run: the first process as the launcher numbers them. */
    if (!entry || mpp_launcher_rank() > 0 || silent())
        return;
    const char *base = strrchr(where, '/');
    fprintf(stderr,
            "mpiprof: %s resolves to %s, loaded before libmpiprof: this run is not profiled; link -lmpiprof "
            "before the MPI library (mpicc-prof, `pkg-config --libs mpiprof`, CMake's mpiprof::mpiprof) or run "
            "the program with mpiprof-run (man mpiprof-run)\n",
            entry, base ? base + 1 : where);
}
