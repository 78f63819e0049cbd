"""The protocol mpiprof-analyze wrote for a Score-P-shaped trace with known
answers (scorep_trace.py), for tests/analyze/test_analyze_scorep.sh:

    check_analyze.py SCENARIO PROTOCOL.json PROTOCOL.txt SCHEMA.json

The protocol must hold every invariant, validate, agree with its text, say
`Collection mode: trace`, and give each SRC point by function (one per
function: the trace has no call sites, and the protocol says so in the
stack and in Warnings) or by function and call site (mpiprof's attribute),
and every interval (mpiprof's user regions) exactly the answers of
EXPECTED."""
import sys

import protocol_check as pc
from scorep_trace import EXPECTED

# The answers are exact in ns; the JSON has 10 significant digits, and a
# drift-corrected instant may be 1 ns off (the correction rounds).
TOL = 1e-8


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
    want = EXPECTED[scenario]
    sites = "intervals" in want
    if not sites:  # a trace without call sites: interval 0 alone, SRC points by function
        want = {"intervals": [{"name": "whole program", "level": 0, "executions": 1, "src": want["src"],
                               "main": want["main"]}]}
    if sites == bool(pc.find_warnings(doc, "no call sites", "MPI function alone")):
        fail("Warnings %s say that the SRC points are MPI functions alone" % ("do" if sites else "do not")
             + ": %s" % pc.warnings(doc))
    if len(doc["intervals"]) != len(want["intervals"]):
        fail("intervals %s, expected %s" % (pc.describe_intervals(doc), [iv["name"] for iv in want["intervals"]]))
    for iv, expected_iv in zip(doc["intervals"], want["intervals"]):
        where = "interval %d (%s)" % (iv["id"], iv["name"])
        for key in ("name", "file", "line", "level", "parent", "executions"):
            if key in expected_iv and iv[key] != expected_iv[key]:
                fail("%s: %s is %r, expected %r" % (where, key, iv[key], expected_iv[key]))
        found = {}
        for s in iv["src"]:
            stack = [f["text"] for f in s["stack"]]
            if sites:
                found["%s@%s" % (s["function"], " <- ".join(stack))] = s
            elif stack != ["[no call site in the trace: the MPI function alone]"]:
                fail("%s: SRC %d (%s): stack %r does not say it is the MPI function alone"
                     % (where, s["id"], s["function"], stack))
            else:
                found[s["function"]] = s
        if sorted(found) != sorted(expected_iv["src"]) or len(found) != len(iv["src"]):
            fail("%s: SRC points %s, expected %s" % (where, sorted(found), sorted(expected_iv["src"])))
        for name, values in expected_iv["src"].items():
            for key, expected in values.items():
                close("%s: SRC %s %s" % (where, name, key), value(found[name][key]), expected)
        for key, expected in expected_iv["main"].items():
            close("%s: %s" % (where, key), iv["real"]["main"][key], expected)
    functions = sorted(s["function"] for s in doc["intervals"][0]["src"])
    print("%s: intervals %s, SRC points of %s as expected" % (scenario, [iv["name"] for iv in want["intervals"]],
                                                                 ", ".join(functions)))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: check_analyze.py SCENARIO PROTOCOL.json PROTOCOL.txt SCHEMA.json")
    main(*sys.argv[1:])
