#!/usr/bin/env python3
"""check_matrix.py PROT.txt PROT.json MODE: the ring's communication matrix
(ring.c) on 4 processes, ranks 0-1 on one host and 2-3 on another.

MODE all: every process pair, known messages and bytes (those sent on a
communicator of the even and of the odd ranks under their world ranks),
time > 0 on each pair and on no other; the node pairs and the totals
within and between nodes.  MODE limited (MPIPROF_RANKS=0,
MPIPROF_MATRIX_RANKS=1): rank 0's pairs and one heaviest pair, said so.
MODE nows (MPIPROF_WAITSTATES=off): the calls on the split communicator
are not attributed (no rank translation), the ring's pairs as in all.  In
every mode the text protocol's figures equal the JSON's."""
import json
import re
import sys

P = 4
ROUNDS, BIG, BACK, SMALL = 10, 1000, 5, 400


def fail(msg):
    sys.exit("check_matrix: " + msg)


SPLIT, SPLIT_BYTES = 3, 100


def expected_pairs(split=True):
    pairs = {}
    for r in range(P):
        pairs[(r, (r + 1) % P)] = (ROUNDS, ROUNDS * BIG)
        pairs[(r, (r - 1) % P)] = (BACK, BACK * SMALL)
    if split:  # world 0 -> 2 and 1 -> 3 on the split communicators; the receivers' time
        pairs[(0, 2)] = pairs[(1, 3)] = (SPLIT, SPLIT * SPLIT_BYTES)
        pairs[(2, 0)] = pairs[(3, 1)] = (0, 0)
    return pairs


def columns(block):
    n = len(block["from"])
    return {(block["from"][i], block["to"][i]): (block["messages"][i], block["bytes"][i], block["time"][i])
            for i in range(n)}


def text_pairs(text, what):
    """The text protocol's rows of 'By WHAT pair'."""
    m = re.search(r"^--- By %s pair .*?---\n(.*?)(?=^---|^====|\Z)" % what, text, re.M | re.S)
    if not m:
        fail("no 'By %s pair' section in the text protocol" % what)
    rows = {}
    for line in m.group(1).splitlines():
        t = re.match(r"\s*(\d+) -> (\d+)\s+messages=(\d+)\s+bytes=(\d+)\s+time=([0-9.]+)$", line)
        if t:
            rows[(int(t.group(1)), int(t.group(2)))] = (int(t.group(3)), int(t.group(4)), float(t.group(5)))
    return rows


def same(text_rows, json_rows, what):
    if set(text_rows) != set(json_rows):
        fail("%s pairs differ between text %s and JSON %s" % (what, sorted(text_rows), sorted(json_rows)))
    for k, (m, b, t) in json_rows.items():
        tm, tb, tt = text_rows[k]
        if (tm, tb) != (m, b) or abs(tt - t) > 5e-7:
            fail("%s pair %s: text %s, JSON %s" % (what, k, text_rows[k], json_rows[k]))


def main():
    text = open(sys.argv[1]).read()
    doc = json.load(open(sys.argv[2]))
    mode = sys.argv[3]
    m = doc.get("matrix")
    if not m:
        fail("the JSON protocol has no matrix")
    names = [n["name"] for n in m["nodes"]]
    ranks = [n["ranks"] for n in m["nodes"]]
    if names != ["mpiprof-node1", "mpiprof-node2"] or ranks != [[0, 1], [2, 3]]:
        fail("nodes %s with ranks %s, expected mpiprof-node1 [0, 1] and mpiprof-node2 [2, 3]" % (names, ranks))
    node = {0: 0, 1: 0, 2: 1, 3: 1}
    want = expected_pairs(mode != "nows")
    got = columns(m["pairs"])
    # node pairs: the sums of the process pairs by node
    want_nodes = {}
    for (a, b), (n, by) in want.items():
        k = (node[a], node[b])
        o = want_nodes.get(k, (0, 0))
        want_nodes[k] = (o[0] + n, o[1] + by)
    got_nodes = columns(m["node_pairs"])
    if {k: v[:2] for k, v in got_nodes.items()} != want_nodes:
        fail("node pairs %s, expected %s" % (got_nodes, want_nodes))
    if any(v[2] <= 0 for v in got_nodes.values()):
        fail("a node pair has no time: %s" % got_nodes)
    within, between = m["within_nodes"], m["between_nodes"]
    inter = (30, 24000) if mode == "nows" else (36, 24600)
    if (within["messages"], within["bytes"]) != (30, 24000) or (between["messages"], between["bytes"]) != inter:
        fail("within nodes %s, between nodes %s; expected 30 messages, 24000 bytes and %s" % (within, between, inter))
    lost = 12 if mode == "nows" else 0  # 3 sends and 3 receives on each of the two communicators
    if m["not_attributed"] != lost:
        fail("%s calls not attributed, expected %d" % (m["not_attributed"], lost))
    if mode == "nows" and "not attributed: 12 calls" not in text:
        fail("the text does not say that 12 calls are not attributed")
    if abs(within["time"] + between["time"] - sum(v[2] for v in got.values())) > 1e-6 and mode == "all":
        fail("the node totals' time is not the process pairs' sum")
    if mode in ("all", "nows"):
        if not m["complete"] or m["heaviest"] != 0:
            fail("4 processes within MPIPROF_MATRIX_RANKS: every pair is expected, complete=%s" % m["complete"])
        if {k: v[:2] for k, v in got.items()} != want:
            fail("process pairs %s, expected %s" % (got, want))
        if any(v[2] <= 0 for v in got.values()):
            fail("a pair has no time: %s" % got)
        if "process pairs: all (4 processes, MPIPROF_MATRIX_RANKS=64)" not in text:
            fail("the text does not say that every pair is given")
    else:
        if m["complete"] or m["heaviest"] != 1 or m["limit"] != 1:
            fail("MPIPROF_MATRIX_RANKS=1: expected complete false, 1 heaviest pair, limit 1: %s" %
                 {k: m[k] for k in ("complete", "heaviest", "limit")})
        mine = {k for k in got if k[0] == 0}
        if mine != {(0, 1), (0, 2), (0, 3)} or len(got) != 4:
            fail("expected rank 0's two pairs and one more, got %s" % sorted(got))
        other = [k for k in got if k[0] != 0][0]
        if got[other][1] != ROUNDS * BIG:
            fail("the pair kept as heaviest %s has %s bytes, not the most (%d)" % (other, got[other][1], ROUNDS * BIG))
        if "MPIPROF_RANKS selects and the 1 heaviest (4 processes > MPIPROF_MATRIX_RANKS=1)" not in text:
            fail("the text does not say which pairs it keeps")
    same(text_pairs(text, "process"), got, "process")
    same(text_pairs(text, "node"), got_nodes, "node")
    for label, t in (("within nodes", within), ("between nodes", between)):
        if not re.search(r"^%s\s+messages=%d  bytes=%d  time=%.6f$" % (label, t["messages"], t["bytes"], t["time"]),
                         text, re.M):
            fail("the text's '%s' line differs from the JSON %s" % (label, t))
    print("check_matrix: %s: ok" % mode)


main()
