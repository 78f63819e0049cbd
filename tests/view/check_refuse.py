"""mpiprof-view's refusals, for tests/view/test_view_refuse.sh:

    check_refuse.py MPIPROF-VIEW EXAMPLE.json SCHEMA.json

Each bad input must give exit status 1, exactly one line on stderr that
names the file and says what is wrong (the expected words below), and no
page.  Every broken protocol is first shown to fail the JSON Schema, so the
test says what it claims: a protocol that fails its schema is refused.  The
schema's example gives a page, also with a finding, and without its
Correctness section (a protocol of an older mpiprof).  Run in an empty directory."""
import copy
import json
import os
import subprocess
import sys

import protocol_check as pc


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(view, *args):
    p = subprocess.run([view, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect_refused(view, path, words, status=1):
    page = os.path.splitext(path)[0] + ".html"
    rc, out, err = run(view, path, "-o", page)
    lines = err.splitlines()
    if rc != status or len(lines) != 1 or not lines[0].startswith("mpiprof-view: "):
        fail("%s: exit %d, stderr %r; expected exit %d and one line 'mpiprof-view: ...'" % (path, rc, err, status))
    for w in [path] + words:
        if w not in lines[0]:
            fail("%s: the refusal %r does not say %r" % (path, lines[0], w))
    if os.path.exists(page) or any(".tmp." in f for f in os.listdir(".")):
        fail("%s: refused, yet a page (or its temporary file) was written: %s" % (path, os.listdir(".")))
    print("refused as expected: %s" % lines[0])


def set_path(doc, path, value):
    """Set (value not None) or delete (value is DELETE) doc's member at path."""
    *parents, last = path
    obj = doc
    for k in parents:
        obj = obj[k]
    if value is DELETE:
        del obj[last]
    else:
        obj[last] = value


DELETE = object()


def with_finding(example, broken):
    """The example's correctness with one finding at its first SRC point
    (the other side the second), then `broken` applied to that finding."""
    s0, s1 = example["intervals"][0]["src"][:2]
    f = {"kind": "wrong-datatype", "severity": "error", "function": s0["function"], "src": s0["id"],
         "stack": copy.deepcopy(s0["stack"]), "count": 2, "processes": 2, "first_rank": 0, "last_rank": 1,
         "detail": "MPI_INT sent, MPI_FLOAT received", "peer": 1,
         "other": {"function": s1["function"], "src": s1["id"], "stack": copy.deepcopy(s1["stack"])}}
    broken(f)
    out = copy.deepcopy(example["correctness"])
    out.update({"errors": 2, "findings": [f]})
    return out

# (what, path in the document, new value or DELETE, words of the refusal)
BROKEN = [
    ("another version", ("version",), 2, ["version: 2", "version 1"]),
    ("no intervals", ("intervals",), DELETE, ["intervals: missing"]),
    ("no interval 0", ("intervals",), [], ["intervals: empty"]),
    ("a string for seconds", ("intervals", 1, "real", "main", "lost_time"), "3.0",
     ["intervals[1].real.main.lost_time: a string, but a number >= 0 or null is required"]),
    ("negative seconds", ("intervals", 0, "real", "main", "idle_time"), -0.5,
     ["intervals[0].real.main.idle_time: -0.5"]),
    ("K_eff above 1", ("intervals", 0, "predicted", "main", "parallelization_efficiency"), 1.25,
     ["intervals[0].predicted.main.parallelization_efficiency: 1.25, but a number from 0 to 1"]),
    ("an SRC point without its time", ("intervals", 1, "src", 0, "time"), DELETE,
     ["intervals[1].src[0].time: missing"]),
    ("a fractional call count", ("intervals", 0, "src", 1, "calls"), 2.5,
     ["intervals[0].src[1].calls: 2.5, but an integer >= 0"]),
    ("a frame without its path", ("intervals", 0, "src", 0, "stack", 0, "path"), DELETE,
     ["intervals[0].src[0].stack[0].path: missing"]),
    ("a string in a by-process column", ("intervals", 1, "real", "by_process", "lost_time"), [1.0, "x"],
     ["intervals[1].real.by_process.lost_time[1]: a string, but a number >= 0 or null"]),
    ("processes 0", ("parameters", "processes"), 0, ["parameters.processes: 0"]),
    ("no parameters", ("parameters",), DELETE, ["parameters: missing"]),
    ("a null parent below interval 0", ("intervals", 1, "parent"), None,
     ["intervals[1].parent: null, but an integer >= 0"]),
    ("a string for the count of errors", ("correctness", "errors"), "2",
     ["correctness.errors: a string, but an integer >= 0 or null"]),
    ("a finding without its stack", ("correctness",), lambda ex: with_finding(ex, lambda f: f.pop("stack")),
     ["correctness.findings[0].stack: missing"]),
    ("a finding's other side without its function", ("correctness",),
     lambda ex: with_finding(ex, lambda f: f["other"].pop("function")),
     ["correctness.findings[0].other.function: missing"]),
    ("a finding's frame with line 0", ("correctness",),
     lambda ex: with_finding(ex, lambda f: f["stack"][0].update(line=0)),
     ["correctness.findings[0].stack[0]: line 0"]),
]


def main():
    view, example_path, schema = sys.argv[1:4]
    with open(example_path) as f:
        example = json.load(f)
    pc.validate_schema(example, schema)

    # not a protocol at all
    expect_refused(view, "missing.json", ["No such file or directory"])
    open("empty.json", "w").close()
    expect_refused(view, "empty.json", ["empty, not a JSON protocol"])
    with open("run.prof", "w") as f:
        f.write("mpiprof protocol\n\nParameters\n")
    expect_refused(view, "run.prof", ["a text protocol, not a JSON one", ".json sibling"])
    with open("broken.json", "w") as f:
        f.write('{"format": "mpiprof-protocol", "version": 1,')
    expect_refused(view, "broken.json", ["not valid JSON", "line 1"])
    with open("list.json", "w") as f:
        f.write("[1, 2]")
    expect_refused(view, "list.json", ["not a JSON protocol"])
    with open("other.json", "w") as f:
        json.dump({"format": "mpiprof-hang-dump", "version": 1}, f)
    expect_refused(view, "other.json", ["not a valid mpiprof protocol", 'format: "mpiprof-hang-dump"'])

    # protocols that fail the schema
    for i, (what, path, value, words) in enumerate(BROKEN):
        doc = copy.deepcopy(example)
        set_path(doc, path, value(example) if callable(value) else value)
        try:
            pc.validate_schema(doc, schema)
        except AssertionError:
            pass
        else:
            fail("broken protocol %r passes the schema: the test would not test a schema failure" % what)
        name = "broken-%d.json" % i
        with open(name, "w") as f:
            json.dump(doc, f)
        expect_refused(view, name, ["not a valid mpiprof protocol"] + words)

    # two protocols, one of them bad: no page either
    expect_refused(view, "broken-0.json", ["broken-0.json"])
    rc, out, err = run(view, example_path, "broken-1.json", "-o", "two.html")
    if rc != 1 or "broken-1.json: not a valid mpiprof protocol" not in err or os.path.exists("two.html"):
        fail("a good and a bad protocol: exit %d, %r, page %s" % (rc, err, os.path.exists("two.html")))
    # three protocols, the third bad: no page; all good: a page
    rc, out, err = run(view, example_path, example_path, "broken-1.json", "-o", "three.html")
    if rc != 1 or "broken-1.json: not a valid mpiprof protocol" not in err or os.path.exists("three.html"):
        fail("two good protocols and a bad one: exit %d, %r, page %s" % (rc, err, os.path.exists("three.html")))
    rc, out, err = run(view, example_path, example_path, example_path, "-o", "three.html")
    if rc != 0 or not os.path.exists("three.html"):
        fail("three protocols: exit %d, %r (any number of protocols make a page)" % (rc, err))
    # usage errors: exit 2
    for args in ([], ["--source", "/nonexistent", example_path]):
        rc, out, err = run(view, *args)
        if rc != 2 or not err:
            fail("mpiprof-view %s: exit %d (usage errors exit 2 with a message)" % (" ".join(args), rc))
    # and the valid example gives a page
    rc, out, err = run(view, example_path, "-o", "good.html")
    if rc != 0 or err or not os.path.getsize("good.html"):
        fail("the schema's example: exit %d, stderr %r" % (rc, err))
    # a protocol with a valid finding, and one of an mpiprof before the
    # Correctness section (no "correctness"), give pages too
    good = copy.deepcopy(example)
    good["correctness"] = with_finding(example, lambda f: None)
    pc.validate_schema(good, schema)
    old = copy.deepcopy(example)
    del old["correctness"]
    for name, doc in (("finding.json", good), ("old.json", old)):
        with open(name, "w") as f:
            json.dump(doc, f)
        rc, out, err = run(view, name, "-o", name + ".html")
        if rc != 0 or err or not os.path.getsize(name + ".html"):
            fail("%s: exit %d, stderr %r (a valid protocol must give a page)" % (name, rc, err))
    print("check_refuse: %d bad inputs refused, the example drawn, with a finding and without the "
          "Correctness section" % (len(BROKEN) + 7))


if __name__ == "__main__":
    main()
