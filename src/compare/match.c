/* Intervals and SRC points of two protocols matched (match.h): keys
 * without source lines, so that an edit above the code moves it and
 * leaves it matched.  Each list is sorted by its key (a sort and a merge:
 * a protocol may hold thousands of SRC points); within one key, items of
 * equal positions pair first, the rest in the order of their lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/match.h"

typedef struct {
    char *key;   /* what matches: never a line */
    char *exact; /* the position: equal ones pair first */
    char *order; /* the lines, zero-padded: the rest pair in this order */
    size_t index;
    int taken;
} item_t;

static int by_key(const void *x, const void *y)
{
    const item_t *a = x, *b = y;
    int k = strcmp(a->key, b->key);
    if (!k)
        k = strcmp(a->order, b->order);
    return k ? k : (a->index > b->index) - (a->index < b->index);
}

static void free_items(item_t *items, size_t n)
{
    for (size_t i = 0; items && i < n; i++)
        free(items[i].key), free(items[i].exact), free(items[i].order);
    free(items);
}

/* Pair the items of one key: equal positions first, then in order. */
static void pair_group(item_t *a, size_t na, item_t *b, size_t nb, size_t *match)
{
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (!b[j].taken && !strcmp(a[i].exact, b[j].exact)) {
                match[a[i].index] = b[j].index, a[i].taken = b[j].taken = 1;
                break;
            }
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        if (a[i].taken)
            continue;
        while (j < nb && b[j].taken)
            j++;
        if (j == nb)
            break;
        match[a[i].index] = b[j].index, a[i].taken = b[j].taken = 1;
    }
}

/* Both lists sorted, merged key by key: match[i] for each of a's items. */
static void pair_sorted(item_t *a, size_t na, item_t *b, size_t nb, size_t *match)
{
    for (size_t i = 0; i < na; i++)
        match[i] = SIZE_MAX;
    qsort(a, na, sizeof *a, by_key);
    qsort(b, nb, sizeof *b, by_key);
    for (size_t i = 0, j = 0; i < na && j < nb;) {
        int k = strcmp(a[i].key, b[j].key);
        if (k < 0) {
            i++;
        } else if (k > 0) {
            j++;
        } else {
            size_t ei = i, ej = j;
            while (ei < na && !strcmp(a[ei].key, a[i].key))
                ei++;
            while (ej < nb && !strcmp(b[ej].key, b[j].key))
                ej++;
            pair_group(a + i, ei - i, b + j, ej - j, match);
            i = ei, j = ej;
        }
    }
}

/* ---- SRC points ---- */

/* A frame in the key: its function, or its file (a library without
 * symbols), or its text. */
static const char *frame_name(json_t *frame)
{
    const char *fn = json_string_value(json_object_get(frame, "function"));
    const char *file = json_string_value(json_object_get(frame, "file"));
    const char *text = json_string_value(json_object_get(frame, "text"));
    return fn && *fn ? fn : file && *file ? file : text ? text : "?";
}

static int src_item(json_t *s, size_t index, item_t *out)
{
    char *key = NULL, *exact = NULL, *order = NULL;
    size_t nk = 0, ne = 0, no = 0;
    FILE *fk = open_memstream(&key, &nk), *fe = open_memstream(&exact, &ne), *fo = open_memstream(&order, &no);
    if (fk && fe && fo) {
        const char *fn = json_string_value(json_object_get(s, "function"));
        fprintf(fk, "%s", fn ? fn : "?");
        json_t *frame;
        size_t i;
        json_array_foreach(json_object_get(s, "stack"), i, frame)
        {
            const char *file = json_string_value(json_object_get(frame, "file"));
            json_int_t line = json_integer_value(json_object_get(frame, "line"));
            fprintf(fk, "\x1f%s", frame_name(frame));
            fprintf(fe, "\x1f%s:%lld", file ? file : "?", (long long)line);
            fprintf(fo, "%012lld\x1f", (long long)line);
        }
    }
    int ok = fk && fe && fo;
    if (fk)
        fclose(fk);
    if (fe)
        fclose(fe);
    if (fo)
        fclose(fo);
    *out = (item_t){key, exact, order, index, 0};
    return ok && key && exact && order ? 0 : -1;
}

static int items_of(json_t *list, int (*make)(void *, json_t *, size_t, item_t *), void *ctx, item_t **out)
{
    size_t n = json_array_size(list);
    item_t *items = calloc(n + 1, sizeof *items);
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = make(ctx, json_array_get(list, i), i, &items[i]);
    if (rc != 0) {
        free_items(items, n);
        items = NULL;
    }
    *out = items;
    return rc;
}

static int make_src(void *ctx, json_t *s, size_t index, item_t *out)
{
    (void)ctx;
    return src_item(s, index, out);
}

static int match_src(json_t *sa, json_t *sb, size_t *match)
{
    item_t *a = NULL, *b = NULL;
    int rc = items_of(sa, make_src, NULL, &a) == 0 && items_of(sb, make_src, NULL, &b) == 0 ? 0 : -1;
    if (rc == 0)
        pair_sorted(a, json_array_size(sa), b, json_array_size(sb), match);
    free_items(a, json_array_size(sa)), free_items(b, json_array_size(sb));
    return rc;
}

/* ---- intervals ---- */

/* A protocol's tree: each interval's parent (index, -1 for the root, -2
 * not found), its order among the earlier siblings of its name, and its
 * key once made.  Sorted lookups: a protocol may hold many intervals. */
typedef struct {
    json_t *intervals;
    size_t n;
    long *parent;
    size_t *ordinal;
    char **keys;
} tree_t;

typedef struct {
    json_int_t parent; /* the parent's id, -1 for none */
    const char *name;
    size_t index;
} sibling_t;

static int by_sibling(const void *x, const void *y)
{
    const sibling_t *a = x, *b = y;
    int k = a->parent != b->parent ? (a->parent > b->parent) - (a->parent < b->parent) : strcmp(a->name, b->name);
    return k ? k : (a->index > b->index) - (a->index < b->index);
}

static int by_sibling_group(const sibling_t *a, const sibling_t *b)
{
    return a->parent != b->parent || strcmp(a->name, b->name);
}

static int by_id(const void *x, const void *y)
{
    const sibling_t *a = x, *b = y; /* parent holds the id here */
    return (a->parent > b->parent) - (a->parent < b->parent);
}

static json_int_t parent_id(json_t *in)
{
    json_t *p = json_object_get(in, "parent");
    return json_is_integer(p) ? json_integer_value(p) : -1;
}

static const char *name_of(json_t *in)
{
    const char *name = json_string_value(json_object_get(in, "name"));
    return name ? name : "?";
}

static int tree_make(json_t *intervals, tree_t *t)
{
    *t = (tree_t){intervals, json_array_size(intervals), NULL, NULL, NULL};
    t->parent = calloc(t->n + 1, sizeof *t->parent), t->ordinal = calloc(t->n + 1, sizeof *t->ordinal);
    t->keys = calloc(t->n + 1, sizeof *t->keys);
    sibling_t *ids = calloc(t->n + 1, sizeof *ids), *sib = calloc(t->n + 1, sizeof *sib);
    int rc = t->parent && t->ordinal && t->keys && ids && sib ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < t->n; i++) {
        json_t *in = json_array_get(intervals, i);
        ids[i] = (sibling_t){json_integer_value(json_object_get(in, "id")), "", i};
        sib[i] = (sibling_t){parent_id(in), name_of(in), i};
    }
    if (rc == 0) {
        qsort(ids, t->n, sizeof *ids, by_id);
        qsort(sib, t->n, sizeof *sib, by_sibling);
    }
    for (size_t i = 0; rc == 0 && i < t->n; i++) {
        sibling_t want = {sib[i].parent, "", 0};
        sibling_t *up = sib[i].parent < 0 ? NULL : bsearch(&want, ids, t->n, sizeof *ids, by_id);
        t->parent[sib[i].index] = sib[i].parent < 0 ? -1 : up ? (long)up->index : -2;
        t->ordinal[sib[i].index] =
            i && !by_sibling_group(&sib[i - 1], &sib[i]) ? t->ordinal[sib[i - 1].index] + 1 : 0;
    }
    free(ids), free(sib);
    return rc;
}

static void tree_free(tree_t *t)
{
    for (size_t i = 0; t->keys && i < t->n; i++)
        free(t->keys[i]);
    free(t->parent), free(t->ordinal), free(t->keys);
}

/* An interval's key: its parent's key, its name and its order among the
 * earlier siblings of that name; the root (no parent) is the whole
 * program whatever its name. */
static const char *interval_key(tree_t *t, size_t i, size_t depth)
{
    if (t->keys[i])
        return t->keys[i];
    if (t->parent[i] == -1)
        return t->keys[i] = strdup("/");
    if (t->parent[i] < 0 || depth > t->n) /* a parent not found, or a cycle */
        return t->keys[i] = strdup("?");
    const char *above = interval_key(t, (size_t)t->parent[i], depth + 1);
    if (!above ||
        asprintf(&t->keys[i], "%s\x1d%s\x1f%zu", above, name_of(json_array_get(t->intervals, i)), t->ordinal[i]) < 0)
        t->keys[i] = NULL;
    return t->keys[i];
}

static int make_interval(void *ctx, json_t *in, size_t index, item_t *out)
{
    (void)in;
    const char *key = interval_key(ctx, index, 0);
    *out = (item_t){key ? strdup(key) : NULL, strdup(""), strdup(""), index, 0};
    return out->key && out->exact && out->order ? 0 : -1;
}

int mpp_match(json_t *a, json_t *b, mpp_match_t *m)
{
    json_t *ia = json_object_get(a, "intervals"), *ib = json_object_get(b, "intervals");
    memset(m, 0, sizeof *m);
    m->na = json_array_size(ia);
    m->interval = calloc(m->na + 1, sizeof *m->interval);
    m->nsrc = calloc(m->na + 1, sizeof *m->nsrc);
    m->src = calloc(m->na + 1, sizeof *m->src);
    item_t *xa = NULL, *xb = NULL;
    tree_t ta, tb;
    int rc = tree_make(ia, &ta) | tree_make(ib, &tb);
    if (rc == 0 && m->interval && m->nsrc && m->src && items_of(ia, make_interval, &ta, &xa) == 0 &&
        items_of(ib, make_interval, &tb, &xb) == 0)
        pair_sorted(xa, m->na, xb, json_array_size(ib), m->interval);
    else
        rc = -1;
    free_items(xa, m->na), free_items(xb, json_array_size(ib));
    tree_free(&ta), tree_free(&tb);
    for (size_t i = 0; rc == 0 && i < m->na; i++) {
        json_t *sa = json_object_get(json_array_get(ia, i), "src");
        m->nsrc[i] = json_array_size(sa);
        if (m->interval[i] == SIZE_MAX)
            continue;
        json_t *sb = json_object_get(json_array_get(ib, m->interval[i]), "src");
        m->src[i] = calloc(m->nsrc[i] + 1, sizeof **m->src);
        rc = m->src[i] ? match_src(sa, sb, m->src[i]) : -1;
    }
    if (rc != 0)
        mpp_match_free(m);
    return rc;
}

void mpp_match_free(mpp_match_t *m)
{
    for (size_t i = 0; m->src && i < m->na; i++)
        free(m->src[i]);
    free(m->src), free(m->nsrc), free(m->interval);
    memset(m, 0, sizeof *m);
}

static json_t *index_json(size_t i) { return i == SIZE_MAX ? json_null() : json_integer((json_int_t)i); }

json_t *mpp_match_json(const mpp_match_t *m)
{
    json_t *intervals = json_array(), *src = json_array();
    for (size_t i = 0; intervals && src && i < m->na; i++) {
        json_array_append_new(intervals, index_json(m->interval[i]));
        json_t *one = m->src[i] ? json_array() : json_null();
        for (size_t k = 0; m->src[i] && one && k < m->nsrc[i]; k++)
            json_array_append_new(one, index_json(m->src[i][k]));
        json_array_append_new(src, one ? one : json_null());
    }
    return json_pack("{s:o, s:o}", "intervals", intervals ? intervals : json_null(), "src", src ? src : json_null());
}

/* ---- what moved ---- */

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

char *mpp_match_interval_moved(json_t *ia, json_t *ib)
{
    json_int_t la = json_integer_value(json_object_get(ia, "line"));
    json_int_t lb = json_integer_value(json_object_get(ib, "line"));
    char *out = NULL;
    if (la == lb && !strcmp(str(ia, "file"), str(ib, "file")))
        return strdup("");
    if (asprintf(&out, "%s:%lld -> %s:%lld", str(ia, "file"), (long long)la, str(ib, "file"), (long long)lb) < 0)
        return NULL;
    return out;
}

char *mpp_match_src_moved(json_t *sa, json_t *sb)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f)
        return NULL;
    json_t *stack_a = json_object_get(sa, "stack"), *stack_b = json_object_get(sb, "stack"), *fa;
    size_t i, said = 0;
    json_array_foreach(stack_a, i, fa)
    {
        json_t *fb = json_array_get(stack_b, i);
        json_int_t la = json_integer_value(json_object_get(fa, "line"));
        json_int_t lb = json_integer_value(json_object_get(fb, "line"));
        if (!fb || (la == lb && !strcmp(str(fa, "file"), str(fb, "file"))))
            continue;
        fprintf(f, "%s#%zu %s:%lld -> %s:%lld (%s)", said++ ? "; " : "", i, str(fa, "file"), (long long)la,
                str(fb, "file"), (long long)lb, frame_name(fa));
    }
    fclose(f);
    return out;
}
