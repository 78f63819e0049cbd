#!/usr/bin/python3
"""A Score-P-shaped trace of four ranks (scorep_trace.py's writer) for
mpiprof-analyze under mpiexec: messages in a ring, so that shares of one,
two or three ranks each pair sends and receives of other shares, and
collectives on the world and on two communicators of two ranks.

    ring_trace.py DIR     writes DIR/traces.otf2

Even ranks send to the next rank at 2 + r ms, then receive from the rank
before them from 4.5 ms; odd ranks receive from the rank before them from
1.5 ms, then send to the next at 6 + r ms: every receive waits for a late
sender (0.5, 2.5, 4.5 and 2.5 ms: 10 ms of Real sync in all).  Then an
MPI_Barrier on the world (entered at 11 + r/2 ms, left at 13 + r/10) and
an MPI_Allreduce on the even and on the odd ranks (entered at 14 + 3r/10,
left at 16 + r/20)."""
import sys

import scorep_trace
from scorep_trace import call


def ring():
    ranks = []
    for r in range(4):
        nxt, prev = (r + 1) % 4, (r + 3) % 4
        send_at = 2 + r if r % 2 == 0 else 6 + r
        prev_sends = 2 + prev if prev % 2 == 0 else 6 + prev
        send = call("MPI_Send", send_at, send_at + 0.1, ("send", nxt, 1, 800, "world"))
        recv_from = 4.5 if r % 2 == 0 else 1.5
        recv = call("MPI_Recv", recv_from, prev_sends + 0.2, ("recv", prev, 1, 800, "world"))
        pair = "even" if r % 2 == 0 else "odd"
        ranks.append([call("MPI_Init", 0, 1)] + ([send, recv] if r % 2 == 0 else [recv, send]) + [
            call("MPI_Barrier", 11 + r / 2, 13 + r / 10, ("coll", "world", None, 0, 0)),
            call("MPI_Allreduce", 14 + 3 * r / 10, 16 + r / 20, ("coll", pair, None, 8, 8)),
            call("MPI_Finalize", 20, 21)])
    return {"comms": {"world": [0, 1, 2, 3], "even": [0, 2], "odd": [1, 3]}, "ranks": ranks}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ring_trace.py DIR")
    scorep_trace.SCENARIOS["ring"] = ring
    scorep_trace.write("ring", sys.argv[1])
