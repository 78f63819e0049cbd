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


def main(json_path, text_path, source, out, schema=None):
    meas = pc.measurements(out, ("phase", "inner", "seq"))
    print("program measured: %r" % meas)

    doc = pc.load_checked(json_path, text_path, schema, headers=True)
    pc.check_interval_tree(doc)
    pc.check_interval_names(doc, ["whole program", "phase", "inner"],
                            "the name without its padding blanks")
    phase = pc.check_interval(doc, 1, name="phase", file=source,
                              marker="phase", level=1, parent=0,
                              executions=1)
    inner = pc.check_interval(doc, 2, name="inner", file=source,
                              marker="inner", level=2, parent=1,
                              executions=N_INNER)
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
    for iv in (phase, inner):
        pc.check_ranks("execution time", iv, "execution_time",
                       {r: meas[r][iv["name"]] for r in (0, 1)}, REL)
    for iv in (pc.interval(doc, 0), phase, inner):
        pc.check_ranks("insufficient parallelism (mpiprof_seq_begin/end)",
                       iv, "insufficient_parallelism",
                       {r: 0.5 * meas[r]["seq"] for r in (0, 1)}, REL)
    print("execution times and insufficient parallelism as measured")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
