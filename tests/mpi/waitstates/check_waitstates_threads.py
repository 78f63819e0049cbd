"""Check the protocol of tests/mpi/waitstates/waitstates_threads.c (see
test_waitstates_threads.sh).

usage: check_waitstates_threads.py PROTOCOL.json PROTOCOL.txt SOURCE.c
                                   [SCHEMA.json]

Two threads per process, each on its own duplicated communicator, STEPS = 20
rounds (waitstates_threads.c), under MPI_THREAD_MULTIPLE with the wait-state
analyses on:
  - every invariant holds (Real sync <= SendRecv among them), the text
    agrees with the JSON, the thread level is stated;
  - every call site has exactly the calls (and bytes) the threads made:
    both threads' calls at one SRC point (same call stack), 2 x 20 per
    process;
  - every message sent is paired with its receive (when the Parameters
    entry of the wait-state analyses counts them: 'N messages paired of M
    sent'): each is received by a profiled call;
  - the wait states are there: interval 0's Real sync, Potential sync and
    Time variation are values, not n/a; Real sync of the late sender's
    MPI_Recv is at least a quarter of its nominal 2 x 20 x 2 ms (and at
    most the time in it: invariants), all rank 0's; Potential sync of the
    skewed MPI_Allreduce at least a quarter of its nominal 2 x 20 x 1 ms.
    (Loose bounds: four threads on a small machine do not keep
    to the nominal times; the point is that the analyses run and stay
    consistent with threads, not their precision.)
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

NTHREADS, STEPS, B = 2, 20, 16        # as in waitstates_threads.c
T_LATE, T_SKEW = 0.002, 0.001
K = NTHREADS * STEPS                  # calls per process per worker site
OTHERS = ("MPI_Init_thread", "MPI_Comm_rank", "MPI_Comm_size",
          "MPI_Finalize")


def at_least_quarter(what, s, key, nominal):
    """SRC point s's statistic key, at least a quarter of nominal."""
    st = pc.src_stat(s, key)
    if st["sum"] < 0.25 * nominal:
        pc.fail("%s of %s %s is %.6f, expected at least a quarter of the "
                "nominal %.6f" % (key, what, pc.describe_src(s), st["sum"],
                                  nominal))
    return st


def main(json_path, text_path, source, schema=None):
    doc = ws.load_checked(json_path, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)
    pc.check_threads_level(doc, "MPI_THREAD_MULTIPLE")
    pc.check_call_sites(
        doc, source,
        [{"function": "MPI_Send", "marker": "t_send", "calls": {1: K},
          "bytes_sent": {1: K * B}, "bytes_recv": {},
          "caller": "run_work"},
         {"function": "MPI_Recv", "marker": "t_recv", "calls": {0: K},
          "bytes_sent": {}, "bytes_recv": {0: K * B},
          "caller": "run_work"},
         {"function": "MPI_Irecv", "marker": "t_irecv",
          "calls": {0: K, 1: K}, "bytes_recv": {0: K * B, 1: K * B},
          "caller": "run_work"},
         {"function": "MPI_Isend", "marker": "t_isend",
          "calls": {0: K, 1: K}, "bytes_sent": {0: K * B, 1: K * B},
          "caller": "run_work"},
         {"function": "MPI_Waitall", "marker": "t_waitall",
          "calls": {0: K, 1: K}, "caller": "run_work"},
         {"function": "MPI_Iallreduce", "marker": "t_iallreduce",
          "calls": {0: K, 1: K}, "caller": "run_work"},
         {"function": "MPI_Wait", "marker": "t_iwait",
          "calls": {0: K, 1: K}, "caller": "run_work"},
         {"function": "MPI_Barrier", "marker": "t_barrier",
          "calls": {0: K, 1: K}, "caller": "run_work"},
         {"function": "MPI_Comm_dup", "marker": "dup",
          "calls": {0: NTHREADS, 1: NTHREADS}},
         {"function": "MPI_Comm_free", "marker": "free",
          "calls": {0: NTHREADS, 1: NTHREADS}}],
        OTHERS + ("MPI_Allreduce",))
    # Two MPI_Allreduce call sites: the threads' and the main thread's.
    ar = pc.site(doc, 0, "MPI_Allreduce", source, "t_allreduce")
    pc.check_counts(ar, calls={0: K, 1: K},
                    bytes_sent={0: 4 * K, 1: 4 * K},
                    bytes_recv={0: 4 * K, 1: 4 * K})
    chk = pc.site(doc, 0, "MPI_Allreduce", source, "m_check")
    pc.check_counts(chk, calls={0: 1, 1: 1})
    n_ar = len(pc.find_src(doc, "MPI_Allreduce"))
    if n_ar != 2:
        pc.fail("%d SRC points of MPI_Allreduce, expected 2:\n%s"
                % (n_ar, pc.describe_srcs(doc)))

    iv0 = pc.interval(doc, 0)
    for key in ws.WS_KEYS:
        pc.main_value(iv0, key)
    ws.check_realsync_le_sendrecv(iv0)
    recv = pc.site(doc, 0, "MPI_Recv", source, "t_recv")
    rs = at_least_quarter("the late sender's", recv, "real_sync", K * T_LATE)
    if rs.get("max_rank") != 0:
        pc.fail("Real sync of %s is rank %r's, expected rank 0's (%r)"
                % (pc.describe_src(recv), rs.get("max_rank"), rs))
    ps = at_least_quarter("the skewed", ar, "potential_sync", K * T_SKEW)
    pc.src_stat(ar, "time_variation")
    print("threads: Real sync %.6f at the late sender's MPI_Recv, "
          "Potential sync %.6f at the skewed MPI_Allreduce; counts exact"
          % (rs["sum"], ps["sum"]))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
