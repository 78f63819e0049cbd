"""Check the protocol of tests/mpi/characteristics/idle.c.

usage: check_idle.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT

STDOUT is the program's standard output: one line per rank,
'rank=R exec=SECONDS', its own measurement of its time from MPI_Init's
return to MPI_Finalize's entry.  Idle time must be within 10% of
exec(0) - exec(1) (nominally 0.2 s) and be rank 1's.
"""
import sys

import protocol_check as pc

T_TAIL = 0.200   # as in idle.c
REL = 0.10


def main(json_path, text_path, source, out):
    exe = {r: m["exec"] for r, m in pc.measurements(out, ("exec",)).items()}
    idle = max(exe.values()) - exe[1]
    print("program measured: exec=%r -> idle time %.6f (nominal %.6f)"
          % (exe, idle, T_TAIL))
    if not pc.approx(idle, T_TAIL, 0.25):
        print("NOTE: the measured idle time %.6f is far from the nominal "
              "%.6f: a loaded machine?" % (idle, T_TAIL))

    doc = pc.load_checked(json_path, text_path, say=False)
    pc.check_call_sites(
        doc, source,
        [{"function": "MPI_Allreduce", "marker": "allreduce",
          "calls": {0: 1, 1: 1}, "bytes_sent": {0: 4, 1: 4},
          "bytes_recv": {0: 4, 1: 4}},
         {"function": "MPI_Barrier", "marker": "barrier",
          "calls": {0: 1, 1: 1}, "bytes_sent": {}, "bytes_recv": {}}],
        ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize"))
    iv0 = pc.interval(doc, 0)
    pc.check_main("interval 0", iv0, "idle_time", idle, REL)
    pc.check_main("interval 0", iv0, "execution_time", exe[0], REL)
    pc.check_rank("interval 0", iv0, "idle_time", 1, idle, REL)
    pc.check_rank("interval 0 (rank 0 finishes last)", iv0, "idle_time", 0,
                  0.0, 0, REL * idle)
    print("idle time %.6f on rank 1: as measured"
          % iv0["real"]["main"]["idle_time"])


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
