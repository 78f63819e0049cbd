/* The trace links (links.h): the analyzer's reading of a trace (the
 * reader, the clocks bounded by the messages, the exact wait states), its
 * calls grouped by the SRC points of a protocol of the same run, in each
 * interval.
 *
 * A call belongs to the SRC number whose key (function and the texts of
 * its frames, as the page and mpiprof-compare match SRC points) is the
 * call's mpiprof::src key, in the interval the analyzer's replay puts it
 * (rp_each_call: the interval stage of rp_profile), matched to the
 * protocol's by name, file and line of it and its parents; calls without
 * a key (paused, or a trace without call sites) belong to none.  Times
 * are seconds from the trace's first call; the wait part of a call is
 * what the wait states attribute inside it: Real sync (a receive's late
 * sender) and Potential sync (a collective entered before its last
 * member), both from its entry; Time variation lies after its exit and is
 * given apart. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "accumulate/intervals.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "replay/links.h"
#include "replay/replay.h"
#include "util/srckey.h"
#include "write/process_data.h"

/* The dates of a protocol are to the second; the trace begins inside
 * MPI_Init: this much apart, a trace is still the run's. */
#define SAME_RUN_SLACK 2.0

typedef struct {
    double enter, leave, wait[MPP_NWAIT];
} event_t;

/* The calls of one SRC point on one process: all of them summed, the
 * earliest `max` kept. */
typedef struct {
    uint64_t calls;
    double time, wait, first, last;
    event_t *ev;
    size_t n;
} slot_t;

typedef struct {
    const rp_trace_t *t;
    json_t *keys; /* SRC key -> index into ids */
    json_int_t *ids;
    size_t nids;
    /* the protocol's SRC points (cells: an SRC number in an interval) */
    json_t *cells;         /* "SRC index:interval id" -> cell */
    json_t *intervals;     /* interval key (interval_key) -> interval id */
    json_t *interval_keys; /* interval id -> key */
    json_int_t *cell_id;   /* per cell: its interval id and SRC number, its calls in the protocol */
    json_int_t *cell_src;
    uint64_t *cell_calls;
    size_t ncells;
    slot_t *slots; /* [cell * nprocesses + process] */
    size_t max;
    int max_intervals, max_nesting; /* the run's (its configuration) */
    int p;                          /* the process replayed */
    int64_t *local;                 /* its interval stage's intervals -> protocol id (-1: none, -2: not looked up) */
    size_t nlocal;                  /* room in local */
    uint64_t unplaced;              /* calls of the protocol's SRC numbers in no SRC point of their interval */
    int64_t origin;                 /* ticks of the trace's first call */
    double end, tick;
    char **site_text; /* per site: RS frame-text RS frame-text ... (NULL: not parsed yet) */
    int32_t *cache_fid, *cache_index;
    char *key;
    size_t key_cap;
} links_t;

static json_t *config_doc;

/* The run's configuration as its protocol gives it (mpp_config_parse's
 * source of values): the wait states are computed as in its run. */
static const char *protocol_getenv(const char *name)
{
    json_t *c = json_object_get(json_object_get(json_object_get(config_doc, "parameters"), "configuration"), name);
    return json_string_value(json_object_get(c, "value"));
}

/* "2026-11-29T09:17:01+0000" as seconds since the epoch; -1 when not a date. */
static double parse_date(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%S%z", &tm) : NULL;
    if (!end || *end)
        return -1;
    return (double)(timegm(&tm) - tm.tm_gmtoff);
}

/* Whether the trace is of the protocol's run: its processes, and its clock's
 * date within the run's dates (when the trace gives one). */
static int same_run(const rp_trace_t *t, json_t *doc, char *why, size_t size)
{
    json_t *q = json_object_get(doc, "parameters");
    json_int_t procs = json_integer_value(json_object_get(q, "processes"));
    if (procs != t->nprocesses) {
        snprintf(why, size, "%s: a trace of %d processes, the protocol's run had %lld", t->path, t->nprocesses,
                 (long long)procs);
        return -1;
    }
    /* the archive the run wrote, where it still is (a moved one is not
     * told apart from a copy) */
    json_t *written = json_object_get(q, "trace");
    const char *named = json_string_value(json_object_get(written, "path"));
    if (written && !named && json_is_null(json_object_get(written, "path"))) {
        snprintf(why, size, "%s: the protocol's run wrote no trace (its Trace parameter: %s)", t->path,
                 json_string_value(json_object_get(written, "text")) ?: "off");
        return -1;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", t->path);
    char *slash = strrchr(dir, '/');
    snprintf(slash ? slash : dir, sizeof dir - (size_t)(slash ? slash - dir : 0), "%s", slash ? "" : ".");
    struct stat a, b;
    if (named && stat(named, &a) == 0 && stat(dir, &b) == 0 && (a.st_dev != b.st_dev || a.st_ino != b.st_ino)) {
        snprintf(why, size, "%s: the protocol's run wrote its trace to %s", t->path, named);
        return -1;
    }
    double started = parse_date(json_string_value(json_object_get(q, "started")));
    double finished = parse_date(json_string_value(json_object_get(q, "finished")));
    double began = (double)t->realtime / 1e9;
    if (t->realtime && started >= 0 && finished >= started &&
        (began < started - SAME_RUN_SLACK || began > finished + SAME_RUN_SLACK)) {
        char when[64];
        time_t s = (time_t)began;
        struct tm tm;
        if (!gmtime_r(&s, &tm) || !strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S+0000", &tm))
            snprintf(when, sizeof when, "?");
        snprintf(why, size, "%s: a trace begun at %s, the protocol's run went from %s to %s", t->path, when,
                 json_string_value(json_object_get(q, "started")), json_string_value(json_object_get(q, "finished")));
        return -1;
    }
    return 0;
}

/* `out` = function RS text RS text ... of an SRC point of the protocol. */
static int protocol_key(links_t *k, const char *function, json_t *stack)
{
    size_t need = strlen(function) + 1, i;
    json_t *f;
    json_array_foreach(stack, i, f) need += 1 + strlen(json_string_value(json_object_get(f, "text")) ?: "");
    if (need > k->key_cap) {
        char *grown = realloc(k->key, need);
        if (!grown)
            return -1;
        k->key = grown, k->key_cap = need;
    }
    char *p = k->key + sprintf(k->key, "%s", function);
    json_array_foreach(stack, i, f) p +=
        sprintf(p, "%c%s", MPP_RS, json_string_value(json_object_get(f, "text")) ?: "");
    return 0;
}

/* An interval's key: its parents' and its name, file name and line
 * (interval 0: ""), as the protocol and the replay's interval stage both
 * give them; into k->key. */
static int interval_key(links_t *k, const char *parent, const char *name, const char *file, long line)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    size_t need = strlen(parent) + strlen(name) + strlen(base) + 32;
    if (need > k->key_cap) {
        char *grown = realloc(k->key, need);
        if (!grown)
            return -1;
        k->key = grown, k->key_cap = need;
    }
    char *copy = strdup(parent);
    if (!copy)
        return -1;
    sprintf(k->key, "%s%c%s%c%s%c%ld", copy, MPP_RS, name, MPP_US, base, MPP_US, line);
    free(copy);
    return 0;
}

/* The protocol's intervals by key; 0, or -1 (memory, or a parent not
 * before its child). */
static int index_intervals(links_t *k, json_t *doc)
{
    json_t *by_id = k->interval_keys = json_object(), *iv;
    size_t i;
    int rc = by_id && (k->intervals = json_object()) ? 0 : -1;
    json_array_foreach(json_object_get(doc, "intervals"), i, iv)
    {
        if (rc != 0)
            break;
        char id[32], parent[32];
        snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(iv, "id")));
        json_t *up = json_object_get(iv, "parent");
        const char *key = "";
        if (json_is_integer(up)) {
            snprintf(parent, sizeof parent, "%lld", (long long)json_integer_value(up));
            const char *pk = json_string_value(json_object_get(by_id, parent));
            rc = pk && interval_key(k, pk, json_string_value(json_object_get(iv, "name")) ?: "",
                                    json_string_value(json_object_get(iv, "file")) ?: "",
                                    (long)json_integer_value(json_object_get(iv, "line"))) == 0
                     ? 0
                     : -1;
            key = k->key;
        }
        if (rc == 0) {
            json_object_set_new_nocheck(by_id, id, json_stringn_nocheck(key, strlen(key)));
            json_object_set_new_nocheck(k->intervals, key,
                                        json_integer(json_integer_value(json_object_get(iv, "id"))));
        }
    }
    return rc;
}

/* The cell of SRC index `src` in interval `id`, made when new. */
static void add_cell(links_t *k, json_int_t src, json_int_t id, uint64_t calls)
{
    char key[64];
    snprintf(key, sizeof key, "%lld:%lld", (long long)src, (long long)id);
    json_t *known = json_object_get(k->cells, key);
    size_t c = known ? (size_t)json_integer_value(known) : k->ncells++;
    if (!known) {
        json_object_set_new(k->cells, key, json_integer((json_int_t)c));
        k->cell_id[c] = id, k->cell_src[c] = k->ids[src];
    }
    k->cell_calls[c] += calls;
}

/* Every SRC number of the protocol by its key (an SRC number is one call
 * site in every interval: the first stack of a number is its key), and
 * every SRC point as a cell (the number in an interval), with its calls. */
static int index_protocol(links_t *k, json_t *doc)
{
    size_t i, j, n = 0;
    json_t *iv, *s;
    json_array_foreach(json_object_get(doc, "intervals"), i, iv) n += json_array_size(json_object_get(iv, "src"));
    json_t *seen = json_object(); /* SRC number -> index */
    k->keys = json_object();
    k->cells = json_object();
    k->ids = malloc((n ? n : 1) * sizeof *k->ids);
    k->cell_id = malloc((n ? n : 1) * sizeof *k->cell_id);
    k->cell_src = malloc((n ? n : 1) * sizeof *k->cell_src);
    k->cell_calls = calloc(n ? n : 1, sizeof *k->cell_calls);
    int rc = seen && k->keys && k->cells && k->ids && k->cell_id && k->cell_src && k->cell_calls ? 0 : -1;
    json_array_foreach(json_object_get(doc, "intervals"), i, iv) json_array_foreach(json_object_get(iv, "src"), j, s)
    {
        char id[32];
        snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(s, "id")));
        json_t *known = rc == 0 ? json_object_get(seen, id) : NULL;
        if (rc == 0 && !known) {
            rc =
                protocol_key(k, json_string_value(json_object_get(s, "function")) ?: "", json_object_get(s, "stack"));
            if (rc != 0)
                break;
            k->ids[k->nids] = json_integer_value(json_object_get(s, "id"));
            json_object_set_new_nocheck(k->keys, k->key, json_integer((json_int_t)k->nids));
            json_object_set_new(seen, id, known = json_integer((json_int_t)k->nids++));
        }
        if (known)
            add_cell(k, json_integer_value(known), json_integer_value(json_object_get(iv, "id")),
                     (uint64_t)json_integer_value(json_object_get(s, "calls")));
    }
    json_decref(seen);
    return rc == 0 ? index_intervals(k, doc) : rc;
}

/* Whether the trace's calls are the protocol's: none in an SRC point the
 * protocol does not have, and in every SRC point with calls in the trace,
 * as many as the protocol counts; 0, or -1 with the first that differs said. */
static int same_calls(const links_t *k, char *why, size_t size)
{
    if (k->unplaced) {
        snprintf(why, size,
                 "%s: %llu calls at the protocol's call sites are in intervals where the protocol has "
                 "no SRC point of theirs",
                 k->t->path, (unsigned long long)k->unplaced);
        return -1;
    }
    for (size_t c = 0; c < k->ncells; c++) {
        uint64_t traced = 0;
        for (int p = 0; p < k->t->nprocesses; p++)
            traced += k->slots[c * (size_t)k->t->nprocesses + (size_t)p].calls;
        if (traced && traced != k->cell_calls[c]) {
            snprintf(why, size, "%s: SRC %lld of interval %lld has %llu calls in the trace, %llu in the protocol",
                     k->t->path, (long long)k->cell_src[c], (long long)k->cell_id[c], (unsigned long long)traced,
                     (unsigned long long)k->cell_calls[c]);
            return -1;
        }
    }
    return 0;
}

/* The frames' texts of a trace's call site, as protocol_key joins them. */
static const char *site_text(links_t *k, uint32_t site)
{
    if (k->site_text[site])
        return k->site_text[site];
    char *key = NULL, *function = NULL;
    mpp_frame_t *frames = NULL;
    int n = asprintf(&key, "F%c%s", MPP_RS, k->t->sites[site]) < 0 ? 0 : mpp_srckey_parse(key, &function, &frames);
    size_t need = 1;
    for (int f = 0; f < n; f++)
        need += 1 + strlen(frames[f].text);
    char *text = malloc(need), *p = text;
    if (text) {
        *p = '\0';
        for (int f = 0; f < n; f++)
            p += sprintf(p, "%c%s", MPP_RS, frames[f].text);
    }
    free(key), free(function);
    mpp_srckey_free_frames(frames, n);
    return k->site_text[site] = text;
}

/* The protocol's index of a call's SRC point; -1: none. */
static int32_t src_of(links_t *k, const rp_call_t *c)
{
    if (c->site == 0 || c->site >= k->t->nsites || c->fid >= MPP_NFUNCTIONS)
        return -1;
    if (k->cache_fid[c->site] == (int32_t)c->fid)
        return k->cache_index[c->site];
    const char *text = site_text(k, c->site), *function = mpp_functions[c->fid].name;
    int32_t index = -1;
    size_t need = text ? strlen(function) + strlen(text) + 1 : 0;
    if (text && need > k->key_cap) {
        char *grown = realloc(k->key, need);
        if (grown)
            k->key = grown, k->key_cap = need;
    }
    if (text && need <= k->key_cap) {
        sprintf(k->key, "%s%s", function, text);
        json_t *found = json_object_get(k->keys, k->key);
        index = found ? (int32_t)json_integer_value(found) : -1;
    }
    k->cache_fid[c->site] = (int32_t)c->fid;
    return k->cache_index[c->site] = index;
}

/* A call into its slot: summed, and kept while it is among the earliest
 * `max` (a process's threads are read one after the other). */
static int add_call(links_t *k, slot_t *s, const rp_call_t *c)
{
    event_t e = {(double)(c->enter - k->origin) * k->tick, (double)(c->leave - k->origin) * k->tick, {0}};
    if (e.leave < e.enter)
        e.leave = e.enter;
    for (int w = 0; w < MPP_NWAIT; w++)
        e.wait[w] = c->wait[w] > 0 ? (double)c->wait[w] * k->tick : 0.0;
    s->first = s->calls && s->first < e.enter ? s->first : e.enter;
    s->last = s->calls && s->last > e.leave ? s->last : e.leave;
    s->calls++;
    s->time += e.leave - e.enter;
    s->wait += e.wait[MPP_WAIT_REALSYNC] + e.wait[MPP_WAIT_POTSYNC];
    if (!s->ev && !(s->ev = malloc(k->max * sizeof *s->ev)))
        return -1;
    if (s->n < k->max) {
        s->ev[s->n++] = e;
        return 0;
    }
    size_t latest = 0;
    for (size_t i = 1; i < s->n; i++)
        if (s->ev[i].enter > s->ev[latest].enter)
            latest = i;
    if (e.enter < s->ev[latest].enter)
        s->ev[latest] = e;
    return 0;
}

static int by_enter(const void *a, const void *b)
{
    double x = ((const event_t *)a)->enter, y = ((const event_t *)b)->enter;
    return x < y ? -1 : x > y;
}

/* The protocol's id of interval `local` of the process replayed (an
 * index into the interval stage's mpp_intervals); -1: none. */
static int64_t protocol_interval(links_t *k, uint32_t local)
{
    if (local >= mpp_nintervals)
        return -1;
    if (local >= k->nlocal) {
        size_t room = (size_t)mpp_nintervals + 16;
        int64_t *grown = realloc(k->local, room * sizeof *grown);
        if (!grown)
            return -1;
        for (size_t i = k->nlocal; i < room; i++)
            grown[i] = -2;
        k->local = grown, k->nlocal = room;
    }
    if (k->local[local] != -2)
        return k->local[local];
    const mpp_interval_t *iv = &mpp_intervals[local];
    const char *key = "";
    if (iv->parent >= 0) {
        int64_t up = protocol_interval(k, (uint32_t)iv->parent);
        char id[32];
        snprintf(id, sizeof id, "%lld", (long long)up);
        const char *pk = up >= 0 ? json_string_value(json_object_get(k->interval_keys, id)) : NULL;
        key = pk && interval_key(k, pk, iv->name, iv->file, iv->line) == 0 ? k->key : NULL;
    }
    json_t *found = key ? json_object_get(k->intervals, key) : NULL;
    return k->local[local] = found ? json_integer_value(found) : -1;
}

/* A call of the process replayed into the slot of its SRC point (its SRC
 * number in its interval). */
static int on_call(void *ctx, const rp_call_t *c, uint32_t interval)
{
    links_t *k = ctx;
    int32_t src = src_of(k, c);
    if (src < 0)
        return 0;
    int64_t id = protocol_interval(k, interval);
    char key[64];
    snprintf(key, sizeof key, "%d:%lld", src, (long long)id);
    json_t *cell = id >= 0 ? json_object_get(k->cells, key) : NULL;
    if (!cell) {
        k->unplaced++;
        return 0;
    }
    return add_call(k, &k->slots[(size_t)json_integer_value(cell) * (size_t)k->t->nprocesses + (size_t)k->p], c);
}

/* Every call of the trace into the slots of its SRC point, each process's
 * as the analyzer replays them; 0, or -1 (memory). */
static int collect(links_t *k)
{
    const rp_trace_t *t = k->t;
    int64_t origin = INT64_MAX, end = INT64_MIN;
    for (int l = 0; l < t->nlocations; l++)
        for (size_t c = 0; c < t->locations[l].ncalls; c++) {
            origin = t->locations[l].calls[c].enter < origin ? t->locations[l].calls[c].enter : origin;
            end = t->locations[l].calls[c].leave > end ? t->locations[l].calls[c].leave : end;
        }
    k->origin = origin == INT64_MAX ? 0 : origin;
    k->end = end > origin ? (double)(end - origin) * k->tick : 0.0;
    for (k->p = 0; k->p < t->nprocesses; k->p++) {
        for (size_t i = 0; i < k->nlocal; i++)
            k->local[i] = -2; /* each process its interval stage */
        if (rp_each_call(t, k->p, k->max_intervals, k->max_nesting, on_call, k) != 0)
            return -1;
    }
    return 0;
}

/* The page's object: per SRC number, per process with calls, the summary
 * and the earliest calls [enter, leave, real sync, potential sync, time
 * variation]. */
static json_t *links_json(links_t *k, const char *archive)
{
    const rp_trace_t *t = k->t;
    json_t *src = json_object(), *ranks = json_array();
    for (int p = 0; p < t->nprocesses; p++)
        json_array_append_new(ranks, json_integer(t->processes[p].rank));
    uint64_t matched = 0;
    for (size_t c = 0; c < k->ncells; c++) {
        json_t *by = json_array();
        for (int p = 0; p < t->nprocesses; p++) {
            slot_t *s = &k->slots[c * (size_t)t->nprocesses + (size_t)p];
            if (!s->calls)
                continue;
            matched += s->calls;
            qsort(s->ev, s->n, sizeof *s->ev, by_enter);
            json_t *ev = json_array();
            for (size_t e = 0; e < s->n; e++)
                json_array_append_new(ev, json_pack("[f,f,f,f,f]", s->ev[e].enter, s->ev[e].leave,
                                                    s->ev[e].wait[MPP_WAIT_REALSYNC], s->ev[e].wait[MPP_WAIT_POTSYNC],
                                                    s->ev[e].wait[MPP_WAIT_VARIATION]));
            json_array_append_new(by, json_pack("{s:i, s:I, s:f, s:f, s:f, s:f, s:o}", "rank", t->processes[p].rank,
                                                "calls", (json_int_t)s->calls, "time", s->time, "wait", s->wait,
                                                "first", s->first, "last", s->last, "events", ev));
        }
        char id[64];
        snprintf(id, sizeof id, "%lld:%lld", (long long)k->cell_id[c], (long long)k->cell_src[c]);
        if (json_array_size(by))
            json_object_set_new(src, id, by);
        else
            json_decref(by);
    }
    return json_pack("{s:o, s:I, s:f, s:o, s:I, s:b, s:o}", "archive", mpp_json_text(archive), "events_max",
                     (json_int_t)k->max, "end", k->end, "ranks", ranks, "calls", (json_int_t)matched, "complete",
                     !t->incomplete, "src", src);
}

static void links_free(links_t *k)
{
    for (size_t i = 0; k->slots && i < k->ncells * (size_t)k->t->nprocesses; i++)
        free(k->slots[i].ev);
    for (uint32_t s = 0; k->site_text && s < k->t->nsites; s++)
        free(k->site_text[s]);
    free(k->slots), free(k->site_text), free(k->cache_fid), free(k->cache_index), free(k->ids), free(k->key);
    free(k->cell_id), free(k->cell_src), free(k->cell_calls), free(k->local);
    json_decref(k->keys), json_decref(k->cells), json_decref(k->intervals), json_decref(k->interval_keys);
}

/* The trace read as the analyzer reads it: clocks bounded by the
 * messages, then the wait states, with the run's interval limits. */
static int read_trace(rp_trace_t *t, json_t *doc, const char *anchor, int *max_intervals, int *max_nesting, char *why,
                      size_t size)
{
    if (rp_trace_read(t, anchor, why, size) != 0)
        return RP_LINKS_UNREADABLE;
    if (same_run(t, doc, why, size) != 0) {
        rp_trace_free(t);
        return RP_LINKS_OTHER_RUN;
    }
    mpp_config_t config;
    config_doc = doc;
    mpp_config_parse(&config, protocol_getenv);
    config_doc = NULL;
    *max_intervals = (int)config.number[MPP_CFG_MAX_INTERVALS];
    *max_nesting = (int)config.number[MPP_CFG_MAX_NESTING];
    rp_bounds_t bounds;
    rp_clock_bounds(t, NULL, NULL, &bounds);
    if (rp_waits(t, NULL, NULL, *max_intervals, *max_nesting) != 0) {
        snprintf(why, size, "%s: out of memory for its wait states", anchor);
        rp_trace_free(t);
        return RP_LINKS_UNREADABLE;
    }
    return RP_LINKS_OK;
}

int rp_links(json_t *doc, const char *archive, size_t max_events, json_t **out, char *why, size_t size)
{
    char anchor[PATH_MAX];
    struct stat st;
    snprintf(anchor, sizeof anchor, "%s%s", archive,
             stat(archive, &st) == 0 && S_ISDIR(st.st_mode) ? "/traces.otf2" : "");
    rp_trace_t t;
    int max_intervals, max_nesting;
    int rc = read_trace(&t, doc, anchor, &max_intervals, &max_nesting, why, size);
    if (rc != RP_LINKS_OK)
        return rc;
    links_t k = {.t = &t,
                 .max = max_events ? max_events : 1,
                 .max_intervals = max_intervals,
                 .max_nesting = max_nesting,
                 .tick = 1.0 / (double)(t.resolution ? t.resolution : 1)};
    k.site_text = calloc(t.nsites ? t.nsites : 1, sizeof *k.site_text);
    k.cache_fid = malloc((t.nsites ? t.nsites : 1) * sizeof *k.cache_fid);
    k.cache_index = malloc((t.nsites ? t.nsites : 1) * sizeof *k.cache_index);
    if (k.site_text && k.cache_fid && k.cache_index && index_protocol(&k, doc) == 0)
        k.slots = calloc(k.ncells * (size_t)t.nprocesses + 1, sizeof *k.slots);
    for (uint32_t s = 0; k.cache_fid && s < t.nsites; s++)
        k.cache_fid[s] = -1;
    int collected = k.slots && collect(&k) == 0;
    if (collected && same_calls(&k, why, size) != 0) {
        links_free(&k);
        rp_trace_free(&t);
        return RP_LINKS_OTHER_RUN;
    }
    *out = collected ? links_json(&k, anchor) : NULL;
    if (!*out) {
        snprintf(why, size, "%s: out of memory for its calls", anchor);
        rc = RP_LINKS_UNREADABLE;
    } else if (k.ncells && !json_object_size(json_object_get(*out, "src"))) {
        snprintf(why, size, "%s: none of the protocol's SRC points has a call in the trace", anchor);
        json_decref(*out), *out = NULL;
        rc = RP_LINKS_OTHER_RUN;
    }
    links_free(&k);
    rp_trace_free(&t);
    return rc;
}
