#!/usr/bin/env python3
"""gen_view_protocol.py OUTDIR [PROCESSES SRC_POINTS INTERVALS [RANKS]]: a large
generated protocol for bench/view_bench.py, and the sources its frames name.

Default: 1,024 processes, 1,000 SRC points in each of 100 intervals (10^5
SRC entries), per-process values for the ranks MPIPROF_RANKS=auto selects
(none above 64 processes, every one up to 64; RANKS all: every one).  The characteristics come
from tests/mpi/lib/protocol_check.py's consistent sample blocks (per-process
execution and communication times in, main, comparative and by-process
parts out), so the document passes check_invariants and the schema, which
are checked.  Writes OUTDIR/big.json and OUTDIR/src/mod*.c (the files its
stacks point into, through the working directory /bench/app: give
mpiprof-view --source OUTDIR/src)."""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "mpi", "lib"))
import protocol_check as pc  # noqa: E402
import protocol_selftest as samples  # noqa: E402  (its hand-made documents)

N_FILES = 40
FILE_LINES = 3000
FUNCTIONS = ["MPI_Allreduce", "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Bcast",
             "MPI_Barrier", "MPI_Sendrecv", "MPI_Alltoall"]
P2P = {"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Sendrecv"}


def src_stat(rng, total, nprocs):
    """A src_stat of `total` seconds over nprocs processes, without making
    1,024 values per entry: min/max spread around the mean."""
    mean = total / nprocs
    lo, hi = mean * rng.uniform(0.5, 1.0), mean * rng.uniform(1.0, 1.5)
    return {"sum": total, "min": lo, "min_rank": rng.randrange(nprocs), "max": hi,
            "max_rank": rng.randrange(nprocs), "mean": mean}


def frame(k, depth, rng):
    f = "mod%02d.c" % ((k * 7 + depth * 3) % N_FILES)
    line = 10 + (k * 37 + depth * 101) % (FILE_LINES - 20)
    fn = "fn_%d_%d" % (k % 97, depth)
    return {"file": f, "path": "/bench/app/src/" + f, "line": line, "function": fn,
            "text": "%s:%d (%s)" % (f, line, fn)}


def main():
    out = sys.argv[1]
    nprocs = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    nsrc = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    nint = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    ranks = sys.argv[5] if len(sys.argv) > 5 else "auto"
    selected = ranks == "all" or nprocs <= 64  # MPIPROF_RANKS=auto or all
    rng = random.Random(15)
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    for i in range(N_FILES):
        with open(os.path.join(out, "src", "mod%02d.c" % i), "w") as f:
            for n in range(1, FILE_LINES + 1):
                f.write("    x[%d] = compute(x, %d); /* mod%02d.c line %d */\n" % (n, n, i, n))

    doc = samples._sample_doc()
    p = doc["parameters"]
    p.update({"program": "./big_app", "working_directory": "/bench/app", "processes": nprocs, "nodes": nprocs // 32,
              "configuration": {"MPIPROF_RANKS": {"value": ranks, "default": ranks == "auto"}}})
    stacks = [[frame(k, d, rng) for d in range(4)] for k in range(nsrc)]
    intervals = []
    # interval 0, 9 phases below it, 10 steps below each phase: 100
    for i in range(nint):
        execs = [10.0 / (1 + i % 10) * rng.uniform(0.9, 1.0) for _ in range(nprocs)]
        comms = [e * rng.uniform(0.05, 0.3) for e in execs]
        block = samples._sample_block(execs, comms)
        if not selected:
            block["by_process"] = {k: [] for k in block["by_process"]}
            block["by_process"]["ranks"] = []
            del block["by_process"]["entered"]
        parent = None if i == 0 else 0 if i < 10 else 1 + (i - 10) // 10
        level = 0 if i == 0 else 1 if i < 10 else 2
        srcs = []
        budget = block["main"]["communication"]
        weights = [rng.paretovariate(1.2) for _ in range(nsrc)]
        scale = budget / sum(weights)
        for k in range(nsrc):
            fn = FUNCTIONS[k % len(FUNCTIONS)]
            t = weights[k] * scale
            calls = nprocs * rng.randint(1, 200)
            nbytes = calls * 8 * rng.randint(1, 1000)
            by = {"ranks": [], "time": [], "calls": [], "bytes_sent": [], "bytes_recv": []}
            if selected:
                per = [t / nprocs] * nprocs
                by = {"ranks": list(range(nprocs)), "time": per, "calls": [calls // nprocs] * nprocs,
                      "bytes_sent": [nbytes // nprocs] * nprocs, "bytes_recv": [nbytes // nprocs] * nprocs}
            srcs.append({
                "id": k + 1, "function": fn, "calls": calls, "bytes_sent": nbytes, "bytes_recv": nbytes,
                "time": src_stat(rng, t, nprocs), "predicted_time": None, "overlap": None,
                "real_sync": src_stat(rng, t * 0.3, nprocs) if fn in P2P else None,
                "potential_sync": None if fn in P2P else src_stat(rng, t * 0.2, nprocs),
                "time_variation": None if fn in P2P else src_stat(rng, t * 0.01, nprocs),
                "by_process": by, "stack": stacks[k]})
        srcs.sort(key=lambda s: -s["time"]["sum"])
        intervals.append({"id": i, "name": "whole program" if i == 0 else "phase %d" % i,
                          "file": "main.c", "line": 10 + i, "level": level, "parent": parent,
                          "executions": 1 if i == 0 else 100, "real": block, "predicted": None, "src": srcs})
    doc["intervals"] = intervals
    pc.check_invariants(doc)
    schema = os.path.join(HERE, "..", "schema", "mpiprof-protocol.schema.json")
    pc.validate_schema(doc, schema)
    path = os.path.join(out, "big.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    print("gen_view_protocol: %s: %d processes, %d intervals x %d SRC points, %.1f MB" %
          (path, nprocs, nint, nsrc, os.path.getsize(path) / 1e6))


if __name__ == "__main__":
    main()
