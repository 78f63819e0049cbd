#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check/findings.h"
#include "gen/function_table.h"
#include "intercept/check/errors.h"
#include "intercept/check/messages.h"
#include "intercept/faults.h"
#include "intercept/world.h"

/* The objects that have error handlers of their own kind, and the two
 * predefined handlers ours stand in for. */
enum { OBJ_COMM, OBJ_WIN, OBJ_FILE, NOBJ };
enum { AS_FATAL, AS_ABORT, NAS };

/* MPICH gives MPI_COMM_SELF and new windows no handler of their own: their
 * errors go to MPI_COMM_WORLD's handler (ours, or the one the program set
 * there), and a get says MPI_ERRORS_ARE_FATAL.  Ours is set on them only
 * where they have MPI's own (Open MPI). */
#if defined(MPICH_VERSION)
#define OWN_DEFAULT_HANDLERS 0
#else
#define OWN_DEFAULT_HANDLERS 1
#endif

static MPI_Errhandler ours[NOBJ][NAS];
static int installed; /* ours are made: handlers are substituted */
static atomic_int ending;
static __thread int inside; /* this thread is in one of our handlers */

static MPI_Errhandler predefined(int as)
{
#ifdef MPI_ERRORS_ABORT
    return as == AS_ABORT ? MPI_ERRORS_ABORT : MPI_ERRORS_ARE_FATAL;
#else
    (void)as;
    return MPI_ERRORS_ARE_FATAL;
#endif
}

/* --- the text of an error --- */

#define CLASS(c) \
    {            \
        c, #c    \
    }
static const struct {
    int code;
    const char *name;
} classes[] = {
    CLASS(MPI_ERR_BUFFER),
    CLASS(MPI_ERR_COUNT),
    CLASS(MPI_ERR_TYPE),
    CLASS(MPI_ERR_TAG),
    CLASS(MPI_ERR_COMM),
    CLASS(MPI_ERR_RANK),
    CLASS(MPI_ERR_REQUEST),
    CLASS(MPI_ERR_ROOT),
    CLASS(MPI_ERR_GROUP),
    CLASS(MPI_ERR_OP),
    CLASS(MPI_ERR_TOPOLOGY),
    CLASS(MPI_ERR_DIMS),
    CLASS(MPI_ERR_ARG),
    CLASS(MPI_ERR_UNKNOWN),
    CLASS(MPI_ERR_TRUNCATE),
    CLASS(MPI_ERR_OTHER),
    CLASS(MPI_ERR_INTERN),
    CLASS(MPI_ERR_PENDING),
    CLASS(MPI_ERR_IN_STATUS),
    CLASS(MPI_ERR_ACCESS),
    CLASS(MPI_ERR_AMODE),
    CLASS(MPI_ERR_ASSERT),
    CLASS(MPI_ERR_BAD_FILE),
    CLASS(MPI_ERR_BASE),
    CLASS(MPI_ERR_CONVERSION),
    CLASS(MPI_ERR_DISP),
    CLASS(MPI_ERR_DUP_DATAREP),
    CLASS(MPI_ERR_FILE),
    CLASS(MPI_ERR_FILE_EXISTS),
    CLASS(MPI_ERR_FILE_IN_USE),
    CLASS(MPI_ERR_INFO),
    CLASS(MPI_ERR_INFO_KEY),
    CLASS(MPI_ERR_INFO_NOKEY),
    CLASS(MPI_ERR_INFO_VALUE),
    CLASS(MPI_ERR_IO),
    CLASS(MPI_ERR_KEYVAL),
    CLASS(MPI_ERR_LOCKTYPE),
    CLASS(MPI_ERR_NAME),
    CLASS(MPI_ERR_NO_MEM),
    CLASS(MPI_ERR_NOT_SAME),
    CLASS(MPI_ERR_NO_SPACE),
    CLASS(MPI_ERR_NO_SUCH_FILE),
    CLASS(MPI_ERR_PORT),
    CLASS(MPI_ERR_QUOTA),
    CLASS(MPI_ERR_READ_ONLY),
    CLASS(MPI_ERR_RMA_ATTACH),
    CLASS(MPI_ERR_RMA_CONFLICT),
    CLASS(MPI_ERR_RMA_FLAVOR),
    CLASS(MPI_ERR_RMA_RANGE),
    CLASS(MPI_ERR_RMA_SHARED),
    CLASS(MPI_ERR_RMA_SYNC),
    CLASS(MPI_ERR_SERVICE),
    CLASS(MPI_ERR_SIZE),
    CLASS(MPI_ERR_SPAWN),
    CLASS(MPI_ERR_WIN),
    CLASS(MPI_ERR_UNSUPPORTED_DATAREP),
    CLASS(MPI_ERR_UNSUPPORTED_OPERATION),
#ifdef MPI_ERR_SESSION
    CLASS(MPI_ERR_SESSION),
#endif
#ifdef MPI_ERR_PROC_ABORTED
    CLASS(MPI_ERR_PROC_ABORTED),
#endif
#ifdef MPI_ERR_VALUE_TOO_LARGE
    CLASS(MPI_ERR_VALUE_TOO_LARGE),
#endif
#ifdef MPI_ERR_ERRHANDLER
    CLASS(MPI_ERR_ERRHANDLER),
#endif
};

/* An error of PMPI_Error_class or _string (an unknown code) comes back to
 * them through our handler on MPI_COMM_WORLD, which returns it (`inside`). */
void mpp_check_error_text(int code, char *out, size_t size)
{
    int was_inside = inside, cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING + 1] = "";
    inside = 1;
    if (PMPI_Error_class(code, &cls) != MPI_SUCCESS)
        cls = -1;
    if (PMPI_Error_string(code, text, &len) != MPI_SUCCESS || len < 0 || len > MPI_MAX_ERROR_STRING)
        len = 0;
    inside = was_inside;
    text[len] = '\0';
    char line[MPI_MAX_ERROR_STRING + 64];
    size_t n = 0;
    for (const char *p = text; *p && n + 3 < sizeof line; p++) { /* MPICH's error stack: a line a frame */
        if (*p != '\n' && *p != '\r')
            line[n++] = *p;
        else if (p[1] && n && line[n - 1] != ' ')
            n += (size_t)snprintf(line + n, sizeof line - n, line[n - 1] == ':' ? " " : "; ");
    }
    line[n] = '\0';
    const char *name = NULL;
    for (size_t i = 0; i < MPP_ARRAY_LEN(classes) && !name; i++)
        if (classes[i].code == cls)
            name = classes[i].name;
    if (name)
        snprintf(out, size, "%s: %s", name, n ? line : "(no error string)");
    else
        snprintf(out, size, "error class %d (code %d): %s", cls, code, n ? line : "(no error string)");
}

void mpp_check_mpi_error(const mpp_call_t *c, int code)
{
    if (mpp_check_was_invalid(c)) /* reported as the invalid argument it is */
        return;
    if (mpp_chk_truncation_reported(c)) /* reported as wrong-send-size, which names the send too */
        return;
    char detail[MPP_FINDING_DETAIL];
    mpp_check_error_text(code, detail, sizeof detail);
    mpp_check_report(c, MPP_FIND_MPI_ERROR, -1, 0, 0, "%s", detail);
}

/* --- our handlers --- */

/* What MPI's own fatal handler would have printed: MPICH's words. */
static void print_fatal(uint32_t fid, int code)
{
    char text[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0;
    if (PMPI_Error_string(code, text, &len) != MPI_SUCCESS || len < 0 || len > MPI_MAX_ERROR_STRING)
        len = 0;
    text[len] = '\0';
    fprintf(stderr, "Fatal error in %s: %s\n", fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "an MPI call",
            text[0] ? text : "(no error string)");
    fflush(stderr);
}

/* The thread's current call, whose wrapper is below on this stack: its
 * frames, as its SRC point's (its cell is not known yet). */
static int current_call_frames(mpp_call_t *c, uintptr_t *frames)
{
    memset(frames, 0, MPP_MAX_DEPTH * sizeof *frames);
    mpp_thread_t *t = c ? c->thread : NULL;
    if (!t || !c->frame)
        return 0;
    void **frame = c->frame; /* the wrapper keeps a frame pointer: its return address is above it */
    mpp_callsite_capture(frames, NULL, t->table.depth, frame[1], c->frame, t->stack_lo, t->stack_hi);
    return t->table.depth;
}

/* An error MPI raised on an object whose handler is ours (`as`: which one
 * it stands in for): the finding, the partial protocol, MPI's words, the
 * end.  `comm`: the communicator of the error, MPI_COMM_NULL for a window
 * or file. */
/* MPICH: a communicator whose handler was never set (a dup of
 * MPI_COMM_WORLD made while its handler was the default one, among them)
 * sends its errors to MPI_COMM_WORLD's handler of the moment, not to the one
 * it was made with.  Ours, copied onto it from MPI_COMM_WORLD, must do the
 * same: those the program set MPI_ERRORS_ARE_FATAL on itself are kept here
 * (the last MAX_EXPLICIT), the others defer to MPI_COMM_WORLD's. */
#define MAX_EXPLICIT 256
static MPI_Comm explicit_fatal[MAX_EXPLICIT];
static unsigned nexplicit;
static pthread_mutex_t explicit_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_set(MPI_Comm comm, MPI_Errhandler e)
{
    if (OWN_DEFAULT_HANDLERS || comm == MPI_COMM_WORLD)
        return;
    int fatal = e == predefined(AS_FATAL) || e == predefined(AS_ABORT);
    pthread_mutex_lock(&explicit_lock);
    unsigned n = nexplicit < MAX_EXPLICIT ? nexplicit : MAX_EXPLICIT, i = 0;
    while (i < n && explicit_fatal[i] != comm)
        i++;
    if (fatal && i == n)
        explicit_fatal[nexplicit++ % MAX_EXPLICIT] = comm;
    else if (!fatal && i < n)
        explicit_fatal[i] = MPI_COMM_NULL;
    pthread_mutex_unlock(&explicit_lock);
}

static int set_fatal(MPI_Comm comm)
{
    pthread_mutex_lock(&explicit_lock);
    unsigned n = nexplicit < MAX_EXPLICIT ? nexplicit : MAX_EXPLICIT, i = 0;
    while (i < n && explicit_fatal[i] != comm)
        i++;
    pthread_mutex_unlock(&explicit_lock);
    return i < n;
}

/* 1 when MPICH would have given the error to MPI_COMM_WORLD's handler and
 * the program set one there that is not fatal: then it had its way. */
static void release(MPI_Errhandler e);

static int deferred_to_world(int as, MPI_Comm comm, int code)
{
    MPI_Errhandler world;
    if (OWN_DEFAULT_HANDLERS || as != AS_FATAL || comm == MPI_COMM_NULL || comm == MPI_COMM_WORLD ||
        !mpp_world_model() || set_fatal(comm) || PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &world) != MPI_SUCCESS)
        return 0;
    int ours_there = world == ours[OBJ_COMM][AS_FATAL] || world == ours[OBJ_COMM][AS_ABORT];
    if (!ours_there && world != MPI_ERRORS_RETURN)
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, code); /* the program's own function */
    release(world);
    return !ours_there;
}

static void raised(int as, MPI_Comm comm, int code)
{
    if (inside)
        return; /* an error of a call of ours below: returned to it */
    inside = 1;
    if (deferred_to_world(as, comm, code)) {
        inside = 0; /* the call returns the error: its wrapper reports it (mpi-error) */
        return;
    }
    if (atomic_exchange(&ending, 1)) /* another thread is ending the process */
        for (;;)
            pause();
    mpp_thread_t *t = mpp_tls_thread;
    mpp_call_t *c = t && mpp_thread_in_call(t) ? t->current : NULL;
    uintptr_t frames[MPP_MAX_DEPTH];
    int depth = current_call_frames(c, frames);
    uint32_t fid = c ? c->fid : MPP_FINDING_NO_FUNCTION;
    char detail[MPP_FINDING_DETAIL];
    mpp_check_error_text(code, detail, sizeof detail);
    if (!mpp_check_was_invalid(c)) /* else reported as the invalid argument it is */
        mpp_check_report_at(MPP_FIND_MPI_ERROR, -1, fid, frames, depth, -1, 0, 0, "%s", detail);
    print_fatal(fid, code);
    /* MPI_ERRORS_ARE_FATAL ends every process (MPICH: the job); _ABORT
     * those of the communicator (MPICH: of the job too, for a window or
     * file) */
    MPI_Comm target = as == AS_ABORT && comm != MPI_COMM_NULL ? comm
                      : mpp_world_model()                     ? MPI_COMM_WORLD
                      : comm != MPI_COMM_NULL                 ? comm
                                                              : MPI_COMM_SELF;
    mpp_faults_abort(target, code, c);
    PMPI_Abort(target, code);
}

static void comm_fatal(MPI_Comm *comm, int *code, ...) { raised(AS_FATAL, comm ? *comm : MPI_COMM_NULL, *code); }
static void comm_abort(MPI_Comm *comm, int *code, ...) { raised(AS_ABORT, comm ? *comm : MPI_COMM_NULL, *code); }
static void win_fatal(MPI_Win *win, int *code, ...) { (void)win, raised(AS_FATAL, MPI_COMM_NULL, *code); }
static void win_abort(MPI_Win *win, int *code, ...) { (void)win, raised(AS_ABORT, MPI_COMM_NULL, *code); }
static void file_fatal(MPI_File *file, int *code, ...) { (void)file, raised(AS_FATAL, MPI_COMM_NULL, *code); }
static void file_abort(MPI_File *file, int *code, ...) { (void)file, raised(AS_ABORT, MPI_COMM_NULL, *code); }

/* Ours in place of a predefined fatal one; anything else as it is. */
static MPI_Errhandler substitute(int obj, MPI_Errhandler e)
{
    for (int as = 0; installed && as < NAS; as++)
        if (e == predefined(as) && ours[obj][as] != MPI_ERRHANDLER_NULL)
            return ours[obj][as];
    return e;
}

/* What the program set where a get returned e: the predefined handler
 * ours stands in for, the reference the get took to ours released. */
static MPI_Errhandler program_view(int obj, MPI_Errhandler e)
{
    for (int as = 0; installed && as < NAS; as++)
        if (e == ours[obj][as] && e != MPI_ERRHANDLER_NULL) {
            PMPI_Errhandler_free(&e);
            return predefined(as);
        }
    return e;
}

/* A handler a get returned, released unless predefined (no reference taken). */
static void release(MPI_Errhandler e)
{
    if (e != MPI_ERRHANDLER_NULL && e != MPI_ERRORS_RETURN && e != predefined(AS_FATAL) && e != predefined(AS_ABORT))
        PMPI_Errhandler_free(&e);
}

/* Ours on an object that has a predefined fatal handler now. */
static void adopt_comm(MPI_Comm comm)
{
    MPI_Errhandler now;
    if (PMPI_Comm_get_errhandler(comm, &now) != MPI_SUCCESS)
        return;
    if (substitute(OBJ_COMM, now) != now)
        PMPI_Comm_set_errhandler(comm, substitute(OBJ_COMM, now));
    release(now);
}

static void adopt_win(int rc, const MPI_Win *win)
{
    MPI_Errhandler now;
    if (!OWN_DEFAULT_HANDLERS || !installed || rc != MPI_SUCCESS || *win == MPI_WIN_NULL ||
        PMPI_Win_get_errhandler(*win, &now) != MPI_SUCCESS)
        return;
    if (substitute(OBJ_WIN, now) != now)
        PMPI_Win_set_errhandler(*win, substitute(OBJ_WIN, now));
    release(now);
}

void mpp_check_errors_start(void)
{
    if (installed || !mpp_check_level)
        return;
    for (int obj = 0; obj < NOBJ; obj++)
        for (int as = 0; as < NAS; as++)
            ours[obj][as] = MPI_ERRHANDLER_NULL;
    PMPI_Comm_create_errhandler(comm_fatal, &ours[OBJ_COMM][AS_FATAL]);
    PMPI_Win_create_errhandler(win_fatal, &ours[OBJ_WIN][AS_FATAL]);
    PMPI_File_create_errhandler(file_fatal, &ours[OBJ_FILE][AS_FATAL]);
#ifdef MPI_ERRORS_ABORT
    PMPI_Comm_create_errhandler(comm_abort, &ours[OBJ_COMM][AS_ABORT]);
    PMPI_Win_create_errhandler(win_abort, &ours[OBJ_WIN][AS_ABORT]);
    PMPI_File_create_errhandler(file_abort, &ours[OBJ_FILE][AS_ABORT]);
#else
    (void)comm_abort, (void)win_abort, (void)file_abort;
#endif
    installed = 1;
    if (mpp_world_model()) {
        adopt_comm(MPI_COMM_WORLD);
        if (OWN_DEFAULT_HANDLERS)
            adopt_comm(MPI_COMM_SELF);
    }
}

/* --- the program's view (+errhandler in mpi_functions.txt) --- */

int mpp_errh_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int rc = PMPI_Comm_set_errhandler(comm, substitute(OBJ_COMM, errhandler));
    if (rc == MPI_SUCCESS)
        note_set(comm, errhandler);
    return rc;
}

int mpp_errh_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int rc = PMPI_Comm_get_errhandler(comm, errhandler);
    if (rc == MPI_SUCCESS && errhandler)
        *errhandler = program_view(OBJ_COMM, *errhandler);
    return rc;
}

int mpp_errh_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    return PMPI_Win_set_errhandler(win, substitute(OBJ_WIN, errhandler));
}

int mpp_errh_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    int rc = PMPI_Win_get_errhandler(win, errhandler);
    if (rc == MPI_SUCCESS && errhandler)
        *errhandler = program_view(OBJ_WIN, *errhandler);
    return rc;
}

int mpp_errh_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    return PMPI_File_set_errhandler(file, substitute(OBJ_FILE, errhandler));
}

int mpp_errh_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    int rc = PMPI_File_get_errhandler(file, errhandler);
    if (rc == MPI_SUCCESS && errhandler)
        *errhandler = program_view(OBJ_FILE, *errhandler);
    return rc;
}

#if MPP_HAVE_MPI_Errhandler_set
int mpp_errh_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int rc = PMPI_Errhandler_set(comm, substitute(OBJ_COMM, errhandler));
    if (rc == MPI_SUCCESS)
        note_set(comm, errhandler);
    return rc;
}
#endif

#if MPP_HAVE_MPI_Errhandler_get
int mpp_errh_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int rc = PMPI_Errhandler_get(comm, errhandler);
    if (rc == MPI_SUCCESS && errhandler)
        *errhandler = program_view(OBJ_COMM, *errhandler);
    return rc;
}
#endif

#if MPP_HAVE_MPI_Comm_create_from_group
int mpp_errh_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                    MPI_Comm *newcomm)
{
    return PMPI_Comm_create_from_group(group, stringtag, info, substitute(OBJ_COMM, errhandler), newcomm);
}
#endif

#if MPP_HAVE_MPI_Intercomm_create_from_groups
int mpp_errh_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                          int remote_leader, const char *stringtag, MPI_Info info,
                                          MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    return PMPI_Intercomm_create_from_groups(local_group, local_leader, remote_group, remote_leader, stringtag, info,
                                             substitute(OBJ_COMM, errhandler), newintercomm);
}
#endif

static int object_of(uint32_t fid)
{
    const char *name = fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "";
    return !strncmp(name, "MPI_Win_", 8) ? OBJ_WIN : !strncmp(name, "MPI_File_", 9) ? OBJ_FILE : OBJ_COMM;
}

MPI_Fint mpp_errh_f08_in(uint32_t fid, const void *errhandler)
{
    MPI_Fint f = *(const MPI_Fint *)errhandler;
    MPI_Errhandler e = PMPI_Errhandler_f2c(f), mine = substitute(object_of(fid), e);
    return mine == e ? f : PMPI_Errhandler_c2f(mine);
}

void mpp_errh_f08_out(uint32_t fid, void *errhandler)
{
    MPI_Errhandler e = PMPI_Errhandler_f2c(*(MPI_Fint *)errhandler), seen = program_view(object_of(fid), e);
    if (seen != e)
        *(MPI_Fint *)errhandler = PMPI_Errhandler_c2f(seen);
}

void mpp_errh_f08_new_win(const void *win)
{
    MPI_Win w = PMPI_Win_f2c(*(const MPI_Fint *)win);
    adopt_win(MPI_SUCCESS, &w);
}

/* A new window has MPI_ERRORS_ARE_FATAL, whatever its communicator has. */
int mpp_errh_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
    adopt_win(rc, win);
    return rc;
}

int mpp_errh_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    int rc = PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
    adopt_win(rc, win);
    return rc;
}

int mpp_errh_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                 MPI_Win *win)
{
    int rc = PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
    adopt_win(rc, win);
    return rc;
}

int mpp_errh_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int rc = PMPI_Win_create_dynamic(info, comm, win);
    adopt_win(rc, win);
    return rc;
}

#if MPP_HAVE_MPI_Win_create_c
int mpp_errh_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int rc = PMPI_Win_create_c(base, size, disp_unit, info, comm, win);
    adopt_win(rc, win);
    return rc;
}
#endif

#if MPP_HAVE_MPI_Win_allocate_c
int mpp_errh_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                            MPI_Win *win)
{
    int rc = PMPI_Win_allocate_c(size, disp_unit, info, comm, baseptr, win);
    adopt_win(rc, win);
    return rc;
}
#endif

#if MPP_HAVE_MPI_Win_allocate_shared_c
int mpp_errh_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                   MPI_Win *win)
{
    int rc = PMPI_Win_allocate_shared_c(size, disp_unit, info, comm, baseptr, win);
    adopt_win(rc, win);
    return rc;
}
#endif
