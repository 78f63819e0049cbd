/* The hand-written MPI_Session_init and MPI_Session_finalize (C and
 * mpi_f08), which start and end the profile of a program that uses
 * sessions without MPI_Init (world.c: whose sessions are open, the
 * profiler's own world).  The profile starts in the program's first
 * MPI_Session_init (interval 0 at its site) and ends in the
 * MPI_Session_finalize that closes the last session still open, before the
 * MPI library is told, as MPI_Finalize does; MPI_Finalize ends it instead
 * when the World Model is the last open.  Calls of either that neither
 * start nor end the profile are timed as System calls, as the generated
 * wrappers do.  An MPI without sessions (Open MPI 4.1) has none. */
#include <stdatomic.h>
#include <string.h>

#include "attribute/thread_state.h"
#include "context/threads.h"
#include "gen/function_table.h"
#include "intercept/lifecycle.h"
#include "intercept/mpi_family.h"
#include "intercept/watch_support.h"
#include "intercept/world.h"
#include "intercept/wrapper_support.h"

#if defined(MPP_HAVE_MPI_Session_init) /* MPI-4 (not Open MPI 4.1) */
/* The thread level a session provides (its info's "thread_level"). */
static int thread_level(MPI_Session s)
{
    static const struct {
        const char *name;
        int level;
    } levels[] = {{"MPI_THREAD_SINGLE", MPI_THREAD_SINGLE},
                  {"MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED},
                  {"MPI_THREAD_SERIALIZED", MPI_THREAD_SERIALIZED},
                  {"MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE}};
    MPI_Info info = MPI_INFO_NULL;
    char value[64] = "";
    int flag = 0, length = (int)sizeof value;
    if (PMPI_Session_get_info(s, &info) == MPI_SUCCESS && info != MPI_INFO_NULL) {
        PMPI_Info_get_string(info, "thread_level", &length, value, &flag);
        PMPI_Info_free(&info);
    }
    for (size_t i = 0; flag && i < MPP_ARRAY_LEN(levels); i++)
        if (!strcmp(value, levels[i].name))
            return levels[i].level;
    return MPI_THREAD_SINGLE;
}

/* One entry point's call: the PMPI call (its MPI error class: 0 on
 * success) and the session handle it opened or closes. */
typedef struct {
    int (*call)(void *args);
    MPI_Session (*handle)(void *args);
    void *args;
} session_call_t;

/* A call that neither starts nor ends the profile: timed as a System call
 * at the entry point's call site, as a generated wrapper would. */
static int timed(uint32_t fid, const session_call_t *sc, void *return_address, void *frame_address)
{
    mpp_call_t call;
    int mode = mpp_call_begin(&call, fid, 0, frame_address);
    if (!mode)
        return sc->call(sc->args);
    if (mode != MPP_COLLECT_FAST && atomic_load_explicit(&mpp_watch_on, memory_order_relaxed)) {
        mpp_watch_args_t none = {
            MPI_COMM_NULL, MPP_WATCH_NONE, MPP_WATCH_NONE, MPP_WATCH_NONE, MPP_WATCH_NONE, MPP_WATCH_NONE, -1};
        mpp_watch_enter(&call, &none, NULL, 0, return_address, frame_address);
    }
    int rc = sc->call(sc->args);
    mpp_call_stop(&call, mode);
    mpp_call_end(&call, mode, fid, MPP_CAT_SYSTEM, 0, return_address, frame_address);
    return rc;
}

static int session_init(const session_call_t *sc, void *return_address, void *frame_address)
{
    int starts = mpp_world_claim();
    if (starts)
        mpp_threads_before_init();
    int rc = starts ? sc->call(sc->args) : timed(MPP_FN_MPI_Session_init, sc, return_address, frame_address);
    if (rc != MPI_SUCCESS) {
        if (starts)
            mpp_world_unclaim(); /* the next one may start it */
        return rc;
    }
    if (starts)
        mpp_mpi_family_check();
    MPI_Session s = sc->handle(sc->args);
    mpp_world_session_opened(s);
    if (starts && mpp_world_open_own() == 0)
        mpp_lifecycle_start(MPP_FN_MPI_Session_init, thread_level(s), return_address, frame_address);
    return rc;
}

static int session_finalize(const session_call_t *sc, void *return_address, void *frame_address)
{
    MPI_Session s = sc->handle(sc->args);
    if (!mpp_world_ends_with(s)) {
        int rc = timed(MPP_FN_MPI_Session_finalize, sc, return_address, frame_address);
        if (rc == MPI_SUCCESS)
            mpp_world_session_closed(s);
        return rc;
    }
    /* the last session ends, and the profile with it, while MPI still runs */
    mpp_lifecycle_finish(MPP_FN_MPI_Session_finalize, return_address, frame_address);
    mpp_world_release();
    int rc = sc->call(sc->args);
    if (rc == MPI_SUCCESS)
        mpp_world_session_closed(s);
    mpp_lifecycle_finalized();
    return rc;
}

/* --- the C entry points --- */

typedef struct {
    MPI_Info info;
    MPI_Errhandler errhandler;
    MPI_Session *session;
} c_init_args_t;

static int c_init(void *p)
{
    c_init_args_t *a = p;
    return PMPI_Session_init(a->info, a->errhandler, a->session);
}

static MPI_Session c_init_handle(void *p) { return *((c_init_args_t *)p)->session; }

MPP_EXPORT int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    c_init_args_t a = {info, errhandler, session};
    session_call_t sc = {c_init, c_init_handle, &a};
    return session_init(&sc, __builtin_return_address(0), __builtin_frame_address(0));
}

static int c_finalize(void *p) { return PMPI_Session_finalize(p); }

static MPI_Session c_finalize_handle(void *p)
{
    MPI_Session *s = p;
    return s ? *s : MPI_SESSION_NULL;
}

MPP_EXPORT int MPI_Session_finalize(MPI_Session *session)
{
    session_call_t sc = {c_finalize, c_finalize_handle, session};
    return session_finalize(&sc, __builtin_return_address(0), __builtin_frame_address(0));
}

#if MPP_F08_WRAPPERS
/* --- mpi_f08 (MPICH's f08 bindings call PMPI directly) --- */

intptr_t pmpir_session_init_f08_(void *info, void *errhandler, void *session, void *ierror) __attribute__((weak));
intptr_t pmpir_session_finalize_f08_(void *session, void *ierror) __attribute__((weak));

typedef struct {
    void *info, *errhandler, *session, *ierror;
    intptr_t ret;
} f08_args_t;

/* type(MPI_Session) holds the Fortran handle (MPI_VAL) first */
static MPI_Session f08_handle(void *p) { return PMPI_Session_f2c(*(const MPI_Fint *)((f08_args_t *)p)->session); }

static int f08_status(const f08_args_t *a)
{
    return !a->ierror || *(const int *)a->ierror == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
}

static int f08_init(void *p)
{
    f08_args_t *a = p;
    a->ret = pmpir_session_init_f08_(a->info, a->errhandler, a->session, a->ierror);
    return f08_status(a);
}

static int f08_finalize(void *p)
{
    f08_args_t *a = p;
    a->ret = pmpir_session_finalize_f08_(a->session, a->ierror);
    return f08_status(a);
}

MPP_EXPORT intptr_t mpi_session_init_f08_(void *info, void *errhandler, void *session, void *ierror)
{
    if (!pmpir_session_init_f08_)
        mpp_f08_missing("mpi_session_init_f08_", "pmpir_session_init_f08_");
    f08_args_t a = {info, errhandler, session, ierror, 0};
    session_call_t sc = {f08_init, f08_handle, &a};
    session_init(&sc, __builtin_return_address(0), __builtin_frame_address(0));
    return a.ret;
}

MPP_EXPORT intptr_t mpi_session_finalize_f08_(void *session, void *ierror)
{
    if (!pmpir_session_finalize_f08_)
        mpp_f08_missing("mpi_session_finalize_f08_", "pmpir_session_finalize_f08_");
    f08_args_t a = {NULL, NULL, session, ierror, 0};
    session_call_t sc = {f08_finalize, f08_handle, &a};
    session_finalize(&sc, __builtin_return_address(0), __builtin_frame_address(0));
    return a.ret;
}
#endif /* MPP_F08_WRAPPERS */
#endif /* MPP_HAVE_MPI_Session_init */
