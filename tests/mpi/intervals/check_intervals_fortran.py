"""Check the protocol of tests/mpi/intervals/intervals_fortran.f90 or
intervals_fortran_fh.f90 (see test_intervals_fortran.sh).

usage: check_intervals_fortran.py PROTOCOL.json PROTOCOL.txt SOURCE.f90 STDOUT [SCHEMA.json]

STDOUT is the program's standard output: 'rank=R phase=S inner=S seq=S' per
rank, its time in each interval and in its replicated code.  The intervals
marked from Fortran must be in the protocol with file = the .f90 file and
line = the line of the mpiprof_interval_begin call (resolved from the
call's return address), the name without the blanks that pad it.
"""
import sys

import protocol_check as pc

N_INNER = 10                    # as in the programs
REL = 0.10


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, out = argv[1:5]
    try:
        meas = pc.read_measurements(out, ("phase", "inner", "seq"))
        if sorted(meas) != [0, 1]:
            pc.fail("%s: expected a 'rank=R phase=S inner=S seq=S' line from "
                    "ranks 0 and 1, got ranks %r" % (out, sorted(meas)))
        print("program measured: %r" % meas)

        doc = pc.load(json_path)
        pc.check_invariants(doc)
        print("invariants hold in every interval")
        pc.check_text(doc, text_path)
        pc.check_interval_headers(doc, text_path)
        print("text protocol agrees with the JSON")
        if len(argv) == 6:
            pc.validate_schema(doc, argv[5])
            print("schema valid")

        pc.check_interval_tree(doc)
        names = [iv["name"] for iv in doc["intervals"]]
        if names != ["whole program", "phase", "inner"]:
            pc.fail("intervals listed as %r, expected ['whole program', "
                    "'phase', 'inner'] (the name without its padding "
                    "blanks). Intervals:\n%s"
                    % (names, pc.describe_intervals(doc)))
        phase = pc.check_interval(doc, 1, name="phase", file=source,
                                  line=pc.marker_line(source, "phase"),
                                  level=1, parent=0, executions=1)
        inner = pc.check_interval(doc, 2, name="inner", file=source,
                                  line=pc.marker_line(source, "inner"),
                                  level=2, parent=1, executions=N_INNER)
        print("intervals 'phase' and 'inner' at the lines of their "
              "mpiprof_interval_begin calls in %s" % source)
        pc.check_call_sites(
            doc, source,
            [{"function": "MPI_Allreduce", "marker": "allreduce",
              "calls": {0: N_INNER, 1: N_INNER},
              "bytes_sent": {0: 4 * N_INNER, 1: 4 * N_INNER},
              "bytes_recv": {0: 4 * N_INNER, 1: 4 * N_INNER}}],
            (), inner["id"])
        pc.check_call_sites(doc, source, [], (), phase["id"])
        pc.check_inclusive(doc)
        print("SRC points: MPI_Allreduce in 'inner' only, exact counts")
        for iv, key in ((phase, "phase"), (inner, "inner")):
            te = pc.by_rank(iv["real"], "execution_time")
            for r in (0, 1):
                pc.check_approx("execution time of rank %d in %r"
                                % (r, iv["name"]), te[r], meas[r][key], REL)
        for iv in (pc.interval(doc, 0), phase, inner):
            ins = pc.by_rank(iv["real"], "insufficient_parallelism")
            for r in (0, 1):
                pc.check_approx("insufficient parallelism of rank %d in %r "
                                "(mpiprof_seq_begin/end)" % (r, iv["name"]),
                                ins[r], 0.5 * meas[r]["seq"], REL)
        print("execution times and insufficient parallelism as measured")
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
