"""Check the protocol of tests/mpi/context/clock_busy.c (test_clock_descheduled.sh):
each rank's execution time in interval 0 within 10% of the busy time the
rank measured itself (its run is that busy loop and little else).

usage: check_clock_descheduled.py PROTOCOL.json STDOUT
"""
import sys

import protocol_check as pc


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        meas = pc.read_measurements(argv[2], ("busy",))
        if sorted(meas) != [0, 1]:
            pc.fail("expected a line from ranks 0 and 1, got %r" % sorted(meas))
        doc = pc.load(argv[1])
        te = pc.by_rank(pc.interval(doc, 0)["real"], "execution_time")
        for r in (0, 1):
            print("rank %d: measured %.6f s, protocol %.6f s" % (r, meas[r]["busy"], te[r]))
            pc.check_approx("execution time of rank %d" % r, te[r], meas[r]["busy"], 0.10)
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    print("execution times agree with the ranks' own")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
