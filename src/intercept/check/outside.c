/* call-outside-mpi (correctness.md): an MPI call before MPI_Init or after
 * MPI_Finalize, other than those the standard allows then (@check anytime:
 * MPI_Initialized, MPI_Get_version, the info functions ...; MPI_Init*,
 * MPI_Session_*, MPI_Wtime, the tool interface have no such check).
 *
 * The wrappers do not profile those calls: their unprofiled path tests
 * mpp_check_outside_on, set before MPI_Init (until the first call finds
 * the checks off) and from MPI_Finalize on, and calls here.  What MPI says
 * decides: MPI_Finalized, else MPI_Initialized (a call MPI makes inside
 * MPI_Finalize, from a delete callback, is neither), and no session of the
 * program open (sessions need no MPI_Init).
 *
 * Before MPI_Init the configuration is not parsed yet: MPIPROF_CHECK,
 * MPIPROF_DISABLE and MPIPROF_QUIET are read from the environment, once.
 * MPI may abort on the call (MPICH does), so a line goes to stderr at
 * once; the call is kept (its return address: no stack can be walked
 * before MPI_Init sets the unwinder up) and becomes a finding at MPI_Init
 * (mpp_check_outside_start) when MPI lets the program get there.  After
 * MPI_Finalize the protocol is written: one line on stderr only. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "context/config.h"
#include "gen/function_table.h"
#include "intercept/check/local.h"
#include "intercept/check/run.h"
#include "intercept/world.h"

_Atomic int mpp_check_outside_on = 1;

enum { BEFORE_INIT = 0, RUNNING, ENDED };
static int phase = BEFORE_INIT;

/* MPIPROF_* read before MPI_Init. */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static int env_on, env_quiet;

/* Calls before MPI_Init, by site; what does not fit is dropped. */
enum { KEPT_MAX = 32 };
typedef struct {
    uint32_t fid;
    uintptr_t site;
    uint64_t count;
} kept_t;
static kept_t kept[KEPT_MAX];
static int nkept;
static int after_said;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    static const char *const yes[] = {"1", "yes", "on", "true", "y"};
    for (size_t i = 0; v && i < sizeof yes / sizeof *yes; i++)
        if (!strcasecmp(v, yes[i]))
            return 1;
    return 0;
}

static void read_env(void)
{
    const char *check = getenv("MPIPROF_CHECK");
    long level = MPP_CHECK_OFF;
    if (check && mpp_config_parse_check(check, &level) != 0)
        level = MPP_CHECK_OFF;
    env_on = (level & MPP_CHECK_LEVEL) != MPP_CHECK_OFF && !env_flag("MPIPROF_DISABLE");
    env_quiet = env_flag("MPIPROF_QUIET");
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

static void say(uint32_t fid, uintptr_t site, const char *when)
{
    char at[512];
    mpp_check_call_position(&site, 1, at, sizeof at);
    fprintf(stderr, "mpiprof: error: %s in %s at %s: called %s\n", mpp_finding_kinds[MPP_FIND_CALL_OUTSIDE_MPI].name,
            function_name(fid), at, when);
}

/* A call before MPI_Init (under the lock): kept, and said once per site. */
static void before_init(uint32_t fid, uintptr_t site)
{
    for (int i = 0; i < nkept; i++)
        if (kept[i].fid == fid && kept[i].site == site) {
            kept[i].count++;
            return;
        }
    if (nkept < KEPT_MAX)
        kept[nkept++] = (kept_t){fid, site, 1};
    if (!env_quiet)
        say(fid, site, "before MPI_Init");
}

void mpp_check_outside(uint32_t fid, void *return_address, void *frame_address)
{
    (void)frame_address;
    pthread_once(&env_once, read_env);
    int finalized = 0, initialized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized)
        PMPI_Initialized(&initialized);
    int sessions = mpp_world_sessions_open();
    pthread_mutex_lock(&lock);
    if (phase == BEFORE_INIT && (!env_on || initialized || finalized))
        mpp_check_outside_on = 0; /* checks off, or MPI started without a profile (MPIPROF_DISABLE) */
    else if (phase == BEFORE_INIT && !sessions)
        before_init(fid, (uintptr_t)return_address);
    else if (phase == ENDED && finalized && !sessions && !after_said) {
        after_said = 1; /* one line: MPI may well abort now */
        if (!mpp_config.number[MPP_CFG_QUIET])
            say(fid, (uintptr_t)return_address, "after MPI_Finalize (not in the protocol, written before)");
    }
    pthread_mutex_unlock(&lock);
}

void mpp_check_outside_start(void)
{
    pthread_mutex_lock(&lock);
    mpp_check_outside_on = 0;
    phase = RUNNING;
    after_said = 0;
    for (int i = 0; mpp_check_level && i < nkept; i++)
        for (uint64_t k = 0; k < kept[i].count; k++)
            mpp_check_report_at(MPP_FIND_CALL_OUTSIDE_MPI, -1, kept[i].fid, &kept[i].site, 1, -1, 0, 0,
                                "called before MPI_Init");
    nkept = 0;
    pthread_mutex_unlock(&lock);
}

void mpp_check_outside_end(void)
{
    pthread_mutex_lock(&lock);
    phase = ENDED;
    mpp_check_outside_on = 1;
    pthread_mutex_unlock(&lock);
}
