"""Check the protocol of tests/mpi/intervals/intervals_rank1.c (see
test_intervals_rank1.sh).

usage: check_intervals_rank1.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT [SCHEMA.json]

STDOUT is the program's standard output: 'rank=R a=S b=S c=S only1=S' per
rank, its time in each interval (0 where it did not enter).
"""
import sys

import protocol_check as pc

N_MSG, N_ONLY1 = 10, 3          # as in intervals_rank1.c
REL = 0.10
# "C" (rank 1) is entered before "B" (rank 0): depth-first, in order of
# first entry, not alphabetical.
ORDER = ["whole program", "A", "C", "B", "only1"]

# name -> (parent name, level, executions, the ranks that enter it,
#          measurement key, SRC points of the interval itself)
TREE = {
    "A": ("whole program", 1, 1, (0, 1), "a", []),
    "B": ("A", 2, 1, (0,), "b",
          [{"function": "MPI_Send", "marker": "send", "calls": {0: N_MSG},
            "bytes_sent": {0: 4 * N_MSG}, "bytes_recv": {}}]),
    "C": ("A", 2, 1, (1,), "c",
          [{"function": "MPI_Recv", "marker": "recv", "calls": {1: N_MSG},
            "bytes_sent": {}, "bytes_recv": {1: 4 * N_MSG}}]),
    "only1": ("whole program", 1, N_ONLY1, (1,), "only1",
              [{"function": "MPI_Comm_size", "marker": "only1_size",
                "calls": {1: N_ONLY1}}]),
}


def check_subset(doc, iv, ranks, meas, key):
    """An interval entered by the processes in ranks only."""
    name = iv["name"]
    real = iv["real"]
    main = real["main"]
    pc.check_equal("processors of interval %r" % name, main["processors"],
                   len(ranks))
    pc.check_equal("by_process.entered of interval %r" % name,
                   pc.entered(real), {r: r in ranks for r in (0, 1)})
    bp = real["by_process"]
    for k in pc.PER_PROCESS_KEYS:
        col = dict(zip(bp["ranks"], bp[k]))
        for r in (0, 1):
            if r not in ranks and col[r] is not None:
                pc.fail("interval %r: by_process %s of rank %d = %r, expected "
                        "null (the process did not enter it)"
                        % (name, k, r, col[r]))
            if r in ranks and col[r] is None and k not in (
                    "real_sync", "potential_sync", "time_variation",
                    "overlap"):
                pc.fail("interval %r: by_process %s of rank %d is null, but "
                        "the process entered it" % (name, k, r))
    pc.check_ranks("execution time", iv, "execution_time",
                   {r: meas[r][key] for r in ranks}, REL)
    pc.check_main("execution time", iv, "execution_time",
                  max(meas[r][key] for r in ranks), REL)
    comp = real["comparative"]
    if len(ranks) == 1:
        only = ranks[0]
        for k in pc.PER_PROCESS_KEYS:
            row = comp.get(k)
            if row is None or row.get("min") is None:
                continue
            for rk in ("min_rank", "max_rank"):
                if row[rk] != only:
                    pc.fail("interval %r: comparative %s.%s = %r, expected %d "
                            "(the only process that entered it)"
                            % (name, k, rk, row[rk], only))
            for stat in ("min", "max", "mean"):
                x = dict(zip(bp["ranks"], bp[k]))[only]
                if abs(row[stat] - x) > 1e-6:
                    pc.fail("interval %r: comparative %s.%s = %r, expected "
                            "rank %d's value %r" % (name, k, stat, row[stat],
                                                    only, x))


def main(json_path, text_path, source, out, schema=None):
    meas = pc.measurements(out, ("a", "b", "c", "only1"))
    print("program measured: %r" % meas)

    doc = pc.load_checked(json_path, text_path, schema, headers=True)
    pc.check_interval_tree(doc)
    ids = pc.check_interval_names(doc, ORDER, "the union of rank 0's A->B "
                                  "and rank 1's A->C, depth-first in order "
                                  "of first entry: C before B")
    for name, (parent, level, executions, ranks, key, srcs) in \
            TREE.items():
        iv = pc.check_interval(doc, ids[name], name=name, file=source,
                               marker=name, level=level, parent=ids[parent],
                               executions=executions)
        check_subset(doc, iv, ranks, meas, key)
        pc.check_call_sites(doc, source, srcs, (), ids[name])
        print("interval %r: parent %r, entered by rank(s) %r, processors "
              "%d, execution time as measured, SRC points as expected"
              % (name, parent, ranks, len(ranks)))
    pc.check_inclusive(doc)
    print("inclusive: A's communication holds B's and C's")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
