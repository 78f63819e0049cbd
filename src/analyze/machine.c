/* Machine, placement and their compact forms (machine.h).  Everything here
 * works on strings and small arrays: the records come from the reduction,
 * the text goes to the writers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "srckey.h"
#include "strmap.h"

/* --- a growing string --- */

typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} buf_t;

static void bprintf(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(buf_t *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->len + (size_t)(n < 0 ? 0 : n) + 1) * 2 + 32;
        char *s = realloc(b->s, cap);
        if (!s || n < 0) {
            b->failed = 1;
            if (s)
                b->s = s;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* The string (never NULL unless memory ran out), ownership to the caller. */
static char *bdone(buf_t *b)
{
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    if (!b->s)
        return strdup("");
    return b->s;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* --- id lists --- */

#define IDLIST_MAX (1 << 22) /* ids above are not PUs or ranks of this world */

int mpp_idlist_parse(const char *text, int **ids)
{
    *ids = NULL;
    if (!text)
        return -1;
    int n = 0, cap = 0;
    int *v = NULL;
    const char *p = text;
    while (*p) {
        char *end;
        if (*p < '0' || *p > '9')
            goto bad;
        long lo = strtol(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-') {
            p++;
            if (*p < '0' || *p > '9')
                goto bad;
            hi = strtol(p, &end, 10);
            p = end;
        }
        if (hi < lo || hi >= IDLIST_MAX)
            goto bad;
        for (long i = lo; i <= hi; i++) {
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                int *g = realloc(v, (size_t)cap * sizeof *v);
                if (!g)
                    goto bad;
                v = g;
            }
            v[n++] = (int)i;
        }
        if (*p == ',')
            p++;
        else if (*p)
            goto bad;
    }
    if (n) {
        qsort(v, (size_t)n, sizeof *v, cmp_int);
        int m = 1;
        for (int i = 1; i < n; i++)
            if (v[i] != v[m - 1])
                v[m++] = v[i];
        n = m;
    }
    *ids = v;
    return n;
bad:
    free(v);
    return -1;
}

char *mpp_idlist_format(const int *ids, int n)
{
    buf_t b = {0};
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1)
            j++;
        if (j == i)
            bprintf(&b, "%s%d", i ? "," : "", ids[i]);
        else
            bprintf(&b, "%s%d-%d", i ? "," : "", ids[i], ids[j]);
        i = j + 1;
    }
    return bdone(&b);
}

/* first, first+step, ... (count): "5", "0-3", "0,2,4", "0,2,...,126". */
static void progression(buf_t *b, int first, int step, int count)
{
    int last = first + (count - 1) * step;
    if (count == 1)
        bprintf(b, "%d", first);
    else if (step == 1)
        bprintf(b, "%d-%d", first, last);
    else if (count <= 4)
        for (int i = 0; i < count; i++)
            bprintf(b, "%s%d", i ? "," : "", first + i * step);
    else
        bprintf(b, "%d,%d,...,%d", first, first + step, last);
}

/* --- placement runs --- */

int mpp_run_single(mpp_run_t *r, const char *host, int rank, const char *pus)
{
    memset(r, 0, sizeof *r);
    r->host = strdup(host);
    r->first = rank;
    r->count = 1;
    r->npus = pus ? mpp_idlist_parse(pus, &r->pus) : 0;
    if (r->npus < 0)
        r->npus = 0;
    return r->host ? 0 : -1;
}

char *mpp_run_key(const mpp_run_t *r)
{
    char *pus = mpp_idlist_format(r->pus, r->npus);
    char *key = NULL;
    if (pus && asprintf(&key, "%s%c%d%c%d%c%d%c%d%c%s", r->host, MPP_US, r->first, MPP_US, r->rank_step, MPP_US,
                        r->count, MPP_US, r->pu_step, MPP_US, pus) < 0)
        key = NULL;
    free(pus);
    return key;
}

/* The n fields of a US-separated record (pointers into a copy, *copy to free). */
static int split_fields(const char *key, char **copy, char **field, int n)
{
    *copy = strdup(key);
    if (!*copy)
        return -1;
    char *p = *copy;
    for (int i = 0; i < n; i++) {
        field[i] = p;
        char *us = strchr(p, MPP_US);
        if (i == n - 1)
            return us ? -1 : 0;
        if (!us)
            return -1;
        *us = '\0';
        p = us + 1;
    }
    return 0;
}

static int parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int mpp_run_parse(const char *key, mpp_run_t *r)
{
    char *copy, *f[6];
    memset(r, 0, sizeof *r);
    if (split_fields(key, &copy, f, 6) != 0 || parse_int(f[1], 0, IDLIST_MAX, &r->first) ||
        parse_int(f[2], -IDLIST_MAX, IDLIST_MAX, &r->rank_step) || parse_int(f[3], 1, IDLIST_MAX, &r->count) ||
        parse_int(f[4], -IDLIST_MAX, IDLIST_MAX, &r->pu_step) || (r->npus = mpp_idlist_parse(f[5], &r->pus)) < 0 ||
        !(r->host = strdup(f[0]))) {
        free(copy);
        free(r->pus);
        memset(r, 0, sizeof *r);
        return -1;
    }
    free(copy);
    return 0;
}

void mpp_run_free(mpp_run_t *r)
{
    free(r->host);
    free(r->pus);
    memset(r, 0, sizeof *r);
}

int *mpp_run_pus_of(const mpp_run_t *r, int i)
{
    int *v = malloc(((size_t)r->npus + 1) * sizeof *v);
    if (!v)
        return NULL;
    for (int k = 0; k < r->npus; k++)
        v[k] = r->pus[k] + i * r->pu_step;
    return v;
}

static int by_host_then_first(const void *a, const void *b)
{
    const mpp_run_t *x = a, *y = b;
    int c = strcmp(x->host, y->host);
    if (c)
        return c;
    return (x->first > y->first) - (x->first < y->first);
}

/* Whether `set` shifted by d is `other` (same size). */
static int shifted_equal(const int *set, const int *other, int n, long d)
{
    for (int k = 0; k < n; k++)
        if ((long)set[k] + d != other[k])
            return 0;
    return 1;
}

/* Merge b into a when b continues a's progressions. */
static int try_merge(mpp_run_t *a, const mpp_run_t *b)
{
    if (strcmp(a->host, b->host) != 0 || a->npus != b->npus)
        return 0;
    long rank_step = a->count == 1 ? (long)b->first - a->first : a->rank_step;
    if (rank_step <= 0 || (long)a->first + (long)a->count * rank_step != b->first)
        return 0;
    long pu_step = 0;
    if (a->npus) {
        pu_step = a->count == 1 ? (long)b->pus[0] - a->pus[0] : a->pu_step;
        if (!shifted_equal(a->pus, b->pus, a->npus, (long)a->count * pu_step))
            return 0;
    }
    if (b->count > 1 && (b->rank_step != rank_step || (a->npus && b->pu_step != pu_step)))
        return 0;
    if (rank_step > IDLIST_MAX || pu_step > IDLIST_MAX || pu_step < -IDLIST_MAX)
        return 0;
    a->rank_step = (int)rank_step;
    a->pu_step = (int)pu_step;
    a->count += b->count;
    return 1;
}

int mpp_runs_coalesce(mpp_run_t *runs, int n)
{
    if (n <= 1)
        return n;
    qsort(runs, (size_t)n, sizeof *runs, by_host_then_first);
    int out = 0;
    for (int i = 0; i < n; i++) {
        if (out > 0 && try_merge(&runs[out - 1], &runs[i])) {
            mpp_run_free(&runs[i]);
            continue;
        }
        if (out != i)
            runs[out] = runs[i];
        out++;
    }
    return out;
}

/* --- node types --- */

char *mpp_node_type_key(const mpp_node_type_t *t)
{
    buf_t b = {0};
    bprintf(&b, "%s%c%d%c%d%c%d%c%d%c%llu", t->model ? t->model : "", MPP_US, t->packages, MPP_US, t->cores, MPP_US,
            t->pus, MPP_US, t->numa, MPP_US, (unsigned long long)t->memory);
    for (int c = 0; c < MPP_NCACHE; c++)
        bprintf(&b, "%c%llu%c%d", MPP_US, (unsigned long long)t->cache_size[c], MPP_US, t->cache_count[c]);
    bprintf(&b, "%c%s", MPP_US, t->core_map ? t->core_map : "");
    return bdone(&b);
}

int mpp_node_type_parse(const char *key, mpp_node_type_t *t)
{
    enum { NF = 6 + 2 * MPP_NCACHE + 1 };
    char *copy, *f[NF];
    memset(t, 0, sizeof *t);
    if (split_fields(key, &copy, f, NF) != 0)
        goto bad;
    if (parse_int(f[1], 0, IDLIST_MAX, &t->packages) || parse_int(f[2], 0, IDLIST_MAX, &t->cores) ||
        parse_int(f[3], 0, IDLIST_MAX, &t->pus) || parse_int(f[4], 0, IDLIST_MAX, &t->numa))
        goto bad;
    char *end;
    t->memory = strtoull(f[5], &end, 10);
    if (end == f[5] || *end)
        goto bad;
    for (int c = 0; c < MPP_NCACHE; c++) {
        t->cache_size[c] = strtoull(f[6 + 2 * c], &end, 10);
        if (end == f[6 + 2 * c] || *end || parse_int(f[7 + 2 * c], 0, IDLIST_MAX, &t->cache_count[c]))
            goto bad;
    }
    t->model = strdup(f[0]);
    t->core_map = strdup(f[NF - 1]);
    free(copy);
    if (!t->model || !t->core_map) {
        mpp_node_type_free(t);
        return -1;
    }
    return 0;
bad:
    free(copy);
    memset(t, 0, sizeof *t);
    return -1;
}

void mpp_node_type_free(mpp_node_type_t *t)
{
    free(t->model);
    free(t->core_map);
    memset(t, 0, sizeof *t);
}

static void size_text(buf_t *b, uint64_t bytes)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    double v = (double)bytes;
    while (v >= 1024 && u < 5)
        v /= 1024, u++;
    if (v == (double)(uint64_t)v)
        bprintf(b, "%llu %s", (unsigned long long)v, unit[u]);
    else
        bprintf(b, "%.2f %s", v, unit[u]);
}

static void counted(buf_t *b, int n, const char *one, const char *many)
{
    bprintf(b, ", %d %s", n, n == 1 ? one : many);
}

char *mpp_node_type_text(const mpp_node_type_t *t)
{
    static const char *names[MPP_NCACHE] = {"L1d", "L1i", "L2", "L3"};
    buf_t b = {0};
    bprintf(&b, "%s", t->model && *t->model ? t->model : "unknown CPU model");
    counted(&b, t->packages, "package", "packages");
    counted(&b, t->cores, "core", "cores");
    counted(&b, t->pus, "hardware thread", "hardware threads");
    counted(&b, t->numa, "NUMA node", "NUMA nodes");
    bprintf(&b, ", ");
    size_text(&b, t->memory);
    bprintf(&b, " memory");
    for (int c = 0; c < MPP_NCACHE; c++) {
        if (!t->cache_size[c])
            continue;
        bprintf(&b, ", %s %dx", names[c], t->cache_count[c]);
        size_text(&b, t->cache_size[c]);
    }
    return bdone(&b);
}

void mpp_node_type_hash(const char *key, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)mpp_hash_bytes(key, strlen(key)));
}

/* --- host lists --- */

/* Split "node017" into prefix length, number 17 and digit count 3 (0: no digits). */
static void host_parts(const char *name, size_t *prefix, long *number, int *digits)
{
    size_t n = strlen(name), i = n;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9' && n - i < 9)
        i--;
    *prefix = i;
    *digits = (int)(n - i);
    *number = *digits ? strtol(name + i, NULL, 10) : 0;
}

char *mpp_hostlist_format(char *const *names, int n)
{
    buf_t b = {0};
    unsigned char *done = calloc((size_t)n + 1, 1);
    long *nums = malloc(((size_t)n + 1) * sizeof *nums);
    if (!done || !nums) {
        free(done), free(nums);
        return NULL;
    }
    int items = 0;
    for (int i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t pi;
        long ni;
        int di;
        host_parts(names[i], &pi, &ni, &di);
        int m = 0;
        if (di) {
            for (int j = i; j < n; j++) {
                size_t pj;
                long nj;
                int dj;
                if (done[j])
                    continue;
                host_parts(names[j], &pj, &nj, &dj);
                if (dj == di && pj == pi && !strncmp(names[i], names[j], pi)) {
                    nums[m++] = nj;
                    done[j] = 1;
                }
            }
        } else {
            done[i] = 1;
        }
        if (m <= 1) {
            bprintf(&b, "%s%s", items++ ? "," : "", names[i]);
            continue;
        }
        /* numbers as ranges, zero-padded as written */
        int *v = malloc((size_t)m * sizeof *v);
        if (!v) {
            b.failed = 1;
            break;
        }
        for (int k = 0; k < m; k++)
            v[k] = (int)nums[k];
        qsort(v, (size_t)m, sizeof *v, cmp_int);
        bprintf(&b, "%s%.*s[", items++ ? "," : "", (int)pi, names[i]);
        for (int k = 0; k < m;) {
            int j = k;
            while (j + 1 < m && v[j + 1] == v[j] + 1)
                j++;
            if (j == k)
                bprintf(&b, "%s%0*d", k ? "," : "", di, v[k]);
            else
                bprintf(&b, "%s%0*d-%0*d", k ? "," : "", di, v[k], di, v[j]);
            k = j + 1;
        }
        bprintf(&b, "]");
        free(v);
    }
    free(done);
    free(nums);
    return bdone(&b);
}

/* --- the summary --- */

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
        int c = pus[k] >= 0 && pus[k] < cm->npu && cm->core_of[pus[k]] >= 0 ? cm->core_of[pus[k]]
                                                                            : cm->ncores + pus[k];
        out[m++] = c;
    }
    qsort(out, (size_t)m, sizeof *out, cmp_int);
    int u = m ? 1 : 0;
    for (int k = 1; k < m; k++)
        if (out[k] != out[u - 1])
            out[u++] = out[k];
    return u;
}

static void rank_text(buf_t *b, const mpp_run_t *r)
{
    bprintf(b, "%s ", r->count == 1 ? "rank" : "ranks");
    progression(b, r->first, r->rank_step, r->count);
}

static char *placed_text(const mpp_placed_run_t *p)
{
    const mpp_run_t *r = &p->run;
    buf_t b = {0};
    rank_text(&b, r);
    if (p->bound < 0) {
        bprintf(&b, " binding unknown");
        return bdone(&b);
    }
    if (p->bound == 0) {
        bprintf(&b, " unbound");
        return bdone(&b);
    }
    char *first = mpp_idlist_format(r->pus, r->npus);
    if (!first) {
        free(bdone(&b));
        return NULL;
    }
    if (r->count == 1) {
        bprintf(&b, " bound to PU %s", first);
    } else if (r->pu_step == 0) {
        bprintf(&b, " each bound to PU %s", first);
    } else if (r->npus == 1) {
        bprintf(&b, " bound to PU ");
        progression(&b, r->pus[0], r->pu_step, r->count);
    } else {
        bprintf(&b, " bound to PU sets ");
        int shown = r->count <= 4 ? r->count : 2;
        for (int i = 0; i < shown; i++) {
            int *set = mpp_run_pus_of(r, i);
            char *t = set ? mpp_idlist_format(set, r->npus) : NULL;
            bprintf(&b, "%s{%s}", i ? ", " : "", t ? t : "?");
            free(set), free(t);
        }
        if (shown < r->count) {
            int *set = mpp_run_pus_of(r, r->count - 1);
            char *t = set ? mpp_idlist_format(set, r->npus) : NULL;
            bprintf(&b, ", ..., {%s}", t ? t : "?");
            free(set), free(t);
        }
    }
    free(first);
    return bdone(&b);
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
    qsort(g->pus, (size_t)g->npus, sizeof *g->pus, cmp_int);
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

/* Ranks whose bindings cover fewer cores than there are ranks: group them by
 * the exact set of cores they are bound to. */
static int check_sharing(mpp_machine_summary_t *s, const mpp_host_placement_t *h, const core_map_t *cm)
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
            if (!pus || !cores || (nc = cores_of(cm, pus, p->run.npus, cores), !(key = mpp_idlist_format(cores, nc)))) {
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
        if (rc == 0 && g->nranks > g->ncores) {
            qsort(g->ranks, (size_t)g->nranks, sizeof *g->ranks, cmp_int);
            char *ranks = mpp_idlist_format(g->ranks, g->nranks);
            char *pus = mpp_idlist_format(g->pus, g->npus);
            char *text = NULL;
            if (ranks && pus &&
                asprintf(&text, "%s: ranks %s share cores: %d ranks bound to %d core%s (PU %s)", h->host, ranks,
                         g->nranks, g->ncores, g->ncores == 1 ? "" : "s", pus) < 0)
                text = NULL;
            rc = add_warning(s, text);
            free(ranks), free(pus);
        }
        free(g->cores_key), free(g->ranks), free(g->pus);
    }
    free(groups);
    mpp_strmap_free(&index);
    return rc;
}

/* Unbound ranks on a node with more ranks than usable cores. */
static int check_oversubscribed(mpp_machine_summary_t *s, const mpp_host_placement_t *h, int usable_cores)
{
    if (usable_cores <= 0 || h->nranks <= usable_cores)
        return 0;
    buf_t ub = {0};
    int unbound = 0;
    for (int k = 0; k < h->nruns; k++)
        if (h->runs[k].bound == 0) {
            if (unbound++)
                bprintf(&ub, ", ");
            rank_text(&ub, &h->runs[k].run);
        }
    char *list = bdone(&ub);
    char *text = NULL;
    if (unbound && list &&
        asprintf(&text, "%s: %d ranks on %d core%s and %s unbound: the node is oversubscribed, ranks compete for cores",
                 h->host, h->nranks, usable_cores, usable_cores == 1 ? "" : "s", list) < 0)
        text = NULL;
    free(list);
    return unbound ? add_warning(s, text) : 0;
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
    int rc = 0;
    s->types = calloc((size_t)m->ntypes + 1, sizeof *s->types);
    s->hosts = calloc((size_t)m->nhosts + 1, sizeof *s->hosts);
    if (!s->types || !s->hosts)
        return -1;
    for (int t = 0; t < m->ntypes; t++) {
        /* same indexes as m->types: the hosts refer to them */
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

    mpp_run_t *runs = calloc((size_t)m->nruns + 1, sizeof *runs);
    int nruns = 0;
    for (int r = 0; runs && r < m->nruns; r++)
        if (mpp_run_parse(m->runs[r], &runs[nruns]) == 0)
            nruns++;
    for (int hi = 0; runs && hi < m->nhosts; hi++) {
        const mpp_machine_host_t *mh = &m->hosts[hi];
        mpp_host_placement_t *h = &s->hosts[s->nhosts++];
        h->host = strdup(mh->name);
        h->nranks = mh->nranks;
        const mpp_node_type_t *type = mh->type >= 0 && mh->type < s->ntypes ? &s->types[mh->type].type : NULL;
        core_map_t cm;
        core_map_build(type ? type->core_map : NULL, &cm);
        int *allowed = NULL, nallowed = -1;
        if (mh->allowed)
            nallowed = mpp_idlist_parse(mh->allowed, &allowed);
        if (nallowed < 0 && cm.npu) { /* every PU of the node */
            allowed = malloc((size_t)cm.npu * sizeof *allowed);
            nallowed = 0;
            for (int p = 0; allowed && p < cm.npu; p++)
                if (cm.core_of[p] >= 0)
                    allowed[nallowed++] = p;
        }
        for (int r = 0; r < nruns; r++)
            if (runs[r].host && !strcmp(runs[r].host, mh->name))
                h->nruns++;
        h->runs = calloc((size_t)h->nruns + 1, sizeof *h->runs);
        int k = 0;
        for (int r = 0; h->runs && r < nruns; r++) {
            if (!runs[r].host || strcmp(runs[r].host, mh->name))
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
        buf_t b = {0};
        bprintf(&b, "%s: ", mh->name);
        if (!h->nruns)
            bprintf(&b, "%d rank%s, binding unknown", h->nranks, h->nranks == 1 ? "" : "s");
        for (int i = 0; i < h->nruns; i++)
            bprintf(&b, "%s%s", i ? "; " : "", h->runs[i].text ? h->runs[i].text : "?");
        h->text = bdone(&b);
        if (!h->host || !h->text || !h->runs)
            rc = -1;

        if (rc == 0)
            rc = check_sharing(s, h, &cm);
        int usable = 0;
        if (cm.ncores && nallowed > 0) {
            unsigned char *used = calloc((size_t)cm.ncores, 1);
            for (int a = 0; used && a < nallowed; a++)
                if (allowed[a] < cm.npu && cm.core_of[allowed[a]] >= 0 && !used[cm.core_of[allowed[a]]]++)
                    usable++;
            free(used);
        } else if (type) {
            usable = type->cores;
        }
        if (rc == 0)
            rc = check_oversubscribed(s, h, usable);
        free(allowed);
        free(cm.core_of);
    }
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
