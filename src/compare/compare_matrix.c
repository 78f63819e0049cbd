/* Comparing the communication matrices of two protocols (compare.h,
 * mpp_compare_matrix): their counts, which a deterministic program repeats
 * run after run; the pairs' times are the SRC points' times, compared
 * there with the tolerance. */
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

#define WHERE "communication matrix"

static int ignored(const mpp_compare_options_t *o, const char *name)
{
    for (int i = 0; i < o->nignore; i++)
        if (!strcmp(o->ignore[i], name))
            return 1;
    return 0;
}

/* Counts `what` ("node pair 0 -> 1") `name` ("messages") of A and B. */
static void count_diff(mpp_compare_t *c, const char *what, const char *name, json_t *x, json_t *y)
{
    if (json_equal(x, y))
        return;
    char message[128], path[160];
    snprintf(path, sizeof path, "%s %s", what, name);
    snprintf(message, sizeof message, "%lld in A, %lld in B", (long long)json_integer_value(x),
             (long long)json_integer_value(y));
    mpp_compare_add_diff(c, MPP_DIFF_STRUCTURE, WHERE, NULL, path, x, y, message);
}

/* Entry i of a pairs object (columns): "3 -> 5". */
static void pair_label(json_t *pairs, size_t i, char *out, size_t size)
{
    snprintf(out, size, "%lld -> %lld",
             (long long)json_integer_value(json_array_get(json_object_get(pairs, "from"), i)),
             (long long)json_integer_value(json_array_get(json_object_get(pairs, "to"), i)));
}

static size_t find_pair(json_t *pairs, const char *label)
{
    char other[64];
    for (size_t j = 0; j < json_array_size(json_object_get(pairs, "from")); j++) {
        pair_label(pairs, j, other, sizeof other);
        if (!strcmp(other, label))
            return j;
    }
    return (size_t)-1;
}

/* The pairs of `what` ("node pair", "process pair"): messages and bytes
 * of each pair in both; a pair in one only is a difference when both give
 * every pair (`whole`). */
static void compare_pairs(mpp_compare_t *c, const char *what, json_t *a, json_t *b, int whole)
{
    for (int side = 0; side < 2; side++) {
        json_t *x = side ? b : a, *y = side ? a : b;
        for (size_t i = 0; i < json_array_size(json_object_get(x, "from")); i++) {
            char label[96], pair[64];
            pair_label(x, i, pair, sizeof pair);
            snprintf(label, sizeof label, "%s %s", what, pair);
            size_t j = find_pair(y, pair);
            if (j == (size_t)-1) {
                if (whole)
                    mpp_compare_add_diff(c, MPP_DIFF_STRUCTURE, WHERE, NULL, label, side ? NULL : x, side ? x : NULL,
                                         side ? "only in B" : "only in A");
                continue;
            }
            if (side)
                continue; /* compared from A's side */
            static const char *const counts[] = {"messages", "bytes"};
            for (int k = 0; k < 2; k++)
                count_diff(c, label, counts[k], json_array_get(json_object_get(x, counts[k]), i),
                           json_array_get(json_object_get(y, counts[k]), j));
        }
    }
}

void mpp_compare_matrix(json_t *a, json_t *b, const mpp_compare_options_t *o, mpp_compare_t *out)
{
    json_t *ma = json_object_get(a, "matrix"), *mb = json_object_get(b, "matrix");
    if (!json_is_object(ma) || !json_is_object(mb) || ignored(o, "matrix"))
        return;
    if (!json_equal(json_object_get(ma, "processes"), json_object_get(mb, "processes")) ||
        json_array_size(json_object_get(ma, "nodes")) != json_array_size(json_object_get(mb, "nodes"))) {
        mpp_compare_add_diff(out, MPP_DIFF_STRUCTURE, WHERE, NULL, "nodes", ma, mb,
                             "other processes or nodes: the pairs are not compared");
        return;
    }
    static const char *const totals[] = {"within_nodes", "between_nodes"};
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 2; k++) {
            const char *name = k ? "bytes" : "messages";
            count_diff(out, totals[t], name, json_object_get(json_object_get(ma, totals[t]), name),
                       json_object_get(json_object_get(mb, totals[t]), name));
        }
    compare_pairs(out, "node pair", json_object_get(ma, "node_pairs"), json_object_get(mb, "node_pairs"), 1);
    compare_pairs(out, "process pair", json_object_get(ma, "pairs"), json_object_get(mb, "pairs"),
                  json_is_true(json_object_get(ma, "complete")) && json_is_true(json_object_get(mb, "complete")));
}
