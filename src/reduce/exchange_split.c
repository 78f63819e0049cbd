/* The exchange of the reduction over positions spread across MPI
 * processes (exchange_split.h): in each process, one thread per position
 * and the in-memory exchange among them (exchange_memory.c); between
 * processes, MPI.  A message to a position of another process travels with
 * its source and tag in front, under the MPI tag of its destination, which
 * only that position's thread receives (any message it did not ask for yet
 * waits in its own stash): threads never take each other's messages.  A
 * collective combines the process's positions in memory first, then its
 * first position alone runs the MPI collective over the processes (the
 * others wait at the in-memory barrier).  Used by mpiprof-analyze only:
 * not part of the library, PMPI_* calls only (a preloaded libmpiprof sees
 * none of them). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/exchange_split.h"

enum { TAG_BASE = 100 }; /* + the destination's index among its process's positions */

typedef struct stashed {
    int source, tag;
    void *buf;
    size_t len;
    struct stashed *next;
} stashed_t;

typedef struct {
    MPI_Comm p2p, coll;
    int me, nranks, first, nprocs;
    int *firsts; /* [nranks + 1]: each process's first position, then nprocs */
    int failed;  /* memory ran out in a message or a collective (written under no lock: any thread sets 1) */
} split_t;

typedef struct {
    split_t *s;
    mpp_exchange_t *inner; /* this position among its process's */
    stashed_t *stash;
    const mpp_local_profile_t *profile;
    const char *hostname, *ranks_spec;
    mpp_reduced_t *result;
} position_t;

/* The process holding position p. */
static int owner(const split_t *s, int p)
{
    int lo = 0, hi = s->nranks - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (s->firsts[mid] <= p)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void split_send(mpp_exchange_t *x, const void *buf, size_t len, int dest, int tag)
{
    position_t *pos = x->ctx;
    split_t *s = pos->s;
    int to = owner(s, dest);
    if (to == s->me) {
        pos->inner->send(pos->inner, buf, len, dest - s->first, tag);
        return;
    }
    int head[3] = {x->position, tag, 1};
    char *packed = len <= INT_MAX - sizeof head ? malloc(sizeof head + len) : NULL;
    if (!packed) { /* the header alone, marked lost: the receiver does not wait for it */
        s->failed = 1;
        head[2] = 0;
        PMPI_Send(head, sizeof head, MPI_BYTE, to, TAG_BASE + dest - s->firsts[to], s->p2p);
        return;
    }
    memcpy(packed, head, sizeof head);
    if (len) /* (an empty message may come without a buffer) */
        memcpy(packed + sizeof head, buf, len);
    PMPI_Send(packed, (int)(sizeof head + len), MPI_BYTE, to, TAG_BASE + dest - s->firsts[to], s->p2p);
    free(packed);
}

static void *take_stashed(position_t *pos, int source, int tag, size_t *len)
{
    for (stashed_t **at = &pos->stash; *at; at = &(*at)->next) {
        stashed_t *m = *at;
        if (m->source != source || m->tag != tag)
            continue;
        void *buf = m->buf;
        *len = m->len;
        *at = m->next;
        free(m);
        return buf;
    }
    return NULL;
}

static void *split_recv(mpp_exchange_t *x, int source, int tag, size_t *len)
{
    position_t *pos = x->ctx;
    split_t *s = pos->s;
    *len = 0;
    if (owner(s, source) == s->me)
        return pos->inner->recv(pos->inner, source - s->first, tag, len);
    void *mine = take_stashed(pos, source, tag, len);
    if (mine)
        return mine;
    for (;;) {
        MPI_Message msg;
        MPI_Status st;
        int n = 0, head[3];
        PMPI_Mprobe(MPI_ANY_SOURCE, TAG_BASE + x->position - s->first, s->p2p, &msg, &st);
        PMPI_Get_count(&st, MPI_BYTE, &n);
        char *buf = malloc(n > 0 ? (size_t)n : 1);
        if (!buf || n < (int)sizeof head) { /* nobody's: the message is lost */
            s->failed = 1;
            PMPI_Mrecv(buf ? buf : NULL, buf ? n : 0, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
            free(buf);
            return NULL;
        }
        PMPI_Mrecv(buf, n, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
        memcpy(head, buf, sizeof head);
        size_t payload = (size_t)n - sizeof head;
        memmove(buf, buf + sizeof head, payload);
        if (!head[2]) { /* its sender had no memory for it */
            free(buf);
            buf = NULL;
            payload = 0;
        }
        if (head[0] == source && head[1] == tag) {
            *len = payload;
            return buf;
        }
        stashed_t *m = malloc(sizeof *m);
        if (!m) {
            s->failed = 1;
            free(buf);
            continue;
        }
        *m = (stashed_t){head[0], head[1], buf, payload, pos->stash};
        pos->stash = m;
    }
}

/* MPI counts are ints: large buffers go in pieces. */
static void bcast_bytes(void *buf, size_t len, MPI_Comm comm)
{
    for (size_t at = 0; at < len;) {
        int piece = len - at > (size_t)1 << 30 ? 1 << 30 : (int)(len - at);
        PMPI_Bcast((char *)buf + at, piece, MPI_BYTE, 0, comm);
        at += (size_t)piece;
    }
}

static void split_bcast(mpp_exchange_t *x, void *buf, size_t len)
{
    position_t *pos = x->ctx;
    if (pos->inner->position == 0)
        bcast_bytes(buf, len, pos->s->coll);
    pos->inner->bcast(pos->inner, buf, len);
}

static void split_reduce(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all)
{
    position_t *pos = x->ctx;
    split_t *s = pos->s;
    int doubles = op == MPP_XOP_SUM || op == MPP_XOP_MAX, leader = pos->inner->position == 0;
    size_t size = doubles ? sizeof(double) : sizeof(mpp_double_int_t);
    void *part = leader ? malloc(n ? n * size : 1) : NULL;
    if (leader && (!part || n > INT_MAX)) { /* the leader's own values stand for the process's */
        s->failed = 1;
        free(part);
        part = NULL;
    }
    pos->inner->reduce(pos->inner, in, part, n, op, 0);
    if (leader) {
        static const MPI_Op ops[] = {[MPP_XOP_SUM] = MPI_SUM,
                                     [MPP_XOP_MAX] = MPI_MAX,
                                     [MPP_XOP_MINLOC] = MPI_MINLOC,
                                     [MPP_XOP_MAXLOC] = MPI_MAXLOC};
        MPI_Datatype type = doubles ? MPI_DOUBLE : MPI_DOUBLE_INT;
        int count = n > INT_MAX ? INT_MAX : (int)n;
        const void *mine = part ? part : in;
        if (all)
            PMPI_Allreduce(mine, out, count, type, ops[op], s->coll);
        else
            PMPI_Reduce(mine, s->me == 0 ? out : NULL, count, type, ops[op], 0, s->coll);
    }
    if (all)
        pos->inner->bcast(pos->inner, out, n * size);
    free(part);
}

static void reduce_position(mpp_exchange_t *inner, void *arg)
{
    position_t *pos = arg;
    split_t *s = pos->s;
    pos->inner = inner;
    mpp_exchange_t x = {.position = s->first + inner->position,
                        .size = s->nprocs,
                        .nprocs = s->nprocs,
                        .ranks = NULL,
                        .ctx = pos,
                        .send = split_send,
                        .recv = split_recv,
                        .bcast = split_bcast,
                        .reduce = split_reduce};
    pos->result = mpp_reduce_exchange(pos->profile, &x, pos->ranks_spec, pos->hostname);
    while (pos->stash) { /* (a message nobody asked for: none in the reduction) */
        stashed_t *m = pos->stash;
        pos->stash = m->next;
        free(m->buf);
        free(m);
    }
}

static int any(int flag, MPI_Comm comm)
{
    int all = 0;
    PMPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_MAX, comm);
    return all;
}

mpp_reduced_t *mpp_reduce_split(const mpp_local_profile_t *const *profiles, const char *const *hostnames, int n,
                                int first, int nprocs, MPI_Comm comm, const char *ranks_spec, int *failed)
{
    split_t s = {.first = first, .nprocs = nprocs};
    PMPI_Comm_rank(comm, &s.me);
    PMPI_Comm_size(comm, &s.nranks);
    s.firsts = malloc(((size_t)s.nranks + 1) * sizeof *s.firsts);
    position_t *pos = calloc((size_t)n, sizeof *pos);
    void **args = calloc((size_t)n, sizeof *args);
    int *tag_ub = NULL, has_ub = 0;
    PMPI_Comm_get_attr(comm, MPI_TAG_UB, &tag_ub, &has_ub);
    int cannot = !s.firsts || !pos || !args || (has_ub && TAG_BASE + n - 1 > *tag_ub);
    if (any(cannot, comm)) {
        *failed = 1;
        free(s.firsts), free(pos), free(args);
        return NULL;
    }
    PMPI_Allgather(&first, 1, MPI_INT, s.firsts, 1, MPI_INT, comm);
    s.firsts[s.nranks] = nprocs;
    PMPI_Comm_dup(comm, &s.p2p);
    PMPI_Comm_dup(comm, &s.coll);
    for (int p = 0; p < n; p++) {
        pos[p] = (position_t){.s = &s, .profile = profiles[p], .hostname = hostnames[p], .ranks_spec = ranks_spec};
        args[p] = &pos[p];
    }
    /* threads that cannot start would leave the other processes waiting
     * for positions that never run: the analysis ends here, said */
    if (mpp_exchange_in_memory(n, nprocs, NULL, reduce_position, args) != 0) {
        fprintf(stderr,
                "mpiprof-analyze: process %d cannot start %d threads for the reduction (one per traced "
                "process of its share): run it with more processes\n",
                s.me, n);
        PMPI_Abort(comm, 1);
    }
    *failed = any(s.failed, comm);
    mpp_reduced_t *result = NULL;
    for (int p = 0; p < n; p++) {
        if (s.me == 0 && p == 0 && !*failed)
            result = pos[p].result;
        else
            mpp_reduced_free(pos[p].result);
    }
    PMPI_Comm_free(&s.p2p);
    PMPI_Comm_free(&s.coll);
    free(s.firsts), free(pos), free(args);
    return result;
}
