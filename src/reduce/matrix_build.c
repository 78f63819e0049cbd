/* The communication matrix put together from process pairs (matrix_build.h). */
#include <stdlib.h>
#include <string.h>

#include "accumulate/matrix.h"
#include "reduce/matrix_build.h"
#include "util/strmap.h"

int mpp_matrix_kept_rows(mpp_pair_t *rows, int n, int limit, const unsigned char *chosen)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (chosen && chosen[rows[i].from]) {
            mpp_pair_t t = rows[k];
            rows[k++] = rows[i], rows[i] = t;
        }
    mpp_pairs_heaviest(rows + k, n - k);
    return k + (n - k < limit ? n - k : limit);
}

int mpp_matrix_keep_pairs(mpp_matrix_t *m, const mpp_config_t *cfg)
{
    unsigned char *chosen = calloc((size_t)m->nprocs + 1, 1);
    if (!chosen)
        return -1;
    mpp_config_select_ranks(cfg, m->nprocs, chosen);
    int selected = 0;
    for (int i = 0; i < m->npairs; i++)
        selected += chosen[m->pairs[i].from];
    m->npairs = mpp_matrix_kept_rows(m->pairs, m->npairs, m->limit, chosen);
    m->heaviest = m->npairs - selected;
    free(chosen);
    return 0;
}

void mpp_matrix_totals(mpp_matrix_t *m)
{
    for (int i = 0; i < m->nnode_pairs; i++) {
        const mpp_pair_t *p = &m->node_pairs[i];
        double *t = p->from == p->to ? m->intra : m->inter;
        t[0] += p->messages, t[1] += p->bytes, t[2] += p->time;
    }
}

/* node_of[r] for every rank and the nodes' names, numbered as matrix_mpi.c
 * numbers them (by their lowest rank); the count, -1 when memory ran out. */
static int number_nodes(int nprocs, const char *const *hosts, int *node_of, char **names)
{
    mpp_strmap_t seen;
    mpp_strmap_init(&seen);
    int nodes = 0;
    for (int r = 0; r < nprocs && nodes >= 0; r++) {
        int inserted;
        uintptr_t *slot = mpp_strmap_put(&seen, hosts[r] ? hosts[r] : "?", (uintptr_t)nodes, &inserted);
        if (!slot || (inserted && !(names[nodes] = strdup(hosts[r] ? hosts[r] : "?")))) {
            nodes = -1;
            break;
        }
        node_of[r] = (int)*slot;
        nodes += inserted;
    }
    mpp_strmap_free(&seen);
    return nodes;
}

mpp_matrix_t *mpp_matrix_build(mpp_pair_t *pairs, int npairs, int nprocs, const char *const *hosts, int limit,
                               const mpp_config_t *cfg)
{
    mpp_matrix_t *m = calloc(1, sizeof *m);
    int *node_of = malloc((size_t)(nprocs > 0 ? nprocs : 1) * sizeof *node_of);
    char **names = calloc((size_t)(nprocs > 0 ? nprocs : 1), sizeof *names);
    int nodes = m && node_of && names ? number_nodes(nprocs, hosts, node_of, names) : -1;
    if (nodes < 0) {
        for (int i = 0; names && i < nprocs; i++)
            free(names[i]);
        free(names), free(node_of), free(pairs), free(m);
        return NULL;
    }
    int nn = 0;
    mpp_pair_t *node_pairs = mpp_pairs_by_node(pairs, npairs, node_of, &nn);
    *m = (mpp_matrix_t){.nprocs = nprocs,
                        .nnodes = nodes,
                        .node_names = names,
                        .node_of = node_of,
                        .node_pairs = node_pairs,
                        .nnode_pairs = nn > 0 ? nn : 0,
                        .pairs = pairs,
                        .npairs = mpp_pairs_merge(pairs, npairs),
                        .limit = limit,
                        .complete = nprocs <= limit};
    int bad = nn < 0 || (!m->complete && mpp_matrix_keep_pairs(m, cfg) != 0);
    m->npairs = mpp_pairs_merge(m->pairs, m->npairs);
    mpp_matrix_totals(m);
    if (bad) {
        mpp_matrix_free(m);
        return NULL;
    }
    return m;
}
