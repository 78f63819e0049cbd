"""Check the protocol of tests/mpi/threads/threads.c (see test_threads.sh).

usage: check_threads.py --invariants|--no-invariants|--only-invariants
                        PROTOCOL.json PROTOCOL.txt SOURCE.c LEVEL STEPS

Every worker's calls are their own SRC points (first frame: the marked line
in work(), second frame: the worker's line in run_as()), with exact call
counts and bytes per process, whichever thread made them and however many
threads called MPI at once; times are non-negative; the protocol states the
thread level; and (--invariants) every invariant of characteristics.md
holds.  --only-invariants checks the invariants alone.
"""
import sys

import protocol_check as pc

NWORKERS = 4
COUNT_BYTES = 16 * 4  # COUNT ints

LEVEL_NAMES = {
    "single": "MPI_THREAD_SINGLE",
    "funneled": "MPI_THREAD_FUNNELED",
    "serialized": "MPI_THREAD_SERIALIZED",
    "multiple": "MPI_THREAD_MULTIPLE",
}

# Besides the workers' calls (the main thread's, once per process).
OTHERS = ("MPI_Init_thread", "MPI_Comm_rank", "MPI_Comm_size",
          "MPI_Allreduce", "MPI_Finalize")


def expected_sites(steps):
    """(function, marker, calls, bytes_sent, bytes_recv) per process for one
    worker."""
    k, b = steps, steps * COUNT_BYTES
    return [
        ("MPI_Sendrecv", "sendrecv", k, b, b),
        ("MPI_Iprobe", "iprobe", k, 0, 0),
        ("MPI_Irecv", "irecv", k, 0, b),
        ("MPI_Isend", "isend", k, b, 0),
        ("MPI_Waitall", "waitall", k, 0, 0),
        # a persistent request's bytes count at each start, not at its creation
        ("MPI_Send_init", "send_init", k, 0, 0),
        ("MPI_Recv_init", "recv_init", k, 0, 0),
        ("MPI_Startall", "startall", k, b, b),
        ("MPI_Waitall", "waitall_persistent", k, 0, 0),
        ("MPI_Request_free", "request_free", 2 * k, 0, 0),
    ]


def check(doc, source, level, steps, invariants=True):
    if invariants:
        pc.check_invariants(doc)
    pc.check_threads_level(doc, LEVEL_NAMES[level])
    srcs = pc.src_points(doc)
    listing = pc.describe_srcs(doc)
    for s in srcs:
        t = s["time"]
        for k in ("sum", "min", "max", "mean"):
            if t.get(k) is not None and t[k] < 0:
                pc.fail("%s: time.%s = %r is negative"
                        % (pc.describe_src(s), k, t[k]))
    sites = expected_sites(steps)
    names = set(f for f, *_ in sites)
    matched = set()
    for t in range(NWORKERS):
        wline = pc.marker_line(source, "worker%d" % t)
        for fn, marker, calls, sent, recv in sites:
            line = pc.marker_line(source, marker)
            found = [s for s in pc.find_src(doc, fn, source, line)
                     if len(s["stack"]) > 1
                     and s["stack"][1].get("line") == wline]
            where = "worker %d: %s at line %d (called from line %d)" \
                % (t, fn, line, wline)
            if len(found) != 1:
                pc.fail("%s: %d SRC points, expected exactly 1. All SRC "
                        "points:\n%s" % (where, len(found), listing))
            s = found[0]
            matched.add(s["id"])
            # as many on each of ranks 0 and 1
            pc.check_counts(s, {0: calls, 1: calls}, {0: sent, 1: sent},
                            {0: recv, 1: recv}, ranks=(0, 1), exact=True,
                            where=where)
    for s in srcs:
        if s["id"] in matched:
            continue
        if s["function"] in names or s["function"] not in OTHERS:
            pc.fail("unexpected SRC point %s. All SRC points:\n%s"
                    % (pc.describe_src(s), listing))


def main(mode, json_path, text_path, source, level, steps):
    if mode not in ("--invariants", "--no-invariants", "--only-invariants"):
        pc.bad_usage()
    with pc.prefixed(level):
        doc = pc.load(json_path)
        if mode == "--only-invariants":
            pc.check_invariants(doc)
            print("%s: every invariant holds" % level)
            return
        check(doc, source, level, int(steps), mode == "--invariants")
        pc.check_text(doc, text_path)
    print("%s: %d workers x %s steps: exact calls and bytes per SRC point, "
          "times non-negative, %stext agrees"
          % (level, NWORKERS, steps,
             "invariants hold, " if mode == "--invariants" else ""))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
