"""Check the digest and the summed SRC tables of intervals.c's protocol
(see test_intervals_digest.sh).

usage: check_intervals_digest.py PROTOCOL.json PROTOCOL.txt STDERR SCHEMA.json

The JSON: each interval's src_inclusive is the sum of the src of every
interval in its subtree (exact calls and bytes, times to rounding), the
known sets ("loop" lists MPI_Barrier alone, with "exchange"'s
MPI_Allreduce when inclusive), whole_run.src is interval 0's inclusive
table, the digest's numbers are interval 0's, its top SRC points the first
of the whole run with their share of Lost time.  The text: the digest
within the first 40 lines, right after the title, saying what the JSON
says; no line longer than 160 characters; interval 0's whole-run table.
STDERR: the end-of-run summary prints the same digest.
"""
import re
import sys

import protocol_check as pc

N_ITER = 50  # as in intervals.c
WIDTH = 160


def by_id(entries):
    return {s["id"]: s for s in entries}


def check_inclusive_tables(doc):
    for iv in doc["intervals"]:
        where = "interval %s %r" % (iv["id"], iv["name"])
        inc = iv.get("src_inclusive")
        if inc is None:
            pc.fail("%s has no src_inclusive" % where)
        want = {}
        for sub in pc.subtree(doc, iv["id"]):
            for s in pc.interval(doc, sub)["src"]:
                w = want.setdefault(s["id"], {"calls": 0, "bytes_sent": 0, "time": 0.0, "n": 0})
                w["calls"] += s["calls"]
                w["bytes_sent"] += s["bytes_sent"]
                w["time"] += s["time"]["sum"]
                w["n"] += 1
        got = by_id(inc)
        if set(got) != set(want):
            pc.fail("%s: src_inclusive lists SRC %s, its subtree's src %s"
                    % (where, sorted(got), sorted(want)))
        for sid, w in want.items():
            g = got[sid]
            if (g["calls"], g["bytes_sent"], g["intervals"]) != (w["calls"], w["bytes_sent"], w["n"]):
                pc.fail("%s: SRC %s inclusive calls/bytes/intervals %r, the subtree's %r"
                        % (where, sid, (g["calls"], g["bytes_sent"], g["intervals"]),
                           (w["calls"], w["bytes_sent"], w["n"])))
            if abs(g["time"]["sum"] - w["time"]) > 1e-9 + 1e-9 * w["time"]:
                pc.fail("%s: SRC %s inclusive time %r, the subtree's %r" % (where, sid, g["time"]["sum"], w["time"]))
        times = [s["time"]["sum"] for s in inc]
        if times != sorted(times, reverse=True):
            pc.fail("%s: src_inclusive not in descending order of time: %r" % (where, times))
    # known answers: "loop" calls MPI_Barrier itself, MPI_Allreduce in "exchange"
    loop = pc.find_interval(doc, "loop")
    own = sorted(s["function"] for s in loop["src"])
    inc = {s["function"]: s for s in loop["src_inclusive"]}
    if own != ["MPI_Barrier"] or sorted(inc) != ["MPI_Allreduce", "MPI_Barrier"]:
        pc.fail("interval loop: src %r and src_inclusive %r, expected [MPI_Barrier] and "
                "[MPI_Allreduce, MPI_Barrier]" % (own, sorted(inc)))
    if inc["MPI_Allreduce"]["calls"] != 2 * N_ITER or inc["MPI_Barrier"]["calls"] != 2 * N_ITER:
        pc.fail("interval loop inclusive: calls %r, expected %d each"
                % ({k: v["calls"] for k, v in inc.items()}, 2 * N_ITER))
    # every process selected (2 of 2): the spread of a sum is known
    a = inc["MPI_Allreduce"]["time"]
    by = inc["MPI_Allreduce"]["by_process"]["time"]
    if a["min"] is None or abs(a["min"] - min(by)) > 1e-9 or abs(a["max"] - max(by)) > 1e-9:
        pc.fail("interval loop inclusive MPI_Allreduce: min/max %r/%r, by process %r" % (a["min"], a["max"], by))
    whole = doc["whole_run"]["src"]
    zero = doc["intervals"][0]["src_inclusive"]
    if [(s["id"], s["calls"]) for s in whole] != [(s["id"], s["calls"]) for s in zero]:
        pc.fail("whole_run.src %r differs from interval 0's src_inclusive %r"
                % ([(s["id"], s["calls"]) for s in whole], [(s["id"], s["calls"]) for s in zero]))
    print("src_inclusive of every interval is its subtree's src summed; whole_run is interval 0's")


def check_digest(doc):
    d = doc["digest"]
    m = doc["intervals"][0]["real"]["main"]
    for dk, mk in (("parallelization_efficiency", "parallelization_efficiency"), ("total_time", "total_time"),
                   ("lost_time", "lost_time")):
        if d[dk] != m[mk]:
            pc.fail("digest %s %r, interval 0's %s %r" % (dk, d[dk], mk, m[mk]))
    parts = d["lost_parts"]
    if sorted(p["key"] for p in parts) != sorted(["insufficient_parallelism", "sendrecv", "collective",
                                                 "system", "idle_time"]):
        pc.fail("digest lost_parts %r" % [p["key"] for p in parts])
    for p in parts:
        if p["seconds"] != m[p["key"]]:
            pc.fail("digest %s %r, interval 0's %r" % (p["key"], p["seconds"], m[p["key"]]))
    secs = [p["seconds"] for p in parts]
    if secs != sorted(secs, reverse=True):
        pc.fail("digest lost_parts not largest first: %r" % secs)
    top = d["top_src"]
    whole = doc["whole_run"]["src"]
    want = [s for s in whole if s["calls"]][:5]
    if [s["id"] for s in top] != [s["id"] for s in want]:
        pc.fail("digest top_src %r, the whole run's first %r" % ([s["id"] for s in top], [s["id"] for s in want]))
    for t, s in zip(top, want):
        share = s["time"]["sum"] / d["lost_time"]
        if t["time"] != s["time"]["sum"] or abs(t["share_of_lost"] - share) > 1e-9:
            pc.fail("digest top SRC %s: time %r share %r, expected %r and %r"
                    % (t["id"], t["time"], t["share_of_lost"], s["time"]["sum"], share))
    if d["warnings"] != len(doc["parameters"]["warnings"]):
        pc.fail("digest warnings %r, parameters.warnings has %d" % (d["warnings"], len(doc["parameters"]["warnings"])))
    print("the digest's numbers are interval 0's and the whole run's")


def fixed(x, n):
    return "%.*f" % (n, x)


def check_text(doc, text_path, stderr_path):
    with open(text_path, encoding="utf-8") as f:
        raw = f.read().splitlines()
    longest = max(raw, key=len)
    if len(longest) > WIDTH:
        pc.fail("%s: a line of %d characters (at most %d): %r" % (text_path, len(longest), WIDTH, longest))
    head = raw[:40]
    if head[:3] != ["mpiprof protocol", "", "Digest"]:
        pc.fail("%s does not open with its title and the Digest: %r" % (text_path, head[:3]))
    d = doc["digest"]
    text = "\n".join(head)
    expect = [
        r"^   K_eff +%s \(parallelization efficiency\)$" % re.escape(fixed(d["parallelization_efficiency"], 4)),
        r"^   Lost time +%s s, %s%% of Total time %s s$" % (re.escape(fixed(d["lost_time"], 6)),
                                                           re.escape(fixed(100 * d["lost_share"], 1)),
                                                           re.escape(fixed(d["total_time"], 6))),
        r"^      %s +%s s +%s%% of Lost time$" % (re.escape(d["lost_parts"][0]["label"]),
                                                 re.escape(fixed(d["lost_parts"][0]["seconds"], 6)),
                                                 re.escape(fixed(100 * d["lost_parts"][0]["share"], 1))),
        r"^   Warnings +%d \(see Parameters\)$" % d["warnings"],
    ]
    for k, t in enumerate(d["top_src"], 1):
        expect.append(r"^      #%d SRC %d %s at .*: %s s in %d calls?, %s%% of Lost time$"
                      % (k, t["id"], t["function"], re.escape(fixed(t["time"], 6)), t["calls"],
                         re.escape(fixed(100 * t["share_of_lost"], 1))))
    for pat in expect:
        if not re.search(pat, text, re.M):
            pc.fail("%s: the first 40 lines lack /%s/:\n%s" % (text_path, pat, text))
    # interval 0's second table: the whole run's, in its order
    block = pc.interval_blocks(pc.read_lines(text_path))[0]
    part = pc.text_part(block, "--- SRC points of the whole run (inclusive of every interval, summed) ---",
                        "interval 0")
    rows = [re.match(r"^   SRC (\d+)  (\S+)  calls=(\d+) ", ln) for ln in part]
    rows = [(int(r.group(1)), int(r.group(3))) for r in rows if r]
    want = [(s["id"], s["calls"]) for s in doc["whole_run"]["src"]]
    if rows != want:
        pc.fail("%s: the whole run's table lists %r, the JSON %r" % (text_path, rows, want))
    # the end-of-run summary: the same K_eff and top SRC points
    with open(stderr_path, encoding="utf-8", errors="replace") as f:
        err = f.read()
    lines = [ln for ln in err.splitlines() if ln.startswith("  ")]
    if not any(ln.startswith("  Parallelization efficiency %s," % fixed(d["parallelization_efficiency"], 4))
               for ln in lines):
        pc.fail("stderr lacks the summary's K_eff %s:\n%s" % (fixed(d["parallelization_efficiency"], 4), err))
    tops = [ln.strip() for ln in lines if re.match(r"^  #\d+ SRC ", ln)]
    in_text = [ln.strip() for ln in head if re.match(r"^      #\d+ SRC ", ln)]
    if tops != in_text:
        pc.fail("the summary's top SRC points %r differ from the text's %r" % (tops, in_text))
    print("text: the digest in the first 40 lines as the JSON says, no line over %d characters; "
          "the summary on stderr the same" % WIDTH)


def main():
    if len(sys.argv) != 5:
        pc.fail(__doc__)
    json_path, text_path, stderr_path, schema = sys.argv[1:]
    doc = pc.load_checked(json_path, text_path, schema)
    check_inclusive_tables(doc)
    check_digest(doc)
    check_text(doc, text_path, stderr_path)
    print("PASS")


if __name__ == "__main__":
    main()
