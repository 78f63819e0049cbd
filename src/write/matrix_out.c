/* The communication matrix in the text and JSON protocols (matrix_out.h). */
#include <jansson.h>
#include <stdlib.h>

#include "records/matrix.h"
#include "write/matrix_out.h"

#define NA_REASON                                                                                             \
    "n/a (a partial protocol has one process's row only; mpiprof-merge of every process's gives the matrix; " \
    "mpiprof(7), COMMUNICATION MATRIX)"

/* The ranks of node `node`, as ranges ("0-3,8"), wrapped before 150
 * characters with `indent` after each break. */
static void put_ranks(FILE *out, const mpp_matrix_t *m, int node, const char *indent)
{
    int col = 0, first = 1;
    for (int r = 0; r < m->nprocs; r++) {
        if (m->node_of[r] != node)
            continue;
        int end = r;
        while (end + 1 < m->nprocs && m->node_of[end + 1] == node)
            end++;
        char piece[32];
        int n = end > r ? snprintf(piece, sizeof piece, "%d-%d", r, end) : snprintf(piece, sizeof piece, "%d", r);
        if (col + n > 110) {
            fprintf(out, ",\n%s", indent);
            col = 0;
        } else if (!first) {
            fputc(',', out);
        }
        fputs(piece, out);
        col += n + 1, first = 0;
        r = end;
    }
}

static void put_pairs(FILE *out, const char *what, const mpp_pair_t *p, int n)
{
    fprintf(out, "--- By %s pair (from, to: messages and bytes sent, time in calls naming the peer) ---\n", what);
    if (!n)
        fprintf(out, "none\n");
    for (int i = 0; i < n; i++)
        fprintf(out, "%6d -> %-6d messages=%.0f  bytes=%.0f  time=%.6f\n", p[i].from, p[i].to, p[i].messages,
                p[i].bytes, p[i].time);
}

void mpp_write_matrix_text(FILE *out, const mpp_report_t *r)
{
    const mpp_matrix_t *m = r->reduced->matrix;
    fprintf(out, "\n==== Communication matrix (point-to-point calls; collectives are not pairs) ====\n");
    if (!m) {
        if (r->matrix_na)
            fprintf(out, "n/a (%s)\n", r->matrix_na);
        else
            fprintf(out, "%s\n", NA_REASON);
        return;
    }
    fprintf(out, "processes=%d  nodes=%d  ", m->nprocs, m->nnodes);
    if (m->complete)
        fprintf(out, "process pairs: all (%d processes, MPIPROF_MATRIX_RANKS=%d)\n", m->nprocs, m->limit);
    else
        fprintf(out,
                "process pairs: those of the processes MPIPROF_RANKS selects and the %d heaviest "
                "(%d processes > MPIPROF_MATRIX_RANKS=%d)\n",
                m->heaviest, m->nprocs, m->limit);
    for (int k = 0; k < m->nnodes; k++) {
        fprintf(out, "node %d  %s  ranks ", k, m->node_names[k] ? m->node_names[k] : "?");
        put_ranks(out, m, k, "    ");
        fputc('\n', out);
    }
    fprintf(out, "within nodes   messages=%.0f  bytes=%.0f  time=%.6f\n", m->intra[0], m->intra[1], m->intra[2]);
    fprintf(out, "between nodes  messages=%.0f  bytes=%.0f  time=%.6f\n", m->inter[0], m->inter[1], m->inter[2]);
    if (m->dropped_calls > 0)
        fprintf(out, "not attributed: %.0f calls (on communicators whose ranks were not known, or out of memory)\n",
                m->dropped_calls);
    put_pairs(out, "node", m->node_pairs, m->nnode_pairs);
    put_pairs(out, "process", m->pairs, m->npairs);
}

/* Pairs as columns: {"from": [...], "to": [...], "messages", "bytes", "time"}. */
static json_t *pairs_json(const mpp_pair_t *p, int n)
{
    json_t *from = json_array(), *to = json_array(), *msgs = json_array(), *bytes = json_array(),
           *time = json_array();
    for (int i = 0; i < n; i++) {
        json_array_append_new(from, json_integer(p[i].from));
        json_array_append_new(to, json_integer(p[i].to));
        json_array_append_new(msgs, json_integer((json_int_t)p[i].messages));
        json_array_append_new(bytes, json_integer((json_int_t)p[i].bytes));
        json_array_append_new(time, json_real(p[i].time));
    }
    return json_pack("{s:o, s:o, s:o, s:o, s:o}", "from", from, "to", to, "messages", msgs, "bytes", bytes, "time",
                     time);
}

static json_t *totals_json(const double t[3])
{
    return json_pack("{s:I, s:I, s:f}", "messages", (json_int_t)t[0], "bytes", (json_int_t)t[1], "time", t[2]);
}

json_t *mpp_matrix_json(const mpp_report_t *r)
{
    const mpp_matrix_t *m = r->reduced->matrix;
    if (!m)
        return json_null();
    json_t *nodes = json_array();
    for (int k = 0; k < m->nnodes; k++) {
        json_t *ranks = json_array();
        for (int p = 0; p < m->nprocs; p++)
            if (m->node_of[p] == k)
                json_array_append_new(ranks, json_integer(p));
        json_array_append_new(
            nodes, json_pack("{s:s, s:o}", "name", m->node_names[k] ? m->node_names[k] : "?", "ranks", ranks));
    }
    return json_pack("{s:i, s:i, s:b, s:i, s:o, s:o, s:o, s:o, s:o, s:I}", "processes", m->nprocs, "limit", m->limit,
                     "complete", m->complete, "heaviest", m->complete ? 0 : m->heaviest, "nodes", nodes,
                     "within_nodes", totals_json(m->intra), "between_nodes", totals_json(m->inter), "node_pairs",
                     pairs_json(m->node_pairs, m->nnode_pairs), "pairs", pairs_json(m->pairs, m->npairs),
                     "not_attributed", (json_int_t)m->dropped_calls);
}
