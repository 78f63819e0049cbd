"""Check that tests/mpi/trace/trace_persistent.c made the waits its comparison
is about (test_analyze_trace.sh compares its dynamic protocol with its
trace's; this says the values compared are not all zero).

usage: check_trace_persistent.py PROTOCOL.json [ANALYZED.json]

In interval "persistent", rank 1 is late by T = 10 ms before each of N = 6
starts: rank 0's MPI_Waitall has Real sync of at least half its share of
N x T (2 of its 3 requests are point-to-point: 2/3 N x T = 40 ms; without
persistent collectives, all of N x T), and, with MPI-4's persistent
collectives, MPI_Start and MPI_Startall each have Potential sync of at
least half of N x T.

With the trace's protocol (ANALYZED.json), each process's time in
Send/Recv and in Collective in that interval is the dynamic protocol's
within 10 us + 0.1%: both split a start's time by the kinds of the
requests it began (2 point-to-point, 1 collective) and a wait's by those
it completed, from the same clock.  mpiprof-compare's default tolerance
(2 ms) hides a split by another rule (the analyzer once gave an
MPI_Startall's time all to Send/Recv: 2.1 ms moved on rank 1).
"""
import sys

import protocol_check as pc

N, T = 6, 0.010


def same_split(dynamic, analyzed, problems):
    a, b = (pc.find_interval(pc.load(p), "persistent")["real"]["by_process"] for p in (dynamic, analyzed))
    for category in ("sendrecv", "collective"):
        for rank, (x, y) in enumerate(zip(a[category], b[category])):
            if abs(x - y) > 10e-6 + 1e-3 * max(abs(x), abs(y)):
                problems.fail("interval persistent, rank %d: %s %.6f s in %s, %.6f s in %s"
                              % (rank, category, x, dynamic, y, analyzed))


def main(json_path, analyzed=None):
    doc = pc.load(json_path)
    iv = pc.find_interval(doc, "persistent")
    waitall = pc.find_src(doc, "MPI_Waitall", interval=iv["id"])
    starts = {f: pc.find_src(doc, f, interval=iv["id"]) for f in ("MPI_Start", "MPI_Startall")}
    problems = pc.Failures()
    if len(waitall) != 1:
        problems.fail("%s: %d SRC points of MPI_Waitall, expected 1" % (json_path, len(waitall)))
    elif pc.stat_sum(waitall[0], "real_sync") < N * T / 3:
        problems.fail("%s: MPI_Waitall: Real sync %.4f s, expected at least %.4f"
                      % (json_path, pc.stat_sum(waitall[0], "real_sync"), N * T / 3))
    if starts["MPI_Start"]:  # MPI-4: persistent collectives
        for function, found in starts.items():
            if len(found) != 1 or pc.stat_sum(found[0], "potential_sync") < N * T / 2:
                problems.fail("%s: %s: %s, expected one SRC point with Potential sync of at least %.4f s"
                              % (json_path, function, [pc.stat_sum(s, "potential_sync") for s in found], N * T / 2))
    if analyzed:
        same_split(json_path, analyzed, problems)
    return problems.status()


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
