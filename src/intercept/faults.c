/* Partial protocols: a process that ends without MPI_Finalize writes what
 * it has accumulated at <protocol path>.partial.<rank> (partial.h,
 * lifecycle.c), without any MPI call: the MPI library may be broken, and
 * collective communication with processes that may be gone would hang.
 *
 * How a process can end, and what catches it:
 *   - a fatal signal of the program (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 *     SIGABRT) or a job-control signal (SIGTERM, SIGINT, SIGXCPU, SIGUSR1:
 *     batch systems and launchers send these): a signal handler;
 *   - MPI_Abort: its wrapper, before PMPI_Abort;
 *   - exit() or return from main before MPI_Finalize: an on_exit handler.
 *
 * A signal handler may only make async-signal-safe calls, and the
 * profile's pipeline (symbolization, allocation, stdio) is not.  So the
 * handler writes one preformatted line ("last words": the signal and the
 * MPI function the process is in), then forks with _Fork (async-signal-
 * safe, runs no atfork handlers) a child that runs the ordinary pipeline on
 * its copy of the process (profile, reduction of this process alone,
 * writers) and exits with _exit.  The parent waits for it, polling
 * waitpid(WNOHANG) with nanosleep, at most CHILD_SECONDS: a lock that some
 * thread held when the signal came (malloc's, stdio's) may deadlock the
 * child, and that must cost the partial protocol only, never hang the job,
 * so an overrunning child is killed.  The exit and MPI_Abort paths run the
 * same child (not in a signal, the program's state is sound, but a crash
 * in the pipeline must not change how the process ends).  The child is in
 * a process group of its own, so that it finishes its file even when the
 * launcher kills the process and its group meanwhile (another process of
 * the job ended first).
 *
 * Then the program's own handling: the handler that was installed when
 * MPI_Init returned (the program's, or the MPI library's) is called as the
 * kernel would have (SA_SIGINFO or not, its mask, SA_RESETHAND); with the
 * default action the default disposition is restored and the signal raised
 * again, so the process ends as it would have without the profiler and the
 * batch system sees the same exit status.  A handler the program installs
 * after MPI_Init simply replaces this one (sigaction has one handler per
 * signal): then no partial protocol is written for that signal.  Signals
 * the program ignores when MPI_Init returns stay ignored.
 *
 * If the program's handler returns after a job-control signal and the
 * program goes on, the partial protocol written for the signal is removed
 * (the process did not end), as is any partial protocol when the process
 * reaches MPI_Finalize. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include "accumulate/intervals.h"
#include "attribute/callsite.h"
#include "attribute/frame_rules.h"
#include "attribute/thread_state.h"
#include "autoconf.h"
#include "check/findings.h"
#include "context/clock.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "intercept/faults.h"
#include "intercept/trace_hooks.h"
#include "util/signal_text.h"
#include "write/partial.h"

/* How long a child may take to write the partial protocol, and the stack
 * it does it on (the handler may run on a small alternate signal stack:
 * UCX sets one up, 138 KiB, too little for symbolization). */
#define CHILD_SECONDS 10
#define CHILD_STACK (16 << 20)
/* After a job-control signal or exit, how long to wait for the other
 * processes' partial protocols before ending (see wait_for_others). */
#define OTHERS_MIN_SECONDS 1.0
#define OTHERS_MAX_SECONDS 10.0
#define OTHERS_MAX_POLLED 256

typedef struct {
    int number;
    const char *name, *description;
    int job_control; /* sent to every process of a job (batch system, launcher), not a fault of this one */
} caught_t;

static const caught_t caught[] = {
    {SIGSEGV, "SIGSEGV", "Segmentation fault", 0},
    {SIGBUS, "SIGBUS", "Bus error", 0},
    {SIGFPE, "SIGFPE", "Floating-point exception", 0},
    {SIGILL, "SIGILL", "Illegal instruction", 0},
    {SIGABRT, "SIGABRT", "Aborted", 0},
    {SIGTERM, "SIGTERM", "Terminated", 1},
    {SIGINT, "SIGINT", "Interrupt", 1},
    {SIGXCPU, "SIGXCPU", "CPU time limit exceeded", 1},
    {SIGUSR1, "SIGUSR1", "User defined signal 1", 1},
};
#define NCAUGHT MPP_ARRAY_LEN(caught)

static struct sigaction previous[NCAUGHT]; /* chained to */
static unsigned char installed[NCAUGHT];
static int my_rank, my_nprocs, quiet, json_only;
static int never(void) { return 0; }
/* the profile's side (faults.h); until started, no partial protocol is possible */
static mpp_faults_profile_t profile = {.possible = never};
static int writes_json; /* the JSON file is the last one written (a partial protocol with JSON) */
static int exit_handler_registered;
static int ending; /* a partial protocol was written or is being written (atomic exchange) */

/* What the child tells the parent: shared memory, set up at MPI_Init. */
typedef struct {
    int written;
    char path[PATH_MAX];
} child_report_t;
static child_report_t *report;

/* The one line buffer: static, as a signal stack may be small; only the
 * ending (one at a time, `ending`) and MPI_Finalize use it. */
static mpp_line_t L;

static void say(mpp_line_t *l)
{
    if (quiet)
        return;
    l->text[l->n] = '\0';
    ssize_t rc = write(STDERR_FILENO, l->text, l->n);
    (void)rc;
}

static void begin_line(mpp_line_t *l)
{
    l->n = 0;
    mpp_line_put(l, "mpiprof: rank ");
    mpp_line_put_int(l, my_rank);
    mpp_line_put(l, ": ");
}

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void pause_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int caught_index(int sig)
{
    for (size_t i = 0; i < NCAUGHT; i++)
        if (caught[i].number == sig)
            return (int)i;
    return -1;
}

/* --- the child that writes the partial protocol --- */

typedef struct {
    mpp_process_end_t end;
    uint32_t fid;                    /* of the MPI call it ended in; MPP_NFUNCTIONS: none */
    uintptr_t frames[MPP_MAX_DEPTH]; /* that call's stack, or where it ended */
    mpp_call_t *call;                /* set: frames are read from the call's wrapper (in the child) */
    mpp_thread_t *thread;
    int in_signal;    /* the child stops collection itself, with the CPU times read here */
    int fatal;        /* MPI's fatal error (mpp_faults_abort) */
    int signal_index; /* in caught[] */
    siginfo_t info;
    int has_info;
    uintptr_t pc, sp, fp; /* where the signal interrupted the program (0: unknown) */
    uint64_t tick;        /* when it ended */
    uint64_t stop_tick;   /* where collection ends (collection_end) */
    double cpu[2];
} ending_t;

static ending_t E; /* static: no room to spare on a signal stack */

static pid_t fork_now(void)
{
#if HAVE__FORK
    return _Fork();
#else
    return (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
}

/* Where collection ends: when the process ended, or, when it ended inside
 * the call that ends the profile (MPI_Finalize, the last
 * MPI_Session_finalize), at that call's entry, as in a complete protocol
 * (interval 0 ends there; what the call took since is its own, not the
 * program's computation). */
static uint64_t collection_end(void)
{
    if (profile.ending_call(E.call) && E.call->t0 && E.call->t0 < E.tick)
        return E.call->t0;
    return E.tick;
}

/* --- call stacks --- */

typedef struct {
    uintptr_t *pcs;
    int n, max;
} unwind_t;

static _Unwind_Reason_Code unwind_step(struct _Unwind_Context *ctx, void *arg)
{
    unwind_t *u = arg;
    int before = 0;
    uintptr_t pc = _Unwind_GetIPInfo(ctx, &before);
    if (!pc || u->n == u->max)
        return _URC_END_OF_STACK;
    u->pcs[u->n++] = pc;
    return _URC_NO_REASON;
}

/* Every return address up the stack from here, by the DWARF unwinder
 * (which also steps through a signal handler's frame into the code the
 * signal interrupted). */
static int __attribute__((noinline)) unwind(uintptr_t *pcs, int max)
{
    unwind_t u = {pcs, 0, max};
    _Unwind_Backtrace(unwind_step, &u);
    return u.n;
}

static int in_library(uintptr_t pc, const char *library_of)
{
    Dl_info a, b;
    return dladdr((void *)pc, &a) && dladdr((void *)library_of, &b) && a.dli_fname && b.dli_fname &&
           !strcmp(a.dli_fname, b.dli_fname);
}

/* The program's frames from the n return addresses pcs: those of the C
 * library, the MPI library and mpiprof at the top are left out (abort()
 * and raise() say less than their caller), depth at most. */
static void program_frames(const uintptr_t *pcs, int n, uintptr_t *frames, int depth)
{
    int k = 0;
    while (k < n && (mpp_callsite_in_skipped(pcs[k]) || in_library(pcs[k], (const char *)exit)))
        k++;
    if (k == n)
        k = 0; /* nothing of the program's: the top as it is */
    for (int f = 0; f < depth && k + f < n; f++)
        frames[f] = pcs[k + f];
}

static void describe_signal(void);

/* The ordinary pipeline, on the child's own stack. */
static void child_pipeline(void)
{
    if (E.in_signal) {
        describe_signal();
        mpp_intervals_end_at("the signal", E.cpu);
        profile.stop(E.stop_tick, 0);
    }
    if (E.call)
        E.end.call_seconds = mpp_ticks_to_seconds(E.tick - E.call->t0);
    if (!E.fatal && profile.ended) /* MPI's fatal error: check/errors.c reported it */
        profile.ended(&E.end, E.in_signal && caught[E.signal_index].job_control, E.fid, E.frames, !!E.call);
    char written[PATH_MAX];
    int rc = profile.write(&E.end, E.fid, E.frames, !E.in_signal, written, sizeof written);
    if (rc == 0 && report) {
        char cwd[PATH_MAX] = "";
        if (written[0] != '/' && !getcwd(cwd, sizeof cwd))
            cwd[0] = '\0';
        if (strlen(cwd) + strlen(written) + 2 > sizeof report->path)
            cwd[0] = '\0'; /* shown as written, relative */
        snprintf(report->path, sizeof report->path, "%s%s%s", cwd, cwd[0] ? "/" : "", written);
        report->written = 1;
    }
    _exit(rc == 0 ? 0 : 1);
}

/* The child: default dispositions (a crash here ends the child only), an
 * alarm as its own time limit, the call stack read on the stack as the
 * signal left it, then the pipeline on a stack of its own, _exit. */
static void child_main(void)
{
    /* A process group of its own: a launcher that kills the ending process
     * with its group (MPICH's mpiexec, once another process of the job has
     * ended: two MPI_Abort at once, a fault during an exit) leaves the
     * writer to finish, within its time limit.  Writing to a terminal from
     * that background group must not stop it. */
    setpgid(0, 0);
    signal(SIGTTOU, SIG_IGN);
    for (size_t i = 0; i < NCAUGHT; i++)
        signal(caught[i].number, SIG_DFL);
    signal(SIGALRM, SIG_DFL);
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    alarm(CHILD_SECONDS);
    quiet = 1;
    mpp_frame_rules_forked(); /* the other threads are gone: a rule miss must not wait for them */
    mpp_findings_forked();
    uintptr_t lo = E.thread ? E.thread->stack_lo : 0, hi = E.thread ? E.thread->stack_hi : 0;
    if (!E.thread)
        mpp_stack_bounds(&lo, &hi);
    void **frame = E.call ? E.call->frame : NULL;
    if (frame) {
        /* the wrapper's frame is still on this copy of the stack: the same
         * frames as mpp_call_end would have taken */
        mpp_callsite_capture(E.frames, NULL, mpp_callsite_depth(), frame[1], frame, lo, hi);
    } else if (E.pc) {
        /* outside MPI: where the program was, walked from the registers the
         * signal interrupted (frames are return addresses, resolved at
         * address - 1 (symbolize.h): the interrupted instruction is the
         * exception); the C library's frames at the top (abort, raise) say
         * less than their caller */
        uintptr_t pcs[MPP_MAX_DEPTH + 16];
        mpp_frame_regs_t regs = {E.pc + 1, E.sp, E.fp};
        mpp_callsite_capture_regs(pcs, (int)MPP_ARRAY_LEN(pcs), regs, lo, hi);
        int n = 0;
        while (n < (int)MPP_ARRAY_LEN(pcs) && pcs[n])
            n++;
        program_frames(pcs, n, E.frames, mpp_callsite_depth());
    }
    static ucontext_t pipeline;
    void *stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack != MAP_FAILED && getcontext(&pipeline) == 0) {
        pipeline.uc_stack.ss_sp = stack;
        pipeline.uc_stack.ss_size = CHILD_STACK;
        pipeline.uc_link = NULL;
        makecontext(&pipeline, child_pipeline, 0);
        setcontext(&pipeline);
    }
    child_pipeline(); /* no memory for a stack: try on this one */
}

/* Fork the child and wait for it, at most CHILD_SECONDS.  Returns how
 * long it took (seconds). */
static double write_partial(void)
{
    double t0 = monotonic();
    if (report)
        report->written = 0;
    pid_t pid = fork_now();
    if (pid == 0)
        child_main();
    if (pid > 0)
        setpgid(pid, pid); /* as the child does first: whichever runs first (see child_main) */
    if (pid < 0) {
        begin_line(&L), mpp_line_put(&L, "no partial protocol: fork failed\n"), say(&L);
        return 0;
    }
    int status = 0, done = 0, known = 0, late = 0;
    while (!done) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) { /* ECHILD: SIGCHLD ignored, the child reaped itself */
            done = 1;
            known = r == pid;
        } else if (monotonic() - t0 > CHILD_SECONDS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            done = late = 1;
        } else {
            pause_seconds(0.005);
        }
    }
    begin_line(&L);
    if (report && report->written) {
        mpp_line_put(&L, "partial protocol written to ");
        mpp_line_put(&L, report->path);
        mpp_line_put(&L, json_only ? ".json\n" : "\n");
    } else {
        mpp_line_put(&L, "the partial protocol could not be written");
        if (late)
            mpp_line_put(&L, " in time (its writer was stopped)");
        else if (known && WIFSIGNALED(status))
            mpp_line_put(&L, " (its writer died of signal "), mpp_line_put_int(&L, WTERMSIG(status)),
                mpp_line_put(&L, ")");
        else if (known && WIFEXITED(status))
            mpp_line_put(&L, " (its writer failed)");
        mpp_line_put(&L, "\n");
    }
    say(&L);
    return monotonic() - t0;
}

/* Under a launcher such as MPICH's mpiexec, the first process of a job to
 * die by a signal gets every other one killed (SIGKILL, process group and
 * all): after a job-control signal, which every process receives at about
 * the same time, or an exit, which is often every process's, end only once
 * the other processes' partial protocols exist, or after a while (four
 * times what this one took, 1 to 10 s).  Not after a fault of this process
 * or MPI_Abort: the others are not ending then. */
static void wait_for_others(double own_seconds)
{
    if (!report || !report->written || my_nprocs > OTHERS_MAX_POLLED)
        return;
    static char suffix[32], path[PATH_MAX + 40]; /* static: see L */
    L.n = 0;
    mpp_line_put(&L, ".partial."), mpp_line_put_int(&L, my_rank);
    L.text[L.n] = '\0';
    memcpy(suffix, L.text, L.n + 1);
    size_t len = strlen(report->path), slen = strlen(suffix);
    if (len < slen || strcmp(report->path + len - slen, suffix) != 0)
        return; /* a numbered name (an older file was in the way): the others' names are not known */
    double limit = 4 * own_seconds;
    limit = limit < OTHERS_MIN_SECONDS ? OTHERS_MIN_SECONDS : limit > OTHERS_MAX_SECONDS ? OTHERS_MAX_SECONDS : limit;
    double t0 = monotonic();
    struct timespec last = {0, 0}; /* the latest modification time of the files */
    int all = 1;
    for (int r = 0; r < my_nprocs; r++) {
        L.n = 0;
        memcpy(L.text, report->path, len - slen);
        L.n = len - slen;
        /* the file written last: a process whose text file exists may
         * still be writing its JSON */
        mpp_line_put(&L, ".partial."), mpp_line_put_int(&L, r), mpp_line_put(&L, writes_json ? ".json" : "");
        L.text[L.n] = '\0';
        memcpy(path, L.text, L.n + 1);
        struct stat st;
        while (stat(path, &st) != 0 && monotonic() - t0 < limit)
            pause_seconds(0.001);
        if (stat(path, &st) != 0)
            all = 0;
        else if (st.st_mtim.tv_sec > last.tv_sec ||
                 (st.st_mtim.tv_sec == last.tv_sec && st.st_mtim.tv_nsec > last.tv_nsec))
            last = st.st_mtim;
    }
    /* The last to write would otherwise end first, and the launcher kill
     * the others (SIGKILL: an exit status the job would not have had)
     * before their own handlers ran: every process ends at the same instant,
     * 50 ms after the last file was written (its modification time, the
     * same for every process of a node, however late each one saw it). */
    if (!all) {
        pause_seconds(0.05);
        return;
    }
    struct timespec end = {last.tv_sec, last.tv_nsec + 50000000L};
    if (end.tv_nsec >= 1000000000L)
        end.tv_sec++, end.tv_nsec -= 1000000000L;
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &end, NULL) == EINTR)
        ;
}

/* --- signals --- */

/* The program counter, stack and frame pointers the signal interrupted. */
static void interrupted_at(const void *context, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp)
{
    const ucontext_t *uc = context;
    *pc = *sp = *fp = 0;
    if (!uc)
        return;
#if defined(__x86_64__)
    *pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    *sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
    *fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
#endif
}

/* In the child: "SIGSEGV (Segmentation fault, address 0x10)". */
static void describe_signal(void)
{
    const caught_t *c = &caught[E.signal_index];
    const siginfo_t *info = E.has_info ? &E.info : NULL;
    mpp_process_end_t *e = &E.end;
    int n = snprintf(e->detail, sizeof e->detail, "%s (%s", c->name, c->description);
    if (n > 0 && (size_t)n < sizeof e->detail && info) {
        if (info->si_code <= 0 && info->si_pid == getppid()) /* raise, abort: the ended process is the parent */
            snprintf(e->detail + n, sizeof e->detail - (size_t)n, ", raised by the process itself");
        else if (info->si_code <= 0 && info->si_pid) /* kill, sigqueue */
            snprintf(e->detail + n, sizeof e->detail - (size_t)n, ", sent by process %ld", (long)info->si_pid);
        else if (info->si_code > 0 &&
                 (c->number == SIGSEGV || c->number == SIGBUS || c->number == SIGFPE || c->number == SIGILL))
            snprintf(e->detail + n, sizeof e->detail - (size_t)n, ", address 0x%lx", (unsigned long)info->si_addr);
    }
    size_t at = strlen(e->detail);
    if (at + 1 < sizeof e->detail)
        e->detail[at] = ')', e->detail[at + 1] = '\0';
}

/* Returns 1 when a handler was called and returned: the process goes on. */
static int chain(int index, int sig, siginfo_t *info, void *context)
{
    const struct sigaction *old = &previous[index];
    int has_info = (old->sa_flags & SA_SIGINFO) != 0;
    if (!has_info && old->sa_handler == SIG_IGN)
        return 1;
    if (!has_info && old->sa_handler == SIG_DFL) {
        /* the default action, as if mpiprof were not there: raised again, it
         * is delivered when this handler returns (blocked until then) */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        raise(sig);
        return 0;
    }
    sigset_t saved;
    pthread_sigmask(SIG_BLOCK, &old->sa_mask, &saved);
    if (old->sa_flags & SA_RESETHAND) { /* the kernel would have reset it before the call */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
    }
    if (has_info)
        old->sa_sigaction(sig, info, context);
    else
        old->sa_handler(sig);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    /* A handler that restores the default action and raises the signal
     * again returns too, but the process ends as soon as this handler
     * returns (the signal is blocked until then). */
    sigset_t pending;
    struct sigaction now;
    if (sigpending(&pending) == 0 && sigismember(&pending, sig) == 1 && sigaction(sig, NULL, &now) == 0 &&
        !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_DFL)
        return 0;
    return 1;
}

static void remove_partial(void)
{
    if (!report || !report->written)
        return;
    char json[PATH_MAX + 8];
    size_t n = strlen(report->path);
    memcpy(json, report->path, n);
    memcpy(json + n, ".json", 6);
    unlink(report->path);
    unlink(json);
    report->written = 0;
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    int index = caught_index(sig);
    if (index < 0)
        return;
    int wrote = 0;
    if (profile.possible() && !__atomic_exchange_n(&ending, 1, __ATOMIC_SEQ_CST)) {
        wrote = 1;
        memset(&E, 0, sizeof E);
        E.tick = mpp_now();
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru); /* a system call */
        E.cpu[0] = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
        E.cpu[1] = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
        E.in_signal = 1;
        E.end.kind = MPP_END_SIGNAL;
        E.end.signal = sig;
        E.end.call_seconds = NAN;
        E.fid = MPP_NFUNCTIONS;
        E.thread = mpp_tls_thread;
        E.call = E.thread && mpp_thread_in_call(E.thread) ? E.thread->current : NULL;
        if (E.call) {
            E.fid = E.call->fid;
            const char *name = E.fid < MPP_NFUNCTIONS ? mpp_functions[E.fid].name : "MPI_?";
            memcpy(E.end.mpi_call, name, strnlen(name, sizeof E.end.mpi_call - 1));
        }
        E.stop_tick = collection_end();
        E.signal_index = index;
        if (info) {
            E.info = *info;
            E.has_info = 1;
        }
        interrupted_at(context, &E.pc, &E.sp, &E.fp);
        begin_line(&L);
        mpp_line_put(&L, caught[index].name);
        if (E.call)
            mpp_line_put(&L, " in "), mpp_line_put(&L, E.end.mpi_call);
        mpp_line_put(&L, ": writing a partial protocol\n");
        say(&L);
        double took = write_partial();
        if (caught[index].job_control) /* before the program's handler, which may end the process */
            wait_for_others(took);
    }
    int goes_on = chain(index, sig, info, context);
    /* The program's handler returned.  After a job-control signal the
     * process goes on, so it has not ended: forget the partial protocol
     * (a fault's handler that returns faults again: keep it). */
    if (wrote && goes_on && caught[index].job_control) {
        if (report && report->written) {
            begin_line(&L);
            mpp_line_put(&L, "the program handled ");
            mpp_line_put(&L, caught[index].name);
            mpp_line_put(&L, " and goes on: partial protocol removed\n");
            say(&L);
        }
        remove_partial();
        mpp_trace_rescue_undo(); /* its events are the process's again, for its next flush */
        __atomic_store_n(&ending, 0, __ATOMIC_SEQ_CST);
    }
    errno = saved_errno;
}

/* --- exit and return from main --- */

/* Whether exit() was called by the program (the stack from its caller in
 * frames) or by the C library after main returned. */
static int classify_exit(uintptr_t *frames, int depth)
{
    uintptr_t pcs[64];
    int n = unwind(pcs, 64);
    Dl_info exit_info;
    const ElfW(Sym) *sym = NULL;
    if (!dladdr1((void *)exit, &exit_info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
        return MPP_END_EXIT;
    uintptr_t lo = (uintptr_t)exit_info.dli_saddr, hi = lo + sym->st_size;
    for (int i = 0; i + 1 < n; i++) {
        if (pcs[i] - 1 < lo || pcs[i] - 1 >= hi)
            continue;
        /* pcs[i + 1] called exit: the C library's start-up code after main
         * returned, or the program */
        if (in_library(pcs[i + 1], (const char *)exit))
            return MPP_END_RETURN;
        program_frames(pcs + i + 1, n - i - 1, frames, depth);
        return MPP_END_EXIT;
    }
    return MPP_END_EXIT;
}

static void at_exit(int status, void *arg)
{
    (void)arg;
    if (!profile.possible() || __atomic_exchange_n(&ending, 1, __ATOMIC_SEQ_CST))
        return;
    memset(&E, 0, sizeof E);
    E.end.kind = classify_exit(E.frames, mpp_callsite_depth());
    E.end.code = status;
    E.end.call_seconds = NAN;
    E.fid = MPP_NFUNCTIONS;
    E.thread = mpp_tls_thread;
    E.call = E.thread && mpp_thread_in_call(E.thread)
                 ? E.thread->current
                 : NULL; /* exit inside an MPI call: the MPI library's fatal error */
    E.tick = mpp_now();
    if (E.call) {
        E.fid = E.call->fid;
        snprintf(E.end.mpi_call, sizeof E.end.mpi_call, "%s",
                 E.fid < MPP_NFUNCTIONS ? mpp_functions[E.fid].name : "MPI_?");
    }
    mpp_intervals_end_at(E.end.kind == MPP_END_RETURN ? "the return from main" : "exit", NULL);
    profile.stop(collection_end(), 1);
    begin_line(&L);
    mpp_line_put(&L, E.end.kind == MPP_END_RETURN ? "return from main" : "exit");
    mpp_line_put(&L, " without MPI_Finalize: writing a partial protocol\n");
    say(&L);
    wait_for_others(write_partial());
}

/* --- MPI_Abort --- */

/* MPI_Abort, or (fatal) MPI's fatal error in call `in` (NULL: none; check/errors.h) */
static void abort_partial(MPI_Comm comm, int errorcode, int fatal, mpp_call_t *in, void *return_address,
                          void *frame_address)
{
    if (!profile.possible() || __atomic_exchange_n(&ending, 1, __ATOMIC_SEQ_CST))
        return;
    memset(&E, 0, sizeof E);
    E.end.kind = MPP_END_ABORT;
    E.end.code = errorcode;
    E.end.call_seconds = NAN;
    E.fatal = fatal;
    E.fid = fatal ? (in ? in->fid : MPP_NFUNCTIONS) : MPP_FN_MPI_Abort;
    snprintf(E.end.mpi_call, sizeof E.end.mpi_call, "%s", E.fid < MPP_NFUNCTIONS ? mpp_functions[E.fid].name : "");
    E.call = in; /* its frames: the child reads them from its wrapper's */
    E.thread = in ? in->thread : NULL;
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0, size = 0;
    if (comm != MPI_COMM_NULL)
        PMPI_Comm_get_name(comm, name, &len);
    if (name[0])
        snprintf(E.end.detail, sizeof E.end.detail, "%s", name);
    else if (comm != MPI_COMM_NULL && PMPI_Comm_size(comm, &size) == MPI_SUCCESS)
        snprintf(E.end.detail, sizeof E.end.detail, "a communicator of %d process%s", size, size == 1 ? "" : "es");
    else
        snprintf(E.end.detail, sizeof E.end.detail, "MPI_COMM_NULL");
    mpp_thread_t *t = mpp_tls_thread;
    uintptr_t lo, hi;
    if (t)
        lo = t->stack_lo, hi = t->stack_hi;
    else
        mpp_stack_bounds(&lo, &hi);
    if (!fatal)
        mpp_callsite_capture(E.frames, NULL, mpp_callsite_depth(), return_address, frame_address, lo, hi);
    E.tick = mpp_now();
    mpp_intervals_end_at(fatal ? "MPI's fatal error" : "MPI_Abort", NULL);
    profile.stop(E.tick, 1);
    begin_line(&L);
    mpp_line_put(&L, !fatal ? "MPI_Abort" : in ? "fatal MPI error in " : "fatal MPI error");
    mpp_line_put(&L, fatal ? E.end.mpi_call : ""), mpp_line_put(&L, ": writing a partial protocol\n");
    say(&L);
    write_partial();
}

MPP_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    abort_partial(comm, errorcode, 0, NULL, __builtin_return_address(0), __builtin_frame_address(0));
    return PMPI_Abort(comm, errorcode);
}

void mpp_faults_abort(MPI_Comm comm, int errorcode, mpp_call_t *in) { abort_partial(comm, errorcode, 1, in, 0, 0); }

/* mpi_f08 (MPICH's f08 binding calls PMPI_Abort itself). */
intptr_t pmpir_abort_f08_(void *comm, void *errorcode, void *ierror) __attribute__((weak));

MPP_EXPORT intptr_t mpi_abort_f08_(void *comm, void *errorcode, void *ierror)
{
    abort_partial(PMPI_Comm_f2c(*(const MPI_Fint *)comm), *(const int *)errorcode, 0, NULL,
                  __builtin_return_address(0), __builtin_frame_address(0));
    if (!pmpir_abort_f08_)
        return PMPI_Abort(PMPI_Comm_f2c(*(const MPI_Fint *)comm), *(const int *)errorcode);
    return pmpir_abort_f08_(comm, errorcode, ierror);
}

#if defined(OMPI_MAJOR_VERSION)
/* Open MPI's mpif.h and use mpi binding (it calls PMPI_Abort itself). */
MPP_EXPORT void mpi_abort_(const MPI_Fint *comm, const MPI_Fint *errorcode, MPI_Fint *ierror)
{
    MPI_Comm c = PMPI_Comm_f2c(*comm);
    abort_partial(c, *errorcode, 0, NULL, __builtin_return_address(0), __builtin_frame_address(0));
    *ierror = PMPI_Abort(c, *errorcode);
}
#endif

/* --- installation --- */

void mpp_faults_start(int rank, int nprocs, int be_quiet, const mpp_faults_profile_t *of)
{
    profile = *of;
    my_rank = rank;
    my_nprocs = nprocs;
    quiet = be_quiet;
    json_only = mpp_partial_format(mpp_config.number[MPP_CFG_FORMAT]) == MPP_FORMAT_JSON;
    writes_json = (mpp_partial_format(mpp_config.number[MPP_CFG_FORMAT]) & MPP_FORMAT_JSON) != 0;
    __atomic_store_n(&ending, 0, __ATOMIC_SEQ_CST);
    if (!report) {
        void *page = mmap(NULL, sizeof *report, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        report = page == MAP_FAILED ? NULL : page;
    }
    if (report)
        report->written = 0;
    if (!exit_handler_registered)
        exit_handler_registered = on_exit(at_exit, NULL) == 0;
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = on_signal;
    ours.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&ours.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++) /* one ending at a time: the others wait */
        sigaddset(&ours.sa_mask, caught[i].number);
    for (size_t i = 0; i < NCAUGHT; i++) {
        struct sigaction now;
        if (installed[i] || sigaction(caught[i].number, NULL, &now) != 0)
            continue;
        if (!(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_IGN)
            continue; /* the program ignores it: so be it */
        previous[i] = now;
        installed[i] = sigaction(caught[i].number, &ours, NULL) == 0;
    }
}

void mpp_faults_stop(void)
{
    for (size_t i = 0; i < NCAUGHT; i++) {
        struct sigaction now;
        if (!installed[i])
            continue;
        installed[i] = 0;
        /* a handler the program installed since is left in place */
        if (sigaction(caught[i].number, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
            now.sa_sigaction == on_signal)
            sigaction(caught[i].number, &previous[i], NULL);
    }
    /* MPI_Finalize was reached: the process did not end early after all */
    if (report && report->written && !quiet) {
        begin_line(&L);
        mpp_line_put(&L, "MPI_Finalize reached: partial protocol ");
        mpp_line_put(&L, report->path);
        mpp_line_put(&L, " removed\n");
        say(&L);
    }
    remove_partial();
}
