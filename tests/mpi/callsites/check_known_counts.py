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


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source = argv[1:4]
    try:
        doc = pc.load(json_path)
        pc.check_invariants(doc)
        print("invariants hold")
        pc.check_call_sites(doc, source, EXPECTED, OTHERS)
        print("SRC points: calls, bytes and call sites as expected")
        pc.check_text(doc, text_path)
        print("text protocol agrees with the JSON")
        if len(argv) == 5:
            pc.validate_schema(doc, argv[4])
            print("schema valid")
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
