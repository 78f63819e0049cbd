/* MPI's own errors and how processes end (mpi-error, abort, abend,
 * incomplete-call): test_check_errors.sh and test_check_ends.sh.
 *
 *   errors SCENARIO
 *
 *   error-return    MPI_ERRORS_RETURN on MPI_COMM_WORLD, a send to an
 *                   invalid rank returns an error; the run ends normally
 *   error-fatal     the default handler: rank 0's send to an invalid rank
 *                   ends the job (MPICH: status 6, MPI_ERR_RANK), rank 1
 *                   waits in MPI_Recv
 *   error-fatal-set the same after the program set MPI_COMM_WORLD's handler
 *                   to MPI_ERRORS_RETURN and back to MPI_ERRORS_ARE_FATAL
 *   error-fatal-win the same on a window (MPI_Put to an invalid rank): a
 *                   window's default handler is MPI_ERRORS_ARE_FATAL too
 *   return-self-win MPI_ERRORS_RETURN on MPI_COMM_WORLD only: an error on
 *                   MPI_COMM_SELF, a duplicate of it and a window is
 *                   returned too in MPICH (they have no handler of their
 *                   own: MPI_COMM_WORLD's is theirs), with the profiler too
 *   own-handler     the program's handler on MPI_COMM_WORLD prints a line,
 *                   the call returns the error
 *   get-errhandler  the handlers a get returns: MPI_ERRORS_ARE_FATAL by
 *                   default (communicators, windows), else what the program
 *                   set; every handle got is freed; no finding
 *   abort           rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3), rank 0 waits
 *   abend           rank 1 raises SIGSEGV outside MPI, rank 0 waits
 *   incomplete      rank 1 sends SIGTERM to rank 0, which waits in MPI_Recv
 *
 * Each finding is marked at its line (check_findings.py).  Run with 2
 * processes. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static void own_handler(MPI_Comm *comm, int *code, ...)
{
    int cls;
    (void)comm;
    MPI_Error_class(*code, &cls);
    printf("rank %d: own handler called, class %d\n", rank, cls);
    fflush(stdout);
}

/* A receive that never completes: the other process ends the job. */
static void wait_forever(void)
{
    int x;
    MPI_Recv(&x, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void error_return(void)
{
    int x = rank, rc;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD); /* expect error-return: mpi-error ranks=0-1 */
    int cls = -1;
    MPI_Error_class(rc, &cls);
    printf("rank %d: MPI_Send returned class %d\n", rank, cls);
}

static void error_fatal(void)
{
    int x = rank;
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD); /* expect error-fatal: mpi-error ranks=0 */
    else
        wait_forever();
    printf("rank %d: after the fatal error\n", rank); /* not reached */
}

static void error_fatal_set(void)
{
    int x = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD); /* expect error-fatal-set: mpi-error ranks=0 */
    else
        wait_forever();
}

static void error_fatal_win(void)
{
    int buf[4] = {0}, x = rank;
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&x, 1, MPI_INT, size + 3, 0, 1, MPI_INT, win); /* expect error-fatal-win: mpi-error ranks=0 */
    else
        wait_forever();
}

static void return_self_win(void)
{
    int x = rank, buf[4] = {0}, rc;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&x, 1, MPI_INT, 5, 0, MPI_COMM_SELF); /* expect return-self-win: mpi-error ranks=0-1 */
    printf("rank %d: self: %s\n", rank, rc == MPI_SUCCESS ? "success" : "an error");
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_SELF, &dup);
    rc = MPI_Send(&x, 1, MPI_INT, 5, 0, dup); /* expect return-self-win: mpi-error ranks=0-1 */
    printf("rank %d: dup of self: %s\n", rank, rc == MPI_SUCCESS ? "success" : "an error");
    MPI_Comm_free(&dup);
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    rc = MPI_Put(&x, 1, MPI_INT, size + 3, 0, 1, MPI_INT, win); /* expect return-self-win: mpi-error ranks=0-1 */
    printf("rank %d: window: %s\n", rank, rc == MPI_SUCCESS ? "success" : "an error");
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

static void own(void)
{
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(own_handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Errhandler_free(&eh);
    int x = rank;
    int rc = MPI_Send(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD); /* expect own-handler: mpi-error ranks=0-1 */
    printf("rank %d: MPI_Send returned %s\n", rank, rc == MPI_SUCCESS ? "success" : "an error");
}

static int expect(const char *what, MPI_Errhandler got, MPI_Errhandler want)
{
    printf("rank %d: %s: %s\n", rank, what, got == want ? "as set" : "NOT as set");
    return got == want;
}

/* A get of a communicator's handler, checked and freed. */
static void check_comm(const char *what, MPI_Comm comm, MPI_Errhandler want)
{
    MPI_Errhandler got;
    MPI_Comm_get_errhandler(comm, &got);
    expect(what, got, want);
    MPI_Errhandler_free(&got);
}

static void get_errhandler(void)
{
    check_comm("world, default", MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_comm("self, default", MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    check_comm("dup, inherited", dup, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    check_comm("dup, errors return", dup, MPI_ERRORS_RETURN);
    MPI_Errhandler mine;
    MPI_Comm_create_errhandler(own_handler, &mine);
    MPI_Comm_set_errhandler(dup, mine);
    check_comm("dup, own", dup, mine);
    MPI_Errhandler_free(&mine);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL);
    check_comm("dup, fatal again", dup, MPI_ERRORS_ARE_FATAL);
    /* (not MPI_ERRORS_ABORT: MPICH 4.0.2 fails an assertion setting it) */
    MPI_Comm dup2;
    MPI_Comm_dup(dup, &dup2);
    check_comm("dup of dup, inherited fatal", dup2, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);

    int buf[4];
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Errhandler got;
    MPI_Win_get_errhandler(win, &got);
    expect("window, default", got, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&got);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_get_errhandler(win, &got);
    expect("window, errors return", got, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    MPI_Win_free(&win);

    MPI_File_get_errhandler(MPI_FILE_NULL, &got);
    expect("files, default", got, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    MPI_File_get_errhandler(MPI_FILE_NULL, &got);
    expect("files, fatal", got, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&got);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
}

static void abort_run(void)
{
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 3); /* expect abort: abort ranks=1 */
    wait_forever();
}

static void abend(void)
{
    if (rank == 1)
        raise(SIGSEGV); /* expect abend: abend ranks=1 */
    wait_forever();
}

static void incomplete(void)
{
    int pid = (int)getpid(), x;
    if (rank == 0) {
        MPI_Send(&pid, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        /* two findings at the call: a signal from outside (abort), in a call that never returned */
        MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect incomplete: abort ranks=0 */ /* expect incomplete: incomplete-call ranks=0 */
    } else {
        MPI_Recv(&pid, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sleep(2); /* rank 0 is in its MPI_Recv by then */
        kill((pid_t)pid, SIGTERM);
        wait_forever();
    }
}

/* MPICH: a duplicate of MPI_COMM_WORLD made while its handler was the
 * default one sends its errors to MPI_COMM_WORLD's handler of the moment
 * (MPICH's errors/comm/comm_split_nullarg): MPI_ERRORS_RETURN set there
 * after the dup makes the error return, with the checks as without. */
static void dup_defers(void)
{
    MPI_Comm dup, *none = NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_split(dup, 0, rank, none); /* expect dup-defers: mpi-error ranks=0-1 */
    printf("rank %d: split with a NULL newcomm returned %s\n", rank, rc == MPI_SUCCESS ? "success" : "an error");
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *scenario = argc > 1 ? argv[1] : "";
    static const struct {
        const char *name;
        void (*run)(void);
    } scenarios[] = {{"error-return", error_return},
                     {"error-fatal", error_fatal},
                     {"error-fatal-set", error_fatal_set},
                     {"error-fatal-win", error_fatal_win},
                     {"return-self-win", return_self_win},
                     {"own-handler", own},
                     {"get-errhandler", get_errhandler},
                     {"abort", abort_run},
                     {"abend", abend},
                     {"incomplete", incomplete},
                     {"dup-defers", dup_defers}};
    int known = 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (!strcmp(scenario, scenarios[i].name))
            scenarios[i].run(), known = 1;
    if (!known && rank == 0)
        fprintf(stderr, "errors: unknown scenario '%s'\n", scenario);
    MPI_Finalize();
    return known ? 0 : 2;
}
