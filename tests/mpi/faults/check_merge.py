"""Check a protocol merged by mpiprof-merge (test_fault_merge.sh).

usage: check_merge.py MERGED SOURCE SCHEMA PARTIAL_BASE RANK...

MERGED (text) and MERGED.json merge the partial protocols PARTIAL_BASE.partial.RANK
of the mode wait of faults.c, ended by SIGTERM.  The merged protocol must
hold exactly those ranks (the others missing), satisfy every invariant,
agree with its text, validate against the schema, count every process's
MPI calls exactly, name how each process ended and the merged protocol's
SRC point of the call it was in, and its characteristics must be those of
the processes together: sums of the partial protocols' per-process values,
the maximum execution time, the idle time that follows from them.
"""
import os
import sys

import protocol_check as pc

N_ALLREDUCE, N_SEND, N_PEER = 100, 50, 3


def check_findings(doc, ranks):
    """Each process's SIGTERM in MPI_Recv is an abort and an incomplete-call
    finding at that receive: merged, one of each, on every merged rank."""
    if doc["correctness"]["level"] == "off":
        return
    got = sorted((f["kind"], f["count"], f["processes"], f["first_rank"], f["last_rank"])
                 for f in doc["correctness"]["findings"])
    want = sorted((k, len(ranks), len(ranks), min(ranks), max(ranks))
                  for k in ("abort", "incomplete-call"))
    pc.check_equal("merged findings (kind, count, processes, first, last rank)", got, want)


def main(merged, source, schema, base, *ranks):
    if not ranks:
        pc.bad_usage()
    ranks = [int(r) for r in ranks]
    os.environ["MPIPROF_TEST_EXPECT_FINDINGS"] = "abort incomplete-call"
    doc = pc.load_checked(merged + ".json", merged, schema, say=False)
    check_findings(doc, ranks)
    params = doc["parameters"]
    if "process" in doc:
        pc.fail("a merged protocol has no process data")
    partial = params["partial"]
    pc.check_equal("partial.count", partial["count"], len(ranks))
    pc.check_equal("partial.ranks", pc.parse_ranges(partial["ranks"]), ranks)
    pc.check_equal("partial.missing", pc.parse_ranges(partial["missing"]),
                   [r for r in range(params["processes"]) if r not in ranks])
    recv = pc.site(doc, 0, "MPI_Recv", source, "peer")
    for r, end in zip(ranks, partial["processes"]):
        pc.check_equal("processes[].rank", end["rank"], r)
        pc.check_equal("end", end["end"], "signal")
        pc.check_equal("signal", end["signal"], 15)
        pc.check_equal("mpi_call", end["mpi_call"], "MPI_Recv")
        pc.check_equal("src (the merged protocol's)", end["src"], recv["id"])
    # every process's calls, exactly
    expected = [
        {"function": "MPI_Allreduce", "marker": "allreduce",
         "calls": {r: N_ALLREDUCE for r in ranks},
         "bytes_sent": {r: 16 * N_ALLREDUCE for r in ranks}},
        {"function": "MPI_Send", "marker": "peer_send",
         "calls": {r: N_PEER for r in ranks}},
        {"function": "MPI_Recv", "marker": "peer",
         "calls": {r: N_PEER for r in ranks}},
    ]
    if 0 in ranks:
        expected.append({"function": "MPI_Send", "marker": "send",
                         "calls": {0: N_SEND}, "bytes_sent": {0: 32 * N_SEND}})
    if 1 in ranks:
        expected.append({"function": "MPI_Recv", "marker": "recv",
                         "calls": {1: N_SEND}, "bytes_recv": {1: 32 * N_SEND}})
    for e in expected:
        s = pc.site(doc, 0, e["function"], source, e["marker"])
        # null for a process that made no call there
        per = {key: {r: e[key].get(r) for r in ranks} if key in e else None
               for key in ("calls", "bytes_sent", "bytes_recv")}
        pc.check_counts(s, per["calls"], per["bytes_sent"], per["bytes_recv"],
                        ranks=ranks, exact=True)
    # the processes together
    main = doc["intervals"][0]["real"]["main"]
    parts = [pc.load("%s.partial.%d.json" % (base, r))["intervals"][0]
             ["real"]["main"] for r in ranks]
    pc.check_equal("processors", main["processors"], len(ranks))
    for key in ("communication", "sendrecv", "collective", "system"):
        pc.check_approx(key, main[key], sum(p[key] for p in parts),
                        rel=1e-6, abs_tol=1e-8)
    texec = max(p["execution_time"] for p in parts)
    pc.check_approx("execution_time", main["execution_time"], texec,
                    rel=1e-6, abs_tol=1e-8)
    pc.check_approx("idle_time", main["idle_time"],
                    len(ranks) * texec - sum(p["execution_time"] for p in parts),
                    rel=1e-6, abs_tol=1e-7)
    if doc["intervals"][0]["predicted"] is None:
        pc.fail("the merged protocol has no predicted characteristics")
    print("merged ranks %s: invariants hold, text agrees, schema valid, "
          "counts exact" % partial["ranks"])


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
