"""Check the protocol of tests/mpi/callsites/known_counts.c (see test_known_counts.sh).

usage: check_known_counts.py PROTOCOL.json PROTOCOL.txt SOURCE.c [SCHEMA.json]
"""
import sys

import protocol_check as pc

# What known_counts.c does (per rank).
N_ALLREDUCE, REDUCE_BYTES = 1000, 4 * 4
N_SENDRECV, MSG_BYTES = 500, 8 * 4

EXPECTED = [
    {"function": "MPI_Allreduce", "marker": "allreduce",
     "caller": "reduce_step_call", "in_function": "reduce_step",
     "calls": {0: N_ALLREDUCE, 1: N_ALLREDUCE},
     "bytes_sent": {0: N_ALLREDUCE * REDUCE_BYTES,
                    1: N_ALLREDUCE * REDUCE_BYTES},
     "bytes_recv": {0: N_ALLREDUCE * REDUCE_BYTES,
                    1: N_ALLREDUCE * REDUCE_BYTES}},
    {"function": "MPI_Send", "marker": "send", "in_function": "main",
     "calls": {0: N_SENDRECV}, "bytes_sent": {0: N_SENDRECV * MSG_BYTES},
     "bytes_recv": {}},
    {"function": "MPI_Recv", "marker": "recv", "in_function": "main",
     "calls": {1: N_SENDRECV}, "bytes_sent": {},
     "bytes_recv": {1: N_SENDRECV * MSG_BYTES}},
]

# Calls the program makes besides the counted ones.  MPI_Init and
# MPI_Finalize are outside interval 0 but may be listed.
OTHERS = ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize")


def main(json_path, text_path, source, schema=None):
    doc = pc.load_checked(json_path, text_path, schema)
    pc.check_call_sites(doc, source, EXPECTED, OTHERS)
    print("SRC points: calls, bytes and call sites as expected")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
