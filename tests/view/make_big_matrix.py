#!/usr/bin/env python3
"""make_big_matrix.py IN.json OUT.json: IN with its matrix replaced by a
synthetic ring of 1,024 processes on 32 nodes of 32 (rank i sends 10
messages of 1000 bytes to i+1, in 0.001 s), for the page at that scale
(check_matrix_view.py big)."""
import json
import sys

P, PER = 1024, 32
doc = json.load(open(sys.argv[1]))
frm = list(range(P))
to = [(i + 1) % P for i in frm]
node = [i // PER for i in range(P)]
pairs = {"from": frm, "to": to, "messages": [10] * P, "bytes": [10000] * P, "time": [0.001] * P}
npairs = {}
for a, b in zip(frm, to):
    k = (node[a], node[b])
    npairs[k] = npairs.get(k, 0) + 1
keys = sorted(npairs)
node_pairs = {"from": [k[0] for k in keys], "to": [k[1] for k in keys],
              "messages": [10 * npairs[k] for k in keys], "bytes": [10000 * npairs[k] for k in keys],
              "time": [0.001 * npairs[k] for k in keys]}
within = sum(npairs[k] for k in keys if k[0] == k[1])
doc["matrix"] = {
    "processes": P, "limit": 1024, "complete": True, "heaviest": 0,
    "nodes": [{"name": "node%02d" % n, "ranks": list(range(n * PER, (n + 1) * PER))} for n in range(P // PER)],
    "within_nodes": {"messages": 10 * within, "bytes": 10000 * within, "time": 0.001 * within},
    "between_nodes": {"messages": 10 * (P - within), "bytes": 10000 * (P - within), "time": 0.001 * (P - within)},
    "node_pairs": node_pairs, "pairs": pairs, "not_attributed": 0}
json.dump(doc, open(sys.argv[2], "w"))
