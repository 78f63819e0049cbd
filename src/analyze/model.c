/* The communication model (model.h; the formulas are also in mpiprof(7),
 * MODEL, which must say the same).  Notation: a latency, b = 1/bandwidth
 * seconds per byte, n the message size of mpp_model_size, P processes,
 * L = ceil(log2 P), f = (P-1)/P. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/model.h"

const char *const mpp_model_op_names[MPP_NOPS] = {
    "measured",  "zero",           "started",  "p2p",     "probe",   "barrier",  "bcast",     "reduce",
    "allreduce", "scan",           "gather",   "gatherv", "scatter", "scatterv", "allgather", "alltoall",
    "alltoallv", "reduce_scatter", "neighbor",
};

const char *const mpp_model_param_names[MPP_NMP] = {"lat_intra", "bw_intra", "lat_inter", "bw_inter"};

static int ceil_log2(int64_t p)
{
    int l = 0;
    while (l < 62 && ((int64_t)1 << l) < p)
        l++;
    return l;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int64_t mpp_model_size(int op, int64_t sent, int64_t recv, int64_t procs)
{
    if (sent < 0)
        sent = 0;
    if (recv < 0)
        recv = 0;
    if (procs < 1)
        procs = 1;
    switch (op) {
    case MPP_OP_GATHER:
    case MPP_OP_GATHERV:
    case MPP_OP_ALLGATHER: /* each process's block times P, or the root's (everyone's) receive */
        return max64(sent * procs, recv);
    case MPP_OP_SCATTER:
    case MPP_OP_SCATTERV:
    case MPP_OP_REDUCE_SCATTER: /* the root's (everyone's) send, or each process's block times P */
        return max64(sent, recv * procs);
    default:
        return max64(sent, recv);
    }
}

static int is_pof2(int64_t p) { return p > 0 && (p & (p - 1)) == 0; }

const char *mpp_model_algorithm(int op, int64_t n, int64_t P)
{
    switch (op) {
    case MPP_OP_P2P:
        return "one message";
    case MPP_OP_PROBE:
        return "message arrival";
    case MPP_OP_BARRIER:
        return "dissemination";
    case MPP_OP_BCAST:
        if (P < MPP_MODEL_BCAST_MIN_PROCS || n <= MPP_MODEL_BCAST_SHORT)
            return "binomial tree";
        if (is_pof2(P) && n <= MPP_MODEL_BCAST_LONG)
            return "scatter + recursive-doubling allgather";
        return "scatter + ring allgather";
    case MPP_OP_REDUCE:
        return n <= MPP_MODEL_REDUCE_SHORT ? "binomial tree" : "reduce-scatter + gather (Rabenseifner)";
    case MPP_OP_ALLREDUCE:
        return n <= MPP_MODEL_REDUCE_SHORT ? "recursive doubling" : "reduce-scatter + allgather (Rabenseifner)";
    case MPP_OP_SCAN:
        return "recursive doubling";
    case MPP_OP_GATHER:
    case MPP_OP_SCATTER:
        return "binomial tree";
    case MPP_OP_GATHERV:
    case MPP_OP_SCATTERV:
        return "linear";
    case MPP_OP_ALLGATHER:
        if (is_pof2(P) && n < MPP_MODEL_ALLGATHER_LONG)
            return "recursive doubling";
        if (!is_pof2(P) && n < MPP_MODEL_ALLGATHER_SHORT)
            return "Bruck";
        return "ring";
    case MPP_OP_ALLTOALL:
        if (P >= MPP_MODEL_ALLTOALL_MIN_PROCS && n / P <= MPP_MODEL_ALLTOALL_SHORT)
            return "Bruck";
        return "pairwise exchange";
    case MPP_OP_ALLTOALLV:
        return "pairwise exchange";
    case MPP_OP_REDUCE_SCATTER:
        return n < MPP_MODEL_REDUCE_SCATTER_LONG ? "recursive halving" : "pairwise exchange";
    case MPP_OP_NEIGHBOR:
        return "messages to all neighbours at once";
    default:
        return "none";
    }
}

void mpp_model_terms(int op, int64_t sent, int64_t recv, int64_t procs, double *units, double *bytes)
{
    *units = *bytes = 0.0;
    if (op < MPP_OP_P2P || op >= MPP_NOPS)
        return;
    int64_t P = procs < 1 ? 1 : procs;
    int64_t size = mpp_model_size(op, sent, recv, P);
    double n = (double)size, L = ceil_log2(P), f = (double)(P - 1) / (double)P, p1 = (double)(P - 1);
    double a = 0, b = 0; /* the formula's factors of the latency and of the inverse bandwidth */
    switch (op) {
    case MPP_OP_P2P:
    case MPP_OP_NEIGHBOR:
        a = 1, b = n;
        break;
    case MPP_OP_PROBE:
        a = 1;
        break;
    case MPP_OP_BARRIER:
        a = L;
        break;
    case MPP_OP_BCAST:
        if (P < MPP_MODEL_BCAST_MIN_PROCS || size <= MPP_MODEL_BCAST_SHORT)
            a = L, b = L * n;
        else if (is_pof2(P) && size <= MPP_MODEL_BCAST_LONG)
            a = 2 * L, b = 2 * f * n;
        else
            a = L + p1, b = 2 * f * n;
        break;
    case MPP_OP_REDUCE:
    case MPP_OP_ALLREDUCE:
        if (size <= MPP_MODEL_REDUCE_SHORT)
            a = L, b = L * n;
        else
            a = 2 * L, b = 2 * f * n;
        break;
    case MPP_OP_SCAN:
        a = L, b = L * n;
        break;
    case MPP_OP_GATHER:
    case MPP_OP_SCATTER:
        a = L, b = f * n;
        break;
    case MPP_OP_GATHERV:
    case MPP_OP_SCATTERV:
    case MPP_OP_ALLTOALLV:
        a = p1, b = f * n;
        break;
    case MPP_OP_ALLGATHER:
        if ((is_pof2(P) && size < MPP_MODEL_ALLGATHER_LONG) || (!is_pof2(P) && size < MPP_MODEL_ALLGATHER_SHORT))
            a = L, b = f * n;
        else
            a = p1, b = f * n;
        break;
    case MPP_OP_ALLTOALL:
        if (P >= MPP_MODEL_ALLTOALL_MIN_PROCS && size / P <= MPP_MODEL_ALLTOALL_SHORT)
            a = L, b = L * (n / 2);
        else
            a = p1, b = f * n;
        break;
    case MPP_OP_REDUCE_SCATTER:
        if (size < MPP_MODEL_REDUCE_SCATTER_LONG)
            a = L, b = f * n;
        else
            a = p1, b = f * n;
        break;
    default:
        break;
    }
    *units = a;
    *bytes = b;
}

__thread mpp_model_recent_t mpp_model_recent __attribute__((tls_model("initial-exec"))) = {-1, 0, 0, 0, 0.0, 0.0};

void mpp_model_terms_remember(int op, int64_t sent, int64_t recv, int64_t procs)
{
    mpp_model_recent_t *r = &mpp_model_recent;
    mpp_model_terms(op, sent, recv, procs, &r->units, &r->bytes);
    r->op = op, r->sent = sent, r->recv = recv, r->procs = procs;
}

double mpp_model_cost(const mpp_model_t *m, int op, int64_t sent, int64_t recv, int64_t procs, int link)
{
    if (!m || link < 0 || link >= MPP_NLINKS)
        return 0.0;
    double price[MPP_NPRICE] = {0};
    mpp_model_terms(op, sent, recv, procs, &price[2 * link + MPP_PRICE_UNITS], &price[2 * link + MPP_PRICE_BYTES]);
    return mpp_model_price_seconds(m, price);
}

/* --- parameters --- */

double *mpp_model_param(mpp_model_t *m, int which)
{
    switch (which) {
    case MPP_MP_LAT_INTRA:
        return &m->latency[MPP_LINK_INTRA];
    case MPP_MP_BW_INTRA:
        return &m->bandwidth[MPP_LINK_INTRA];
    case MPP_MP_LAT_INTER:
        return &m->latency[MPP_LINK_INTER];
    case MPP_MP_BW_INTER:
        return &m->bandwidth[MPP_LINK_INTER];
    default:
        return NULL;
    }
}

double mpp_model_param_value(const mpp_model_t *m, int which)
{
    double *p = mpp_model_param((mpp_model_t *)m, which);
    return p ? *p : NAN;
}

static int is_latency(int which) { return which == MPP_MP_LAT_INTRA || which == MPP_MP_LAT_INTER; }

void mpp_model_format_param(int which, double v, char *out, size_t size)
{
    if (is_latency(which)) {
        if (v >= 1e-3)
            snprintf(out, size, "%.4gms", v * 1e3);
        else
            snprintf(out, size, "%.4gus", v * 1e6);
    } else if (v >= 1e9) {
        snprintf(out, size, "%.4gGB/s", v * 1e-9);
    } else if (v >= 1e6) {
        snprintf(out, size, "%.4gMB/s", v * 1e-6);
    } else {
        snprintf(out, size, "%.4gKB/s", v * 1e-3);
    }
}

typedef struct {
    const char *suffix;
    double factor;
} unit_t;

static const unit_t time_units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"", 1}};
static const unit_t rate_units[] = {{"B/s", 1},        {"KB/s", 1e3},        {"MB/s", 1e6},           {"GB/s", 1e9},
                                    {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {"", 1}};

static int parse_value(const char *text, int latency, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v <= 0)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    const unit_t *units = latency ? time_units : rate_units;
    size_t n = latency ? sizeof time_units / sizeof *time_units : sizeof rate_units / sizeof *rate_units;
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(end, units[i].suffix)) {
            *out = v * units[i].factor;
            return isfinite(*out) && *out > 0 ? 0 : -1;
        }
    return -1;
}

int mpp_model_parse(const char *text, mpp_model_t *m, unsigned *given, char *why, size_t why_size)
{
    mpp_model_t parsed = *m;
    unsigned bits = 0;
    if (!text || !*text) {
        snprintf(why, why_size, "it is empty");
        return -1;
    }
    if (!strcasecmp(text, "calibrate")) {
        *given = 0;
        return 0;
    }
    char copy[1024];
    if (strlen(text) >= sizeof copy) {
        snprintf(why, why_size, "it is too long");
        return -1;
    }
    strcpy(copy, text);
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*item))
            item++;
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(why, why_size, "'%.40s' is not name=value", item);
            return -1;
        }
        *eq = '\0';
        char *end = eq;
        while (end > item && isspace((unsigned char)end[-1]))
            *--end = '\0';
        int which = -1;
        for (int k = 0; k < MPP_NMP; k++)
            if (!strcasecmp(item, mpp_model_param_names[k]))
                which = k;
        if (which < 0) {
            snprintf(why, why_size, "'%.40s' is not a parameter of the model", item);
            return -1;
        }
        if (bits & (1u << which)) {
            snprintf(why, why_size, "%s is given twice", mpp_model_param_names[which]);
            return -1;
        }
        char *value = eq + 1;
        while (isspace((unsigned char)*value))
            value++;
        for (char *t = value + strlen(value); t > value && isspace((unsigned char)t[-1]);)
            *--t = '\0';
        if (parse_value(value, is_latency(which), mpp_model_param(&parsed, which)) != 0) {
            snprintf(why, why_size, "%s='%.40s' is not a positive %s", mpp_model_param_names[which], value,
                     is_latency(which) ? "time" : "rate");
            return -1;
        }
        bits |= 1u << which;
    }
    if (!bits) {
        snprintf(why, why_size, "it names no parameter");
        return -1;
    }
    *m = parsed;
    *given = bits;
    return 0;
}

/* --- the calibration's measurements --- */

void mpp_model_link_from(const mpp_pingpong_t *pp, double *latency, double *bandwidth)
{
    double transfer = pp->large - pp->small;
    if (transfer < 0.05 * pp->large) /* the latency is all there is: keep the bandwidth finite */
        transfer = 0.05 * pp->large;
    *latency = pp->small;
    *bandwidth = transfer > 0 ? MPP_CALIBRATION_LARGE / transfer : 0.0;
}

int mpp_model_plausible_latency(int link, double latency)
{
    double most = link == MPP_LINK_INTRA ? MPP_PLAUSIBLE_LATENCY_INTRA : MPP_PLAUSIBLE_LATENCY_INTER;
    return latency > 0 && latency <= most;
}

int mpp_model_plausible_bandwidth(int link, double bandwidth)
{
    double least = link == MPP_LINK_INTRA ? MPP_PLAUSIBLE_BANDWIDTH_INTRA : MPP_PLAUSIBLE_BANDWIDTH_INTER;
    return bandwidth >= least && isfinite(bandwidth);
}

static int link_latency_param(int link) { return link == MPP_LINK_INTRA ? MPP_MP_LAT_INTRA : MPP_MP_LAT_INTER; }

void mpp_model_keep_better(mpp_model_setup_t *s, int link)
{
    int lat = link_latency_param(link), bw = lat + 1;
    double best_lat = INFINITY, best_bw = 0;
    int at_lat = MPP_AT_INIT, at_bw = MPP_AT_INIT;
    for (int at = 0; at < MPP_NAT; at++) {
        const mpp_pingpong_t *pp = &s->measured[link][at];
        if (!(pp->small > 0 && pp->large > 0))
            continue;
        double l, b;
        mpp_model_link_from(pp, &l, &b);
        if (l < best_lat)
            best_lat = l, at_lat = at;
        if (b > best_bw)
            best_bw = b, at_bw = at;
    }
    s->implausible &= ~(1u << link);
    if (s->source[lat] == MPP_PSRC_CALIBRATED && isfinite(best_lat)) {
        s->model.latency[link] = best_lat;
        s->at[lat] = at_lat;
        if (!mpp_model_plausible_latency(link, best_lat))
            s->implausible |= 1u << link;
    }
    if (s->source[bw] == MPP_PSRC_CALIBRATED && best_bw > 0) {
        s->model.bandwidth[link] = best_bw;
        s->at[bw] = at_bw;
        if (!mpp_model_plausible_bandwidth(link, best_bw))
            s->implausible |= 1u << link;
    }
}

static const char *const link_names[MPP_NLINKS] = {"intra-node", "inter-node"};
static const char *const at_names[MPP_NAT] = {"MPI_Init", "MPI_Finalize"};

/* "0.21us" or "5.3GB/s": a parameter as one measurement gave it. */
static void measured_param(const mpp_model_setup_t *s, int which, int at, char *out, size_t size)
{
    int link = which == MPP_MP_LAT_INTRA || which == MPP_MP_BW_INTRA ? MPP_LINK_INTRA : MPP_LINK_INTER;
    double l, b;
    mpp_model_link_from(&s->measured[link][at], &l, &b);
    mpp_model_format_param(which, which == link_latency_param(link) ? l : b, out, size);
}

static int measured_at(const mpp_model_setup_t *s, int link, int at)
{
    return s->measured[link][at].small > 0 && s->measured[link][at].large > 0;
}

void mpp_model_na_reason(const mpp_model_setup_t *s, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    n += (size_t)snprintf(out, size, "the communication model could not be calibrated:");
    for (int link = 0; link < MPP_NLINKS && n < size; link++) {
        if (!(s->implausible & (1u << link)))
            continue;
        int lat = link_latency_param(link), bw = lat + 1;
        char most[32], least[32];
        mpp_model_format_param(lat,
                               link == MPP_LINK_INTRA ? MPP_PLAUSIBLE_LATENCY_INTRA : MPP_PLAUSIBLE_LATENCY_INTER,
                               most, sizeof most);
        mpp_model_format_param(bw,
                               link == MPP_LINK_INTRA ? MPP_PLAUSIBLE_BANDWIDTH_INTRA : MPP_PLAUSIBLE_BANDWIDTH_INTER,
                               least, sizeof least);
        n += (size_t)snprintf(out + n, size - n, " the %s ping-pong of ranks %d and %d took", link_names[link],
                              s->pair[link][0], s->pair[link][1]);
        int first = 1;
        for (int at = 0; at < MPP_NAT && n < size; at++) {
            if (!measured_at(s, link, at))
                continue;
            char vl[32], vb[32];
            measured_param(s, lat, at, vl, sizeof vl);
            measured_param(s, bw, at, vb, sizeof vb);
            n += (size_t)snprintf(out + n, size - n, "%s %s one way (128 KiB at %s) at %s", first ? "" : " and", vl,
                                  vb, at_names[at]);
            first = 0;
        }
        if (n < size)
            n += (size_t)snprintf(out + n, size - n,
                                  ", beyond what a link takes (at most %s, at least %s): the time its processes "
                                  "waited for the scheduler%s;",
                                  most, least,
                                  s->shared_cpu & (1u << link) ? ", sharing one CPU their affinity lets neither leave"
                                                               : "");
    }
    if (n < size)
        snprintf(out + n, size - n, " give the parameters in MPIPROF_MODEL");
}

/* --- the protocol's lines --- */

void mpp_model_source_text(const mpp_model_setup_t *s, int which, char *out, size_t size)
{
    int link = (which == MPP_MP_LAT_INTRA || which == MPP_MP_BW_INTRA) ? MPP_LINK_INTRA : MPP_LINK_INTER;
    switch (s->source[which]) {
    case MPP_PSRC_GIVEN:
        snprintf(out, size, "given in MPIPROF_MODEL");
        break;
    case MPP_PSRC_CALIBRATED: {
        int at = s->at[which] == MPP_AT_FINALIZE ? MPP_AT_FINALIZE : MPP_AT_INIT, other = 1 - at;
        char figure[48] = "";
        if (measured_at(s, link, other)) { /* measured at both ends: what the other one gave */
            char v[32];
            measured_param(s, which, other, v, sizeof v);
            snprintf(figure, sizeof figure, " (%s: %s)", at_names[other], v);
        }
        snprintf(out, size, "calibrated at %s%s: ping-pong of ranks %d and %d, %d B and %d KiB messages",
                 at_names[at], figure, s->pair[link][0], s->pair[link][1], MPP_CALIBRATION_SMALL,
                 MPP_CALIBRATION_LARGE / 1024);
        break;
    }
    case MPP_PSRC_AS_INTRA:
        snprintf(out, size,
                 "not measured: all processes run on one node, so no message leaves it; "
                 "the intra-node value");
        break;
    case MPP_PSRC_AS_INTER:
        snprintf(out, size, "not measured: no node runs two processes; the inter-node value");
        break;
    default:
        snprintf(out, size, "not measured: one process, no message to time; a built-in value");
        break;
    }
}

int mpp_model_describe(const mpp_model_setup_t *s, char lines[][MPP_MODEL_LINE], int max)
{
    int n = 0;
    if (max < MPP_MODEL_MAX_LINES)
        return 0;
    if (!s || !s->enabled) {
        snprintf(lines[n++], MPP_MODEL_LINE, "n/a (MPIPROF_PREDICT=off)");
        return n;
    }
    snprintf(lines[n++], MPP_MODEL_LINE,
             "message = latency + bytes/bandwidth (intra-node and inter-node parameters); collectives by "
             "MPICH's algorithms for their size; computation = the mean over processes, by core speed "
             "(mpiprof(7), MODEL)");
    for (int link = 0; link < MPP_NLINKS; link++) {
        int lat = link_latency_param(link), bw = lat + 1;
        char vl[32], vb[32], sl[192], sb[192];
        mpp_model_format_param(lat, mpp_model_param_value(&s->model, lat), vl, sizeof vl);
        mpp_model_format_param(bw, mpp_model_param_value(&s->model, bw), vb, sizeof vb);
        mpp_model_source_text(s, lat, sl, sizeof sl);
        mpp_model_source_text(s, bw, sb, sizeof sb);
        const char *na =
            s->implausible & (1u << link) ? "; not plausible: the predicted characteristics are n/a" : "";
        if (s->source[lat] == MPP_PSRC_CALIBRATED && s->source[bw] == MPP_PSRC_CALIBRATED &&
            measured_at(s, link, MPP_AT_FINALIZE)) {
            /* measured at both ends: where each parameter is from */
            char ol[32], ob[32];
            measured_param(s, lat, 1 - s->at[lat], ol, sizeof ol);
            measured_param(s, bw, 1 - s->at[bw], ob, sizeof ob);
            snprintf(lines[n++], MPP_MODEL_LINE,
                     "%s: %s=%s %s=%s (calibrated by a ping-pong of ranks %d and %d, %d B and %d KiB messages: %s "
                     "at %s (%s: %s), %s at %s (%s: %s)%s)",
                     link_names[link], mpp_model_param_names[lat], vl, mpp_model_param_names[bw], vb,
                     s->pair[link][0], s->pair[link][1], MPP_CALIBRATION_SMALL, MPP_CALIBRATION_LARGE / 1024,
                     mpp_model_param_names[lat], at_names[s->at[lat]], at_names[1 - s->at[lat]], ol,
                     mpp_model_param_names[bw], at_names[s->at[bw]], at_names[1 - s->at[bw]], ob, na);
        } else if (!strcmp(sl, sb)) {
            snprintf(lines[n++], MPP_MODEL_LINE, "%s: %s=%s %s=%s (%s%s)", link_names[link],
                     mpp_model_param_names[lat], vl, mpp_model_param_names[bw], vb, sl, na);
        } else {
            snprintf(lines[n++], MPP_MODEL_LINE, "%s: %s=%s (%s), %s=%s (%s)%s", link_names[link],
                     mpp_model_param_names[lat], vl, sl, mpp_model_param_names[bw], vb, sb, na);
        }
    }
    snprintf(lines[n++], MPP_MODEL_LINE,
             "core speed: relative %.3f (rank %d) to %.3f (rank %d), mean 1, from a %.3g ms compute loop timed on "
             "every process at MPI_Init%s",
             s->speed_min, s->speed_min_rank, s->speed_max, s->speed_max_rank, s->speed_loop * 1e3,
             s->seconds_finalize > 0 ? " and MPI_Finalize (the faster of the two)" : "");
    if (s->seconds_finalize > 0)
        snprintf(lines[n++], MPP_MODEL_LINE,
                 "calibration took %.3g ms at MPI_Init and %.3g ms at MPI_Finalize "
                 "(%d node%s)",
                 s->seconds * 1e3, s->seconds_finalize * 1e3, s->nodes, s->nodes == 1 ? "" : "s");
    else
        snprintf(lines[n++], MPP_MODEL_LINE, "calibration at MPI_Init took %.3g ms (%d node%s)", s->seconds * 1e3,
                 s->nodes, s->nodes == 1 ? "" : "s");
    return n;
}
