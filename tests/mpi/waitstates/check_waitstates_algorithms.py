"""Check the protocols of tests/mpi/waitstates/waitstates_algorithms.c, run with MPICH's
collective algorithms forced (test_waitstates_algorithms.sh).

usage: check_waitstates_algorithms.py SCHEMA.json|- PROTOCOL.txt...
  (each JSON protocol is PROTOCOL.txt.json)

Each protocol: every invariant, the text agreeing with the JSON, the schema;
the wait-state analyses ran (stated in the parameters) and every message
was paired with its receive; the program's calls counted exactly (2
processes, ROUNDS = 3 as in the program); Potential sync and Time variation
computed (not n/a) at the collectives on the intercommunicator.
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

ROUNDS = 3
# calls summed over the 2 processes
CALLS = {
    "MPI_Comm_split": 2,
    "MPI_Intercomm_create": 4,
    "MPI_Send": 2 * ROUNDS,
    "MPI_Recv": 2 * ROUNDS,
    "MPI_Barrier": 2 * ROUNDS,
    "MPI_Bcast": 2 * ROUNDS,
    "MPI_Allgather": 2 * ROUNDS,
    "MPI_Intercomm_merge": 2,
    "MPI_Allreduce": 4 * ROUNDS,
    "MPI_Comm_free": 8,
}
ON_INTERCOMM = ("MPI_Barrier", "MPI_Bcast", "MPI_Allgather")


def check_one(text_path, schema):
    doc = ws.load_checked(None, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)
    calls = pc.calls_by_function(doc)
    for fn, n in CALLS.items():
        if calls.get(fn) != n:
            pc.fail("%s: %s called %r times in the protocol, expected %d"
                    % (text_path, fn, calls.get(fn), n))
    for s in pc.src_points(doc):
        if s["function"] in ON_INTERCOMM:
            for key in ("potential_sync", "time_variation"):
                pc.src_stat(s, key)  # fails when n/a


def main(schema, *text_paths):
    if not text_paths:
        pc.bad_usage()
    schema = None if schema == "-" else schema
    for text_path in text_paths:
        check_one(text_path, schema)
    print("%d protocols: invariants hold, calls exact, wait states "
          "analysed" % len(text_paths))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
