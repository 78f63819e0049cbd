/* Machine, placement and their compact forms (machine.h).  Everything here
 * works on strings and small arrays: the records come from the reduction,
 * the text goes to the writers; the summary of them all is machine_summary.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/machine.h"
#include "records/machine_forms.h"
#include "util/srckey.h"
#include "util/strmap.h"

int mpp_cmp_int(const void *a, const void *b)
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
        qsort(v, (size_t)n, sizeof *v, mpp_cmp_int);
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
    mpp_textbuf_t b = {0};
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1)
            j++;
        if (j == i)
            mpp_textbuf_printf(&b, "%s%d", i ? "," : "", ids[i]);
        else
            mpp_textbuf_printf(&b, "%s%d-%d", i ? "," : "", ids[i], ids[j]);
        i = j + 1;
    }
    return mpp_textbuf_done(&b);
}

/* first, first+step, ... (count): "5", "0-3", "0,2,4", "0,2,...,126". */
void mpp_progression_text(mpp_textbuf_t *b, int first, int step, int count)
{
    int last = first + (count - 1) * step;
    if (count == 1)
        mpp_textbuf_printf(b, "%d", first);
    else if (step == 1)
        mpp_textbuf_printf(b, "%d-%d", first, last);
    else if (count <= 4)
        for (int i = 0; i < count; i++)
            mpp_textbuf_printf(b, "%s%d", i ? "," : "", first + i * step);
    else
        mpp_textbuf_printf(b, "%d,%d,...,%d", first, first + step, last);
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
    mpp_textbuf_t b = {0};
    mpp_textbuf_printf(&b, "%s%c%d%c%d%c%d%c%d%c%llu", t->model ? t->model : "", MPP_US, t->packages, MPP_US,
                       t->cores, MPP_US, t->pus, MPP_US, t->numa, MPP_US, (unsigned long long)t->memory);
    for (int c = 0; c < MPP_NCACHE; c++)
        mpp_textbuf_printf(&b, "%c%llu%c%d", MPP_US, (unsigned long long)t->cache_size[c], MPP_US, t->cache_count[c]);
    mpp_textbuf_printf(&b, "%c%s", MPP_US, t->core_map ? t->core_map : "");
    return mpp_textbuf_done(&b);
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

static void size_text(mpp_textbuf_t *b, uint64_t bytes)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    double v = (double)bytes;
    while (v >= 1024 && u < 5)
        v /= 1024, u++;
    if (v == (double)(uint64_t)v)
        mpp_textbuf_printf(b, "%llu %s", (unsigned long long)v, unit[u]);
    else
        mpp_textbuf_printf(b, "%.2f %s", v, unit[u]);
}

static void counted(mpp_textbuf_t *b, int n, const char *one, const char *many)
{
    mpp_textbuf_printf(b, ", %d %s", n, n == 1 ? one : many);
}

char *mpp_node_type_text(const mpp_node_type_t *t)
{
    static const char *names[MPP_NCACHE] = {"L1d", "L1i", "L2", "L3"};
    mpp_textbuf_t b = {0};
    mpp_textbuf_printf(&b, "%s", t->model && *t->model ? t->model : "unknown CPU model");
    counted(&b, t->packages, "package", "packages");
    counted(&b, t->cores, "core", "cores");
    counted(&b, t->pus, "hardware thread", "hardware threads");
    counted(&b, t->numa, "NUMA node", "NUMA nodes");
    mpp_textbuf_printf(&b, ", ");
    size_text(&b, t->memory);
    mpp_textbuf_printf(&b, " memory");
    for (int c = 0; c < MPP_NCACHE; c++) {
        if (!t->cache_size[c])
            continue;
        mpp_textbuf_printf(&b, ", %s %dx", names[c], t->cache_count[c]);
        size_text(&b, t->cache_size[c]);
    }
    return mpp_textbuf_done(&b);
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
    mpp_textbuf_t b = {0};
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
            mpp_textbuf_printf(&b, "%s%s", items++ ? "," : "", names[i]);
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
        qsort(v, (size_t)m, sizeof *v, mpp_cmp_int);
        mpp_textbuf_printf(&b, "%s%.*s[", items++ ? "," : "", (int)pi, names[i]);
        for (int k = 0; k < m;) {
            int j = k;
            while (j + 1 < m && v[j + 1] == v[j] + 1)
                j++;
            if (j == k)
                mpp_textbuf_printf(&b, "%s%0*d", k ? "," : "", di, v[k]);
            else
                mpp_textbuf_printf(&b, "%s%0*d-%0*d", k ? "," : "", di, v[k], di, v[j]);
            k = j + 1;
        }
        mpp_textbuf_printf(&b, "]");
        free(v);
    }
    free(done);
    free(nums);
    return mpp_textbuf_done(&b);
}
