/* Facts about the run for the protocol's Parameters, gathered by the
 * lifecycle wrappers (MPI_Init, MPI_Finalize). */
#ifndef MPP_RUNINFO_H
#define MPP_RUNINFO_H

typedef struct {
    char program[2048];     /* command line of rank 0 */
    char program_name[256]; /* base name of argv[0] */
    char cwd[1024];
    char started[40], finished[40], written[40];
    int nprocs;
    char threads_level[40];
    char mpi_library[256];
    char mpi_standard[32];
    char hostname[256];
    char init_file[512]; /* call site of MPI_Init: interval 0's position */
    int init_line;
    char clock[1024];
    char waitstates[400]; /* which wait-state analyses ran */
    /* Trace mode (MPIPROF_TRACE): the archive's path ("" when none was
     * written), its size in bytes, whether it is complete, and the text
     * the Parameters give ("" : off). */
    char trace_path[4096];
    long long trace_bytes;
    int trace_complete;
    char trace[4200];
    int partial;
    /* Collection mode: "" for the in-memory library (dynamic); the trace
     * analyzer's "trace", or "trace, incomplete" for a run that died */
    char mode[32];
} mpp_run_info_t;

/* Local date and time, ISO 8601 with offset. */
void mpp_now_iso8601(char *out, unsigned size);
/* Command line and program name from /proc/self/cmdline. */
void mpp_read_command_line(char *line, unsigned line_size, char *name, unsigned name_size);

#endif
