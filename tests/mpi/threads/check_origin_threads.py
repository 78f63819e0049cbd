"""Check the protocol of tests/mpi/threads/origin_threads.c.

usage: check_origin_threads.py PROTOCOL.json PROTOCOL.txt SOURCE.c ROUNDS

The program runs with MPIPROF_MODEL=MODEL below: an 8-byte transfer takes
5 ms, and each request is waited for 20 ms after its MPI_Isend returned,
so its Overlap is the transfer time.  Known answers: the MPI_Isend's SRC
point (made by threads that ended) has ROUNDS calls and Overlap ROUNDS x
5 ms, all of it rank 0's (REL = 10%); the MPI_Wait's has ROUNDS calls and
no Overlap (it starts nothing).
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

MODEL = "lat_intra=5ms,bw_intra=1GB/s"
TRANSFER = 5e-3 + 8e-9
REL = 0.10


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, rounds = argv[1], argv[2], argv[3], int(argv[4])
    try:
        doc = pc.load(json_path)
        pc.check_invariants(doc)
        pc.check_text(doc, text_path)
        found = {}
        for fn, marker in (("MPI_Isend", "isend"), ("MPI_Wait", "wait")):
            found[fn] = ws.site(doc, 0, fn, source, marker)
            pc.check_equal("%s calls" % fn, found[fn]["calls"], rounds)
        isend = found["MPI_Isend"]
        pc.check_approx("Overlap of the MPI_Isend (started by other threads than the one that waited)",
                        isend["overlap"], rounds * TRANSFER, REL)
        pc.check_equal("Overlap of the MPI_Wait", found["MPI_Wait"]["overlap"], 0)
        print("MPI_Isend: %d calls from %d threads, Overlap %.6f s (expected %d x %.6f s)"
              % (isend["calls"], rounds, isend["overlap"], rounds, TRANSFER))
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
