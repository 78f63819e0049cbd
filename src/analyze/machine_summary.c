/* The machine summary (machine.h): from every node's description and every
 * rank's binding, the compact Machine and Placement lines and the warnings
 * about ranks that share cores.  Pure: no MPI, no hwloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/machine.h"
#include "records/machine_forms.h"
#include "util/srckey.h"
#include "util/strmap.h"

/* Whether sorted set a contains sorted set b. */
static int contains(const int *a, int na, const int *b, int nb)
{
    int i = 0;
    for (int k = 0; k < nb; k++) {
        while (i < na && a[i] < b[k])
            i++;
        if (i == na || a[i] != b[k])
            return 0;
    }
    return 1;
}

/* PU (OS index) -> core (logical index) from a core map; -1 where unknown. */
typedef struct {
    int *core_of;
    int npu; /* size of core_of */
    int ncores;
} core_map_t;

static int core_map_build(const char *map, core_map_t *cm)
{
    memset(cm, 0, sizeof *cm);
    if (!map || !*map)
        return -1;
    char *copy = strdup(map);
    if (!copy)
        return -1;
    int core = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save), core++) {
        int *pus;
        int n = mpp_idlist_parse(tok, &pus);
        for (int k = 0; k < n; k++) {
            if (pus[k] >= cm->npu) {
                int grown = pus[k] + 1;
                int *g = realloc(cm->core_of, (size_t)grown * sizeof *g);
                if (!g) {
                    free(pus);
                    free(copy);
                    return -1;
                }
                for (int i = cm->npu; i < grown; i++)
                    g[i] = -1;
                cm->core_of = g;
                cm->npu = grown;
            }
            cm->core_of[pus[k]] = core;
        }
        free(pus);
    }
    cm->ncores = core;
    free(copy);
    return 0;
}

/* Cores (sorted, unique) of a PU set; PUs the map does not know count as
 * cores of their own (numbered after the known ones). */
static int cores_of(const core_map_t *cm, const int *pus, int n, int *out)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        int c =
            pus[k] >= 0 && pus[k] < cm->npu && cm->core_of[pus[k]] >= 0 ? cm->core_of[pus[k]] : cm->ncores + pus[k];
        out[m++] = c;
    }
    qsort(out, (size_t)m, sizeof *out, mpp_cmp_int);
    int u = m ? 1 : 0;
    for (int k = 1; k < m; k++)
        if (out[k] != out[u - 1])
            out[u++] = out[k];
    return u;
}

static void rank_text(mpp_textbuf_t *b, const mpp_run_t *r)
{
    mpp_textbuf_printf(b, "%s ", r->count == 1 ? "rank" : "ranks");
    mpp_progression_text(b, r->first, r->rank_step, r->count);
}

static char *placed_text(const mpp_placed_run_t *p)
{
    const mpp_run_t *r = &p->run;
    mpp_textbuf_t b = {0};
    rank_text(&b, r);
    if (p->bound < 0) {
        mpp_textbuf_printf(&b, " binding unknown");
        return mpp_textbuf_done(&b);
    }
    if (p->bound == 0) {
        mpp_textbuf_printf(&b, " unbound");
        return mpp_textbuf_done(&b);
    }
    char *first = mpp_idlist_format(r->pus, r->npus);
    if (!first) {
        free(mpp_textbuf_done(&b));
        return NULL;
    }
    if (r->count == 1) {
        mpp_textbuf_printf(&b, " bound to PU %s", first);
    } else if (r->pu_step == 0) {
        mpp_textbuf_printf(&b, " each bound to PU %s", first);
    } else if (r->npus == 1) {
        mpp_textbuf_printf(&b, " bound to PU ");
        mpp_progression_text(&b, r->pus[0], r->pu_step, r->count);
    } else {
        mpp_textbuf_printf(&b, " bound to PU sets ");
        int shown = r->count <= 4 ? r->count : 2;
        for (int i = 0; i < shown; i++) {
            int *set = mpp_run_pus_of(r, i);
            char *t = set ? mpp_idlist_format(set, r->npus) : NULL;
            mpp_textbuf_printf(&b, "%s{%s}", i ? ", " : "", t ? t : "?");
            free(set), free(t);
        }
        if (shown < r->count) {
            int *set = mpp_run_pus_of(r, r->count - 1);
            char *t = set ? mpp_idlist_format(set, r->npus) : NULL;
            mpp_textbuf_printf(&b, ", ..., {%s}", t ? t : "?");
            free(set), free(t);
        }
    }
    free(first);
    return mpp_textbuf_done(&b);
}

typedef struct {
    char *cores_key;
    int ncores;
    int *ranks;
    int nranks, cap;
    int *pus; /* union of their PUs */
    int npus;
} share_group_t;

static int add_ranks(share_group_t *g, int first, int step, int count, const int *pus, int npus)
{
    if (g->nranks + count > g->cap) {
        int cap = (g->nranks + count) * 2;
        int *r = realloc(g->ranks, (size_t)cap * sizeof *r);
        if (!r)
            return -1;
        g->ranks = r;
        g->cap = cap;
    }
    for (int i = 0; i < count; i++)
        g->ranks[g->nranks++] = first + i * step;
    int *u = realloc(g->pus, ((size_t)g->npus + npus + 1) * sizeof *u);
    if (!u)
        return -1;
    memcpy(u + g->npus, pus, (size_t)npus * sizeof *u);
    g->pus = u;
    g->npus += npus;
    qsort(g->pus, (size_t)g->npus, sizeof *g->pus, mpp_cmp_int);
    int m = g->npus ? 1 : 0;
    for (int k = 1; k < g->npus; k++)
        if (g->pus[k] != g->pus[m - 1])
            g->pus[m++] = g->pus[k];
    g->npus = m;
    return 0;
}

static int add_warning(mpp_machine_summary_t *s, char *text)
{
    if (!text)
        return -1;
    char **w = realloc(s->warnings, ((size_t)s->nwarnings + 1) * sizeof *w);
    if (!w) {
        free(text);
        return -1;
    }
    s->warnings = w;
    s->warnings[s->nwarnings++] = text;
    return 0;
}

/* The warning of ranks that share cores: more ranks than cores, or (each
 * running per_rank threads) more threads than cores. */
static char *share_text(const char *host, const share_group_t *g, int per_rank)
{
    char *ranks = mpp_idlist_format(g->ranks, g->nranks), *pus = mpp_idlist_format(g->pus, g->npus);
    char *text = NULL;
    const char *cores = g->ncores == 1 ? "" : "s";
    if (!ranks || !pus)
        text = NULL;
    else if (g->nranks > g->ncores && asprintf(&text, "%s: ranks %s share cores: %d ranks bound to %d core%s (PU %s)",
                                               host, ranks, g->nranks, g->ncores, cores, pus) < 0)
        text = NULL;
    else if (g->nranks <= g->ncores &&
             asprintf(
                 &text,
                 "%s: rank%s %s: %d process%s x %d threads bound to %d core%s (PU %s): threads compete for cores",
                 host, g->nranks == 1 ? "" : "s", ranks, g->nranks, g->nranks == 1 ? "" : "es", per_rank, g->ncores,
                 cores, pus) < 0)
        text = NULL;
    free(ranks), free(pus);
    return text;
}

/* Ranks whose bindings cover fewer cores than there are ranks, or than
 * their threads (per_rank each: the program's, 1 when unknown or uneven):
 * group them by the exact set of cores they are bound to. */
static int check_sharing(mpp_machine_summary_t *s, const mpp_host_placement_t *h, const core_map_t *cm, int per_rank)
{
    share_group_t *groups = NULL;
    int ngroups = 0, rc = 0;
    mpp_strmap_t index;
    mpp_strmap_init(&index);
    for (int k = 0; k < h->nruns && rc == 0; k++) {
        const mpp_placed_run_t *p = &h->runs[k];
        if (p->bound != 1)
            continue;
        int steps = p->run.pu_step == 0 ? 1 : p->run.count;
        for (int i = 0; i < steps && rc == 0; i++) {
            int *pus = mpp_run_pus_of(&p->run, i);
            int *cores = malloc(((size_t)p->run.npus + 1) * sizeof *cores);
            char *key = NULL;
            int nc = 0;
            if (!pus || !cores ||
                (nc = cores_of(cm, pus, p->run.npus, cores), !(key = mpp_idlist_format(cores, nc)))) {
                free(pus), free(cores);
                rc = -1;
                break;
            }
            int inserted;
            uintptr_t *slot = mpp_strmap_put(&index, key, (uintptr_t)ngroups, &inserted);
            if (slot && inserted) {
                share_group_t *g = realloc(groups, ((size_t)ngroups + 1) * sizeof *g);
                if (!g) {
                    rc = -1;
                } else {
                    groups = g;
                    memset(&groups[ngroups], 0, sizeof *groups);
                    groups[ngroups].cores_key = key, key = NULL;
                    groups[ngroups].ncores = nc;
                    ngroups++;
                }
            }
            if (!slot)
                rc = -1;
            if (rc == 0) {
                share_group_t *g = &groups[*slot];
                if (p->run.pu_step == 0)
                    rc = add_ranks(g, p->run.first, p->run.rank_step, p->run.count, pus, p->run.npus);
                else
                    rc = add_ranks(g, p->run.first + i * p->run.rank_step, 0, 1, pus, p->run.npus);
            }
            free(key), free(pus), free(cores);
        }
    }
    for (int k = 0; k < ngroups; k++) {
        share_group_t *g = &groups[k];
        if (rc == 0 && (g->nranks > g->ncores || g->nranks * per_rank > g->ncores)) {
            qsort(g->ranks, (size_t)g->nranks, sizeof *g->ranks, mpp_cmp_int);
            rc = add_warning(s, share_text(h->host, g, per_rank));
        }
        free(g->cores_key), free(g->ranks), free(g->pus);
    }
    free(groups);
    mpp_strmap_free(&index);
    return rc;
}

/* Unbound ranks on a node with more ranks, or more of the program's
 * threads (`threads`, summed over its ranks; 0: unknown), than usable
 * cores. */
static int check_oversubscribed(mpp_machine_summary_t *s, const mpp_host_placement_t *h, int usable_cores,
                                int threads)
{
    int workers = threads > h->nranks ? threads : h->nranks;
    if (usable_cores <= 0 || workers <= usable_cores)
        return 0;
    mpp_textbuf_t ub = {0};
    int unbound = 0;
    for (int k = 0; k < h->nruns; k++)
        if (h->runs[k].bound == 0) {
            if (unbound++)
                mpp_textbuf_printf(&ub, ", ");
            rank_text(&ub, &h->runs[k].run);
        }
    char *list = mpp_textbuf_done(&ub);
    char *text = NULL, count[96];
    if (threads > h->nranks && threads % h->nranks == 0) /* processes x threads against cores */
        snprintf(count, sizeof count, "%d processes x %d threads", h->nranks, threads / h->nranks);
    else if (threads > h->nranks)
        snprintf(count, sizeof count, "%d processes with %d threads", h->nranks, threads);
    if (unbound && list && threads > h->nranks &&
        asprintf(&text, "%s: %s on %d core%s and %s unbound: the node is oversubscribed, threads compete for cores",
                 h->host, count, usable_cores, usable_cores == 1 ? "" : "s", list) < 0)
        text = NULL;
    else if (unbound && list && threads <= h->nranks &&
             asprintf(&text,
                      "%s: %d ranks on %d core%s and %s unbound: the node is oversubscribed, ranks compete for cores",
                      h->host, h->nranks, usable_cores, usable_cores == 1 ? "" : "s", list) < 0)
        text = NULL;
    free(list);
    return unbound ? add_warning(s, text) : 0;
}

/* The Machine line's node types, at the same indexes as m->types (the
 * hosts refer to them); -1 when memory ran out. */
static int summarize_types(const mpp_machine_data_t *m, mpp_machine_summary_t *s)
{
    int rc = 0;
    for (int t = 0; t < m->ntypes; t++) {
        mpp_machine_type_t *mt = &s->types[s->ntypes];
        if (mpp_node_type_parse(m->types[t], &mt->type) == 0)
            mt->text = mpp_node_type_text(&mt->type);
        else
            mt->text = strdup("unreadable node description");
        mt->hosts = calloc((size_t)m->nhosts + 1, sizeof *mt->hosts);
        for (int h = 0; h < m->nhosts && mt->hosts; h++)
            if (m->hosts[h].type == t)
                mt->hosts[mt->nhosts++] = m->hosts[h].name;
        mt->hosts_text = mt->hosts ? mpp_hostlist_format(mt->hosts, mt->nhosts) : NULL;
        if (!mt->text || !mt->hosts_text)
            rc = -1;
        s->ntypes++;
    }
    return rc;
}

/* The PUs a host lets its processes use (*allowed, allocated): those it
 * said, else every PU of its core map; how many, -1 when unknown. */
static int allowed_pus(const mpp_machine_host_t *mh, const core_map_t *cm, int **allowed)
{
    int *pus = NULL, npus = -1;
    if (mh->allowed)
        npus = mpp_idlist_parse(mh->allowed, &pus);
    if (npus < 0 && cm->npu) { /* every PU of the node */
        pus = malloc((size_t)cm->npu * sizeof *pus);
        npus = 0;
        for (int p = 0; pus && p < cm->npu; p++)
            if (cm->core_of[p] >= 0)
                pus[npus++] = p;
    }
    *allowed = pus;
    return npus;
}

/* The placement runs of `host` (moved out of `runs`), each bound (1),
 * unbound (0: bound to every allowed PU) or of unknown binding (-1), with
 * its text; -1 when memory ran out. */
static int place_runs(mpp_host_placement_t *h, const char *host, mpp_run_t *runs, int nruns, const int *allowed,
                      int nallowed)
{
    int rc = 0;
    for (int r = 0; r < nruns; r++)
        if (runs[r].host && !strcmp(runs[r].host, host))
            h->nruns++;
    h->runs = calloc((size_t)h->nruns + 1, sizeof *h->runs);
    int k = 0;
    for (int r = 0; h->runs && r < nruns; r++) {
        if (!runs[r].host || strcmp(runs[r].host, host))
            continue;
        mpp_placed_run_t *p = &h->runs[k++];
        p->run = runs[r];
        memset(&runs[r], 0, sizeof runs[r]);
        if (!p->run.npus)
            p->bound = -1;
        else if (nallowed > 0 && (p->run.count == 1 || p->run.pu_step == 0) &&
                 contains(p->run.pus, p->run.npus, allowed, nallowed))
            p->bound = 0;
        else
            p->bound = 1;
        p->text = placed_text(p);
        if (!p->text)
            rc = -1;
    }
    return rc;
}

/* The host's Placement line (NULL when memory ran out). */
static char *host_text(const mpp_host_placement_t *h, const char *host)
{
    mpp_textbuf_t b = {0};
    mpp_textbuf_printf(&b, "%s: ", host);
    if (!h->nruns)
        mpp_textbuf_printf(&b, "%d rank%s, binding unknown", h->nranks, h->nranks == 1 ? "" : "s");
    for (int i = 0; i < h->nruns; i++)
        mpp_textbuf_printf(&b, "%s%s", i ? "; " : "", h->runs[i].text ? h->runs[i].text : "?");
    return mpp_textbuf_done(&b);
}

/* The cores a host's processes may use: those of its allowed PUs, else
 * every core of its node type (0: unknown). */
static int usable_cores(const core_map_t *cm, const int *allowed, int nallowed, const mpp_node_type_t *type)
{
    int usable = 0;
    if (cm->ncores && nallowed > 0) {
        unsigned char *used = calloc((size_t)cm->ncores, 1);
        for (int a = 0; used && a < nallowed; a++)
            if (allowed[a] < cm->npu && cm->core_of[allowed[a]] >= 0 && !used[cm->core_of[allowed[a]]]++)
                usable++;
        free(used);
    } else if (type) {
        usable = type->cores;
    }
    return usable;
}

/* A host's Placement: its runs and line, and the warnings about its ranks
 * that share cores or compete for them.  rc: the summary's so far (the
 * checks run only while it is 0); returns it, -1 when memory ran out. */
static int summarize_host(mpp_machine_summary_t *s, const mpp_machine_host_t *mh, mpp_run_t *runs, int nruns, int rc)
{
    mpp_host_placement_t *h = &s->hosts[s->nhosts++];
    h->host = strdup(mh->name);
    h->nranks = mh->nranks;
    const mpp_node_type_t *type = mh->type >= 0 && mh->type < s->ntypes ? &s->types[mh->type].type : NULL;
    core_map_t cm;
    core_map_build(type ? type->core_map : NULL, &cm);
    int *allowed;
    int nallowed = allowed_pus(mh, &cm, &allowed);
    if (place_runs(h, mh->name, runs, nruns, allowed, nallowed) != 0)
        rc = -1;
    h->text = host_text(h, mh->name);
    if (!h->host || !h->text || !h->runs)
        rc = -1;

    /* threads per rank, when the host's ranks run as many each */
    int per_rank =
        mh->threads > mh->nranks && mh->nranks > 0 && mh->threads % mh->nranks == 0 ? mh->threads / mh->nranks : 1;
    if (rc == 0)
        rc = check_sharing(s, h, &cm, per_rank);
    int usable = usable_cores(&cm, allowed, nallowed, type);
    if (rc == 0)
        rc = check_oversubscribed(s, h, usable, mh->threads);
    free(allowed);
    free(cm.core_of);
    return rc;
}

int mpp_machine_summarize(const mpp_machine_data_t *m, mpp_machine_summary_t *s)
{
    memset(s, 0, sizeof *s);
    if (!m) {
        s->na_reason = "topology and placement were not collected";
        return 0;
    }
    if (m->na_reason) {
        s->na_reason = m->na_reason;
        return 0;
    }
    s->types = calloc((size_t)m->ntypes + 1, sizeof *s->types);
    s->hosts = calloc((size_t)m->nhosts + 1, sizeof *s->hosts);
    if (!s->types || !s->hosts)
        return -1;
    int rc = summarize_types(m, s);

    mpp_run_t *runs = calloc((size_t)m->nruns + 1, sizeof *runs);
    int nruns = 0;
    for (int r = 0; runs && r < m->nruns; r++)
        if (mpp_run_parse(m->runs[r], &runs[nruns]) == 0)
            nruns++;
    for (int hi = 0; runs && hi < m->nhosts; hi++)
        rc = summarize_host(s, &m->hosts[hi], runs, nruns, rc);
    for (int r = 0; runs && r < nruns; r++)
        mpp_run_free(&runs[r]);
    if (!runs)
        rc = -1;
    free(runs);
    return rc;
}

void mpp_machine_summary_free(mpp_machine_summary_t *s)
{
    for (int t = 0; s->types && t < s->ntypes; t++) {
        mpp_node_type_free(&s->types[t].type);
        free(s->types[t].text);
        free(s->types[t].hosts); /* names belong to the data */
        free(s->types[t].hosts_text);
    }
    for (int h = 0; s->hosts && h < s->nhosts; h++) {
        for (int r = 0; r < s->hosts[h].nruns; r++) {
            mpp_run_free(&s->hosts[h].runs[r].run);
            free(s->hosts[h].runs[r].text);
        }
        free(s->hosts[h].runs);
        free(s->hosts[h].host);
        free(s->hosts[h].text);
    }
    for (int w = 0; w < s->nwarnings; w++)
        free(s->warnings[w]);
    free(s->types), free(s->hosts), free(s->warnings);
    memset(s, 0, sizeof *s);
}
