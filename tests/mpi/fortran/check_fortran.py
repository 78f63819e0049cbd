"""Check the protocol of tests/mpi/fortran/fortran_mpi.f90 or fortran_f08.f90.

usage: check_fortran.py PROTOCOL.json PROTOCOL.txt SOURCE.f90

Every call counted (exact calls and bytes, in total and per process) and the
first stack frame of each SRC point at the marked line of the .f90 file (not
in the MPI library or its Fortran bindings).
"""
import sys

import protocol_check as pc

# What fortran_mpi.f90 / fortran_f08.f90 do (per rank).
N_ALLREDUCE, REDUCE_BYTES = 100, 4 * 4
N_SENDRECV, MSG_BYTES = 50, 8 * 4

EXPECTED = [
    {"function": "MPI_Allreduce", "marker": "allreduce",
     "calls": {0: N_ALLREDUCE, 1: N_ALLREDUCE},
     "bytes_sent": {0: N_ALLREDUCE * REDUCE_BYTES,
                    1: N_ALLREDUCE * REDUCE_BYTES},
     "bytes_recv": {0: N_ALLREDUCE * REDUCE_BYTES,
                    1: N_ALLREDUCE * REDUCE_BYTES}},
    {"function": "MPI_Send", "marker": "send",
     "calls": {0: N_SENDRECV}, "bytes_sent": {0: N_SENDRECV * MSG_BYTES},
     "bytes_recv": {}},
    {"function": "MPI_Recv", "marker": "recv",
     "calls": {1: N_SENDRECV}, "bytes_sent": {},
     "bytes_recv": {1: N_SENDRECV * MSG_BYTES}},
]
OTHERS = ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize")


def main(json_path, text_path, source):
    doc = pc.load_checked(json_path, text_path)
    pc.check_call_sites(doc, source, EXPECTED, OTHERS)
    print("SRC points: calls, bytes and call sites in %s as expected"
          % source)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
