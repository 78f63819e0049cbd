"""The protocol mpiprof-analyze wrote for a Score-P-shaped trace with known
answers (scorep_trace.py), for tests/analyze/test_analyze_scorep.sh:

    check_analyze.py SCENARIO PROTOCOL.json PROTOCOL.txt SCHEMA.json

The protocol must hold every invariant, validate, agree with its text, say
`Collection mode: trace`, and give each SRC point by function (one per
function: the trace has no call sites, and the protocol says so in the
stack and in Warnings) and interval 0 exactly the answers of EXPECTED."""
import sys

import protocol_check as pc
from scorep_trace import EXPECTED

# The JSON has 10 significant digits; the answers are exact in ns.
TOL = 1e-9


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def close(what, actual, expected):
    if actual is None or abs(actual - expected) > TOL:
        fail("%s is %r, expected %r" % (what, actual, expected))


def value(entry):
    return entry["sum"] if isinstance(entry, dict) else entry


def main(scenario, json_path, text_path, schema):
    doc = pc.load(json_path)
    try:
        pc.check_invariants(doc)
        pc.check_text(doc, text_path)
        pc.validate_schema(doc, schema)
    except AssertionError as e:
        fail(str(e))
    mode = doc["parameters"]["collection_mode"]
    if mode != "trace":
        fail("collection_mode is %r, expected 'trace'" % mode)
    with open(text_path, encoding="utf-8") as f:
        if "Collection mode       : trace\n" not in f.read():
            fail("the text protocol does not say 'Collection mode       : trace'")
    if not pc.find_warnings(doc, "no call sites", "MPI function alone"):
        fail("Warnings do not say that the SRC points are MPI functions alone: %s" % pc.warnings(doc))
    want = EXPECTED[scenario]
    srcs = pc.src_points(doc)
    functions = [s["function"] for s in srcs]
    if sorted(functions) != sorted(want["src"]):
        fail("SRC points %s, expected one per function of %s" % (functions, sorted(want["src"])))
    for s in srcs:
        if [f["text"] for f in s["stack"]] != ["[no call site in the trace: the MPI function alone]"]:
            fail("SRC %d (%s): stack %r does not say it is the MPI function alone" % (s["id"], s["function"],
                                                                                    s["stack"]))
        for key, expected in want["src"][s["function"]].items():
            close("SRC %s %s" % (s["function"], key), value(s[key]), expected)
    main_real = doc["intervals"][0]["real"]["main"]
    for key, expected in want["main"].items():
        close("interval 0 %s" % key, main_real[key], expected)
    print("%s: SRC points %s and interval 0 as expected" % (scenario, ", ".join(sorted(functions))))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: check_analyze.py SCENARIO PROTOCOL.json PROTOCOL.txt SCHEMA.json")
    main(*sys.argv[1:])
