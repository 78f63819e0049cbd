"""Check one protocol of tests/mpi/waitstates/waitstates_idup_threads.c (see
test_waitstates_idup_threads.sh).

usage: check_waitstates_idup_threads.py SOURCE.c SCHEMA.json|- PROTOCOL.txt
                                        EVENTS
  (the JSON protocol is PROTOCOL.txt.json; EVENTS the prefix of the
  program's event files, waitstates_events.c)

NTHREADS = 2 threads per process, ITERS = 150 rounds each (as in the
program), MPI_THREAD_MULTIPLE, wait-state analyses on:
  - every invariant, the text agreeing with the JSON, the schema; every
    message paired with its receive (the messages on idup'ed communicators
    included: each is received by a profiled call);
  - the calls of the skewed MPI_Allreduce, of the late MPI_Send and
    MPI_Recv and of the grandchildren's MPI_Barrier counted exactly;
  - the collectives on idup'ed communicators analysed: Potential sync and
    Time variation computed (not n/a) at the SRC points of every
    nonblocking collective (one on the parents, one on the first children)
    and of the grandchildren's MPI_Barrier; the skewed
    MPI_Allreduce's Potential sync, rank 0's (the union of both threads'
    windows: each instant of a process counts once), and the late
    receive's Real sync within 25% (or 20 ms) of what the program's instants give
    (threads on 2 cores may be held between the program's instant and the
    profiler's), differences below the protocol's threshold counting as 0;
    when that threshold is more than a quarter of the program's 2 ms waits
    (clocks aligned coarsely on a loaded machine) the values are not
    compared, only computed.
"""
import re
import sys

import protocol_check as pc
import protocol_waitstates as ws

NTHREADS, ITERS = 2, 150
K = NTHREADS * ITERS
T_SKEW = T_LATE = 0.002
REL, ABS = 0.25, 0.02  # threads on 2 cores: the program's instants are
                       # taken around the wrappers, the profiler's inside


def threshold(doc):
    """The Clock parameter's 'differences below X s count as 0'."""
    m = re.search(r"differences below ([0-9.eE+-]+) s count as 0",
                  str(doc["parameters"].get("clock")))
    if not m:
        pc.fail("the clock parameter does not give the threshold below which "
                "differences count as 0: %r" % doc["parameters"].get("clock"))
    return float(m.group(1))


def union_length(windows):
    """Length of the union of windows [(from, to)]."""
    total, reach = 0.0, float("-inf")
    for lo, hi in sorted(windows):
        if hi > reach:
            total += hi - max(lo, reach)
            reach = hi
    return total


def expected_potential_sync(ev, keys, thr):
    """Potential sync of the instances of keys, differences below thr as
    0.  The threads of a process wait at once: each instant of a process's
    time line counts once (mpiprof-protocol(5)), so a process's share is
    the union of its windows [own entry, latest entry), not their sum."""
    windows = {}
    for key in keys:
        for inst in ws.events(ev, key).values():
            smax = max(s for s, _ in inst.values())
            for rank, (s, _) in inst.items():
                if smax - s >= thr:
                    windows.setdefault(rank, []).append((s, smax))
    return sum(union_length(w) for w in windows.values())


def expected_real_sync(ev, recv_key, send_key, thr):
    """Real sync of the messages of recv_key/send_key, late below thr as 0."""
    recv, send = ws.events(ev, recv_key), ws.events(ev, send_key)
    total = 0.0
    for i, inst in recv.items():
        (rs, re_), = inst.values()
        (ss, _), = send[i].values()
        if ss - rs >= thr:
            total += min(re_ - rs, ss - rs)
    return total


def main(source, schema, text_path, prefix):
    schema = None if schema == "-" else schema
    doc = ws.load_checked(None, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)
    pc.check_threads_level(doc, "MPI_THREAD_MULTIPLE")
    ev = ws.read_events(prefix)

    # A loaded machine aligns the clocks coarsely: waits shorter than
    # the threshold count as 0, and waits near it flip either way.
    thr = threshold(doc)
    precise = thr < 0.25 * min(T_SKEW, T_LATE)
    if not precise:
        print("note: %s: differences below %.3g s count as 0 (clocks "
              "aligned coarsely on a loaded machine), too close to the "
              "program's %.3g s waits: their values are not compared"
              % (text_path, thr, min(T_SKEW, T_LATE)))
    skew = pc.site(doc, 0, "MPI_Allreduce", source, "skew_allreduce")
    pc.check_counts(skew, calls={0: K, 1: K})
    expected_ps = expected_potential_sync(
        ev, ["skew%d" % t for t in range(NTHREADS)], thr)
    ps = pc.src_stat(skew, "potential_sync")
    if precise:
        pc.check_approx("Potential sync of the skewed MPI_Allreduce on "
                        "idup'ed communicators (%s), against the "
                        "program's instants" % pc.describe_src(skew),
                        ps["sum"], expected_ps, REL, ABS)
    if precise and ps.get("max_rank") != 0:
        pc.fail("Potential sync of %s: max_rank %r, expected 0 (rank 1 "
                "enters late)" % (pc.describe_src(skew), ps))

    recv = pc.site(doc, 0, "MPI_Recv", source, "late_recv")
    send = pc.site(doc, 0, "MPI_Send", source, "late_send")
    pc.check_counts(recv, calls={0: K})
    pc.check_counts(send, calls={1: K})
    expected_rs = sum(expected_real_sync(ev, "recv%d" % t, "send%d" % t,
                                         thr)
                      for t in range(NTHREADS))
    rs = pc.src_stat(recv, "real_sync")
    if precise:
        pc.check_approx("Real sync of the late MPI_Recv on idup'ed "
                        "communicators (%s), against the program's "
                        "instants" % pc.describe_src(recv), rs["sum"],
                        expected_rs, REL, ABS)

    barrier = pc.site(doc, 0, "MPI_Barrier", source, "grand_barrier")
    pc.check_counts(barrier, calls={0: K, 1: K})
    analysed = [barrier]
    for fn, marker in (("MPI_Iallreduce", "iallreduce"),
                       ("MPI_Ibcast", "ibcast"),
                       ("MPI_Ibarrier", "ibarrier")):
        # two call paths: on the parents and on the first children
        # (idup'ed)
        found = pc.sites(doc, 0, fn, source, marker, 2)
        for s in found:
            pc.check_counts(s, calls={0: K, 1: K})
        analysed += found
    for s in analysed:
        for key in ("potential_sync", "time_variation"):
            pc.src_stat(s, key)  # fails when n/a
    print("%s: Potential sync %.4f s (instants: %.4f s), Real sync "
          "%.4f s (instants: %.4f s) on idup'ed communicators; "
          "differences below %.3g s count as 0"
          % (text_path, ps["sum"], expected_ps, rs["sum"], expected_rs,
             thr))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
