/* What the shares of mpiprof-analyze under mpiexec exchange (replay_mpi.h).
 * Both exchanges are one MPI_Alltoallv each way, sized by what each share
 * holds: a send's entry travels once, to its receiver's share; a
 * collective instance's maxima meet at one home process and go back to the
 * shares whose members reached it.  Nothing here holds more than its
 * share's messages and instances. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay_mpi.h"

int rp_mpi_launched(void)
{
    static const char *const launchers[] = {
        "PMI_RANK",             /* MPICH's Hydra, Slurm's PMI */
        "PMIX_RANK",            /* PMIx launchers (Open MPI 5, Slurm) */
        "OMPI_COMM_WORLD_SIZE", /* Open MPI's mpirun */
    };
    for (size_t i = 0; i < sizeof launchers / sizeof *launchers; i++)
        if (getenv(launchers[i]))
            return 1;
    return 0;
}

void rp_mpi_init(rp_mpi_t *m, int *argc, char ***argv)
{
    memset(m, 0, sizeof *m);
    int provided = MPI_THREAD_SINGLE;
    PMPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    m->thread_multiple = provided >= MPI_THREAD_MULTIPLE;
    PMPI_Comm_dup(MPI_COMM_WORLD, &m->comm);
    PMPI_Comm_rank(m->comm, &m->rank);
    PMPI_Comm_size(m->comm, &m->size);
}

void rp_mpi_finalize(rp_mpi_t *m)
{
    PMPI_Comm_free(&m->comm);
    PMPI_Finalize();
}

int rp_mpi_any(const rp_mpi_t *m, int flag)
{
    int all = 0;
    flag = flag != 0;
    PMPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_MAX, m->comm);
    return all;
}

int rp_mpi_lowest(const rp_mpi_t *m, int flag)
{
    int mine = flag ? m->rank : m->size, lowest = m->size;
    PMPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, m->comm);
    return lowest < m->size ? lowest : -1;
}

void rp_mpi_share_text(const rp_mpi_t *m, char *text, size_t size, int root)
{
    PMPI_Bcast(text, (int)size, MPI_CHAR, root, m->comm);
    text[size - 1] = '\0';
}

/* Records of `size` bytes to process dest[i] each: exchanged so that each
 * process gets those sent to it, grouped by sender.  *order (when not
 * NULL) gets the position of each record in the send buffer, for the
 * answers of rp_mpi_combine.  -1 when memory ran out or a count outgrew an
 * int anywhere (nothing was exchanged then). */
static int alltoallv(const rp_mpi_t *m, const void *records, size_t n, size_t size, const int *dest, void **out,
                     size_t *nout, int **counts_out, size_t **order_out)
{
    int k = m->size;
    int *counts = calloc((size_t)4 * k, sizeof *counts);
    size_t *order = malloc((n ? n : 1) * sizeof *order), *at = calloc((size_t)k + 1, sizeof *at);
    char *sendbuf = malloc(n ? n * size : 1);
    int failed = !counts || !order || !at || !sendbuf;
    for (size_t i = 0; !failed && i < n; i++)
        at[dest[i] + 1]++;
    for (int p = 0; !failed && p < k; p++) {
        if (at[p + 1] * size > INT_MAX)
            failed = 1;
        else
            counts[p] = (int)(at[p + 1] * size);
        at[p + 1] += at[p];
    }
    if (!failed && at[k] * size > INT_MAX)
        failed = 1;
    for (size_t i = 0; !failed && i < n; i++) {
        order[i] = at[dest[i]]++;
        memcpy(sendbuf + order[i] * size, (const char *)records + i * size, size);
    }
    int *rcounts = counts ? counts + k : NULL, *sdispls = counts ? counts + 2 * k : NULL,
        *rdispls = counts ? counts + 3 * k : NULL;
    if (!rp_mpi_any(m, failed))
        PMPI_Alltoall(counts, 1, MPI_INT, rcounts, 1, MPI_INT, m->comm);
    long long total = 0;
    for (int p = 0; !failed && p < k; p++) {
        sdispls[p] = p ? sdispls[p - 1] + counts[p - 1] : 0;
        rdispls[p] = (int)total;
        total += rcounts[p];
    }
    char *recvbuf = failed || total > INT_MAX ? NULL : malloc(total ? (size_t)total : 1);
    if (rp_mpi_any(m, failed || !recvbuf)) {
        free(counts), free(order), free(at), free(sendbuf), free(recvbuf);
        return -1;
    }
    PMPI_Alltoallv(sendbuf, counts, sdispls, MPI_BYTE, recvbuf, rcounts, rdispls, MPI_BYTE, m->comm);
    free(at), free(sendbuf);
    *out = recvbuf;
    *nout = (size_t)total / size;
    if (counts_out)
        *counts_out = counts;
    else
        free(counts);
    if (order_out)
        *order_out = order;
    else
        free(order);
    return 0;
}

int rp_mpi_gather_sends(const rp_mpi_t *m, rp_trace_t *t)
{
    int *dest = malloc((t->nsends ? t->nsends : 1) * sizeof *dest);
    for (size_t i = 0; dest && i < t->nsends; i++) {
        int32_t receiver = t->sends[i].peer; /* not a world rank: no receiver, kept here unmatched */
        dest[i] =
            receiver >= 0 && receiver < t->nprocesses ? rp_share_owner(t->nprocesses, m->size, receiver) : m->rank;
    }
    void *got = NULL;
    size_t n = 0;
    int rc = alltoallv(m, t->sends, dest ? t->nsends : 0, sizeof *t->sends, dest, &got, &n, NULL, NULL);
    int lost = rc != 0 || !dest; /* (no room for the destinations: this share's sends were not sent) */
    free(dest);
    if (lost) {
        free(got);
        return -1;
    }
    free(t->sends);
    t->sends = got;
    t->nsends = t->sends_cap = n;
    return 0;
}

static int home_of(const rp_instance_t *x, int size)
{
    uint64_t h = ((uint64_t)x->comm + 1) * 0x9e3779b97f4a7c15u ^ x->k * 0xc2b2ae3d27d4eb4fu;
    return (int)((h ^ h >> 29) % (uint64_t)size);
}

static int by_instance(const void *a, const void *b)
{
    const rp_instance_t *x = *(const rp_instance_t *const *)a, *y = *(const rp_instance_t *const *)b;
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* At the home process: every copy of an instance gets the maxima and the
 * count of all. */
static int combine_at_home(rp_instance_t *got, size_t n)
{
    rp_instance_t **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return -1;
    for (size_t i = 0; i < n; i++)
        sorted[i] = &got[i];
    if (n > 1)
        qsort(sorted, n, sizeof *sorted, by_instance);
    for (size_t i = 0, j; i < n; i = j) {
        rp_instance_t all = *sorted[i];
        for (j = i + 1; j < n && !by_instance(&sorted[i], &sorted[j]); j++) {
            for (int v = 0; v < RP_INSTANCE_MAX; v++) /* the waits' and the checks' rows */
                if (sorted[j]->max[v] > all.max[v])
                    all.max[v] = sorted[j]->max[v];
            all.seen += sorted[j]->seen;
        }
        for (size_t c = i; c < j; c++)
            *sorted[c] = all;
    }
    free(sorted);
    return 0;
}

int rp_mpi_combine(rp_instance_t *in, size_t n, int failed, void *ctx)
{
    const rp_mpi_t *m = ctx;
    /* how many members of each communicator reached any instance: each
     * share's count, on each of its instances there, summed */
    int64_t *members = calloc(m->ncomms ? m->ncomms : 1, sizeof *members);
    int64_t *all = calloc(m->ncomms ? m->ncomms : 1, sizeof *all);
    int *dest = malloc((n ? n : 1) * sizeof *dest);
    if (rp_mpi_any(m, failed || !members || !all || !dest)) {
        free(members), free(all), free(dest);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        members[in[i].comm] = in[i].members;
        dest[i] = home_of(&in[i], m->size);
    }
    PMPI_Allreduce(members, all, (int)m->ncomms, MPI_INT64_T, MPI_SUM, m->comm);
    free(members);
    void *got = NULL;
    size_t ngot = 0, *order = NULL;
    int *counts = NULL;
    int rc = alltoallv(m, in, n, sizeof *in, dest, &got, &ngot, &counts, &order);
    free(dest);
    if (rc == 0 && rp_mpi_any(m, combine_at_home(got, ngot) != 0))
        rc = -1;
    char *answers = rc == 0 ? malloc(n ? n * sizeof *in : 1) : NULL;
    if (rc == 0 && rp_mpi_any(m, !answers))
        rc = -1;
    if (rc == 0) { /* the answers come back the way the instances went */
        int k = m->size, *rcounts = counts + k, *sdispls = counts + 2 * k, *rdispls = counts + 3 * k;
        PMPI_Alltoallv(got, rcounts, rdispls, MPI_BYTE, answers, counts, sdispls, MPI_BYTE, m->comm);
        for (size_t i = 0; i < n; i++) {
            memcpy(&in[i], answers + order[i] * sizeof *in, sizeof *in);
            in[i].members = all[in[i].comm];
        }
    }
    free(all), free(got), free(order), free(counts), free(answers);
    return rc;
}

void rp_mpi_totals(const rp_mpi_t *m, rp_totals_t *t)
{
    uint64_t sums[9] = {t->events,      t->mpi_events,         t->sends,           t->recvs,
                        t->collectives, t->unmatched_receives, t->unmatched_sends, t->unmatched_collectives,
                        t->untraced};
    int64_t most[5] = {-t->first, t->last, t->from_mpiprof, t->uncertain[0], t->uncertain[1]};
    int64_t offsets[3] = {t->offsets, t->drifting, t->inexact};
    PMPI_Allreduce(MPI_IN_PLACE, sums, 9, MPI_UINT64_T, MPI_SUM, m->comm);
    PMPI_Allreduce(MPI_IN_PLACE, most, 5, MPI_INT64_T, MPI_MAX, m->comm);
    PMPI_Allreduce(MPI_IN_PLACE, offsets, 3, MPI_INT64_T, MPI_SUM, m->comm);
    /* the lowest rank with the largest uncertainty (a share's own, when it has that one) */
    int64_t which[2] = {t->uncertain[0] == most[3] ? t->uncertain_rank[0] : INT64_MAX,
                        t->uncertain[1] == most[4] ? t->uncertain_rank[1] : INT64_MAX};
    PMPI_Allreduce(MPI_IN_PLACE, which, 2, MPI_INT64_T, MPI_MIN, m->comm);
    t->uncertain[0] = most[3], t->uncertain[1] = most[4], t->uncertain_rank[0] = which[0];
    t->uncertain_rank[1] = which[1], t->drifting = offsets[1], t->inexact = offsets[2];
    t->events = sums[0], t->mpi_events = sums[1], t->sends = sums[2], t->recvs = sums[3], t->collectives = sums[4];
    t->unmatched_receives = sums[5], t->unmatched_sends = sums[6], t->unmatched_collectives = sums[7];
    t->untraced = sums[8];
    t->first = -most[0], t->last = most[1], t->from_mpiprof = most[2], t->offsets = offsets[0];
    int first = rp_mpi_lowest(m, (int)t->incomplete);
    t->incomplete = first >= 0;
    if (first >= 0)
        rp_mpi_share_text(m, t->incomplete_why, sizeof t->incomplete_why, first);
}

int rp_mpi_gather_bounds(mpp_clock_bound_t **b, size_t *n, int64_t *uncertainty, int failed, void *ctx)
{
    const rp_mpi_t *m = ctx;
    if (rp_mpi_any(m, failed || *n * sizeof **b > INT_MAX))
        return -1;
    int mine = (int)(*n * sizeof **b), *counts = malloc((size_t)m->size * 2 * sizeof *counts);
    if (rp_mpi_any(m, !counts)) {
        free(counts);
        return -1;
    }
    int *displs = counts + m->size;
    PMPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, m->comm);
    long long total = 0;
    for (int p = 0; p < m->size; p++)
        displs[p] = (int)(total < INT_MAX ? total : 0), total += counts[p];
    mpp_clock_bound_t *all = total > INT_MAX ? NULL : malloc(total ? (size_t)total : 1);
    if (rp_mpi_any(m, !all)) {
        free(counts), free(all);
        return -1;
    }
    PMPI_Allgatherv(*b, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, m->comm);
    /* each process's offsets are read by its share alone (-1 elsewhere) */
    PMPI_Allreduce(MPI_IN_PLACE, uncertainty, m->nprocesses, MPI_INT64_T, MPI_MAX, m->comm);
    free(counts), free(*b);
    *b = all;
    *n = (size_t)total / sizeof *all;
    return 0;
}

int rp_mpi_gather_pairs(const rp_mpi_t *m, mpp_pair_t **pairs, int *n)
{
    int *dest = calloc(*n > 0 ? (size_t)*n : 1, sizeof *dest); /* all to rank 0 */
    void *got = NULL;
    size_t ngot = 0;
    int rc = alltoallv(m, *pairs, dest ? (size_t)*n : 0, sizeof **pairs, dest, &got, &ngot, NULL, NULL);
    rc |= rp_mpi_any(m, !dest || ngot > (size_t)INT32_MAX) ? -1 : 0;
    free(dest);
    free(*pairs);
    *pairs = rc ? NULL : got, *n = rc ? 0 : (int)ngot;
    if (rc)
        free(got);
    return rc ? -1 : 0;
}
