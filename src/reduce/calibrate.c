/* Calibration of the communication model at MPI_Init, measured again at
 * MPI_Finalize (calibrate.h).
 *
 * Cost: ten small collectives over all processes (with several nodes, a
 * communicator split by host and two more); a ping-pong of two processes
 * on one node (8 bytes, then 128 KiB: 32 and 6 round trips after a
 * warm-up, more while each size has taken less than 0.5 ms (256 at most),
 * fewer (but 3) past 5 ms: about 1 ms in shared memory) and, with several nodes, the same between two
 * nodes (about 2 ms over a 1 GB/s network); a compute loop of about
 * 0.07 ms, taken 4 times, on every process at once (16 times at
 * MPI_Finalize, which keeps the faster of the two).  The other processes
 * wait in the final reduction meanwhile.  About 1.5 ms on one node of a
 * quiet machine.  Only noise buys more: while no round trip has been as
 * fast as a link can be (MPP_PLAUSIBLE_*) or few have come near the
 * fastest, the ping-pong goes on, up to 0.1 s per size; a pair on one node
 * whose round trips take time slices is asked whether it shares a CPU, and
 * then moves apart for the measurement (apart.h).  At MPI_Finalize the
 * ping-pongs and the compute loop again, the same way (about 3.5 ms). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context/config.h"
#include "reduce/apart.h"
#include "reduce/calibrate.h"
#include "reduce/hosts.h"
#include "reduce/ptp_collectives.h"
#include "util/warnings.h"

enum { TAG_PING = 7711 };
enum {
    SMALL_REPS = 32,
    LARGE_REPS = 6,
    MAX_REPS = 256,
    FEWEST_REPS = 3,
    WARMUP = 2,
    SPEED_ITERATIONS = 40000,
    CONFIRM = 4,
    MAX_NOISY_REPS = 4096
};
/* The compute loop's runs: MPI_Finalize's decide (the faster loop of the
 * two is kept and the speeds are computed again there); MPI_Init's are a
 * second chance in another moment of the host, and each costs its 0.07 ms
 * in MPI_Init. */
enum { SPEED_REPS_INIT = 4, SPEED_REPS_FINALIZE = 16 };
#define BUDGET 0.5e-3    /* seconds of ping-pongs of one size, beyond the minimum repetitions */
#define CAP 5e-3         /* ... and, past FEWEST_REPS, at most (a slow link, or partners sharing a core) */
#define NOISY_BUDGET 0.1 /* ... and while they look noisy (below) */

/* The two processes of a link's ping-pong: when they run on one node, the
 * measuring one (a) decides whether they must move apart, the other one
 * (b) answers. */
typedef struct {
    int same_node;
    mpp_apart_decider_t decider; /* on a */
    mpp_apart_t pin;             /* on b */
} pair_t;

/* One-way time (half a round trip) of `bytes` between ranks a and b: the
 * fastest of `reps` ping-pongs after a warm-up (on a only), more while they
 * take less than `budget` seconds in all (up to MAX_REPS), fewer (but
 * FEWEST_REPS) when they take more than CAP.  The fastest, not a mean: what
 * the link can do, without the machine's noise (another process taking the
 * core of one side for a time slice, a connection set up on first use),
 * which is what the predicted characteristics leave out.  Noise is what
 * keeps it going, up to NOISY_BUDGET: no round trip faster than `limit` (a
 * link is faster), or fewer than CONFIRM within twice the fastest (the
 * quiet moments not seen yet).  a decides when to stop and says so in the
 * first bytes of each ping (with what it asks of b's CPU, apart.h), so
 * that both sides stop together. */
static double pingpong(MPI_Comm comm, int me, int a, int b, char *buf, int bytes, int reps, double budget,
                       double limit, pair_t *pair)
{
    int peer = me == a ? b : a;
    double best = INFINITY, started = PMPI_Wtime();
    int near = 0; /* round trips within twice the fastest */
    for (int i = -WARMUP;; i++) {
        if (me == a) {
            double spent = PMPI_Wtime() - started;
            int quiet_more =
                i + 1 < FEWEST_REPS || (i + 1 < reps && spent < CAP) || (i + 1 < MAX_REPS && spent < budget);
            int noisy = !(best <= limit) || near < CONFIRM;
            int more =
                quiet_more || (noisy && !pair->decider.stuck && spent < NOISY_BUDGET && i + 1 < MAX_NOISY_REPS);
            int ask = more && pair->same_node ? mpp_apart_request(&pair->decider) : 0;
            int32_t head[2] = {more | ask << 1, ask ? mpp_apart_cpu() : -1}, answer[2];
            memcpy(buf, head, sizeof head);
            double t0 = PMPI_Wtime();
            PMPI_Send(buf, bytes, MPI_BYTE, peer, TAG_PING, comm);
            PMPI_Recv(buf, bytes, MPI_BYTE, peer, TAG_PING, comm, MPI_STATUS_IGNORE);
            double t = (PMPI_Wtime() - t0) / 2;
            memcpy(answer, buf, sizeof answer);
            int asked = pair->same_node && mpp_apart_after(&pair->decider, t > limit, answer[0], answer[1], a);
            if (i >= 0 && !asked) {
                if (t < best) {
                    near = t < best / 2 ? 1 : near + 1;
                    best = t;
                } else if (t <= 2 * best) {
                    near++;
                }
            }
            if (!more)
                return best;
        } else {
            int32_t head[2];
            PMPI_Recv(buf, bytes, MPI_BYTE, peer, TAG_PING, comm, MPI_STATUS_IGNORE);
            memcpy(head, buf, sizeof head);
            int more = head[0] & 1, ask = head[0] >> 1;
            if (ask) {
                int outcome = ask & MPP_APART_LEAVE ? mpp_apart_answer(&pair->pin, head[1], b) : MPP_APART_STAYED;
                int32_t answer[2] = {mpp_apart_cpu(), outcome};
                memcpy(buf, answer, sizeof answer);
            }
            PMPI_Send(buf, bytes, MPI_BYTE, peer, TAG_PING, comm);
            if (!more)
                return 0;
        }
    }
}

/* The ping-pong of `link` between ranks a and b, on a: the fastest one-way
 * times of 8 bytes and 128 KiB, and whether the two shared a CPU neither
 * could leave (out[3]; all 0 elsewhere). */
static void measure_link(MPI_Comm comm, int me, int a, int b, int link, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    if (me != a && me != b)
        return;
    static char buf[MPP_CALIBRATION_LARGE]; /* no allocation that could fail on one side only */
    pair_t pair;
    memset(&pair, 0, sizeof pair);
    pair.same_node = link == MPP_LINK_INTRA;
    double latency = link == MPP_LINK_INTRA ? MPP_PLAUSIBLE_LATENCY_INTRA : MPP_PLAUSIBLE_LATENCY_INTER;
    double bandwidth = link == MPP_LINK_INTRA ? MPP_PLAUSIBLE_BANDWIDTH_INTRA : MPP_PLAUSIBLE_BANDWIDTH_INTER;
    double small = pingpong(comm, me, a, b, buf, MPP_CALIBRATION_SMALL, SMALL_REPS, BUDGET, latency, &pair);
    double large = pingpong(comm, me, a, b, buf, MPP_CALIBRATION_LARGE, LARGE_REPS, BUDGET,
                            latency + MPP_CALIBRATION_LARGE / bandwidth, &pair);
    mpp_apart_restore(me == a ? &pair.decider.pin : &pair.pin);
    if (me != a)
        return;
    out[0] = small;
    out[1] = large;
    out[2] = pair.decider.stuck;
}

enum { LINK_VALUES = 3 * MPP_NLINKS }; /* measure_link's out[3] per link */

/* The ping-pongs of the links s->pair names (measured[LINK_VALUES], on
 * the measuring processes). */
static void measure_links(MPI_Comm comm, int rank, const mpp_model_setup_t *s, double measured[LINK_VALUES])
{
    for (int link = 0; link < MPP_NLINKS; link++)
        if (s->pair[link][0] >= 0)
            measure_link(comm, rank, s->pair[link][0], s->pair[link][1], link, &measured[3 * link]);
}

/* The agreed measurements of one end (`at`) into s, then the parameters
 * from all that are in: the better of each calibrated one, the other
 * link's values for those nothing could measure (the one a run of this
 * layout uses), or built-in values for a single process. */
static void settle(mpp_model_setup_t *s, const double agreed[LINK_VALUES], int at)
{
    for (int link = 0; link < MPP_NLINKS; link++) {
        s->measured[link][at] = (mpp_pingpong_t){agreed[3 * link], agreed[3 * link + 1]};
        if (agreed[3 * link + 2] > 0)
            s->shared_cpu |= 1u << link;
        mpp_model_keep_better(s, link);
    }
    for (int k = 0; k < MPP_NMP; k++) {
        if (s->source[k] != MPP_PSRC_AS_INTER && s->source[k] != MPP_PSRC_AS_INTRA &&
            s->source[k] != MPP_PSRC_BUILTIN)
            continue;
        int other = k ^ 2; /* lat_intra <-> lat_inter, bw_intra <-> bw_inter */
        int lat = k == MPP_MP_LAT_INTRA || k == MPP_MP_LAT_INTER;
        if (s->source[other] == MPP_PSRC_GIVEN || s->source[other] == MPP_PSRC_CALIBRATED) {
            *mpp_model_param(&s->model, k) = mpp_model_param_value(&s->model, other);
        } else {
            *mpp_model_param(&s->model, k) = lat ? MPP_MODEL_BUILTIN_LATENCY : MPP_MODEL_BUILTIN_BANDWIDTH;
            s->source[k] = MPP_PSRC_BUILTIN;
        }
    }
}

/* A dependent chain of floating-point multiply-adds: its time follows the
 * core's clock, not memory.  The fastest of a few runs drops interruptions. */
static double __attribute__((noinline)) chain(long n, double x)
{
    for (long i = 0; i < n; i++)
        x = x * 0.99999999 + 1e-9;
    return x;
}

static volatile double speed_sink;

static double speed_loop(int reps)
{
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t0 = PMPI_Wtime();
        speed_sink = chain(SPEED_ITERATIONS, 1.0 + speed_sink * 1e-30);
        double t = PMPI_Wtime() - t0;
        if (t < best)
            best = t;
    }
    return best > 0 ? best : 1e-9;
}

typedef struct {
    int value, rank;
} int_int_t; /* MPI_2INT */

typedef struct {
    double value;
    int rank;
} double_int_t; /* MPI_DOUBLE_INT */

/* The compute loop on every process at once, the fastest loop this
 * process has had (c->loop: at MPI_Init, then at MPI_Finalize as well: the
 * host's speed changes from one millisecond to the next, and one slow
 * millisecond on one process would otherwise predict an imbalance), and the
 * relative speeds from it. */
static void agree_speed(MPI_Comm comm, int size, int reps, mpp_calibration_t *c)
{
    mpp_model_setup_t *s = &c->setup;
    mpp_ptp_barrier(comm);
    double loop = speed_loop(reps), loop_sum = 0;
    if (loop < c->loop)
        c->loop = loop;
    mpp_ptp_allreduce(&c->loop, &loop_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    double mean_loop = loop_sum / size;
    c->speed = mean_loop / c->loop;
    int rank;
    PMPI_Comm_rank(comm, &rank);
    double_int_t sp = {c->speed, rank}, lo, hi;
    mpp_ptp_allreduce(&sp, &lo, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
    mpp_ptp_allreduce(&sp, &hi, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    s->speed_min = lo.value, s->speed_min_rank = lo.rank;
    s->speed_max = hi.value, s->speed_max_rank = hi.rank;
    s->speed_loop = mean_loop;
}

/* Rank 0's MPIPROF_PREDICT and MPIPROF_MODEL, for every process. */
typedef struct {
    int predict;
    char model[MPP_CONFIG_STRING_MAX];
} settings_t;

static void share_settings(MPI_Comm comm, int rank, int predict, const char *model_text, settings_t *settings)
{
    memset(settings, 0, sizeof *settings);
    if (rank == 0) {
        settings->predict = predict;
        strncpy(settings->model, model_text ? model_text : "calibrate", sizeof settings->model - 1);
    }
    mpp_ptp_bcast(settings, (int)sizeof *settings, MPI_BYTE, 0, comm);
}

/* The parameters MPIPROF_MODEL gives (bits of MPP_MP_*, their values in
 * *given_model); none, with a warning, when it is not valid. */
static unsigned given_parameters(const char *model, mpp_model_t *given_model, mpp_calibration_t *out)
{
    memset(given_model, 0, sizeof *given_model);
    unsigned given = 0;
    char why[160];
    if (mpp_model_parse(model, given_model, &given, why, sizeof why) != 0) {
        char shown[96];
        size_t j = 0;
        for (size_t i = 0; model[i] && j + 4 < sizeof shown; i++)
            shown[j++] = (unsigned char)model[i] < 0x20 ? '?' : model[i];
        shown[j] = '\0';
        mpp_warn("MPIPROF_MODEL='%s' is not valid (%s; accepted: %s); using the default 'calibrate'", shown, why,
                 mpp_vars[MPP_CFG_MODEL].accepted);
        given = 0;
        out->model_malformed = 1;
    }
    return given;
}

/* Where this process sits among the nodes. */
typedef struct {
    MPI_Comm node; /* this node's processes; MPI_COMM_NULL when all are on one node (comm) */
    int node_rank, node_size;
    int leader; /* world rank of this node's lowest rank */
    int is_leader, nodes;
} nodes_t;

/* Nodes: processes with the same host name (as the protocol's Nodes).
 * All on one node (every colour the same: the least colour and the least
 * negated one tell), the node is comm itself: no communicator split (an
 * MPI collective of its own, 0.05-0.15 ms at MPI_Init). */
static void find_nodes(MPI_Comm comm, const char *hostname, int rank, int size, nodes_t *n)
{
    int colour = mpp_host_colour(hostname);
    int one_node = mpp_one_host(comm, colour);
    n->node = MPI_COMM_NULL;
    n->node_rank = rank, n->node_size = size;
    if (!one_node) {
        PMPI_Comm_split(comm, colour, rank, &n->node);
        PMPI_Comm_rank(n->node, &n->node_rank);
        PMPI_Comm_size(n->node, &n->node_size);
    }
    char leader_host[256];
    snprintf(leader_host, sizeof leader_host, "%s", hostname);
    mpp_ptp_bcast(leader_host, sizeof leader_host, MPI_CHAR, 0, one_node ? comm : n->node);
    if (strcmp(leader_host, hostname) != 0)
        mpp_warn("the host names %s and %s have the same hash; the communication model takes them for one node",
                 hostname, leader_host);
    n->leader = one_node ? 0 : rank;
    n->is_leader = n->node_rank == 0, n->nodes = 1;
    if (!one_node) {
        mpp_ptp_bcast(&n->leader, 1, MPI_INT, 0, n->node);
        mpp_ptp_allreduce(&n->is_leader, &n->nodes, 1, MPI_INT, MPI_SUM, comm);
    }
}

/* Which processes of comm share this node (calloc'd, by rank), by
 * translating the node's group: no communication.  NULL when memory or
 * a group ran out: the link of a message is then taken as inter-node. */
static unsigned char *same_node_map(MPI_Comm comm, const nodes_t *n, int size)
{
    int node_size = n->node_size;
    int *ranks = malloc(2 * (size_t)node_size * sizeof *ranks);
    MPI_Group node_group = MPI_GROUP_NULL, all = MPI_GROUP_NULL;
    unsigned char *same_node = calloc((size_t)size, 1);
    if (ranks && same_node && PMPI_Comm_group(n->node, &node_group) == MPI_SUCCESS &&
        PMPI_Comm_group(comm, &all) == MPI_SUCCESS) {
        for (int i = 0; i < node_size; i++)
            ranks[i] = i;
        PMPI_Group_translate_ranks(node_group, node_size, ranks, all, ranks + node_size);
        for (int i = 0; i < node_size; i++)
            if (ranks[node_size + i] >= 0 && ranks[node_size + i] < size)
                same_node[ranks[node_size + i]] = 1;
    } else {
        free(same_node);
        same_node = NULL;
    }
    if (node_group != MPI_GROUP_NULL)
        PMPI_Group_free(&node_group);
    if (all != MPI_GROUP_NULL)
        PMPI_Group_free(&all);
    free(ranks);
    return same_node;
}

/* Who measures: the second process of the lowest-ranked node that has two
 * (got[0]: intra), the lowest ranks of the first two nodes (got[1]: inter;
 * value INT_MAX: no such pair). */
static void choose_pairs(MPI_Comm comm, int rank, const nodes_t *n, int_int_t got[2])
{
    int_int_t want[2] = {{INT_MAX, rank}, {INT_MAX, rank}};
    if (n->node_rank == 1)
        want[0].value = n->leader; /* MINLOC: the lowest leader, and its node's second process */
    if (n->is_leader && rank != 0)
        want[1].value = rank;
    mpp_ptp_allreduce(want, got, 2, MPI_2INT, MPI_MINLOC, comm);
}

/* More processes than processors on a node: two of them share a core, and
 * a ping-pong between them times the scheduler.  On any node? */
static int any_node_crowded(MPI_Comm comm, int node_size)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int crowded = online > 0 && node_size > online, any_crowded = 0;
    mpp_ptp_allreduce(&crowded, &any_crowded, 1, MPI_INT, MPI_MAX, comm);
    return any_crowded;
}

/* The pairs that measure the links MPIPROF_MODEL does not give. */
static void assign_pairs(mpp_model_setup_t *s, const int_int_t got[2], unsigned given)
{
    unsigned intra_bits = 1u << MPP_MP_LAT_INTRA | 1u << MPP_MP_BW_INTRA;
    unsigned inter_bits = 1u << MPP_MP_LAT_INTER | 1u << MPP_MP_BW_INTER;
    int intra_pair = got[0].value != INT_MAX, inter_pair = got[1].value != INT_MAX;
    if (intra_pair && (given & intra_bits) != intra_bits) {
        s->pair[MPP_LINK_INTRA][0] = got[0].value;
        s->pair[MPP_LINK_INTRA][1] = got[0].rank;
    }
    if (inter_pair && (given & inter_bits) != inter_bits) {
        s->pair[MPP_LINK_INTER][0] = 0;
        s->pair[MPP_LINK_INTER][1] = got[1].value;
    }
}

/* Where each parameter comes from: MPIPROF_MODEL, the ping-pong of its
 * link, or the other link's (agreed: the measurements everyone has). */
static void param_sources(mpp_model_setup_t *s, const mpp_model_t *given_model, unsigned given,
                          const double agreed[LINK_VALUES])
{
    for (int k = 0; k < MPP_NMP; k++) {
        int link = k == MPP_MP_LAT_INTRA || k == MPP_MP_BW_INTRA ? MPP_LINK_INTRA : MPP_LINK_INTER;
        if (given & (1u << k)) {
            *mpp_model_param(&s->model, k) = mpp_model_param_value(given_model, k);
            s->source[k] = MPP_PSRC_GIVEN;
        } else if (agreed[3 * link] > 0) {
            s->source[k] = MPP_PSRC_CALIBRATED;
        } else {
            s->source[k] = link == MPP_LINK_INTRA ? MPP_PSRC_AS_INTER : MPP_PSRC_AS_INTRA;
        }
    }
}

void mpp_calibrate(MPI_Comm comm, const char *hostname, int predict, const char *model_text, mpp_calibration_t *out)
{
    double started = PMPI_Wtime();
    int rank, size;
    memset(out, 0, sizeof *out);
    out->speed = 1.0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    out->world_size = size;

    /* 1. Rank 0's settings, for every process. */
    settings_t settings;
    share_settings(comm, rank, predict, model_text, &settings);
    mpp_model_setup_t *s = &out->setup;
    s->enabled = settings.predict != 0;
    for (int l = 0; l < MPP_NLINKS; l++)
        s->pair[l][0] = s->pair[l][1] = -1;
    if (!s->enabled)
        return;
    mpp_model_t given_model;
    unsigned given = given_parameters(settings.model, &given_model, out);

    /* 2. Nodes. */
    nodes_t n;
    find_nodes(comm, hostname, rank, size, &n);
    s->nodes = n.nodes;
    if (n.nodes > 1)
        out->same_node = same_node_map(comm, &n, size);

    /* 3. Who measures; whether a node is crowded. */
    int_int_t got[2];
    choose_pairs(comm, rank, &n, got);
    int any_crowded = any_node_crowded(comm, n.node_size);

    /* 4. Ping-pongs for what MPIPROF_MODEL does not give. */
    double measured[LINK_VALUES + 1] = {0}, agreed[LINK_VALUES + 1];
    assign_pairs(s, got, given);
    measure_links(comm, rank, s, measured);

    /* 5. Core speed: every process at once. */
    out->loop = INFINITY;
    agree_speed(comm, size, SPEED_REPS_INIT, out);

    /* 6. The measurements, and the time all this took, for everyone. */
    measured[LINK_VALUES] = PMPI_Wtime() - started;
    mpp_ptp_allreduce(measured, agreed, LINK_VALUES + 1, MPI_DOUBLE, MPI_MAX, comm);
    s->seconds = agreed[LINK_VALUES];
    param_sources(s, &given_model, given, agreed);
    settle(s, agreed, MPP_AT_INIT);
    if (s->source[MPP_MP_LAT_INTRA] == MPP_PSRC_CALIBRATED && any_crowded && !(s->implausible & 1u << MPP_LINK_INTRA))
        mpp_warn("a node runs more processes than it has processors: the communication model's intra-node "
                 "ping-pong (%.3g us one way) may have timed the scheduler rather than the link",
                 s->model.latency[MPP_LINK_INTRA] * 1e6);
    if (n.node != MPI_COMM_NULL)
        PMPI_Comm_free(&n.node);
}

void mpp_calibrate_again(MPI_Comm comm, mpp_calibration_t *c)
{
    mpp_model_setup_t *s = &c->setup;
    if (!s->enabled)
        return; /* (the same on every process) */
    double started = PMPI_Wtime(), measured[LINK_VALUES + 1] = {0}, agreed[LINK_VALUES + 1];
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    measure_links(comm, rank, s, measured);
    /* on one process too: its loop time is reported, and MPI_Init's few
     * runs alone would make it the fastest of fewer */
    agree_speed(comm, size, SPEED_REPS_FINALIZE, c);
    measured[LINK_VALUES] = PMPI_Wtime() - started;
    mpp_ptp_allreduce(measured, agreed, LINK_VALUES + 1, MPI_DOUBLE, MPI_MAX, comm);
    s->seconds_finalize = agreed[LINK_VALUES];
    settle(s, agreed, MPP_AT_FINALIZE);
}

void mpp_calibration_free(mpp_calibration_t *c)
{
    free(c->same_node);
    c->same_node = NULL;
}
