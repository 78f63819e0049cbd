"""mpiprof-analyze's bad input, for tests/analyze/test_analyze_refuse.sh:

    check_refuse.py MPIPROF-ANALYZE GOOD DIED NO_MPI

GOOD, DIED and NO_MPI are archive directories (scorep_trace.py's
late_sender, died and no_mpi traces).  Each bad input (a missing archive, a
directory with two anchor files or none, an empty or truncated anchor file, a missing or truncated event
file, event files with bytes changed, an archive without MPI events) must
give exit status 1, exactly one line on stderr that names the archive and
says what is wrong, and no protocol file.  Bytes changed at random may
leave a valid trace (OTF2 has no checksums): such a case must then give a
whole protocol, exit 0 (or 3 with its one line, when what is left reads as
the trace of a run that died), never a crash; the fixed cases below are corrupt
and must be refused.  The trace of a run that died is analysed, exit 3,
saying it is incomplete, in its line and in the protocol.  Run in an empty
directory."""
import glob
import os
import random
import shutil
import subprocess
import sys

import protocol_check as pc


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(analyze, archive, out="out.prof"):
    for f in glob.glob(out + "*"):
        os.remove(f)
    p = subprocess.run([analyze, "-f", "both", "-o", out, archive], capture_output=True, text=True)
    if p.returncode < 0:
        fail("%s: mpiprof-analyze killed by signal %d; stderr %r" % (archive, -p.returncode, p.stderr))
    return p.returncode, p.stderr, glob.glob(out + "*")


def expect_refused(analyze, archive, words):
    rc, err, written = run(analyze, archive)
    lines = err.splitlines()
    if rc != 1 or len(lines) != 1 or not lines[0].startswith("mpiprof-analyze: %s: " % archive):
        fail("%s: exit %d, stderr %r; expected exit 1 and one line 'mpiprof-analyze: %s: ...'"
             % (archive, rc, err, archive))
    for w in words:
        if w not in lines[0]:
            fail("%s: the refusal %r does not say %r" % (archive, lines[0], w))
    if written:
        fail("%s: refused, yet files were written: %s" % (archive, written))
    print("refused as expected: %s" % lines[0])


def copy(good, name):
    shutil.rmtree(name, ignore_errors=True)
    shutil.copytree(good, name)
    return name


def cut(path, keep):
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:int(len(data) * keep)])


def scramble(path, seed, n=4):
    rnd = random.Random(seed)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    for _ in range(n):
        i = rnd.randrange(len(data))
        data[i] ^= rnd.randrange(1, 256)
    with open(path, "wb") as f:
        f.write(data)


def main(analyze, good, died, no_mpi):
    rc, err, written = run(analyze, good + "/traces.otf2")
    if rc != 0 or err or sorted(written) != ["out.prof", "out.prof.json"]:
        fail("the good trace: exit %d, stderr %r, files %s" % (rc, err, written))
    expect_refused(analyze, "missing/traces.otf2", ["cannot be read"])
    # the archive's directory stands for its one anchor file (tests/tools/test_inputs.sh analyses it)
    d = copy(good, "two_anchors")
    shutil.copy(d + "/traces.otf2", d + "/again.otf2")
    expect_refused(analyze, d, ["a directory of 2 OTF2 anchor files"])
    os.makedirs("no_anchor", exist_ok=True)
    expect_refused(analyze, "no_anchor", ["a directory without an OTF2 anchor file"])
    d = copy(good, "empty_anchor")
    open(d + "/traces.otf2", "w").close()
    expect_refused(analyze, d + "/traces.otf2", ["not an OTF2 archive's anchor file"])
    d = copy(good, "cut_anchor")
    cut(d + "/traces.otf2", 0.3)
    expect_refused(analyze, d + "/traces.otf2", ["not an OTF2 archive's anchor file"])
    d = copy(good, "no_definitions")
    os.remove(d + "/traces.def")
    expect_refused(analyze, d + "/traces.otf2", ["global definitions cannot be opened"])
    d = copy(good, "no_events")
    os.remove(d + "/traces/1.evt")
    expect_refused(analyze, d + "/traces.otf2", ["events of location 1 cannot be opened"])
    d = copy(good, "cut_events")
    cut(d + "/traces/1.evt", 0.5)
    expect_refused(analyze, d + "/traces.otf2", ["events of location 1", "unreadable"])
    # corrupt for sure: each of these seeds breaks the file's records or its time line
    for seed in range(1, 6):
        d = copy(good, "scrambled%d" % seed)
        scramble(d + "/traces/1.evt", seed)
        expect_refused(analyze, d + "/traces.otf2", ["location 1"])
    # any other change: refused in one line, or a whole protocol; never a crash
    kinds = {"refused": 0, "analysed": 0}
    for seed in range(100, 140):
        d = copy(good, "fuzz")
        scramble(d + "/traces/%d.evt" % (seed % 2), seed, n=1 + seed % 6)
        rc, err, written = run(analyze, d + "/traces.otf2")
        if rc == 1 and len(err.splitlines()) == 1 and not written:
            kinds["refused"] += 1
        elif (rc == 0 and not err or rc == 3 and len(err.splitlines()) == 1) and \
                sorted(written) == ["out.prof", "out.prof.json"]:
            pc.check_invariants(pc.load("out.prof.json"))
            kinds["analysed"] += 1
        else:
            fail("fuzz seed %d: exit %d, stderr %r, files %s" % (seed, rc, err, written))
    print("40 event files with bytes changed at random: %(refused)d refused, %(analysed)d still valid traces"
          % kinds)
    expect_refused(analyze, no_mpi + "/traces.otf2", ["no MPI processes"])
    # a run that died: analysed, and said to be incomplete
    rc, err, written = run(analyze, died + "/traces.otf2")
    lines = err.splitlines()
    if rc != 3 or len(lines) != 1 or "incomplete" not in lines[0] or sorted(written) != ["out.prof",
                                                                                       "out.prof.json"]:
        fail("the trace of a run that died: exit %d, stderr %r, files %s; expected exit 3, one line saying it "
             "is incomplete, and the protocol" % (rc, err, written))
    doc = pc.load("out.prof.json")
    pc.check_invariants(doc)
    if not pc.find_warnings(doc, "the trace is incomplete", "location 1", "inside an MPI call"):
        fail("the protocol of a run that died does not say it is incomplete: %s" % pc.warnings(doc))
    with open("out.prof", encoding="utf-8") as f:
        if "Collection mode       : trace, incomplete\n" not in f.read():
            fail("the text protocol of a run that died does not say 'Collection mode: trace, incomplete'")
    print("the trace of a run that died: %s" % lines[0])
    p = subprocess.run([analyze], capture_output=True, text=True)
    if p.returncode != 2 or "usage" not in p.stderr:
        fail("no argument: exit %d, stderr %r; expected 2 and the usage" % (p.returncode, p.stderr))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: check_refuse.py MPIPROF-ANALYZE GOOD DIED NO_MPI")
    main(*sys.argv[1:])
