"""make_scaling_runs.py BASE.json DIR: three protocols of a scaling study
with known numbers, for test_view_scaling.sh, made from one real protocol
of view_known (as inject_findings.py edits one): run_P.json at P = 1, 2
and 4, whose interval 0 has the execution time TIMES[P] and per process
the Lost time parts PARTS[P] (seconds; summed over processes in the
protocol, as it gives them), and whose every interval and SRC frame of
run_4.json is 3 lines lower (the source edited above every call), so
that only a matching without lines pairs its intervals and SRC points
with run_1.json's.  The numbers are written as known.json."""
import copy
import json
import os
import sys

TIMES = {1: 2.0, 2: 1.25, 4: 0.875}
# per process: insufficient parallelism, sendrecv, real sync, collective, system, idle time
PARTS = {1: (0.01, 0.0, 0.0, 0.0, 0.0, 0.02),
         2: (0.01, 0.05, 0.01, 0.10, 0.0, 0.02),
         4: (0.01, 0.08, 0.02, 0.30, 0.0, 0.02)}
NAMES = ("insufficient_parallelism", "sendrecv", "real_sync", "collective", "system", "idle_time")


def main():
    base_path, out = sys.argv[1], sys.argv[2]
    with open(base_path) as f:
        base = json.load(f)
    known = {}
    for p in (1, 2, 4):
        doc = copy.deepcopy(base)
        doc["parameters"]["processes"] = p
        m = doc["intervals"][0]["real"]["main"]
        m["processors"] = p
        m["execution_time"] = TIMES[p]
        m["total_time"] = TIMES[p] * p
        per = dict(zip(NAMES, PARTS[p]))
        for k, v in per.items():
            m[k] = v * p
        m["communication"] = m["sendrecv"] + m["collective"] + m["system"]
        m["lost_time"] = m["insufficient_parallelism"] + m["communication"] + m["idle_time"]
        m["productive_time"] = m["total_time"] - m["lost_time"]
        m["parallelization_efficiency"] = m["productive_time"] / m["total_time"]
        if p == 4:
            for iv in doc["intervals"]:
                iv["line"] += 3
                for s in iv["src"]:
                    for fr in s["stack"]:
                        if isinstance(fr.get("line"), int) and fr.get("file") == "view_known.c":
                            fr["line"] += 3
                            fr["text"] = "%s:%d (%s)" % (fr["file"], fr["line"], fr["function"])
        name = "run_%d.json" % p
        with open(os.path.join(out, name), "w") as f:
            json.dump(doc, f)
        known[p] = {"execution_time": m["execution_time"], "lost_time": m["lost_time"],
                    "parallelization_efficiency": m["parallelization_efficiency"], "per_process": per}
    with open(os.path.join(out, "known.json"), "w") as f:
        json.dump(known, f)


if __name__ == "__main__":
    main()
