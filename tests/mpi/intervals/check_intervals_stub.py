"""Check the protocol of tests/mpi/intervals/intervals_stub.c built with plain mpicc
and -lmpiprof_stub, run with LD_PRELOAD=libmpiprof.so (see
test_intervals_stub.sh).

usage: check_intervals_stub.py PROTOCOL.json PROTOCOL.txt SOURCE.c [SCHEMA.json]

The preloaded library's functions, not the stub's, receive the marks: the
interval "stubbed" is in the protocol at the line of its begin mark, with
the MPI_Allreduce calls in it and its replicated code as insufficient
parallelism.
"""
import sys

import protocol_check as pc

N_ALLREDUCE = 5                 # as in intervals_stub.c


def main(json_path, text_path, source, schema=None):
    doc = pc.load_checked(json_path, text_path, schema, headers=True)
    pc.check_interval_tree(doc)
    pc.check_interval_names(doc, ["whole program", "stubbed"],
                            "the marks must reach the preloaded library, "
                            "not the stub")
    iv = pc.check_interval(doc, 1, name="stubbed", file=source,
                           marker="stubbed", level=1, parent=0, executions=1)
    pc.check_call_sites(
        doc, source,
        [{"function": "MPI_Allreduce", "marker": "allreduce",
          "calls": {0: N_ALLREDUCE, 1: N_ALLREDUCE}}], (), iv["id"])
    pc.check_inclusive(doc)
    ins = pc.by_rank(iv["real"], "insufficient_parallelism")
    if not all(ins[r] and ins[r] > 0 for r in (0, 1)):
        pc.fail("insufficient parallelism of 'stubbed' by process is %r, "
                "expected > 0 (MPIPROF_SEQ_BEGIN/END reach the preloaded "
                "library)" % ins)
    print("interval 'stubbed' with its MPI_Allreduce calls and "
          "replicated code")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
