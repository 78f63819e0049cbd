"""Check the protocol of tests/mpi/waitstates/waitstates_collective.c.

usage: check_waitstates_collective.py PROTOCOL.json PROTOCOL.txt SOURCE.c
                                      STDOUT EVENTS [SCHEMA.json]

STDOUT: the program's lines 'rank=R allreduce=S iallreduce=S barrier=S',
each rank's time inside the operations of each phase; EVENTS: the prefix of
the files of the instants each rank entered and left each operation
instance (waitstates_events.c).

Known answers: rank r computes (r+1) x 10 ms before each of 20 operations,
so rank 0 enters each one 10 ms before rank 1 and both leave it together:
  Potential sync of each phase ~ 20 x 10 ms = 0.2 s, all of it rank 0's,
  within REL = 10% of what the definition gives from the program's instants
  (sum over instances, sum_p (max_q start_q - start_p)), in total and per
  process (a rank delayed by the machine may enter an instance last):
    "allreduce":  on the MPI_Allreduce SRC point (and the interval's main,
                  and rank 0's by-process value);
    "iallreduce": counted from the MPI_Iallreduce's entry to the MPI_Wait's
                  exit; booked on the MPI_Iallreduce or the MPI_Wait SRC
                  point (the spec does not say which), the two together;
    "barrier":    on the MPI_Barrier SRC point.
  Time variation of each phase (sum over instances, sum_p (max_q end_q -
  end_p)) small: nominally 0, as the program's instants give it within
  SMALL = 10% of 0.2 s (an MPI library may let one rank leave an operation
  a little later than the other; the profiler must see the same), rank by
  rank as well.
  Interval 0: Potential sync = the three phases' (0.6 s; the ranks meet
  between them with MPI_Sendrecv, which has none), rank 1's ~ 0.
  Real sync of the collectives' SRC points: 0 or n/a.
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

N_OPS, T_SKEW = 20, 0.010          # as in waitstates_collective.c
NOMINAL = N_OPS * T_SKEW           # 0.2 s per phase
REL = 0.10
SMALL = REL * NOMINAL              # Time variation bound, "about 0"
KEYS = ("allreduce", "iallreduce", "barrier")


def main(json_path, text_path, source, out, prefix, schema=None):
    meas = pc.measurements(out, KEYS)
    ev = ws.read_events(prefix)
    ref, tvref, per = {}, {}, {}
    for k in KEYS:
        tot, per[k] = ws.expected_collective(ev, k)
        ref[k], tvref[k] = tot["potential_sync"], tot["time_variation"]
        print("program measured, phase %s: time in the operations %r"
              % (k, {r: meas[r][k] for r in meas}))
        ws.note_nominal("Potential sync of phase %s, from the program's "
                        "instants" % k, ref[k], NOMINAL)
        print("program's instants, phase %s: Time variation %.6f "
              "(nominal 0)" % (k, tvref[k]))
        if tvref[k] > SMALL:
            print("NOTE: the ranks left the %s operations far apart "
                  "(a loaded machine?)" % k)

    doc = ws.load_checked(json_path, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)

    total = tvtotal = 0.0
    ptotal = {0: 0.0, 1: 0.0}
    for name, sites in (
            ("allreduce", [("MPI_Allreduce", "allreduce")]),
            ("iallreduce", [("MPI_Iallreduce", "iallreduce"),
                            ("MPI_Wait", "iwait")]),
            ("barrier", [("MPI_Barrier", "barrier")])):
        what = "phase %s" % name
        iv = ws.phase(doc, name)
        srcs = []
        for fn, marker in sites:
            s = pc.site(doc, iv, fn, source, marker)
            pc.check_counts(s, calls={0: N_OPS, 1: N_OPS})
            # A collective has no Real sync (late sender).
            ws.check_src_zero(what, s, "real_sync", 1e-6)
            srcs.append(s)
        if name == "allreduce":
            pc.check_counts(srcs[0], bytes_sent={0: 4 * N_OPS, 1: 4 * N_OPS},
                            bytes_recv={0: 4 * N_OPS, 1: 4 * N_OPS})
        pc.check_no_other_srcs(what, iv, srcs)
        # per process, as the program's instants give it (nominally
        # all of it rank 0's, which enters first)
        pr = {r: per[name][r]["potential_sync"] for r in (0, 1)}
        if len(srcs) == 1:
            # 20 instances x 10 ms, on rank 0, which enters first.
            ws.check_src_value(what, srcs[0], "potential_sync", ref[name],
                               REL, per_rank=pr)
            tv = pc.src_stat(srcs[0], "time_variation")["sum"]
        else:
            # Nonblocking: the instance runs from MPI_Iallreduce's entry
            # to MPI_Wait's exit; which SRC point holds it is not fixed.
            ps = [s.get("potential_sync") for s in srcs]
            if all(p is None for p in ps):
                pc.fail("%s: Potential sync is n/a on both the "
                        "MPI_Iallreduce and the MPI_Wait SRC points"
                        % what)
            got = sum(pc.stat_sum(s, "potential_sync") for s in srcs)
            pc.check_approx("%s: Potential sync of MPI_Iallreduce + "
                            "MPI_Wait" % what, got, ref[name], REL)
            for s, p in zip(srcs, ps):
                if p and p.get("sum", 0) > SMALL and \
                        p.get("max_rank") != max(pr, key=pr.get) and \
                        abs(pr[0] - pr[1]) > 2 * REL * ref[name]:
                    pc.fail("%s: the Potential sync of %s is rank %r's, "
                            "expected rank %d's (the program's instants "
                            "give %r): %r"
                            % (what, pc.describe_src(s), p.get("max_rank"),
                               max(pr, key=pr.get), pr, p))
            tv = sum(pc.stat_sum(s, "time_variation") for s in srcs)
            print("%s: Potential sync %.6f (MPI_Iallreduce %r, MPI_Wait "
                  "%r; expected %.6f)" % (what, got, ps[0] and
                                          ps[0]["sum"], ps[1] and
                                          ps[1]["sum"], ref[name]))
        # Both ranks leave each operation together: small.
        pc.check_approx("%s: Time variation of its SRC points" % what,
                        tv, tvref[name], 0, SMALL)
        pc.check_main(what, iv, "potential_sync", ref[name], REL)
        pc.check_rank(what + " (rank 0 enters first)", iv,
                      "potential_sync", 0, pr[0], 0, REL * ref[name])
        pc.check_rank(what + " (rank 1 enters last)", iv,
                      "potential_sync", 1, pr[1], 0, REL * ref[name])
        pc.check_main(what, iv, "time_variation", tvref[name], 0, SMALL)
        for r in (0, 1):
            pc.check_rank(what, iv, "time_variation", r,
                          per[name][r]["time_variation"], 0, SMALL)
        total += ref[name]
        tvtotal += tvref[name]
        for r in (0, 1):
            ptotal[r] += pr[r]

    iv0 = pc.interval(doc, 0)
    pc.check_main("whole program (the three phases)", iv0,
                  "potential_sync", total, REL)
    pc.check_rank("whole program", iv0, "potential_sync", 0, ptotal[0],
                  0, REL * total)
    pc.check_rank("whole program (rank 1)", iv0, "potential_sync", 1,
                  ptotal[1], 0, REL * total)
    tv0 = pc.check_main("whole program", iv0, "time_variation", tvtotal,
                        0, 3 * SMALL)
    print("collective: Potential sync %.6f in all on rank 0, as the "
          "program's instants give (%.6f); Time variation %.6f (%.6f)"
          % (iv0["real"]["main"]["potential_sync"], total, tv0, tvtotal))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
