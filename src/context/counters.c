/* Hardware counters with PAPI (counters.h).  One event set per PAPI
 * component (an event set counts events of one component only: CPU
 * counters of perf_event, software-defined events of sde, ...), started at
 * MPI_Init in the thread that called it.  Values are cumulative since the
 * start; an interval's count is the difference between its close and its
 * open, summed over its executions.  The inside-MPI part accumulates the
 * differences between the exit and the entry of each MPI call into a running
 * total, read at the interval boundaries the same way, so nested intervals
 * need no per-call bookkeeping. */
#include <ctype.h>
#include <math.h>
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/config.h"
#include "context/counters.h"
#include "records/facts.h"
#include "records/reduced.h"
#include "util/common.h"
#include "util/srckey.h"
#include "util/warnings.h"

#define MAX_EVENTS 64
#define MAX_SETS 16

typedef struct {
    int es;
    int cidx;
    int first, n; /* its events in the arrays below */
    int multiplexed;
} set_t;

static struct {
    int nev;
    char name[MAX_EVENTS][PAPI_MAX_STR_LEN];
    char component[MAX_EVENTS][PAPI_MAX_STR_LEN];
    int position[MAX_EVENTS]; /* in MPIPROF_PAPI_EVENTS */
    set_t sets[MAX_SETS];
    int nsets;
    long long last[MAX_EVENTS];   /* values of the latest read */
    long long entry[MAX_EVENTS];  /* at the entry of the current MPI call */
    long long inside[MAX_EVENTS]; /* running total inside MPI calls */
    /* per interval id x event */
    uint32_t capacity;
    long long *open, *open_inside, *total, *total_inside;
    int split;
    char library[64];
    char none[400];
    char multiplexed[MAX_SETS][PAPI_MAX_STR_LEN + 64];
    int nmultiplexed;
    /* exported */
    char *na;
    char **events, **facts;
    int nfacts;
    double *values;
} C;

int mpp_counters_split_on;
static __thread int owner __attribute__((tls_model("initial-exec")));
/* PAPI is not initialized for threads: an interval boundary in another
 * thread must not read while the owner does. */
static pthread_mutex_t reading = PTHREAD_MUTEX_INITIALIZER;

static void read_all(long long *out)
{
    long long v[MAX_EVENTS];
    for (int s = 0; s < C.nsets; s++)
        if (PAPI_read(C.sets[s].es, v + C.sets[s].first) == PAPI_OK)
            memcpy(C.last + C.sets[s].first, v + C.sets[s].first, (size_t)C.sets[s].n * sizeof *v);
    memcpy(out, C.last, (size_t)C.nev * sizeof *out);
}

void mpp_counters_enter(void)
{
    if (!owner)
        return;
    pthread_mutex_lock(&reading);
    read_all(C.entry);
    pthread_mutex_unlock(&reading);
}

void mpp_counters_leave(void)
{
    if (!owner)
        return;
    long long now[MAX_EVENTS];
    pthread_mutex_lock(&reading);
    read_all(now);
    for (int e = 0; e < C.nev; e++)
        C.inside[e] += now[e] - C.entry[e];
    pthread_mutex_unlock(&reading);
}

static int grow(uint32_t need)
{
    if (need <= C.capacity)
        return 0;
    uint32_t cap = C.capacity ? C.capacity : 16;
    while (cap < need)
        cap *= 2;
    long long **arrays[] = {&C.open, &C.open_inside, &C.total, &C.total_inside};
    for (size_t a = 0; a < MPP_ARRAY_LEN(arrays); a++) {
        long long *g = realloc(*arrays[a], (size_t)cap * C.nev * sizeof *g);
        if (!g)
            return -1;
        memset(g + (size_t)C.capacity * C.nev, 0, (size_t)(cap - C.capacity) * C.nev * sizeof *g);
        *arrays[a] = g;
    }
    C.capacity = cap;
    return 0;
}

/* The interval-boundary hook (intervals.c). */
static void boundary(uint32_t id, int opening)
{
    static int warned;
    long long now[MAX_EVENTS];
    pthread_mutex_lock(&reading);
    if (grow(id + 1) != 0) {
        pthread_mutex_unlock(&reading);
        if (!warned++)
            mpp_warn("out of memory for the hardware counters of interval %u; its counts are missing", id);
        return;
    }
    read_all(now);
    long long *open = C.open + (size_t)id * C.nev, *open_in = C.open_inside + (size_t)id * C.nev;
    long long *total = C.total + (size_t)id * C.nev, *total_in = C.total_inside + (size_t)id * C.nev;
    for (int e = 0; e < C.nev; e++) {
        if (opening) {
            open[e] = now[e];
            open_in[e] = C.inside[e];
        } else {
            total[e] += now[e] - open[e];
            total_in[e] += C.inside[e] - open_in[e];
        }
    }
    pthread_mutex_unlock(&reading);
}

typedef struct {
    int code;
    char name[PAPI_MAX_STR_LEN];
    int position;
} pending_t;

/* Add the pending events of one component to a new event set, multiplexed
 * when they are more than its counters, and start it. */
static void start_component(int cidx, const pending_t *ev, int n)
{
    const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
    const char *cname = info ? info->name : "?";
    set_t *set = &C.sets[C.nsets];
    memset(set, 0, sizeof *set);
    set->es = PAPI_NULL;
    set->cidx = cidx;
    set->first = C.nev;
    int rc = PAPI_create_eventset(&set->es);
    if (rc == PAPI_OK)
        rc = PAPI_assign_eventset_component(set->es, cidx);
    if (rc != PAPI_OK) {
        mpp_warn("PAPI could not create an event set for component %s (%s); its events are not counted", cname,
                 PAPI_strerror(rc));
        return;
    }
    /* Multiplexing only when the counters run out (PAPI_ECNFLCT): comparing
     * with num_cntrs would also multiplex software events, which use none. */
    int counters = info ? info->num_cntrs : 0;
    static int multiplex_ready;
    int want_multiplex = 0, tried = 0;
    for (int i = 0; i < n && C.nev < MAX_EVENTS; i++) {
        if (want_multiplex && !set->multiplexed && !tried) {
            tried = 1;
            if (!multiplex_ready && (rc = PAPI_multiplex_init()) == PAPI_OK)
                multiplex_ready = 1;
            if (multiplex_ready)
                rc = PAPI_set_multiplex(set->es);
            if (rc == PAPI_OK) {
                set->multiplexed = 1;
            } else {
                mpp_warn("PAPI cannot multiplex the %d events asked for component %s, more than its %d counters "
                         "can count at once (%s); events that do not fit are dropped",
                         n, cname, counters, PAPI_strerror(rc));
                want_multiplex = 0;
            }
        }
        rc = PAPI_add_event(set->es, ev[i].code);
        if (rc == PAPI_ECNFLCT && !set->multiplexed && !tried) {
            want_multiplex = 1; /* the counters are taken: multiplex, then retry once */
            i--;
            continue;
        }
        if (rc != PAPI_OK) {
            (mpp_config.is_default[MPP_CFG_PAPI_EVENTS] ? mpp_warn_protocol_only : mpp_warn)(
                "hardware counter %s cannot be counted (PAPI: %s); it is dropped", ev[i].name, PAPI_strerror(rc));
            continue;
        }
        snprintf(C.name[C.nev], sizeof C.name[0], "%s", ev[i].name);
        snprintf(C.component[C.nev], sizeof C.component[0], "%s", cname);
        C.position[C.nev] = ev[i].position;
        C.nev++;
        set->n++;
    }
    if (set->n == 0) {
        PAPI_cleanup_eventset(set->es);
        PAPI_destroy_eventset(&set->es);
        return;
    }
    rc = PAPI_start(set->es);
    if (rc != PAPI_OK) {
        for (int e = set->first; e < C.nev; e++)
            mpp_warn("hardware counter %s cannot be counted (PAPI_start: %s); it is dropped", C.name[e],
                     PAPI_strerror(rc));
        C.nev = set->first;
        PAPI_cleanup_eventset(set->es);
        PAPI_destroy_eventset(&set->es);
        return;
    }
    if (set->multiplexed && C.nmultiplexed < MAX_SETS)
        snprintf(C.multiplexed[C.nmultiplexed++], sizeof C.multiplexed[0], "%s: %d events on %d counters", cname,
                 set->n, counters);
    C.nsets++;
}

/* PAPI initialized (by the program before, or now) and the version of
 * the library found; -1, warned and C.na set, when it cannot be. */
static int init_papi(void)
{
    int rc = PAPI_is_initialized() ? (int)PAPI_VER_CURRENT : PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != (int)PAPI_VER_CURRENT) {
        char why[200];
        snprintf(why, sizeof why, "%s",
                 rc > 0 ? "the PAPI library found is another version than the one mpiprof was "
                          "built with"
                        : PAPI_strerror(rc));
        mpp_warn("PAPI_library_init failed (%s); hardware counters are not counted", why);
        if (asprintf(&C.na, "PAPI could not be initialized: %s", why) < 0)
            C.na = NULL;
        return -1;
    }
    int v = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
    if (v > 0)
        snprintf(C.library, sizeof C.library, "PAPI %d.%d.%d.%d", PAPI_VERSION_MAJOR(v), PAPI_VERSION_MINOR(v),
                 PAPI_VERSION_REVISION(v), PAPI_VERSION_INCREMENT(v));
    return 0;
}

/* The events of MPIPROF_PAPI_EVENTS that PAPI knows, in the order asked,
 * without duplicates, at most MAX_EVENTS (ev, and each one's component in
 * cidx; nothing when either is NULL); how many.  Those dropped are warned. */
static int parse_events(const char *spec, pending_t *ev, int *cidx)
{
    int n = 0, position = 0;
    char *list = strdup(spec);
    for (char *save = NULL, *tok = list ? strtok_r(list, ",", &save) : NULL; tok && ev && cidx;
         tok = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        for (char *end = tok + strlen(tok); end > tok && isspace((unsigned char)end[-1]);)
            *--end = '\0';
        if (!*tok)
            continue;
        int duplicate = 0;
        for (int i = 0; i < n; i++)
            duplicate |= !strcmp(ev[i].name, tok);
        if (duplicate)
            continue;
        if (n == MAX_EVENTS) {
            mpp_warn("MPIPROF_PAPI_EVENTS names more than %d events; %s and the ones after it are dropped",
                     MAX_EVENTS, tok);
            break;
        }
        int code = 0;
        int rc = PAPI_event_name_to_code(tok, &code);
        if (rc != PAPI_OK) {
            mpp_warn("MPIPROF_PAPI_EVENTS: hardware counter %s cannot be counted (PAPI: %s); it is dropped", tok,
                     PAPI_strerror(rc));
            position++;
            continue;
        }
        ev[n].code = code;
        ev[n].position = position++;
        snprintf(ev[n].name, sizeof ev[n].name, "%s", tok);
        cidx[n++] = PAPI_get_event_component(code);
    }
    free(list);
    return n;
}

/* One event set per component, with that component's events in the order
 * asked (start_component). */
static void start_by_component(const pending_t *ev, const int *cidx, int n)
{
    unsigned char *done = calloc((size_t)n + 1, 1);
    pending_t *group = calloc((size_t)n + 1, sizeof *group);
    for (int i = 0; done && group && i < n; i++) {
        if (done[i])
            continue;
        int m = 0;
        for (int j = i; j < n; j++)
            if (!done[j] && cidx[j] == cidx[i]) {
                group[m++] = ev[j];
                done[j] = 1;
            }
        if (C.nsets < MAX_SETS)
            start_component(cidx[i], group, m);
    }
    free(done), free(group);
}

void mpp_counters_start(const char *spec, int split)
{
    mpp_counters_release();
    memset(&C, 0, sizeof C);
    snprintf(C.library, sizeof C.library, "PAPI %d.%d.%d.%d", PAPI_VERSION_MAJOR(PAPI_VERSION),
             PAPI_VERSION_MINOR(PAPI_VERSION), PAPI_VERSION_REVISION(PAPI_VERSION),
             PAPI_VERSION_INCREMENT(PAPI_VERSION));
    if (!strcasecmp(spec, "none")) {
        snprintf(C.none, sizeof C.none, "MPIPROF_PAPI_EVENTS=none");
        return;
    }
    if (init_papi() != 0)
        return;

    /* The events by component, in the order asked. */
    pending_t *ev = calloc(MAX_EVENTS, sizeof *ev);
    int *cidx = calloc(MAX_EVENTS, sizeof *cidx);
    int n = parse_events(spec, ev, cidx);
    start_by_component(ev, cidx, n);
    free(ev), free(cidx);

    if (C.nev == 0) {
        snprintf(C.none, sizeof C.none, "no event of MPIPROF_PAPI_EVENTS=%.200s can be counted here, see Warnings",
                 spec);
        return;
    }
    owner = 1;
    C.split = split;
    mpp_counters_split_on = split;
    mpp_interval_counters = boundary;
}

void mpp_counters_stop(void)
{
    mpp_interval_counters = NULL;
    mpp_counters_split_on = 0;
    long long v[MAX_EVENTS];
    for (int s = 0; s < C.nsets; s++) {
        PAPI_stop(C.sets[s].es, v);
        PAPI_cleanup_eventset(C.sets[s].es);
        PAPI_destroy_eventset(&C.sets[s].es);
    }
    C.nsets = 0;
    owner = 0;
    /* PAPI itself stays initialized: the program may use it after MPI_Finalize. */
}

static char *fact(const char *label, const char *value)
{
    char *f = NULL;
    if (asprintf(&f, "%s%c%s", label, MPP_US, value) < 0)
        return NULL;
    return f;
}

int mpp_counters_export(int nintervals, const char **na, char ***events, int *nevents, char ***facts, int *nfacts,
                        double **values)
{
    *na = C.na;
    *events = *facts = NULL;
    *nevents = *nfacts = 0;
    *values = NULL;
    if (C.na)
        return 0;
    C.facts = calloc(MAX_SETS + 4, sizeof *C.facts);
    if (!C.facts)
        return -1;
    C.facts[C.nfacts++] = fact(MPP_FACT_PAPI, C.library);
    if (C.nev == 0)
        C.facts[C.nfacts++] = fact(MPP_FACT_NONE, C.none);
    if (C.nev && C.split)
        C.facts[C.nfacts++] = fact(MPP_FACT_SPLIT, "on");
    for (int m = 0; m < C.nmultiplexed; m++)
        C.facts[C.nfacts++] = fact(MPP_FACT_MULTIPLEXED, C.multiplexed[m]);
    for (int f = 0; f < C.nfacts; f++)
        if (!C.facts[f])
            return -1;
    *facts = C.facts;
    *nfacts = C.nfacts;
    if (C.nev == 0)
        return 0;

    C.events = calloc((size_t)C.nev, sizeof *C.events);
    C.values = malloc(((size_t)nintervals * C.nev * MPP_HW_NV + 1) * sizeof *C.values);
    if (!C.events || !C.values)
        return -1;
    /* in the order asked (the sets group them by component) */
    int order[MAX_EVENTS];
    for (int e = 0; e < C.nev; e++)
        order[e] = e;
    for (int i = 1; i < C.nev; i++)
        for (int j = i; j > 0 && C.position[order[j]] < C.position[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int k = 0; k < C.nev; k++)
        if (asprintf(&C.events[k], "%s%c%s", C.name[order[k]], MPP_US, C.component[order[k]]) < 0)
            return -1;
    for (int i = 0; i < nintervals; i++)
        for (int k = 0; k < C.nev; k++) {
            int e = order[k];
            double *v = C.values + ((size_t)i * C.nev + k) * MPP_HW_NV;
            int known = (uint32_t)i < C.capacity;
            double total = known ? (double)C.total[(size_t)i * C.nev + e] : 0.0;
            double in = known ? (double)C.total_inside[(size_t)i * C.nev + e] : 0.0;
            v[MPP_HW_TOTAL] = total;
            v[MPP_HW_INSIDE] = C.split ? in : NAN;
            v[MPP_HW_OUTSIDE] = C.split ? total - in : NAN;
        }
    *events = C.events;
    *nevents = C.nev;
    *values = C.values;
    return 0;
}

void mpp_counters_release(void)
{
    for (int e = 0; C.events && e < C.nev; e++)
        free(C.events[e]);
    for (int f = 0; C.facts && f < C.nfacts; f++)
        free(C.facts[f]);
    free(C.events), free(C.facts), free(C.values), free(C.na);
    free(C.open), free(C.open_inside), free(C.total), free(C.total_inside);
    C.events = C.facts = NULL;
    C.values = NULL;
    C.na = NULL;
    C.open = C.open_inside = C.total = C.total_inside = NULL;
    C.capacity = 0;
    C.nfacts = 0;
}
