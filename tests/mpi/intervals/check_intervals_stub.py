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


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source = argv[1:4]
    try:
        doc = pc.load(json_path)
        pc.check_invariants(doc)
        print("invariants hold in every interval")
        pc.check_text(doc, text_path)
        pc.check_interval_headers(doc, text_path)
        print("text protocol agrees with the JSON")
        if len(argv) == 5:
            pc.validate_schema(doc, argv[4])
            print("schema valid")
        pc.check_interval_tree(doc)
        names = [iv["name"] for iv in doc["intervals"]]
        if names != ["whole program", "stubbed"]:
            pc.fail("intervals listed as %r, expected ['whole program', "
                    "'stubbed']: the marks must reach the preloaded library, "
                    "not the stub. Intervals:\n%s"
                    % (names, pc.describe_intervals(doc)))
        iv = pc.check_interval(doc, 1, name="stubbed", file=source,
                               line=pc.marker_line(source, "stubbed"),
                               level=1, parent=0, executions=1)
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
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
