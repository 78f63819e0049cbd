"""Check the protocol of tests/mpi/preload/preload.c, profiled through LD_PRELOAD.

usage: check_preload.py PROTOCOL.json PROTOCOL.txt SOURCE.c

Same structure as with mpicc-prof: interval 0, the SRC points of the calls
the program makes (exact counts and bytes, call sites at the marked lines;
the program is built with -g), every invariant.
"""
import sys

import protocol_check as pc

N_ROUNDS, N_MSGS = 10, 5     # as in preload.c
REDUCE_BYTES, MSG_BYTES = 8, 100 * 4

EXPECTED = [
    # MPI_Bcast: calls only (how a broadcast's bytes count is not fixed).
    {"function": "MPI_Bcast", "marker": "bcast", "in_function": "main",
     "calls": {0: N_ROUNDS, 1: N_ROUNDS}},
    {"function": "MPI_Allreduce", "marker": "allreduce", "in_function": "main",
     "calls": {0: N_ROUNDS, 1: N_ROUNDS},
     "bytes_sent": {0: N_ROUNDS * REDUCE_BYTES, 1: N_ROUNDS * REDUCE_BYTES},
     "bytes_recv": {0: N_ROUNDS * REDUCE_BYTES, 1: N_ROUNDS * REDUCE_BYTES}},
    {"function": "MPI_Send", "marker": "send", "in_function": "main",
     "calls": {1: N_MSGS}, "bytes_sent": {1: N_MSGS * MSG_BYTES},
     "bytes_recv": {}},
    {"function": "MPI_Recv", "marker": "recv", "in_function": "main",
     "calls": {0: N_MSGS}, "bytes_sent": {},
     "bytes_recv": {0: N_MSGS * MSG_BYTES}},
]
OTHERS = ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize")


def main(json_path, text_path, source):
    doc = pc.load_checked(json_path, text_path)
    pc.check_call_sites(doc, source, EXPECTED, OTHERS)
    print("SRC points: calls, bytes and call sites as expected")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
