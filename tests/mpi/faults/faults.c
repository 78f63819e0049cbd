/* faults: MPI processes that end without MPI_Finalize, after MPI calls
 * whose numbers and call sites are known, for tests/mpi/faults/test_fault_*.sh.
 *
 *   faults MODE [DIR]
 *
 * Every process first makes N_ALLREDUCE MPI_Allreduce of 4 ints (one
 * line), then rank 0 sends N_SEND messages of 8 ints to rank 1 (one line
 * each side), then MODE decides how the run ends:
 *
 *   segv bus fpe ill abrt   rank 1 gets that signal from a real fault at
 *                           the FAULT line (null pointer, a truncated
 *                           mapped file, integer division by zero, an
 *                           undefined instruction, abort()); rank 0 waits
 *                           in MPI_Recv (WAIT line)
 *   segv_in_mpi             rank 1 passes an invalid buffer to MPI_Allreduce
 *                           (INMPI line): SIGSEGV inside the MPI library
 *   abort                   rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7) (ABORT line)
 *   abort_self              rank 1 calls MPI_Abort(MPI_COMM_SELF, 7)
 *                           (ABORT_SELF line); rank 0 computes outside MPI
 *   abort_split             both split MPI_COMM_WORLD into communicators of
 *                           one process each (SPLIT line); rank 1 calls
 *                           MPI_Abort(on its own, 7) (ABORT_SPLIT line);
 *                           rank 0 waits in MPI_Recv
 *   abort_both              rank 1 calls MPI_Abort(MPI_COMM_SELF, 7), and
 *                           so does rank 0 (ABORT_BOTH line), with two
 *                           threads of its own computing, once rank 1's
 *                           partial protocol exists ($MPIPROF_OUTPUT.
 *                           partial.1, written before its JSON; at once
 *                           without MPIPROF_OUTPUT): rank 1 then ends while
 *                           rank 0 writes its own, slowly
 *   exit                    rank 1 calls exit(3) (EXIT line); rank 0 waits
 *   return                  every process returns 4 from main, no MPI_Finalize
 *   wait                    every process sends N_PEER messages to the other,
 *                           writes its pid to DIR/pid.RANK and receives at
 *                           the PEER line until a signal comes: the
 *                           (N_PEER+1)-th call there never returns
 *   chain_segv chain_term   as segv and wait, with the program's own
 *                           handlers of SIGSEGV and SIGTERM installed before
 *                           MPI_Init: they append "handler SIGNAL RANK" to
 *                           DIR/handled, then die of the signal as if they
 *                           were not there
 *   finalize_hold           rank 1 writes its pid and holds back outside
 *                           MPI (HOLD line) until a signal comes; rank 0
 *                           writes its pid and calls MPI_Finalize (FINALIZE
 *                           line), where it waits for rank 1
 *   finalize_after_usr1     every process has its own SIGUSR1 handler
 *                           (installed before MPI_Init) that returns; rank
 *                           1 raises SIGUSR1 and the run ends with
 *                           MPI_Finalize as usual
 *
 * The test finds lines by their MARK: comments.  Run with 2 processes. */
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define N_ALLREDUCE 100
#define N_SEND 50
#define N_PEER 3

static int rank = -1;
static const char *dir = ".";
static char handled_path[4096];

/* Lines in DIR/handled: the handlers that have run (async-signal-safe). */
static int handled_lines(void)
{
    char buf[512];
    int fd = open(handled_path, O_RDONLY), lines = 0;
    if (fd < 0)
        return 0;
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
        for (ssize_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
    close(fd);
    return lines;
}

/* The program's own handler: async-signal-safe, then the default action.
 * SIGTERM (both ranks get it) waits up to 2 s for the other rank's handler
 * first: the first rank to die makes mpiexec kill the other with SIGKILL,
 * and on a loaded machine that came before the other's SIGTERM was
 * delivered, in a run without the profiler too. */
static void own_handler(int sig)
{
    char line[64];
    int n = snprintf(line, sizeof line, "handler %d %d\n", sig, rank);
    int fd = open(handled_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        ssize_t rc = write(fd, line, (size_t)n);
        (void)rc;
        close(fd);
    }
    /* 1 ms: the rank that wrote first outlives the other by at most that,
       a window in which its MPI may see the peer gone and exit on its own. */
    const struct timespec tick = {0, 1000 * 1000};
    for (int i = 0; sig == SIGTERM && i < 2000 && handled_lines() < 2; i++)
        nanosleep(&tick, NULL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static volatile sig_atomic_t usr1_seen;

static void returning_handler(int sig)
{
    (void)sig;
    usr1_seen = 1;
}

static void write_pid(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/pid.%d", dir, rank);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
}

static void wait_forever(void)
{
    int x;
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:wait */
}

static void receive_forever(void)
{
    int x = rank;
    for (int i = 0; i < N_PEER; i++)
        MPI_Send(&x, 1, MPI_INT, 1 - rank, 98, MPI_COMM_WORLD); /* MARK:peer_send */
    write_pid();
    for (;;)
        MPI_Recv(&x, 1, MPI_INT, 1 - rank, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:peer */
}

static void hold_back(void)
{
    write_pid();
    for (;;)
        pause(); /* MARK:hold */
}

static void compute_forever(void)
{
    volatile double x = 0;
    for (long i = 0;; i++)
        x += (double)(i & 1023);
}

static void *computing_thread(void *arg)
{
    compute_forever();
    return arg;
}

static void await_partial_of_rank_1(void)
{
    const char *output = getenv("MPIPROF_OUTPUT");
    if (!output)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.partial.1", output);
    for (int i = 0; i < 10000 && access(path, F_OK) != 0; i++)
        usleep(1000);
}

static int zero(void)
{
    static volatile int z;
    return z;
}

static void fault(const char *mode)
{
    if (!strcmp(mode, "segv") || !strcmp(mode, "chain_segv")) {
        volatile int *p = (volatile int *)(uintptr_t)zero();
        *p = 1; /* MARK:fault_segv */
    } else if (!strcmp(mode, "bus")) {
        char path[4096];
        snprintf(path, sizeof path, "%s/bus.%d", dir, rank);
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        volatile char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        m[0] = 1; /* MARK:fault_bus (the file is empty: no page behind the mapping) */
    } else if (!strcmp(mode, "fpe")) {
        volatile int a = 1, b = zero();
        a = a / b; /* MARK:fault_fpe */
    } else if (!strcmp(mode, "ill")) {
        __builtin_trap(); /* MARK:fault_ill */
    } else if (!strcmp(mode, "abrt")) {
        abort(); /* MARK:fault_abrt */
    }
}

int main(int argc, char **argv)
{
    int size, in[4], out[4], msg[8] = {0};
    const char *mode = argc > 1 ? argv[1] : "";
    if (argc > 2)
        dir = argv[2];
    snprintf(handled_path, sizeof handled_path, "%s/handled", dir);
    if (!strncmp(mode, "chain_", 6)) {
        signal(SIGSEGV, own_handler);
        signal(SIGTERM, own_handler);
    }
    if (!strcmp(mode, "finalize_after_usr1"))
        signal(SIGUSR1, returning_handler);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "faults: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < N_ALLREDUCE; i++) {
        for (int j = 0; j < 4; j++)
            in[j] = i + j;
        MPI_Allreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    }
    for (int i = 0; i < N_SEND; i++) {
        if (rank == 0)
            MPI_Send(msg, 8, MPI_INT, 1, 7, MPI_COMM_WORLD); /* MARK:send */
        else
            MPI_Recv(msg, 8, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
    }

    MPI_Comm alone = MPI_COMM_NULL;
    if (!strcmp(mode, "abort_split"))
        MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone); /* MARK:split */

    if (!strcmp(mode, "wait") || !strcmp(mode, "chain_term")) {
        receive_forever();
    } else if (!strcmp(mode, "abort_both")) {
        pthread_t threads[2];
        for (int t = 0; rank == 0 && t < 2; t++)
            pthread_create(&threads[t], NULL, computing_thread, NULL);
        if (rank == 0)
            await_partial_of_rank_1();
        MPI_Abort(MPI_COMM_SELF, 7); /* MARK:abort_both */
    } else if (!strcmp(mode, "finalize_hold")) {
        if (rank == 1)
            hold_back();
        write_pid();
        MPI_Finalize(); /* MARK:finalize */
        return 0;
    } else if (!strcmp(mode, "return")) {
        return 4; /* MARK:return */
    } else if (!strcmp(mode, "finalize_after_usr1")) {
        if (rank == 1)
            raise(SIGUSR1);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1 && !usr1_seen)
            fprintf(stderr, "faults: the program's SIGUSR1 handler did not run\n");
        MPI_Finalize();
        return 0;
    } else if (rank == 0 && !strcmp(mode, "abort_self")) {
        compute_forever(); /* the other process ends the run */
    } else if (rank == 0) {
        wait_forever(); /* the other process ends the run */
    } else if (!strcmp(mode, "segv_in_mpi")) {
        MPI_Allreduce((void *)(uintptr_t)16, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:inmpi */
    } else if (!strcmp(mode, "abort")) {
        MPI_Abort(MPI_COMM_WORLD, 7); /* MARK:abort */
    } else if (!strcmp(mode, "abort_self")) {
        MPI_Abort(MPI_COMM_SELF, 7); /* MARK:abort_self */
    } else if (!strcmp(mode, "abort_split")) {
        MPI_Abort(alone, 7); /* MARK:abort_split */
    } else if (!strcmp(mode, "exit")) {
        exit(3); /* MARK:exit */
    } else {
        fault(mode);
    }
    fprintf(stderr, "faults: mode '%s' did not end the process\n", mode);
    return 99;
}
