#!/usr/bin/env python3
"""The Correctness section of a protocol against the findings a test
program marks in its source (correctness.md).

    check_findings.py PROT.json SOURCE SCENARIO [PROT.txt]
    check_findings.py --marks SOURCE SCENARIO    (prints "LINE KIND" per mark)

SOURCE marks the line of each call that must show a finding in SCENARIO:

    MPI_Isend(...);  /* expect SCENARIO: KIND ranks=A[-B] [count=N] [other=LABEL] */

and the other side's call, for inter-process kinds, with /* label LABEL */.
Several scenarios may share a marker ("expect leak,twice: ...").  The
protocol must have exactly those findings: each of that kind, at that
line of SOURCE (the first frame of its stack), on exactly those ranks,
with the other side at the labelled line, and no other finding (a correct
scenario marks nothing and must give none).  With PROT.txt, the text
section lists the same findings."""
import json
import os
import re
import sys

EXPECT = re.compile(r"/\*\s*expect\s+([\w,-]+):\s*([a-z-]+)((?:\s+\w+=[\w.-]+)*)\s*\*/")
LABEL = re.compile(r"/\*\s*label\s+([\w-]+)\s*\*/")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def marks(source, scenario):
    expected, labels = [], {}
    with open(source, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            for m in LABEL.finditer(line):
                labels[m.group(1)] = n
            for m in EXPECT.finditer(line):
                if scenario not in m.group(1).split(","):
                    continue
                opts = dict(kv.split("=", 1) for kv in m.group(3).split())
                expected.append({"kind": m.group(2), "line": n, **opts})
    for e in expected:
        if "other" in e:
            if e["other"] not in labels:
                fail("%s: no /* label %s */ for the other side" % (source, e["other"]))
            e["other_line"] = labels[e["other"]]
    return expected


def ranks(spec):
    a, _, b = spec.partition("-")
    return int(a), int(b or a)


def where(side, base):
    """The line of the first frame of a side's stack in the file `base`."""
    for fr in side.get("stack") or []:
        if fr.get("file") == base:
            return fr.get("line")
    return None


def describe(f, base):
    other = f.get("other")
    return "%s at %s:%s ranks %d-%d count %d%s (%s)" % (
        f["kind"], base, where(f, base), f["first_rank"], f["last_rank"], f["count"],
        " other line %s" % where(other, base) if other else "", f.get("detail"))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--marks":
        for e in marks(sys.argv[2], sys.argv[3]):
            print(e["line"], e["kind"])
        return
    if len(sys.argv) not in (4, 5):
        fail(__doc__)
    prot, source, scenario = sys.argv[1:4]
    base = os.path.basename(source)
    with open(prot, encoding="utf-8") as f:
        doc = json.load(f)
    corr = doc.get("correctness")
    if not corr:
        fail("%s has no correctness section" % prot)
    found = list(corr["findings"])
    expected = marks(source, scenario)
    unmatched = []
    for e in expected:
        lo, hi = ranks(e.get("ranks", "0"))
        hit = None
        for f in found:
            if f["kind"] != e["kind"] or where(f, base) != e["line"]:
                continue
            if (f["first_rank"], f["last_rank"], f["processes"]) != (lo, hi, hi - lo + 1):
                continue
            if "count" in e and f["count"] != int(e["count"]):
                continue
            if "other_line" in e and (not f.get("other") or where(f["other"], base) != e["other_line"]):
                continue
            hit = f
            break
        if hit is None:
            unmatched.append(e)
        else:
            found.remove(hit)
    if unmatched or found:
        fail("scenario %s: findings differ from the marks of %s\n  expected, not found: %s\n"
             "  found, not expected: %s" % (scenario, base, unmatched,
                                            [describe(f, base) for f in found]))
    errors = sum(f["count"] for f in corr["findings"] if f["severity"] == "error")
    warnings = sum(f["count"] for f in corr["findings"] if f["severity"] == "warning")
    if (corr["errors"], corr["warnings"]) != (errors, warnings):
        fail("the counts %s/%s are not the findings' %s/%s" % (corr["errors"], corr["warnings"], errors, warnings))
    if len(sys.argv) == 5:
        with open(sys.argv[4], encoding="utf-8") as f:
            text = f.read()
        section = text.split("\nParameters\n", 1)[0]
        listed = re.findall(r"^   (error|warning) ([a-z-]+): ", section, re.M)
        want = sorted((f["severity"], f["kind"]) for f in corr["findings"])
        if sorted(listed) != want:
            fail("the text's Correctness section lists %s, the JSON %s" % (sorted(listed), want))
    print("findings of scenario %s: %d, as marked" % (scenario, len(corr["findings"])))


if __name__ == "__main__":
    main()
