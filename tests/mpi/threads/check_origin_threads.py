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

MODEL = "lat_intra=5ms,bw_intra=1GB/s"
TRANSFER = 5e-3 + 8e-9
REL = 0.10


def main(json_path, text_path, source, rounds):
    rounds = int(rounds)
    doc = pc.load_checked(json_path, text_path, say=False)
    found = {}
    for fn, marker in (("MPI_Isend", "isend"), ("MPI_Wait", "wait")):
        found[fn] = pc.site(doc, 0, fn, source, marker)
        pc.check_equal("%s calls" % fn, found[fn]["calls"], rounds)
    isend = found["MPI_Isend"]
    pc.check_approx("Overlap of the MPI_Isend (started by other threads than the one that waited)",
                    isend["overlap"], rounds * TRANSFER, REL)
    pc.check_equal("Overlap of the MPI_Wait", found["MPI_Wait"]["overlap"], 0)
    print("MPI_Isend: %d calls from %d threads, Overlap %.6f s (expected %d x %.6f s)"
          % (isend["calls"], rounds, isend["overlap"], rounds, TRANSFER))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
