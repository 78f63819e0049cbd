"""Check the protocol of tests/mpi/waitstates/overlapping_windows.c.

usage: check_overlapping_windows.py PROTOCOL.json PROTOCOL.txt EVENTS
                                    [SCHEMA.json]

EVENTS: the prefix of the files of the program's instants
(waitstates_events.c): collective instances "bcast", "gather", "icoll"
(entry, exit) on both ranks; nonblocking requests "req_icoll", "req_p2p"
(the return of the starting call, the entry of the completing MPI_Waitall).
The program runs with MPIPROF_MODEL=MODEL below, so every request's
transfer time is known here.

Each characteristic is a part of the processes' time (mpiprof(7), WAIT
STATES, MODEL): the windows of one process,
    Potential sync  [entry_p(i), max_q entry_q(i))
    Time variation  [exit_p(i), max_q exit_q(i))
    Overlap         [return_r, return_r + min(completion_r - return_r,
                                              transfer_r))
count each instant of its time line once.  Known answers per phase and
rank (REL = 15% or ABS = 4 ms): the length of the union of the windows the
program's instants give.  Bounds: in every phase, each of the three at most
the interval's Total time, and per process at most its Execution time.
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

MODEL = "lat_intra=5ms,bw_intra=1GB/s"
LAT, SEC_PER_BYTE = 5e-3, 1e-9
T_COLL = LAT + 4 * SEC_PER_BYTE        # one int, 2 processes: L (a + n b)
T_P2P = LAT + 4096 * SEC_PER_BYTE      # P2P_BYTES
REL, ABS = 0.15, 0.004


def union(windows):
    """Length of the union of [a, b) windows."""
    total, end = 0.0, None
    for a, b in sorted(w for w in windows if w[1] > w[0]):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def collective_windows(ev, key, rank):
    pot, var = [], []
    for inst in ws.events(ev, key).values():
        smax = max(s for s, _ in inst.values())
        emax = max(e for _, e in inst.values())
        s, e = inst[rank]
        pot.append((s, smax))
        var.append((e, emax))
    return union(pot), union(var)


def overlap_windows(ev, key, rank, transfer):
    win = []
    for inst in ws.events(ev, key).values():
        if rank in inst:
            r, c = inst[rank]
            win.append((r, r + min(c - r, transfer(inst))))
    return union(win)


def check_bounds(iv):
    """Each characteristic <= Total time, per process <= its Execution
    time."""
    m = iv["real"]["main"]
    exec_p = pc.by_rank(iv["real"], "execution_time")
    for key in ("potential_sync", "time_variation", "overlap"):
        v = pc.main_value(iv, key)
        if v > m["total_time"] + 1e-6:
            pc.fail("interval %r: %s %.6f exceeds the Total time %.6f"
                    % (iv["name"], key, v, m["total_time"]))
        for r, x in pc.by_rank(iv["real"], key).items():
            if x is not None and x > exec_p[r] + 1e-6:
                pc.fail("interval %r: %s of rank %s %.6f exceeds its "
                        "Execution time %.6f"
                        % (iv["name"], key, r, x, exec_p[r]))


def main(json_path, text_path, prefix, schema=None):
    ev = ws.read_events(prefix)
    doc = ws.load_checked(json_path, text_path, schema)
    for phase, key in (("bcast_race", "bcast"),
                       ("gather_race", "gather"), ("icoll", "icoll")):
        iv = ws.phase(doc, phase)
        check_bounds(iv)
        for r in (0, 1):
            pot, var = collective_windows(ev, key, r)
            got_p = pc.check_rank(phase, iv, "potential_sync", r, pot,
                                  REL, ABS)
            got_v = pc.check_rank(phase, iv, "time_variation", r, var,
                                  REL, ABS)
            print("%-11s rank %d: Potential sync %.6f (union of its "
                  "windows %.6f), Time variation %.6f (%.6f)"
                  % (phase, r, got_p, pot, got_v, var))
    for phase, key, transfer in (
            ("icoll", "req_icoll", lambda inst: T_COLL),
            ("p2p", "req_p2p", lambda inst: T_P2P)):
        iv = ws.phase(doc, phase)
        check_bounds(iv)
        for r in (0, 1):
            want = overlap_windows(ev, key, r, transfer)
            got = pc.check_rank(phase, iv, "overlap", r, want, REL, ABS)
            print("%-11s rank %d: Overlap %.6f (union of its requests' "
                  "windows %.6f)" % (phase, r, got, want))
    check_bounds(pc.interval(doc, 0))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
