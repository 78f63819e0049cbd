#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/finding_list.h"
#include "context/config.h"
#include "util/strmap.h"

static char *copy_or_null(const char *s) { return s ? strdup(s) : NULL; }

static void record_free(mpp_finding_record_t *f)
{
    free(f->src);
    free(f->other);
    free(f->detail);
}

int mpp_finding_list_add(mpp_finding_list_t *l, const mpp_finding_record_t *f)
{
    mpp_finding_record_t *more = realloc(l->items, ((size_t)l->n + 1) * sizeof *more);
    if (!more)
        return -1;
    l->items = more;
    mpp_finding_record_t *to = &l->items[l->n];
    *to = *f;
    to->src = strdup(f->src ? f->src : "");
    to->other = copy_or_null(f->other);
    to->detail = strdup(f->detail ? f->detail : "");
    if (!to->src || !to->detail || (f->other && !to->other)) {
        record_free(to);
        return -1;
    }
    l->n++;
    return 0;
}

void mpp_finding_list_free(mpp_finding_list_t *l)
{
    for (int i = 0; i < l->n; i++)
        record_free(&l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

/* ---- serialized form: a header (entries, dropped, level), then per
 * entry its numbers and three strings, each a length and its bytes (the
 * other side's length UINT32_MAX: none). */

typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} out_t;

static void put(out_t *o, const void *p, size_t n)
{
    if (o->failed)
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 256;
        while (cap < o->len + n)
            cap *= 2;
        char *more = realloc(o->buf, cap);
        if (!more) {
            o->failed = 1;
            return;
        }
        o->buf = more, o->cap = cap;
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static void put_string(out_t *o, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;
    put(o, &n, sizeof n);
    if (s)
        put(o, s, n);
}

int mpp_finding_list_serialize(const mpp_finding_list_t *l, char **buf, size_t *len)
{
    out_t o = {0};
    int32_t n = l->n, level = l->level;
    put(&o, &n, sizeof n);
    put(&o, &l->dropped, sizeof l->dropped);
    put(&o, &level, sizeof level);
    for (int i = 0; i < l->n; i++) {
        const mpp_finding_record_t *f = &l->items[i];
        int32_t head[6] = {f->kind, f->severity, f->first_rank, f->last_rank, f->nprocs, f->peer};
        put(&o, head, sizeof head);
        put(&o, &f->count, sizeof f->count);
        put_string(&o, f->src);
        put_string(&o, f->other);
        put_string(&o, f->detail);
    }
    if (o.failed) {
        free(o.buf);
        return -1;
    }
    *buf = o.buf;
    *len = o.len;
    return 0;
}

typedef struct {
    const char *p, *end;
} in_t;

static int take(in_t *in, void *to, size_t n)
{
    if ((size_t)(in->end - in->p) < n)
        return -1;
    memcpy(to, in->p, n);
    in->p += n;
    return 0;
}

/* A string of the input (allocated), *none when absent. */
static int take_string(in_t *in, char **s)
{
    uint32_t n;
    *s = NULL;
    if (take(in, &n, sizeof n) != 0)
        return -1;
    if (n == UINT32_MAX)
        return 0;
    if ((size_t)(in->end - in->p) < n || !(*s = malloc((size_t)n + 1)))
        return -1;
    memcpy(*s, in->p, n);
    (*s)[n] = '\0';
    in->p += n;
    return memchr(*s, '\0', n) ? -1 : 0;
}

int mpp_finding_list_load(mpp_finding_list_t *l, const char *buf, size_t len)
{
    in_t in = {buf, buf + len};
    int32_t n, level;
    uint64_t dropped;
    if (take(&in, &n, sizeof n) || take(&in, &dropped, sizeof dropped) || take(&in, &level, sizeof level) || n < 0)
        return -1;
    l->dropped += dropped;
    l->level = level;
    for (int32_t i = 0; i < n; i++) {
        int32_t head[6];
        mpp_finding_record_t f = {0};
        int rc = take(&in, head, sizeof head) || take(&in, &f.count, sizeof f.count) || take_string(&in, &f.src) ||
                 take_string(&in, &f.other) || take_string(&in, &f.detail);
        f.kind = head[0], f.severity = head[1], f.first_rank = head[2], f.last_rank = head[3], f.nprocs = head[4],
        f.peer = head[5];
        if (!rc && (f.kind < 0 || f.kind >= MPP_NFIND || !f.src || !f.detail))
            rc = 1;
        if (!rc)
            rc = mpp_finding_list_add(l, &f);
        record_free(&f);
        if (rc)
            return -1;
    }
    return in.p == in.end ? 0 : -1;
}

/* ---- text form: MAGIC level dropped max n, then per entry
 * "kind severity count first_rank last_rank nprocs peer src other detail",
 * a string "=" and its escaped bytes, "-" for none. */

static void put_escaped(out_t *o, const char *s)
{
    if (!s) {
        put(o, " -", 2);
        return;
    }
    put(o, " =", 2);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c > ' ' && *c != '%' && *c != 0x7f) {
            put(o, c, 1);
        } else {
            char hex[4];
            snprintf(hex, sizeof hex, "%%%02X", *c);
            put(o, hex, 3);
        }
    }
}

int mpp_finding_list_text(const mpp_finding_list_t *l, size_t max, char **text)
{
    out_t o = {0};
    char line[256];
    int n = snprintf(line, sizeof line, "%s %d %llu %zu %d\n", MPP_FINDINGS_TEXT_MAGIC, l->level,
                     (unsigned long long)l->dropped, max, l->n);
    put(&o, line, (size_t)n);
    for (int i = 0; i < l->n; i++) {
        const mpp_finding_record_t *f = &l->items[i];
        const char *kind = f->kind >= 0 && f->kind < MPP_NFIND ? mpp_finding_kinds[f->kind].name : "?";
        n = snprintf(line, sizeof line, "%s %d %llu %d %d %d %d", kind, f->severity, (unsigned long long)f->count,
                     f->first_rank, f->last_rank, f->nprocs, f->peer);
        put(&o, line, (size_t)n);
        put_escaped(&o, f->src ? f->src : "");
        put_escaped(&o, f->other);
        put_escaped(&o, f->detail ? f->detail : "");
        put(&o, "\n", 1);
    }
    put(&o, "", 1);
    if (o.failed) {
        free(o.buf);
        return -1;
    }
    *text = o.buf;
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
}

/* One string of a line at *p (after its space): allocated, NULL for "-";
 * -1 when malformed. */
static int take_escaped(const char **p, char **s)
{
    *s = NULL;
    const char *c = *p;
    if (*c++ != ' ')
        return -1;
    if (*c == '-' && (c[1] == ' ' || c[1] == '\n' || !c[1])) {
        *p = c + 1;
        return 0;
    }
    if (*c++ != '=')
        return -1;
    size_t n = strcspn(c, " \n");
    char *out = malloc(n + 1), *to = out;
    if (!out)
        return -1;
    for (const char *end = c + n; c < end; c++) {
        if (*c != '%') {
            *to++ = *c;
            continue;
        }
        int hi = end - c > 2 ? hex_digit(c[1]) : -1, lo = hi >= 0 ? hex_digit(c[2]) : -1;
        if (lo < 0 || (hi << 4 | lo) == 0) {
            free(out);
            return -1;
        }
        *to++ = (char)(hi << 4 | lo);
        c += 2;
    }
    *to = '\0';
    *s = out;
    *p = c;
    return 0;
}

int mpp_finding_list_from_text(mpp_finding_list_t *l, size_t *max, const char *text)
{
    int level = 0, n = 0, used = 0;
    unsigned long long dropped = 0;
    size_t m = 0;
    if (strncmp(text, MPP_FINDINGS_TEXT_MAGIC " ", sizeof MPP_FINDINGS_TEXT_MAGIC) != 0 ||
        sscanf(text + sizeof MPP_FINDINGS_TEXT_MAGIC, "%d %llu %zu %d%n", &level, &dropped, &m, &n, &used) != 4 ||
        n < 0)
        return -1;
    const char *p = text + sizeof MPP_FINDINGS_TEXT_MAGIC + used;
    l->level = level;
    l->dropped += dropped;
    if (max)
        *max = m;
    for (int i = 0; i < n; i++) {
        if (*p++ != '\n')
            return -1;
        char kind[64];
        int len = 0;
        mpp_finding_record_t f = {0};
        unsigned long long count = 0;
        if (sscanf(p, "%63s %d %llu %d %d %d %d%n", kind, &f.severity, &count, &f.first_rank, &f.last_rank, &f.nprocs,
                   &f.peer, &len) != 7)
            return -1;
        p += len;
        f.count = count;
        f.kind = mpp_finding_kind_of(kind);
        int rc = take_escaped(&p, &f.src) || !f.src || take_escaped(&p, &f.other) || take_escaped(&p, &f.detail) ||
                 !f.detail;
        if (!rc && f.kind < 0)
            l->dropped += f.count;
        else if (!rc)
            rc = mpp_finding_list_add(l, &f);
        record_free(&f);
        if (rc)
            return -1;
    }
    return *p == '\n' && !p[1] ? 0 : -1;
}

/* ---- merge */

/* kind, SRC key and other side as one string: a finding's identity */
static char *identity(const mpp_finding_record_t *f)
{
    size_t a = strlen(f->src), b = f->other ? strlen(f->other) : 0;
    char *key = malloc(a + b + 16);
    if (key) {
        int n = snprintf(key, 16, "%d%c%c", f->kind, '\x1d', f->other ? 'o' : '-');
        memcpy(key + n, f->src, a);
        key[n + a] = '\x1d';
        if (f->other)
            memcpy(key + n + a + 1, f->other, b);
        key[n + a + 1 + b] = '\0';
    }
    return key;
}

static int index_list(mpp_strmap_t *m, const mpp_finding_list_t *l)
{
    for (int i = 0; i < l->n; i++) {
        char *key = identity(&l->items[i]);
        int inserted;
        uintptr_t *slot = key ? mpp_strmap_put(m, key, (uintptr_t)i, &inserted) : NULL;
        free(key);
        if (!slot)
            return -1;
    }
    return 0;
}

static int replace(char **s, const char *with)
{
    char *copy = strdup(with ? with : "");
    if (!copy)
        return -1;
    free(*s);
    *s = copy;
    return 0;
}

static int merge_one(mpp_finding_record_t *into, const mpp_finding_record_t *f)
{
    into->count += f->count;
    into->nprocs += f->nprocs;
    if (f->last_rank > into->last_rank)
        into->last_rank = f->last_rank;
    if (f->severity > into->severity)
        into->severity = f->severity;
    if (f->first_rank < into->first_rank) { /* its first details are the lower rank's */
        into->first_rank = f->first_rank;
        into->peer = f->peer;
        return replace(&into->detail, f->detail);
    }
    return 0;
}

int mpp_finding_list_merge(mpp_finding_list_t *into, const mpp_finding_list_t *from, size_t max)
{
    mpp_strmap_t m;
    mpp_strmap_init(&m);
    int rc = index_list(&m, into);
    into->dropped += from->dropped;
    if (into->level < 0)
        into->level = from->level;
    for (int i = 0; !rc && i < from->n; i++) {
        const mpp_finding_record_t *f = &from->items[i];
        char *key = identity(f);
        int inserted = 0;
        uintptr_t *slot = key ? mpp_strmap_put(&m, key, (uintptr_t)into->n, &inserted) : NULL;
        free(key);
        if (!slot)
            rc = -1;
        else if (!inserted)
            rc = merge_one(&into->items[*slot], f);
        else if ((size_t)into->n >= max)
            into->dropped += f->count; /* (its key stays in the map: later copies of it are dropped too) */
        else
            rc = mpp_finding_list_add(into, f);
    }
    mpp_strmap_free(&m);
    return rc;
}

/* ---- order and counts */

static int in_order(const void *a, const void *b)
{
    const mpp_finding_record_t *x = a, *y = b;
    if (x->severity != y->severity)
        return y->severity - x->severity;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    if (x->first_rank != y->first_rank)
        return x->first_rank < y->first_rank ? -1 : 1;
    int c = strcmp(x->src, y->src);
    if (c)
        return c;
    return strcmp(x->other ? x->other : "", y->other ? y->other : "");
}

void mpp_finding_list_sort(mpp_finding_list_t *l)
{
    if (l->n > 1)
        qsort(l->items, (size_t)l->n, sizeof *l->items, in_order);
}

void mpp_finding_list_counts(const mpp_finding_list_t *l, uint64_t *errors, uint64_t *warnings)
{
    *errors = *warnings = 0;
    for (int i = 0; i < l->n; i++)
        *(l->items[i].severity == MPP_FINDING_ERROR ? errors : warnings) += l->items[i].count;
}

const char *mpp_check_level_text(int level)
{
    switch (level < 0 ? -1 : level & MPP_CHECK_LEVEL) {
    case MPP_CHECK_OFF:
        return "off";
    case MPP_CHECK_BASIC:
        return level & MPP_CHECK_CHECKSUM ? "basic,checksum" : "basic";
    case MPP_CHECK_FULL:
        return level & MPP_CHECK_CHECKSUM ? "full,checksum" : "full";
    default:
        return "unknown";
    }
}
