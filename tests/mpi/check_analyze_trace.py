"""The protocol mpiprof-analyze gives of a run's trace against the run's own
(dynamic) protocol, for tests/mpi/test_analyze_trace.sh:

    check_analyze_trace.py DYNAMIC.json TRACE.json SCHEMA.json

Both must hold the invariants; the analyzed one must validate and say
`trace`.  Structurally identical: the same intervals (name, file, line,
level, parent, executions) and SRC points (number, function, stack, calls,
bytes); numerically equal within 1% or 2 ms: every time of every SRC point,
and every main characteristic both give.  The differences by design are
named, never hidden in a wider tolerance (EXCEPTIONS)."""
import sys

import protocol_check as pc

REL, ABS = 0.01, 0.002

# What the two modes give differently by design (mpiprof-analyze(1)), by name.
EXCEPTIONS = {
    # The trace records no getrusage: CPU and Sys of Productive time.
    "productive_cpu": "n/a from a trace", "productive_sys": "n/a from a trace",
    # No calibration of the model in a trace.
    "overlap": "n/a from a trace",
}
# A trace without MPI_Init's events (mpiprof's, so far: its analyzed
# interval 0 has file "?"): interval 0 begins at the trace's first event,
# not at MPI_Init's return, so its position and whatever its length enters
# differ; what happened inside it (MPI times, wait states) does not.
NO_INIT_POSITION = ("file", "line")
NO_INIT_LENGTH = ("parallelization_efficiency", "execution_time", "total_time", "productive_time", "lost_time",
                  "idle_time", "load_imbalance")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def close(what, a, b):
    if a is None or b is None:
        if (a is None) != (b is None):
            fail("%s: %r in the dynamic protocol, %r from the trace" % (what, a, b))
        return
    if abs(a - b) > max(ABS, REL * max(abs(a), abs(b))):
        fail("%s: %.6f in the dynamic protocol, %.6f from the trace (beyond 1%% or 2 ms)" % (what, a, b))


def value(x):
    return x["sum"] if isinstance(x, dict) else x


def stack(s):
    return tuple(f["text"] for f in s["stack"])


def main(dynamic_path, trace_path, schema):
    dyn, tr = pc.load(dynamic_path), pc.load(trace_path)
    try:
        pc.check_invariants(dyn)
        pc.check_invariants(tr)
        pc.validate_schema(tr, schema)
    except AssertionError as e:
        fail(str(e))
    if tr["parameters"]["collection_mode"] != "trace":
        fail("the analyzed protocol's collection_mode is %r" % tr["parameters"]["collection_mode"])
    if len(dyn["intervals"]) != len(tr["intervals"]):
        fail("intervals: %s in the dynamic protocol, %s from the trace"
             % (pc.describe_intervals(dyn), pc.describe_intervals(tr)))
    nsrc = 0
    for a, b in zip(dyn["intervals"], tr["intervals"]):
        where = "interval %d (%s)" % (a["id"], a["name"])
        no_init = a["id"] == 0 and b["file"] == "?"
        for key in ("id", "name", "file", "line", "level", "parent", "executions"):
            if a[key] != b[key] and not (no_init and key in NO_INIT_POSITION):
                fail("%s: %s is %r in the dynamic protocol, %r from the trace" % (where, key, a[key], b[key]))
        for key, x in a["real"]["main"].items():
            if key not in EXCEPTIONS and not (no_init and key in NO_INIT_LENGTH):
                close("%s: %s" % (where, key), x, b["real"]["main"][key])
        sa = {(s["function"], stack(s)): s for s in a["src"]}
        sb = {(s["function"], stack(s)): s for s in b["src"]}
        if set(sa) != set(sb):
            fail("%s: SRC points only in the dynamic protocol %s, only from the trace %s"
                 % (where, sorted(set(sa) - set(sb)), sorted(set(sb) - set(sa))))
        for k, s in sa.items():
            t = sb[k]
            what = "%s: SRC %s at %s" % (where, k[0], " <- ".join(k[1]))
            for key in ("id", "calls", "bytes_sent", "bytes_recv"):
                if s[key] != t[key]:
                    fail("%s: %s is %r in the dynamic protocol, %r from the trace" % (what, key, s[key], t[key]))
            for key in ("time", "real_sync", "potential_sync", "time_variation"):
                close("%s: %s" % (what, key), value(s[key]), value(t[key]))
            nsrc += 1
    print("%s and %s: %d intervals, %d SRC points alike" % (dynamic_path, trace_path, len(dyn["intervals"]), nsrc))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: check_analyze_trace.py DYNAMIC.json TRACE.json SCHEMA.json")
    main(*sys.argv[1:])
