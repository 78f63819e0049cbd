"""Check the protocol of tests/mpi/characteristics/io_split.c.

usage: check_io_split.py PROTOCOL.json PROTOCOL.txt STDOUT [SCHEMA.json]

STDOUT: the program's lines 'rank=R user=S sys=S' (getrusage from
MPI_Init's return to MPI_Finalize's entry).

Known answers (characteristics.md, Productive time):
  I/O of the Productive split = the sum of the MPI_File_* SRC points' times
      (interval 0; the program completes no MPI-IO request with a wait),
      exactly: to the JSON's precision, and to the 6 decimals the text
      prints (the text's I/O against the sum of the JSON's SRC times rounded
      as the text rounds).
  CPU + Sys + I/O = Productive (the invariants); CPU and Sys divide the rest
      in the ratio of the user to the system CPU time: CPU / (CPU + Sys)
      within 0.05 of user / (user + sys) as the program measured it.
"""
import re
import sys

import protocol_check as pc


def main(json_path, text_path, out, schema=None):
    doc = pc.load_checked(json_path, text_path, schema, say=False)
    iv = pc.interval(doc, 0)
    m = iv["real"]["main"]
    io_srcs = [s for s in iv["src"] if s["function"].startswith("MPI_File_")]
    names = sorted({s["function"] for s in io_srcs})
    for fn in ("MPI_File_open", "MPI_File_write_at", "MPI_File_sync",
               "MPI_File_read_at", "MPI_File_close"):
        if fn not in names:
            pc.fail("no SRC point of %s (MPI-IO SRC points: %r)"
                    % (fn, names))
    io_sum = sum(s["time"]["sum"] for s in io_srcs)
    io = pc.main_value(iv, "productive_io")
    print("I/O of the Productive split %.9f s; the %d MPI_File_* SRC "
          "points sum to %.9f s" % (io, len(io_srcs), io_sum))
    if io_sum <= 0:
        pc.fail("the MPI_File_* SRC points took no time")
    if abs(io - io_sum) > 1e-6 + 1e-9 * io_sum:
        pc.fail("productive_io %.9f differs from the sum of the MPI_File_* "
                "SRC points' times %.9f by %.3g s"
                % (io, io_sum, io - io_sum))
    t = re.search(r"^Productive time\s+\S+\s+\(CPU=(\S+) Sys=(\S+) "
                  r"I/O=(\S+)\)", "\n".join(pc.read_lines(text_path)),
                  re.M)
    if not t:
        pc.fail("the text has no 'Productive time ... (CPU=.. Sys=.. "
                "I/O=..)' line")
    if t.group(3) != "%.6f" % io_sum:
        pc.fail("the text's I/O=%s is not the MPI_File_* SRC points' sum "
                "%.6f" % (t.group(3), io_sum))
    meas = pc.measurements(out, ("user", "sys"))
    user = sum(x["user"] for x in meas.values())
    sys_ = sum(x["sys"] for x in meas.values())
    cpu, sy = m["productive_cpu"], m["productive_sys"]
    if cpu is None or sy is None:
        pc.fail("productive_cpu or productive_sys is null: getrusage "
                "measured user %.6f s, sys %.6f s" % (user, sys_))
    want = user / (user + sys_) if user + sys_ > 0 else None
    got = cpu / (cpu + sy) if cpu + sy > 0 else None
    print("CPU %.6f Sys %.6f (CPU share %s); the program's getrusage: "
          "user %.6f sys %.6f (user share %s)"
          % (cpu, sy, got, user, sys_, want))
    if want is not None and got is not None and abs(got - want) > 0.05:
        pc.fail("CPU / (CPU + Sys) = %.3f, but the program's user / "
                "(user + sys) = %.3f" % (got, want))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
