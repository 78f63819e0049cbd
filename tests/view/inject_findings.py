"""Correctness findings put into a real protocol of view_known.c, for the
tests of the Correctness panel (tests/view/test_view_findings.sh):

    inject_findings.py PROTOCOL.json SOURCE.c SCHEMA.json OUT.json

PROTOCOL.json is a run of view_known with MPIPROF_CHECK=basic (no
findings: the program is correct).  OUT.json is the same protocol with
three findings at real lines of SOURCE.c, found by their MARK: comments,
each stack copied from the protocol's SRC point of that call (its src the
SRC id) except where said:

  0  error collective-mismatch at MPI_Bcast (MARK:bcast), the other side
     MPI_Allreduce in reduce_step called from setup (MARK:allreduce <-
     MARK:reduce_setup), ranks 0-1, count 1, peer 1
  1  error abort at MPI_Abort (MARK:abort): a call the run never made, so
     no SRC point (src null) and a line more than 3 lines from every SRC
     point's frame: only the findings' own source lines show it
  2  warning incorrect-send-size at MPI_Sendrecv (MARK:sendrecv), the other
     side the same call on the other rank, ranks 0-1, count 20, peer 1

Errors first, as the writer orders them; errors and warnings are the sums
of the counts.  OUT.json is validated against SCHEMA.json."""
import copy
import json
import sys

import protocol_check as pc


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def marker_line(source, name):
    with open(source) as f:
        for n, line in enumerate(f, 1):
            if "MARK:%s " % name in line or line.rstrip().endswith("MARK:%s */" % name):
                return n
    fail("no MARK:%s in %s" % (name, source))


def src_at(doc, function, lines):
    """The SRC point of `function` whose frames are at `lines`, innermost first."""
    for iv in doc["intervals"]:
        for s in iv["src"]:
            if s["function"] == function and [f["line"] for f in s["stack"][:len(lines)]] == lines:
                return s
    fail("the protocol has no SRC point %s at lines %s" % (function, lines))


def side(s):
    return {"function": s["function"], "src": s["id"], "stack": copy.deepcopy(s["stack"])}


def finding(kind, severity, at, count, ranks, detail, peer, other):
    f = dict(side(at) if isinstance(at, dict) and "id" in at else at)
    f.update({"kind": kind, "severity": severity, "count": count, "processes": ranks[1] - ranks[0] + 1,
              "first_rank": ranks[0], "last_rank": ranks[1], "detail": detail, "peer": peer, "other": other})
    return f


def findings_of(doc, source):
    line = {m: marker_line(source, m) for m in
            ("bcast", "allreduce", "reduce_setup", "sendrecv", "abort")}
    bcast = src_at(doc, "MPI_Bcast", [line["bcast"]])
    allreduce = src_at(doc, "MPI_Allreduce", [line["allreduce"], line["reduce_setup"]])
    sendrecv = src_at(doc, "MPI_Sendrecv", [line["sendrecv"]])
    # MPI_Abort's frame: view_known's main, as the other frames of main name it
    frame = dict(bcast["stack"][0], line=line["abort"])
    frame["text"] = frame["text"].replace(":%d " % line["bcast"], ":%d " % line["abort"])
    near = [f["line"] for iv in doc["intervals"] for s in iv["src"] for f in s["stack"] if f["line"]]
    if min(abs(n - line["abort"]) for n in near) <= 3:
        fail("MARK:abort is within 3 lines of an SRC point's frame: the test of the findings' source lines "
             "would not test them")
    return [
        finding("collective-mismatch", "error", bcast, 1, (0, 1),
                "rank 0 called MPI_Bcast (root 0), rank 1 MPI_Allreduce: the 1st collective on MPI_COMM_WORLD",
                1, side(allreduce)),
        finding("abort", "error", {"function": "MPI_Abort", "src": None, "stack": [frame]}, 1, (0, 0),
                "MPI_Abort(MPI_COMM_WORLD, 2)", None, None),
        finding("incorrect-send-size", "warning", sendrecv, 20, (0, 1),
                "4 bytes sent to rank 1, a receive buffer of 8 bytes (MPI_INT x 2), tag 0", 1, side(sendrecv)),
    ]


def main():
    if len(sys.argv) != 5:
        fail("usage: inject_findings.py PROTOCOL.json SOURCE.c SCHEMA.json OUT.json")
    path, source, schema, out = sys.argv[1:]
    with open(path) as f:
        doc = json.load(f)
    if doc["correctness"]["level"] != "basic" or doc["correctness"]["findings"]:
        fail("%s: not a protocol of MPIPROF_CHECK=basic without findings: %s" % (path, doc["correctness"]))
    found = findings_of(doc, source)
    doc["correctness"]["findings"] = found
    doc["correctness"]["errors"] = sum(f["count"] for f in found if f["severity"] == "error")
    doc["correctness"]["warnings"] = sum(f["count"] for f in found if f["severity"] == "warning")
    pc.validate_schema(doc, schema)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
