/* Every number follows characteristics.md.  Per process p of an interval
 * executed by P processes, with T_exec = max_p T_exec(p):
 *   idle(p)        = T_exec - T_exec(p)
 *   lost(p)        = comm(p) + idle(p) + insufficient(p) = T_exec - productive(p)
 *   imbalance(p)   = max_q C(q) - C(p)
 * so the comparative rows of idle, lost and imbalance follow from the
 * minima and maxima of T_exec(p), productive(p) and C(p), which the reduction
 * provides with the ranks that have them. */
#include <math.h>
#include <stdlib.h>

#include "analyze/characteristics.h"

const mpp_name_t mpp_main_names[MPP_NMAIN] = {
    {"Parallelization efficiency", "parallelization_efficiency"},
    {"Execution time", "execution_time"},
    {"Processors", "processors"},
    {"Total time", "total_time"},
    {"Productive time", "productive_time"},
    {"CPU", "productive_cpu"},
    {"Sys", "productive_sys"},
    {"I/O", "productive_io"},
    {"Lost time", "lost_time"},
    {"Insufficient parallelism", "insufficient_parallelism"},
    {"Communication", "communication"},
    {"SendRecv", "sendrecv"},
    {"Real_sync", "real_sync"},
    {"Collective", "collective"},
    {"System", "system"},
    {"Idle time", "idle_time"},
    {"Load imbalance", "load_imbalance"},
    {"Potential sync", "potential_sync"},
    {"Time variation", "time_variation"},
    {"Overlap", "overlap"},
};

const mpp_name_t mpp_per_process_names[MPP_NPP] = {
    {"Execution time", "execution_time"},
    {"Productive time", "productive_time"},
    {"Lost time", "lost_time"},
    {"Insufficient parallelism", "insufficient_parallelism"},
    {"Communication", "communication"},
    {"SendRecv", "sendrecv"},
    {"Real sync", "real_sync"},
    {"Collective", "collective"},
    {"System", "system"},
    {"Idle time", "idle_time"},
    {"Load imbalance", "load_imbalance"},
    {"Potential sync", "potential_sync"},
    {"Time variation", "time_variation"},
    {"Overlap", "overlap"},
};

const char mpp_predicted_waits_reason[] =
    "Real sync, Potential sync and Time variation are n/a in the predicted characteristics: the communication "
    "model has no waiting";

const char mpp_partial_waits_reason[] =
    "Real sync, Potential sync and Time variation are n/a in a partial protocol: they pair instants of "
    "several processes, which a process that ends alone does not have";

const char mpp_split_unmeasured_reason[] =
    "CPU and Sys of the Productive time are n/a where getrusage counted no CPU time at all (nothing to divide "
    "the time outside MPI-IO by)";

const char mpp_overlap_off_reason[] =
    "Overlap and the predicted characteristics are n/a: MPIPROF_PREDICT=off (Overlap needs the communication "
    "model's transfer times)";

void mpp_process_quantities(const mpp_local_interval_t *in, int processes, double q[MPP_NQ])
{
    double comm = in->cat[0] + in->cat[1] + in->cat[2]; /* SendRecv, Collective, System */
    double insufficient = processes > 0 ? in->seq * (processes - 1) / processes : 0.0;
    q[MPP_Q_EXEC] = in->exec;
    q[MPP_Q_COMM] = comm;
    q[MPP_Q_SENDRECV] = in->cat[0];
    q[MPP_Q_COLLECTIVE] = in->cat[1];
    q[MPP_Q_SYSTEM] = in->cat[2];
    q[MPP_Q_IO] = in->cat[3];
    q[MPP_Q_INSUFFICIENT] = insufficient;
    q[MPP_Q_PRODUCTIVE] = in->exec - comm - insufficient;
    q[MPP_Q_COMPUTE] = in->exec - comm - in->cat[3];
    q[MPP_Q_CPU] = in->cpu;
    q[MPP_Q_SYS] = in->sys;
    q[MPP_Q_OVERLAP] = in->overlap;
    q[MPP_Q_REALSYNC] = in->wait[0];
    q[MPP_Q_POTSYNC] = in->wait[1];
    q[MPP_Q_VARIATION] = in->wait[2];
}

void mpp_process_work(const double q[MPP_NQ], double speed, double *work, double *insufficient_work)
{
    double s = speed > 0 ? speed : 1.0;
    *work = q[MPP_Q_COMPUTE] * s;
    *insufficient_work = q[MPP_Q_INSUFFICIENT] * s;
}

void mpp_predicted_quantities(const double q[MPP_NQ], const double pcat[MPP_NCAT], double speed, double mean_work,
                              double mean_insufficient_work, double out[MPP_NQ])
{
    double s = speed > 0 ? speed : 1.0;
    double compute = mean_work / s;
    double io = pcat[MPP_CAT_IO];
    double comm = pcat[MPP_CAT_SENDRECV] + pcat[MPP_CAT_COLLECTIVE] + pcat[MPP_CAT_SYSTEM];
    double insufficient = mean_insufficient_work / s;
    if (insufficient > compute + io)
        insufficient = compute + io;
    out[MPP_Q_EXEC] = compute + comm + io;
    out[MPP_Q_COMM] = comm;
    out[MPP_Q_SENDRECV] = pcat[MPP_CAT_SENDRECV];
    out[MPP_Q_COLLECTIVE] = pcat[MPP_CAT_COLLECTIVE];
    out[MPP_Q_SYSTEM] = pcat[MPP_CAT_SYSTEM];
    out[MPP_Q_IO] = io;
    out[MPP_Q_INSUFFICIENT] = insufficient;
    out[MPP_Q_PRODUCTIVE] = out[MPP_Q_EXEC] - comm - insufficient;
    out[MPP_Q_COMPUTE] = compute;
    out[MPP_Q_CPU] = q[MPP_Q_CPU];
    out[MPP_Q_SYS] = q[MPP_Q_SYS];
    out[MPP_Q_OVERLAP] = q[MPP_Q_OVERLAP];
    /* the model has no waiting: the predicted wait states are n/a (not
     * reduced into the predicted characteristics, see characteristics()) */
    out[MPP_Q_REALSYNC] = out[MPP_Q_POTSYNC] = out[MPP_Q_VARIATION] = 0;
}

/* The mean of values lies between their minimum and maximum; sum / count
 * can round just outside (three equal values x: 3x / 3 may exceed x), and
 * a reflected mean then goes below 0. */
static double mean_within(double mean, double min, double max) { return mean < min ? min : mean > max ? max : mean; }

static mpp_comparison_t direct(const mpp_stat_t *s)
{
    mpp_comparison_t c = {s->min, s->max, s->count ? mean_within(s->sum / s->count, s->min, s->max) : NAN,
                          s->min_rank, s->max_rank};
    return c;
}

/* X(p) = base - Y(p): the minimum of X is where Y is largest. */
static mpp_comparison_t reflected(double base, const mpp_stat_t *y)
{
    mpp_comparison_t c = {base - y->max, base - y->min,
                          y->count ? base - mean_within(y->sum / y->count, y->min, y->max) : NAN, y->max_rank,
                          y->min_rank};
    return c;
}

static mpp_comparison_t not_available(void)
{
    mpp_comparison_t c = {NAN, NAN, NAN, -1, -1};
    return c;
}

/* Productive split (characteristics.md): I/O is the time measured in MPI-IO
 * calls; CPU and Sys divide the rest in the ratio of getrusage's user to
 * system time (its values also count MPI's busy polling, which is
 * Communication: only the ratio is used).  The rest is negative only when
 * replicated code does MPI-IO (its insufficient parallelism is then I/O
 * too): I/O is what remains productive.  Without any CPU time measured
 * the rest cannot be divided: n/a (mpp_split_unmeasured_reason). */
static void productive_split(double productive, double io, double user, double sys, double *cpu_out, double *sys_out,
                             double *io_out)
{
    double rest = productive - io;
    if (rest < 0) {
        io = productive > 0 ? productive : 0;
        rest = 0;
    }
    *io_out = io;
    if (user + sys > 0) {
        *cpu_out = rest * (user / (user + sys));
        *sys_out = rest - *cpu_out;
    } else if (rest == 0) {
        *cpu_out = *sys_out = 0;
    } else {
        *cpu_out = *sys_out = NAN;
    }
}

/* The characteristics of the quantities q (sums, minima, maxima over the
 * processes) and their per-process values by_process; `entered` gives, per
 * selected process, whether it entered the interval (NaN execution time). */
static int characteristics(const mpp_stat_t *q, const double *by_process, const double *entered, int processes,
                           int overlap_known, int waits_known, int nselected, mpp_interval_result_t *r)
{
    double P = processes;
    double t_exec = q[MPP_Q_EXEC].max;
    double c_max = q[MPP_Q_COMPUTE].max;
    double *m = r->main;

    m[MPP_M_EXEC] = t_exec;
    m[MPP_M_PROCESSORS] = P;
    m[MPP_M_TOTAL] = t_exec * P;
    m[MPP_M_COMM] = q[MPP_Q_COMM].sum;
    m[MPP_M_SENDRECV] = q[MPP_Q_SENDRECV].sum;
    m[MPP_M_COLLECTIVE] = q[MPP_Q_COLLECTIVE].sum;
    m[MPP_M_SYSTEM] = q[MPP_Q_SYSTEM].sum;
    m[MPP_M_IDLE] = P * t_exec - q[MPP_Q_EXEC].sum;
    m[MPP_M_INSUFFICIENT] = q[MPP_Q_INSUFFICIENT].sum;
    m[MPP_M_LOST] = m[MPP_M_COMM] + m[MPP_M_IDLE] + m[MPP_M_INSUFFICIENT];
    m[MPP_M_PRODUCTIVE] = m[MPP_M_TOTAL] - m[MPP_M_LOST];
    m[MPP_M_KEFF] = m[MPP_M_TOTAL] > 0 ? m[MPP_M_PRODUCTIVE] / m[MPP_M_TOTAL] : 1.0;
    m[MPP_M_IMBALANCE] = P * c_max - q[MPP_Q_COMPUTE].sum;
    m[MPP_M_REALSYNC] = waits_known ? q[MPP_Q_REALSYNC].sum : NAN;
    m[MPP_M_POTSYNC] = waits_known ? q[MPP_Q_POTSYNC].sum : NAN;
    m[MPP_M_VARIATION] = waits_known ? q[MPP_Q_VARIATION].sum : NAN;
    m[MPP_M_OVERLAP] = overlap_known ? q[MPP_Q_OVERLAP].sum : NAN;

    productive_split(m[MPP_M_PRODUCTIVE], q[MPP_Q_IO].sum, q[MPP_Q_CPU].sum, q[MPP_Q_SYS].sum, &m[MPP_M_CPU],
                     &m[MPP_M_SYS], &m[MPP_M_IO]);

    mpp_comparison_t *c = r->cmp;
    c[MPP_P_EXEC] = direct(&q[MPP_Q_EXEC]);
    c[MPP_P_PRODUCTIVE] = direct(&q[MPP_Q_PRODUCTIVE]);
    c[MPP_P_LOST] = reflected(t_exec, &q[MPP_Q_PRODUCTIVE]);
    c[MPP_P_INSUFFICIENT] = direct(&q[MPP_Q_INSUFFICIENT]);
    c[MPP_P_COMM] = direct(&q[MPP_Q_COMM]);
    c[MPP_P_SENDRECV] = direct(&q[MPP_Q_SENDRECV]);
    c[MPP_P_COLLECTIVE] = direct(&q[MPP_Q_COLLECTIVE]);
    c[MPP_P_SYSTEM] = direct(&q[MPP_Q_SYSTEM]);
    c[MPP_P_IDLE] = reflected(t_exec, &q[MPP_Q_EXEC]);
    c[MPP_P_IMBALANCE] = reflected(c_max, &q[MPP_Q_COMPUTE]);
    c[MPP_P_REALSYNC] = waits_known ? direct(&q[MPP_Q_REALSYNC]) : not_available();
    c[MPP_P_POTSYNC] = waits_known ? direct(&q[MPP_Q_POTSYNC]) : not_available();
    c[MPP_P_VARIATION] = waits_known ? direct(&q[MPP_Q_VARIATION]) : not_available();
    c[MPP_P_OVERLAP] = overlap_known ? direct(&q[MPP_Q_OVERLAP]) : not_available();

    r->by_process = malloc(sizeof(double) * (size_t)(nselected ? nselected : 1) * MPP_NPP);
    if (!r->by_process)
        return -1;
    for (int s = 0; s < nselected; s++) {
        const double *v = by_process + (size_t)s * MPP_NQ;
        double *out = r->by_process + (size_t)s * MPP_NPP;
        for (int k = 0; k < MPP_NPP; k++)
            out[k] = NAN;
        if (isnan(entered[(size_t)s * MPP_NQ + MPP_Q_EXEC]) || isnan(v[MPP_Q_EXEC]))
            continue; /* this process did not enter the interval */
        out[MPP_P_EXEC] = v[MPP_Q_EXEC];
        out[MPP_P_PRODUCTIVE] = v[MPP_Q_PRODUCTIVE];
        out[MPP_P_LOST] = t_exec - v[MPP_Q_PRODUCTIVE];
        out[MPP_P_INSUFFICIENT] = v[MPP_Q_INSUFFICIENT];
        out[MPP_P_COMM] = v[MPP_Q_COMM];
        out[MPP_P_SENDRECV] = v[MPP_Q_SENDRECV];
        out[MPP_P_COLLECTIVE] = v[MPP_Q_COLLECTIVE];
        out[MPP_P_SYSTEM] = v[MPP_Q_SYSTEM];
        out[MPP_P_IDLE] = t_exec - v[MPP_Q_EXEC];
        out[MPP_P_IMBALANCE] = c_max - v[MPP_Q_COMPUTE];
        if (overlap_known)
            out[MPP_P_OVERLAP] = v[MPP_Q_OVERLAP];
        if (waits_known) {
            out[MPP_P_REALSYNC] = v[MPP_Q_REALSYNC];
            out[MPP_P_POTSYNC] = v[MPP_Q_POTSYNC];
            out[MPP_P_VARIATION] = v[MPP_Q_VARIATION];
        }
    }
    return 0;
}

int mpp_characteristics(const mpp_reduced_interval_t *in, int nselected, mpp_interval_result_t *r)
{
    return characteristics(in->q, in->by_process, in->by_process, in->processes, in->overlap_known,
                           in->waitstates_known, nselected, r);
}

int mpp_characteristics_predicted(const mpp_reduced_interval_t *in, int nselected, mpp_interval_result_t *r)
{
    if (!in->predicted || (nselected && !in->pred_by_process))
        return -1;
    return characteristics(in->pq, in->pred_by_process, in->by_process, in->processes, in->overlap_known, 0,
                           nselected, r);
}
