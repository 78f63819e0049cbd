"""Check the protocol of tests/mpi/context/clock_busy.c (test_clock_descheduled.sh):
each rank's execution time in interval 0 within 10% of the busy time the
rank measured itself (its run is that busy loop and little else).

usage: check_clock_descheduled.py PROTOCOL.json STDOUT
"""
import sys

import protocol_check as pc


def main(json_path, out):
    meas = pc.measurements(out, ("busy",))
    doc = pc.load(json_path)
    te = pc.check_ranks("the ranks' own busy time", pc.interval(doc, 0), "execution_time",
                        {r: m["busy"] for r, m in meas.items()}, 0.10)
    for r in (0, 1):
        print("rank %d: measured %.6f s, protocol %.6f s" % (r, meas[r]["busy"], te[r]))
    print("execution times agree with the ranks' own")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
