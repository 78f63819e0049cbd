"""Check one protocol of tests/mpi/waitstates_idup_threads.c (see
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
    MPI_Allreduce's Potential sync, rank 0's, and the late receive's Real
    sync within 25% (or 20 ms) of what the program's instants give
    (threads on 2 cores may be held between the program's instant and the
    profiler's).
"""
import os
import sys

import protocol_check as pc
import check_waitstates_common as ws

NTHREADS, ITERS = 2, 150
K = NTHREADS * ITERS
REL, ABS = 0.25, 0.02  # threads on 2 cores: the program's instants are
                       # taken around the wrappers, the profiler's inside


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    source, schema, text_path, prefix = argv[1:5]
    schema = None if schema == "-" else schema
    try:
        doc = pc.load(text_path + ".json")
        ws.check_protocol(doc, text_path, schema)
        ws.check_waitstates_reported(doc, text_path)
        lvl = doc["parameters"].get("threads_level")
        if lvl != "MPI_THREAD_MULTIPLE":
            pc.fail("threads_level is %r, expected MPI_THREAD_MULTIPLE" % lvl)
        ev = ws.read_events(prefix)

        skew = ws.site(doc, 0, "MPI_Allreduce", source, "skew_allreduce")
        ws.check_counts(skew, calls={0: K, 1: K})
        expected_ps = 0.0
        for t in range(NTHREADS):
            tot, _ = ws.expected_collective(ev, "skew%d" % t)
            expected_ps += tot["potential_sync"]
        ps = ws.src_stat(skew, "potential_sync")
        pc.check_approx("Potential sync of the skewed MPI_Allreduce on "
                        "idup'ed communicators (%s), against the program's "
                        "instants" % pc.describe_src(skew),
                        ps["sum"], expected_ps, REL, ABS)
        if ps.get("max_rank") != 0:
            pc.fail("Potential sync of %s: max_rank %r, expected 0 (rank 1 "
                    "enters late)" % (pc.describe_src(skew), ps))

        recv = ws.site(doc, 0, "MPI_Recv", source, "late_recv")
        send = ws.site(doc, 0, "MPI_Send", source, "late_send")
        ws.check_counts(recv, calls={0: K})
        ws.check_counts(send, calls={1: K})
        expected_rs = sum(ws.expected_real_sync(ev, "recv%d" % t,
                                                "send%d" % t)
                          for t in range(NTHREADS))
        rs = ws.src_stat(recv, "real_sync")
        pc.check_approx("Real sync of the late MPI_Recv on idup'ed "
                        "communicators (%s), against the program's instants"
                        % pc.describe_src(recv), rs["sum"], expected_rs, REL,
                        ABS)

        barrier = ws.site(doc, 0, "MPI_Barrier", source, "grand_barrier")
        ws.check_counts(barrier, calls={0: K, 1: K})
        analysed = [barrier]
        for fn, marker in (("MPI_Iallreduce", "iallreduce"),
                           ("MPI_Ibcast", "ibcast"),
                           ("MPI_Ibarrier", "ibarrier")):
            # two call paths: on the parents and on the first children
            # (idup'ed)
            line = pc.marker_line(source, marker)
            found = pc.find_src(doc, fn, os.path.basename(source), line)
            if len(found) != 2:
                pc.fail("%d SRC points of %s at line %d (MARK:%s), expected "
                        "2 (on parents, on idup'ed children):\n%s"
                        % (len(found), fn, line, marker,
                           pc.describe_srcs(doc)))
            for s in found:
                ws.check_counts(s, calls={0: K, 1: K})
            analysed += found
        for s in analysed:
            for key in ("potential_sync", "time_variation"):
                ws.src_stat(s, key)  # fails when n/a
        print("%s: Potential sync %.4f s (instants: %.4f s), Real sync "
              "%.4f s (instants: %.4f s) on idup'ed communicators"
              % (text_path, ps["sum"], expected_ps, rs["sum"], expected_rs))
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
