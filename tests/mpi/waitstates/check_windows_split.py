"""Check one protocol of tests/mpi/waitstates/windows_split.c (see
test_windows_split.sh).

usage: check_windows_split.py SOURCE.c PROTOCOL.txt EVENTS [SCHEMA.json]
  (the JSON protocol is PROTOCOL.txt.json; EVENTS the prefix of the
  program's event files, waitstates_events.c)

Rank 0's Potential sync windows of round i, [own entry, rank 1's entry)
on A and on B, overlap on its time line.  Each instant counts once,
for the window that began first (mpiprof-protocol(5)): the MPI_Ibcast on A
gets all of its windows, the MPI_Ibcast on B only the part of each of its
windows after A's ended.  Known answers, per SRC point, rank 0's, within
15% (or 3 ms): those two sums from the program's instants.  Counted first
come, first served in the order the dynamic mode learns them (B's
communicator is freed first), B would get most of the overlap and A
little: off by several times the tolerance.
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

REL, ABS = 0.15, 0.003


def expected(ev):
    """Rank 0's Potential sync at A's and at B's MPI_Ibcast by the rule:
    its windows in the order they begin, each credited with what the
    earlier ones did not cover."""
    windows = []
    for key in ("a", "b"):
        for inst in ws.events(ev, key).values():
            smax = max(s for s, _ in inst.values())
            if smax > inst[0][0]:
                windows.append((inst[0][0], smax, key))
    total, reach = {"a": 0.0, "b": 0.0}, float("-inf")
    for lo, hi, key in sorted(windows):
        if hi > reach:
            total[key] += hi - max(lo, reach)
            reach = hi
    return total["a"], total["b"]


def main(source, text_path, prefix, schema=None):
    doc = ws.load_checked(None, text_path, schema)
    ev = ws.read_events(prefix)
    want_a, want_b = expected(ev)
    got = {}
    for marker, want in (("ibcast_a", want_a), ("ibcast_b", want_b)):
        s = pc.site(doc, 0, "MPI_Ibcast", source, marker)
        ps = pc.src_stat(s, "potential_sync")
        rank0 = pc.by_rank(s, "potential_sync").get(0) or 0.0
        pc.check_approx("Potential sync of rank 0 at %s (the window that "
                        "began first takes the overlap)" % pc.describe_src(s),
                        rank0, want, REL, ABS)
        got[marker] = (rank0, ps["sum"])
    print("%s: Potential sync of rank 0 at A's MPI_Ibcast %.4f s (by the "
          "rule: %.4f s), at B's %.4f s (%.4f s)"
          % (text_path, got["ibcast_a"][0], want_a, got["ibcast_b"][0],
             want_b))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
