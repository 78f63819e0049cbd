/* The communication matrix reduced at MPI_Finalize (matrix_mpi.h), in
 * two levels so that no process but rank 0 holds more than its node's
 * rows and no dense P x P (or nodes x nodes) array is ever made:
 *  1. nodes: processes with the same host name (as the protocol's Nodes),
 *     by a split of comm; node i is the one whose lowest rank is the i-th
 *     lowest of the nodes' lowest ranks (node 0 holds rank 0);
 *  2. every process sends its rows (one per peer it talked to) to its
 *     node's lowest rank, the leader;
 *  3. the leaders learn every rank's node (one reduction of P integers
 *     among the leaders), sum their node's rows per (node, peer's node),
 *     and send those and the process rows rank 0 keeps (all of them when
 *     P <= limit; else the selected processes' and the node's heaviest
 *     `limit`) to rank 0, which keeps the `limit` heaviest of the latter.
 * Messages are point-to-point on communicators of its own (no collective
 * algorithm of the MPI library, as reduce/ptp_collectives.h says why), a
 * count and then the rows as doubles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/hosts.h"
#include "reduce/matrix_build.h"
#include "reduce/matrix_mpi.h"
#include "reduce/ptp_collectives.h"
#include "util/warnings.h"

#define TAG_COUNT 0x4d31
#define TAG_ROWS 0x4d32
#define TAG_NAME 0x4d33
#define ROW 5 /* doubles per pair: from, to, messages, bytes, seconds */

static void pack(const mpp_pair_t *p, int n, double *out)
{
    for (int i = 0; i < n; i++) {
        double *r = out + (size_t)i * ROW;
        r[0] = p[i].from, r[1] = p[i].to, r[2] = p[i].messages, r[3] = p[i].bytes, r[4] = p[i].time;
    }
}

static void unpack(const double *in, int n, mpp_pair_t *p)
{
    for (int i = 0; i < n; i++) {
        const double *r = in + (size_t)i * ROW;
        p[i] = (mpp_pair_t){(int32_t)r[0], (int32_t)r[1], r[2], r[3], r[4]};
    }
}

/* n pairs to `to`: the count (-1: memory ran out here, which the
 * receiver passes on), then the rows in chunks of CHUNK pairs, which the
 * receiver takes into a buffer of its own that cannot fail. */
#define CHUNK 256
static void send_pairs(const mpp_pair_t *p, int n, int to, MPI_Comm comm)
{
    static double rows[CHUNK * ROW];
    PMPI_Send(&n, 1, MPI_INT, to, TAG_COUNT, comm);
    for (int at = 0; at < n; at += CHUNK) {
        int k = n - at < CHUNK ? n - at : CHUNK;
        pack(p + at, k, rows);
        PMPI_Send(rows, k * ROW, MPI_DOUBLE, to, TAG_ROWS, comm);
    }
}

/* Pairs from `from` appended to *all (*n of them, room *cap): 0, or -1
 * when memory ran out here or there (every message taken all the same). */
static int recv_pairs(int from, MPI_Comm comm, mpp_pair_t **all, int *n, size_t *cap)
{
    static double rows[CHUNK * ROW];
    int k;
    PMPI_Recv(&k, 1, MPI_INT, from, TAG_COUNT, comm, MPI_STATUS_IGNORE);
    int rc = k < 0 || mpp_grow((void **)all, cap, (size_t)*n + (size_t)(k > 0 ? k : 0), sizeof **all, 64) != 0;
    for (int at = 0; at < k; at += CHUNK) {
        int c = k - at < CHUNK ? k - at : CHUNK;
        PMPI_Recv(rows, c * ROW, MPI_DOUBLE, from, TAG_ROWS, comm, MPI_STATUS_IGNORE);
        if (!rc)
            unpack(rows, c, *all + *n + at);
    }
    if (!rc && k > 0)
        *n += k;
    return rc ? -1 : 0;
}

typedef struct {
    MPI_Comm node_comm, leaders; /* leaders: MPI_COMM_NULL on the others */
    int rank, size, node_rank, node_size, nodes, node;
    int one_node; /* node_comm is comm, and no leaders' communicator (rank 0 the one leader): none split */
} where_t;

/* All on one node (the least colour and the least negated one tell, as
 * the calibration's nodes), no communicator is split: an MPI collective
 * of its own, and test_init_comms counts the profiler's. */
static void find_nodes(MPI_Comm comm, const char *hostname, where_t *w)
{
    PMPI_Comm_rank(comm, &w->rank);
    PMPI_Comm_size(comm, &w->size);
    int colour = mpp_host_colour(hostname);
    w->one_node = mpp_one_host(comm, colour);
    if (w->one_node) {
        w->node_comm = comm;
        w->leaders = MPI_COMM_NULL; /* (not MPI_COMM_SELF: invalid under sessions) */
        w->node_rank = w->rank, w->node_size = w->size, w->node = 0, w->nodes = 1;
        return;
    }
    PMPI_Comm_split(comm, colour, w->rank, &w->node_comm);
    PMPI_Comm_rank(w->node_comm, &w->node_rank);
    PMPI_Comm_size(w->node_comm, &w->node_size);
    PMPI_Comm_split(comm, w->node_rank == 0 ? 0 : MPI_UNDEFINED, w->rank, &w->leaders);
    int both[2] = {0, 0};
    if (w->leaders != MPI_COMM_NULL) {
        PMPI_Comm_rank(w->leaders, &both[0]);
        PMPI_Comm_size(w->leaders, &both[1]);
    }
    mpp_ptp_bcast(both, 2, MPI_INT, 0, w->node_comm);
    w->node = both[0], w->nodes = both[1];
}

/* The world ranks of the node's processes (by the node's group: no
 * communication); NULL when memory ran out. */
static int *node_members(MPI_Comm comm, const where_t *w)
{
    int *ranks = malloc(2 * (size_t)w->node_size * sizeof *ranks);
    MPI_Group node_group, all;
    if (!ranks)
        return NULL;
    PMPI_Comm_group(w->node_comm, &node_group);
    PMPI_Comm_group(comm, &all);
    for (int i = 0; i < w->node_size; i++)
        ranks[i] = i;
    PMPI_Group_translate_ranks(node_group, w->node_size, ranks, all, ranks + w->node_size);
    PMPI_Group_free(&node_group);
    PMPI_Group_free(&all);
    memmove(ranks, ranks + w->node_size, (size_t)w->node_size * sizeof *ranks);
    return ranks;
}

/* On a leader: every rank's node, by a reduction among the leaders (NULL
 * on all of them when memory ran out on one). */
static int *nodes_of_ranks(const where_t *w, const int *members)
{
    int *mine = malloc((size_t)w->size * sizeof *mine), *all = malloc((size_t)w->size * sizeof *all);
    int ok = mine && all && members, every = 0;
    for (int r = 0; ok && r < w->size; r++)
        mine[r] = -1;
    for (int i = 0; ok && i < w->node_size; i++)
        mine[members[i]] = w->node;
    if (w->one_node) { /* the one leader knows them all */
        every = ok;
        if (every)
            memcpy(all, mine, (size_t)w->size * sizeof *all);
    } else {
        mpp_ptp_allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, w->leaders);
        if (every)
            mpp_ptp_allreduce(mine, all, w->size, MPI_INT, MPI_MAX, w->leaders);
    }
    free(mine);
    if (!every) {
        free(all);
        return NULL;
    }
    return all;
}

/* On rank 0: the other leaders' node rows, process rows and host names
 * added to m's (when `bad`, taken and dropped); -1 when one of them ran
 * out of memory (or rank 0 did). */
static int collect(const where_t *w, mpp_matrix_t *m, size_t node_cap, size_t pair_cap, int bad)
{
    for (int l = 1; l < w->nodes; l++) {
        bad |= recv_pairs(l, w->leaders, &m->node_pairs, &m->nnode_pairs, &node_cap) != 0;
        bad |= recv_pairs(l, w->leaders, &m->pairs, &m->npairs, &pair_cap) != 0;
        char name[256];
        PMPI_Recv(name, sizeof name, MPI_CHAR, l, TAG_NAME, w->leaders, MPI_STATUS_IGNORE);
        name[sizeof name - 1] = '\0';
        if (m->node_names && !(m->node_names[l] = strdup(name)))
            bad = 1;
    }
    return bad || !m->node_names ? -1 : 0;
}

/* A leader's part: its node's rows (`mine` first, taken over) gathered,
 * summed by node pair and sent on with the rows kept; on rank 0 the matrix
 * (NULL: memory ran out on the way, warned), NULL on the other leaders. */
static mpp_matrix_t *leader_part(MPI_Comm comm, const where_t *w, const char *hostname, mpp_pair_t *mine, int n,
                                 int limit, const mpp_config_t *cfg)
{
    int *members = node_members(comm, w);
    mpp_pair_t *rows = mine;
    size_t cap = n > 0 ? (size_t)n : 0;
    int nrows = n > 0 ? n : 0, bad = n < 0;
    for (int r = 1; r < w->node_size; r++)
        bad |= recv_pairs(r, w->node_comm, &rows, &nrows, &cap) != 0;
    int *node_of = nodes_of_ranks(w, members);
    free(members);
    int nn = 0, complete = w->size <= limit;
    mpp_pair_t *node_rows = !bad && node_of ? mpp_pairs_by_node(rows, nrows, node_of, &nn) : NULL;
    bad |= !node_of || nn < 0;
    nrows = mpp_pairs_merge(rows, nrows);
    unsigned char *chosen = complete ? NULL : calloc((size_t)w->size + 1, 1);
    if (chosen) /* the node's share of what rank 0 keeps */
        mpp_config_select_ranks(cfg, w->size, chosen);
    bad |= !complete && !chosen;
    int keep = complete || bad ? nrows : mpp_matrix_kept_rows(rows, nrows, limit, chosen);
    free(chosen);
    if (w->node != 0) {
        char name[256];
        snprintf(name, sizeof name, "%s", hostname);
        send_pairs(node_rows, bad ? -1 : nn, 0, w->leaders);
        send_pairs(rows, bad ? -1 : keep, 0, w->leaders);
        PMPI_Send(name, sizeof name, MPI_CHAR, 0, TAG_NAME, w->leaders);
        free(node_of), free(node_rows), free(rows);
        return NULL;
    }
    mpp_matrix_t *m = calloc(1, sizeof *m);
    static mpp_matrix_t sink; /* stands in for m when memory ran out: the leaders still send */
    if (!m)
        m = &sink, bad = 1;
    *m = (mpp_matrix_t){.nprocs = w->size,
                        .nnodes = w->nodes,
                        .node_of = node_of,
                        .node_pairs = node_rows,
                        .nnode_pairs = bad ? 0 : nn,
                        .pairs = rows,
                        .npairs = bad ? 0 : keep,
                        .limit = limit,
                        .complete = complete};
    m->node_names = calloc((size_t)w->nodes, sizeof *m->node_names);
    if (m->node_names && !(m->node_names[0] = strdup(hostname)))
        bad = 1;
    bad = collect(w, m, (size_t)m->nnode_pairs, cap, bad) != 0;
    m->nnode_pairs = mpp_pairs_merge(m->node_pairs, m->nnode_pairs);
    if (!bad && !complete)
        bad = mpp_matrix_keep_pairs(m, cfg) != 0;
    m->npairs = mpp_pairs_merge(m->pairs, m->npairs);
    mpp_matrix_totals(m);
    if (bad) {
        mpp_warn("out of memory at MPI_Finalize, or a process that could not count at MPI_Init: the "
                 "communication matrix is left out of the protocol");
        if (m == &sink) { /* its parts, as mpp_matrix_free frees a matrix's */
            for (int i = 0; sink.node_names && i < sink.nnodes; i++)
                free(sink.node_names[i]);
            free(sink.node_names), free(sink.node_of), free(sink.node_pairs), free(sink.pairs);
        } else {
            mpp_matrix_free(m);
        }
        return NULL;
    }
    return m == &sink ? NULL : m;
}

mpp_matrix_t *mpp_matrix_reduce(MPI_Comm comm, const char *hostname, const mpp_peer_table_t *t, uint64_t lost,
                                double (*to_seconds)(uint64_t), int limit, const mpp_config_t *cfg)
{
    where_t w;
    find_nodes(comm, hostname, &w);
    int n = -1; /* -1: this process's pairs are missing */
    mpp_pair_t *mine = t ? mpp_peer_table_pairs(t, w.rank, to_seconds, &n) : NULL;
    if (t && t->count && !mine)
        n = -1;
    mpp_matrix_t *m = NULL;
    if (w.node_rank != 0) {
        send_pairs(mine, n, 0, w.node_comm);
        free(mine);
    } else
        m = leader_part(comm, &w, hostname, mine, n, limit, cfg);
    double here = (double)(lost + (t ? t->dropped : 0)), all = 0.0;
    mpp_ptp_reduce(&here, &all, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    if (m)
        m->dropped_calls = all;
    if (!w.one_node) {
        PMPI_Comm_free(&w.node_comm);
        if (w.leaders != MPI_COMM_NULL)
            PMPI_Comm_free(&w.leaders);
    }
    return m;
}
