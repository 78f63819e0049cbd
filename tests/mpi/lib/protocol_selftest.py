"""protocol_check.py --selftest: every check run on hand-made documents, one
valid and several broken, each of which must fail for the right reason."""

import copy
import json
import os

from protocol_check import (
    MAIN_KEYS, PER_PROCESS_KEYS, ProtocolError, TEXT_MAIN_LABELS, approx,
    by_rank, check_inclusive, check_interval, check_interval_tree,
    check_invariants, check_text, entered, find_interval, find_src,
    find_warnings, interval, src_points, subtree, validate_schema
)

# --------------------------------------------------------------------------
# Self test on hand-made documents

def _sample_doc():
    """A consistent two-process protocol, shaped as the library writes it."""
    def row(a, b):
        lo, hi = (0, 1) if a <= b else (1, 0)
        return {"min": min(a, b), "min_rank": lo, "max": max(a, b),
                "max_rank": hi, "mean": (a + b) / 2}
    # rank 0: T_exec(0)=1.0 comm=0.3 (sr .1 coll .15 sys .05); idle 0
    # rank 1: T_exec(1)=0.9 comm=0.1 (sr .05 coll .05 sys 0); idle 0.1
    # C(0)=0.7, C(1)=0.8 -> imbalance 0.1 (rank 0), 0 (rank 1)
    pp = {
        "execution_time": (1.0, 0.9), "productive_time": (0.7, 0.8),
        "lost_time": (0.3, 0.2), "insufficient_parallelism": (0.0, 0.0),
        "communication": (0.3, 0.1), "sendrecv": (0.1, 0.05),
        "real_sync": (None, None), "collective": (0.15, 0.05),
        "system": (0.05, 0.0), "idle_time": (0.0, 0.1),
        "load_imbalance": (0.1, 0.0), "potential_sync": (0.02, 0.0),
        "time_variation": (0.001, 0.0), "overlap": (0.0, 0.0),
    }
    main = {"parallelization_efficiency": 1.5 / 2.0, "execution_time": 1.0,
            "processors": 2, "total_time": 2.0, "productive_time": 1.5,
            "productive_cpu": 1.4, "productive_sys": 0.1, "productive_io": 0.0,
            "lost_time": 0.5, "insufficient_parallelism": 0.0,
            "communication": 0.4, "sendrecv": 0.15, "real_sync": None,
            "collective": 0.2, "system": 0.05, "idle_time": 0.1,
            "load_imbalance": 0.1, "potential_sync": 0.02,
            "time_variation": 0.001, "overlap": 0.0}
    comp = {k: (None if v[0] is None else row(*v)) for k, v in pp.items()}
    bp = {"ranks": [0, 1]}
    bp.update({k: list(v) for k, v in pp.items()})
    frame = {"file": "known_counts.c", "path": "/x/known_counts.c",
             "line": 42, "function": "main",
             "text": "known_counts.c:42 (main)"}
    src = [
        {"id": 3, "function": "MPI_Allreduce", "calls": 2000,
         "bytes_sent": 32000, "bytes_recv": 32000,
         "time": {"sum": 0.2, "min": 0.05, "min_rank": 1, "max": 0.15,
                  "max_rank": 0, "mean": 0.1},
         "predicted_time": None, "overlap": None,
         "real_sync": None, "potential_sync": None, "time_variation": None,
         "by_process": {"ranks": [0, 1], "time": [0.15, 0.05],
                        "calls": [1000, 1000], "bytes_sent": [16000, 16000],
                        "bytes_recv": [16000, 16000]},
         "stack": [frame]},
        {"id": 5, "function": "MPI_Send", "calls": 500, "bytes_sent": 16000,
         "bytes_recv": 0,
         "time": {"sum": 0.1, "min": 0.0, "min_rank": 1, "max": 0.1,
                  "max_rank": 0, "mean": 0.05},
         "predicted_time": None, "overlap": None,
         "real_sync": None, "potential_sync": None, "time_variation": None,
         "by_process": {"ranks": [0, 1], "time": [0.1, 0.0],
                        "calls": [500, 0], "bytes_sent": [16000, 0],
                        "bytes_recv": [0, 0]},
         "stack": [dict(frame, line=50, text="known_counts.c:50 (main)")]},
    ]
    return {"format": "mpiprof-protocol", "version": 1,
            "parameters": {
                "program": "./known_counts", "working_directory": "/x",
                "started": "2025-01-15T10:21:04",
                "finished": "2025-01-15T10:21:05",
                "protocol_written": "2025-01-15T10:21:05",
                "processes": 2, "nodes": 1,
                "threads_level": "MPI_THREAD_SINGLE",
                "mpi_library": "MPICH Version:      4.0.2",
                "mpi_standard": "4.0", "profiler": "mpiprof 0.1.0",
                "collection_mode": "dynamic", "partial": False,
                "configuration": {"MPIPROF_DEPTH": {"value": "4",
                                                    "default": True}},
                "machine": None, "placement": None,
                "hardware_counters": None, "clock": "CLOCK_MONOTONIC",
                "prediction_model": None, "warnings": [],
                "wait_states": "off (MPIPROF_WAITSTATES=off)"},
            "intervals": [{"id": 0, "name": "whole program",
                           "file": "known_counts.c", "line": 30, "level": 0,
                           "parent": None, "executions": 1,
                           "real": {"main": main, "comparative": comp,
                                    "by_process": bp},
                           "predicted": None, "src": src}]}


def _set_per_process(part, key, values):
    """Set the per-process values of key in a two-process part, with its
    main total and comparative row to match."""
    a, b = values
    lo, hi = (0, 1) if a <= b else (1, 0)
    part["main"][key] = a + b
    part["comparative"][key] = {"min": min(a, b), "min_rank": lo,
                                "max": max(a, b), "max_rank": hi,
                                "mean": (a + b) / 2}
    part["by_process"][key] = [a, b]


def _selftest():
    doc = _sample_doc()
    check_invariants(doc)
    assert len(find_src(doc, "MPI_Allreduce", "known_counts.c", 42)) == 1
    assert len(find_src(doc, "MPI_Allreduce", "/y/known_counts.c", 42)) == 1
    assert not find_src(doc, "MPI_Allreduce", "known_counts.c", 43)
    assert len(find_src(doc, "MPI_Send")) == 1
    assert approx(0.105, 0.1) and not approx(0.12, 0.1)
    assert by_rank(src_points(doc)[1], "calls") == {0: 500, 1: 0}

    iv = ("intervals", 0)
    broken = [
        ("total != exec*P", iv + ("real", "main", "total_time"), 2.1),
        ("prod+lost != total", iv + ("real", "main", "lost_time"), 0.6),
        ("K_eff > 1", iv + ("real", "main", "parallelization_efficiency"),
         1.2),
        ("comm split", iv + ("real", "main", "system"), 0.07),
        ("productive split", iv + ("real", "main", "productive_cpu"), 1.3),
        ("min > mean", iv + ("real", "comparative", "communication", "min"),
         0.25),
        ("column sum", iv + ("real", "by_process", "idle_time"), [0.0, 0.2]),
        ("missing key", iv + ("real", "main"), {"execution_time": 1.0}),
        ("SRC calls column", iv + ("src", 0, "by_process", "calls"),
         [1000, 999]),
        ("empty stack", iv + ("src", 0, "stack"), []),
        ("SRC order", iv + ("src", 1, "time", "sum"), 0.3),
        ("SRC real_sync", iv + ("src", 1, "real_sync"),
         {"sum": 0.2, "min": 0.0, "min_rank": 1, "max": 0.2, "max_rank": 0,
          "mean": 0.1}),
        ("SRC rank real_sync", iv + ("src", 1, "by_process", "real_sync"),
         [0.0, 0.05]),
    ]
    for name, path, value in broken:
        d = copy.deepcopy(doc)
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
        try:
            check_invariants(d)
        except ProtocolError as e:
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed"
                                 % name)
    # Parts of the processes' time beyond it, consistent otherwise (main,
    # comparative and by-process agree): each instant counted more than once.
    for name, key, values in (
            ("potsync > total", "potential_sync", (1.2, 1.1)),
            ("variation > total", "time_variation", (1.0, 1.01)),
            ("overlap > total", "overlap", (1.5, 0.6)),
            ("rank potsync", "potential_sync", (1.05, 0.0)),
            ("rank overlap", "overlap", (0.0, 0.95))):
        d = copy.deepcopy(doc)
        _set_per_process(d["intervals"][0]["real"], key, values)
        try:
            check_invariants(d)
        except ProtocolError as e:
            if "exceeds" not in str(e):
                raise AssertionError("selftest: %s detected for another "
                                     "reason: %s" % (name, e))
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed"
                                 % name)
    # nulls are skipped
    d = copy.deepcopy(doc)
    d["intervals"][0]["real"]["main"]["overlap"] = None
    d["intervals"][0]["real"]["comparative"]["overlap"] = None
    d["intervals"][0]["real"]["by_process"]["overlap"] = [None, None]
    check_invariants(d)
    _selftest_text_and_schema(doc)
    _selftest_intervals()
    _selftest_predicted(doc)
    print("selftest: all checks behave")


def _selftest_predicted(doc):
    """The predicted part and the SRC points' predicted_time and overlap
    are checked like the real ones."""
    doc = copy.deepcopy(doc)
    iv = doc["intervals"][0]
    iv["predicted"] = copy.deepcopy(iv["real"])
    for s in iv["src"]:
        t = s["time"]
        s["predicted_time"] = {"sum": t["sum"] / 2, "min": t["min"] / 2, "min_rank": t["min_rank"],
                               "max": t["max"] / 2, "max_rank": t["max_rank"], "mean": t["mean"] / 2}
        s["overlap"] = 0.0
        s["by_process"]["predicted_time"] = [x / 2 for x in s["by_process"]["time"]]
        s["by_process"]["overlap"] = [0.0, 0.0]
    check_invariants(doc)
    at = ("intervals", 0)
    broken = [
        ("predicted total", at + ("predicted", "main", "total_time"), 2.1),
        ("predicted column", at + ("predicted", "by_process", "idle_time"), [0.0, 0.2]),
        ("SRC predicted col", at + ("src", 0, "by_process", "predicted_time"), [0.1, 0.1]),
        ("SRC predicted min", at + ("src", 0, "predicted_time", "min"), 0.09),
        ("SRC overlap < 0", at + ("src", 1, "overlap"), -1.0),
    ]
    for name, path, value in broken:
        d = copy.deepcopy(doc)
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
        try:
            check_invariants(d)
        except ProtocolError as e:
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed" % name)


def _sample_block(execs, comms):
    """A consistent "real" part for per-rank execution times and
    communication (all of it collective); None: the rank did not enter."""
    live = [r for r, e in enumerate(execs) if e is not None]
    texec = max(execs[r] for r in live)
    pp = {k: [None] * len(execs) for k in PER_PROCESS_KEYS}
    cmax = max(execs[r] - comms[r] for r in live)
    for r in live:
        e, c = execs[r], comms[r]
        pp["execution_time"][r] = e
        pp["communication"][r] = pp["collective"][r] = c
        pp["sendrecv"][r] = pp["system"][r] = 0.0
        pp["insufficient_parallelism"][r] = 0.0
        pp["idle_time"][r] = texec - e
        pp["lost_time"][r] = c + texec - e
        pp["productive_time"][r] = e - c
        pp["load_imbalance"][r] = cmax - (e - c)
    main = {k: None for k in MAIN_KEYS}
    for k in PER_PROCESS_KEYS:
        if pp[k][live[0]] is not None:
            main[k] = sum(pp[k][r] for r in live)
    main["execution_time"] = texec
    main["processors"] = len(live)
    main["total_time"] = texec * len(live)
    main["productive_time"] = main["total_time"] - main["lost_time"]
    main["productive_cpu"] = main["productive_time"]
    main["productive_sys"] = main["productive_io"] = 0.0
    main["parallelization_efficiency"] = \
        main["productive_time"] / main["total_time"]
    comp = {}
    for k in PER_PROCESS_KEYS:
        vals = [(pp[k][r], r) for r in live if pp[k][r] is not None]
        comp[k] = None if not vals else {
            "min": min(vals)[0], "min_rank": min(vals)[1],
            "max": max(vals)[0], "max_rank": max(vals)[1],
            "mean": sum(v for v, _ in vals) / len(vals)}
    bp = {"ranks": list(range(len(execs)))}
    bp.update(pp)
    bp["entered"] = [e is not None for e in execs]
    return {"main": main, "comparative": comp, "by_process": bp}


def _sample_intervals_doc():
    """_sample_doc with nested intervals: 'child' (both ranks, one
    MPI_Barrier SRC point) and 'only1' (rank 1 only), inclusive."""
    doc = _sample_doc()
    iv0 = doc["intervals"][0]
    iv0["real"] = _sample_block([1.0, 0.9], [0.3, 0.1])
    barrier = copy.deepcopy(iv0["src"][1])
    barrier.update({"id": 7, "function": "MPI_Barrier", "calls": 20,
                    "bytes_sent": 0,
                    "time": {"sum": 0.1, "min": 0.05, "min_rank": 0,
                             "max": 0.05, "max_rank": 0, "mean": 0.05},
                    "by_process": {"ranks": [0, 1], "time": [0.05, 0.05],
                                   "calls": [10, 10], "bytes_sent": [0, 0],
                                   "bytes_recv": [0, 0]}})
    child = {"id": 1, "name": "child", "file": "x.c", "line": 10, "level": 1,
             "parent": 0, "executions": 10,
             "real": _sample_block([0.5, 0.4], [0.05, 0.05]),
             "predicted": None, "src": [barrier]}
    only1 = {"id": 2, "name": "only1", "file": "x.c", "line": 20,
             "level": 1, "parent": 0, "executions": 3,
             "real": _sample_block([None, 0.2], [None, 0.0]),
             "predicted": None, "src": []}
    doc["intervals"] += [child, only1]
    return doc


def _selftest_intervals():
    doc = _sample_intervals_doc()
    check_invariants(doc)
    check_interval_tree(doc)
    check_inclusive(doc)
    assert entered(interval(doc, 2)["real"]) == {0: False, 1: True}
    assert find_interval(doc, "child", 0)["id"] == 1
    assert subtree(doc, 0) == [0, 1, 2]
    check_interval(doc, 1, name="child", file="/y/x.c", line=10, level=1,
                   parent=0, executions=10)
    doc["parameters"]["warnings"] = ["rank 1: interval end at x.c:5 (main)",
                                     "something else"]
    assert len(find_warnings(doc, "interval end", "x.c:5")) == 1

    iv = ("intervals",)
    broken = [
        ("value not entered", check_invariants,
         iv + (2, "real", "by_process", "execution_time"), [0.1, 0.2]),
        ("rank out of range", check_invariants,
         iv + (2, "real", "comparative", "execution_time", "max_rank"), 2),
        ("not inclusive", check_inclusive,
         iv + (1, "real", "main", "communication"), 0.2),
        ("rank not inclusive", check_inclusive,
         iv + (1, "real", "by_process", "communication"), [0.05, 0.01]),
        ("child longer", check_inclusive,
         iv + (1, "real", "by_process", "execution_time"), [1.5, 0.4]),
        ("parent after", check_interval_tree, iv + (1, "parent"), 2),
        ("level", check_interval_tree, iv + (2, "level"), 2),
        ("not depth-first", check_interval_tree, iv + (2, "parent"), 1),
    ]
    for name, check, path, value in broken:
        d = copy.deepcopy(doc)
        if name == "not depth-first":
            # 0, child, only1 (child of 0), x (child of child): x's parent
            # is neither only1 nor an ancestor of it.
            x = copy.deepcopy(d["intervals"][2])
            x.update({"id": 3, "name": "x", "parent": 1, "level": 2})
            d["intervals"].append(x)
            path, value = iv + (3, "parent"), 1
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
        try:
            check(d)
        except ProtocolError as e:
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed"
                                 % name)


def _sample_text(doc):
    """The text protocol matching _sample_doc (only the parts checked)."""
    iv = doc["intervals"][0]
    main = iv["real"]["main"]
    out = ["Parameters", "Program                 : ./known_counts", "",
           '==== Interval 0  "whole program"  file=known_counts.c line=30  '
           'level=0  parent=-  executions=1 ====',
           "--- Main characteristics (real) ---"]
    for label, key in TEXT_MAIN_LABELS:
        v = main[key]
        out.append("%-30s %12s" % (label, "n/a" if v is None else
                                   "%.6f" % v))
        if key == "productive_time":
            out[-1] += "  (CPU=%.6f Sys=%.6f I/O=%.6f)" % (
                main["productive_cpu"], main["productive_sys"],
                main["productive_io"])
    out += ["--- Main characteristics (predicted) ---", "n/a (see Warnings)"]
    out.append("--- SRC points ---")
    for s in iv["src"]:
        out.append("SRC %d  %s  calls=%d  bytes_sent=%d  bytes_recv=%d"
                   % (s["id"], s["function"], s["calls"], s["bytes_sent"],
                      s["bytes_recv"]))
        out.append("   time            sum=%.6f  min=%.6f (rank %d)"
                   % (s["time"]["sum"], s["time"]["min"],
                      s["time"]["min_rank"]))
        out.append("   predicted time  n/a")
        out.append("   overlap         n/a")
        out.append("   stack           " + " <- ".join(
            f["text"] for f in s["stack"]))
    return "\n".join(out) + "\n"


def _selftest_text_and_schema(doc):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        txt = os.path.join(d, "prot.txt")
        good = _sample_text(doc)
        cases = [
            ("good text", good, True),
            ("text calls", good.replace("calls=500", "calls=499"), False),
            ("text value", good.replace("%.6f" % 0.5, "%.6f" % 0.6, 1),
             False),
            ("text order", good.replace("sum=0.100000", "sum=0.300000"),
             False),
            ("text frame", good.replace("known_counts.c:50", "x.c:50"),
             False),
            ("text I/O split", good.replace("I/O=0.000000", "I/O=0.000100"),
             False),
        ]
        for name, content, ok in cases:
            with open(txt, "w", encoding="utf-8") as f:
                f.write(content)
            try:
                check_text(doc, txt)
            except ProtocolError as e:
                if ok:
                    raise
                print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
            else:
                if not ok:
                    raise AssertionError("selftest: broken text (%s) passed"
                                         % name)
        import importlib.util
        if importlib.util.find_spec("jsonschema") is None:
            print("selftest: jsonschema not installed, schema part skipped")
            return
        repo_schema = os.path.join(os.path.dirname(os.path.abspath(
            __file__)), "..", "..", "schema", "mpiprof-protocol.schema.json")
        if os.path.exists(repo_schema):
            validate_schema(doc, repo_schema)
            print("selftest: the sample document validates against %s"
                  % os.path.normpath(repo_schema))
        sch = os.path.join(d, "schema.json")
        for required, ok in ((["format", "intervals"], True),
                             (["no_such_key"], False)):
            with open(sch, "w", encoding="utf-8") as f:
                json.dump({"$schema":
                           "https://json-schema.org/draft/2020-12/schema",
                           "type": "object", "required": required}, f)
            try:
                validate_schema(doc, sch)
            except ProtocolError as e:
                if ok:
                    raise
                print("selftest: %-18s detected: %s"
                      % ("schema", str(e)[:100]))
            else:
                if not ok:
                    raise AssertionError("selftest: schema violation passed")
