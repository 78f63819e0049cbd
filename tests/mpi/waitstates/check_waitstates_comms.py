"""Check the protocols of tests/mpi/waitstates/waitstates_comms.c.

usage: check_waitstates_comms.py SOURCE.c SCHEMA.json|- RUN [RUN ...]
  RUN: NAME:PROTOCOL.txt:EVENTS:STDOUT, e.g. default:a/prot.txt:a/events:a/out
       (the JSON protocol is PROTOCOL.txt.json; EVENTS the prefix of the
       program's event files, waitstates_events.c)

Each run is checked by itself, against what the definitions give from the
instants the program recorded (REL = 15%):
  "split" (a communicator from MPI_Comm_split, ranks reversed):
      Potential sync of its MPI_Allreduce ~ 10 x 10 ms, world rank 0's (per
      process as the program's instants give it);
      Real sync of its MPI_Recv ~ 10 x 10 ms, world rank 0's.
  "dup_loop" (50 x MPI_Comm_dup, skewed MPI_Allreduce and late message on
      the duplicate, MPI_Comm_free): Potential sync of the MPI_Allreduce and
      Real sync of the MPI_Recv ~ 50 x 2 ms each, rank 0's.
  "intercomm" (MPI_Intercomm_create of two one-process groups): Potential
      sync of its MPI_Allreduce and of its MPI_Barrier ~ 10 x 10 ms each,
      Real sync of its MPI_Recv ~ 10 x 10 ms, rank 0's.
  "self" (MPI_COMM_SELF collectives, messages to oneself): Potential sync,
      Time variation and Real sync 0 (at most ZERO_TOL = 5 ms; pairing the
      two processes' operations would give ~0.1 s each).
  Time variation of every collective SRC point as the instants give it
  (within 10 ms).  Each interval's main Potential sync is its collectives'
  and its main Real sync its receives' plus its aligning MPI_Sendrecv calls'
  (15%).  Calls and bytes exact.  Every invariant; the text agrees with the
  JSON.
Then the runs are compared: the same SRC points with the same calls and
bytes (their wait states each matched their own program's instants).  A run named "batch" must have been run with
MPIPROF_SYNC_BATCH=8 (its configuration says so).
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

N, T_SKEW, N_DUP, T_DUP, B = 10, 0.010, 50, 0.002, 16  # as in the program
REL = 0.15
TV_TOL = 0.010      # Time variation: absolute tolerance
ZERO_TOL = 0.005    # "0" in the self phase


def check_run(name, source, schema, text_path, prefix, out):
    """Check one run; returns {(phase, marker): {key: value}} for the
    comparison of runs, and {src key: (calls, bytes_sent, bytes_recv)}."""
    print("==== run %s" % name)
    ws.program_measurements(out)
    ev = ws.read_events(prefix)
    doc = ws.load_checked(None, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)
    values = {}

    # (phase, collectives [(function, marker, event key)], receive
    #  (function, marker, recv key, send key, send marker), align keys,
    #  nominal Potential sync per collective, nominal Real sync)
    phases = [
        ("split", [("MPI_Allreduce", "a_allreduce", "a_coll")],
         ("a_recv", "a_recv", "a_send", "a_send"), ["a_align"],
         N * T_SKEW, N * T_SKEW),
        ("dup_loop", [("MPI_Allreduce", "b_allreduce", "b_coll")],
         ("b_recv", "b_recv", "b_send", "b_send"), ["b_align1", "b_align2"],
         N_DUP * T_DUP, N_DUP * T_DUP),
        ("intercomm", [("MPI_Allreduce", "c_allreduce", "c_coll"),
                       ("MPI_Barrier", "c_barrier", "c_barrier")],
         ("c_recv", "c_recv", "c_send", "c_send"), ["c_align1", "c_align2"],
         N * T_SKEW, N * T_SKEW),
    ]
    for phase, colls, (rmark, rkey, skey, smark), aligns, nom_ps, nom_rs \
            in phases:
        what = "run %s, phase %s" % (name, phase)
        iv = ws.phase(doc, phase)
        pot_total = 0.0
        pot_rank = {0: 0.0, 1: 0.0}
        for fn, marker, key in colls:
            tot, per = ws.expected_collective(ev, key)
            ws.note_nominal("%s: Potential sync of %s, from the program's "
                            "instants" % (what, marker),
                            tot["potential_sync"], nom_ps)
            s = pc.site(doc, iv, fn, source, marker)
            n = N_DUP if phase == "dup_loop" else N
            pc.check_counts(s, calls={0: n, 1: n})
            if fn == "MPI_Allreduce":
                pc.check_counts(s, bytes_sent={0: 4 * n, 1: 4 * n},
                                bytes_recv={0: 4 * n, 1: 4 * n})
            # world rank 0 enters each instance one skew before rank 1
            # (per process as the program's instants give it: a rank delayed
            # by the machine may enter some instance last)
            pr = {r: per[r]["potential_sync"] for r in (0, 1)}
            v = ws.check_src_value(what, s, "potential_sync",
                                   tot["potential_sync"], REL, per_rank=pr)
            tv = pc.src_stat(s, "time_variation")["sum"]
            pc.check_approx("%s: Time variation of %s" % (what,
                                                         pc.describe_src(s)),
                            tv, tot["time_variation"], 0, TV_TOL)
            ws.check_src_zero(what, s, "real_sync", 1e-6)
            values[(phase, marker)] = {"potential_sync": v,
                                       "time_variation": tv}
            pot_total += tot["potential_sync"]
            for r in (0, 1):
                pot_rank[r] += pr[r]
        exp_rs = ws.expected_real_sync(ev, rkey, skey)
        ws.note_nominal("%s: Real sync, from the program's instants" % what,
                        exp_rs, nom_rs)
        n = N_DUP if phase == "dup_loop" else N
        recv = pc.site(doc, iv, "MPI_Recv", source, rmark)
        send = pc.site(doc, iv, "MPI_Send", source, smark)
        pc.check_counts(recv, calls={0: n}, bytes_recv={0: n * B},
                        bytes_sent={})
        pc.check_counts(send, calls={1: n}, bytes_sent={1: n * B},
                        bytes_recv={})
        # world rank 0 receives, whatever its rank in the communicator
        v = ws.check_src_value(what, recv, "real_sync", exp_rs, REL,
                               on_rank=0)
        ws.check_src_zero(what, send, "real_sync", REL * nom_rs)
        ws.check_src_zero(what, recv, "potential_sync", 1e-6)
        values[(phase, rmark)] = {"real_sync": v}
        # The interval: its collectives' Potential sync; its receives' and
        # aligning MPI_Sendrecv calls' Real sync.
        pc.check_main(what, iv, "potential_sync", pot_total, REL)
        for r in (0, 1):
            pc.check_rank(what + " (world rank 0 enters first)", iv,
                          "potential_sync", r, pot_rank[r], 0,
                          REL * pot_total)
        al = {0: 0.0, 1: 0.0}
        for key in aligns:
            x = ws.expected_sendrecv(ev, key)
            al[0] += x[0]
            al[1] += x[1]
        pc.check_main(what, iv, "real_sync", exp_rs + al[0] + al[1], REL,
                      0.002)
        pc.check_rank(what, iv, "real_sync", 0, exp_rs + al[0], REL, 0.002)
        pc.check_rank(what, iv, "real_sync", 1, al[1], REL,
                      max(0.002, REL * nom_rs))
        ws.check_realsync_le_sendrecv(iv)
        if phase == "dup_loop":
            for fn, marker in (("MPI_Comm_dup", "b_dup"),
                               ("MPI_Comm_free", "b_free")):
                pc.check_counts(pc.site(doc, iv, fn, source, marker),
                                calls={0: N_DUP, 1: N_DUP})

    # MPI_COMM_SELF and messages to oneself: nothing to wait for.
    what = "run %s, phase self" % name
    iv = ws.phase(doc, "self")
    for fn, marker, counts in (
            ("MPI_Allreduce", "d_allreduce", (4 * N, 4 * N)),
            ("MPI_Barrier", "d_barrier", (0, 0)),
            ("MPI_Isend", "d_isend", (N * B, 0)),
            ("MPI_Recv", "d_recv", (0, N * B)),
            ("MPI_Wait", "d_wait", None),
            ("MPI_Isend", "d_isend_w", (N * B, 0)),
            ("MPI_Recv", "d_recv_w", (0, N * B)),
            ("MPI_Wait", "d_wait_w", None)):
        s = pc.site(doc, iv, fn, source, marker)
        pc.check_counts(s, calls={0: N, 1: N})
        if counts:
            pc.check_counts(s, bytes_sent={0: counts[0], 1: counts[0]},
                            bytes_recv={0: counts[1], 1: counts[1]})
        for key in ("potential_sync", "time_variation", "real_sync"):
            ws.check_src_zero(what, s, key, ZERO_TOL)
    for key in ("potential_sync", "time_variation", "real_sync"):
        pc.check_approx("%s: interval main %s" % (what, key),
                        pc.main_value(iv, key), 0.0, 0, ZERO_TOL)
    pc.check_no_other_srcs(what, iv, (), ("MPI_Allreduce", "MPI_Barrier",
                                          "MPI_Isend", "MPI_Recv",
                                          "MPI_Wait"))
    print("%s: no wait states, as expected" % what)

    counts = {}
    for iv in doc["intervals"]:
        for s in iv["src"]:
            counts[ws.src_key(doc, iv, s)] = (s["calls"], s["bytes_sent"],
                                              s["bytes_recv"])
    return doc, values, counts


def main(source, schema, *specs):
    if not specs:
        pc.bad_usage()
    schema = None if schema == "-" else schema
    runs = []
    for spec in specs:
        parts = spec.split(":")
        if len(parts) != 4:
            pc.fail("bad RUN %r: expected NAME:PROTOCOL.txt:EVENTS:STDOUT"
                    % spec)
        name, text_path, prefix, out = parts
        doc, values, counts = check_run(name, source, schema, text_path,
                                        prefix, out)
        cfg = ws.configuration(doc, "MPIPROF_SYNC_BATCH")
        if name == "batch":
            if not cfg or cfg.get("value") != "8" or cfg.get("default"):
                pc.fail("run %s: the configuration gives "
                        "MPIPROF_SYNC_BATCH as %r, expected value '8' "
                        "(not the default)" % (name, cfg))
        elif cfg is not None and not cfg.get("default"):
            pc.fail("run %s: MPIPROF_SYNC_BATCH is %r, expected the "
                    "default" % (name, cfg))
        runs.append((name, values, counts))
    base_name, _, base_counts = runs[0]
    for name, _, counts in runs[1:]:
        what = "runs %s and %s" % (base_name, name)
        if set(counts) != set(base_counts):
            pc.fail("%s: different SRC points: only in %s: %r; only in "
                    "%s: %r" % (what, base_name,
                                sorted(set(base_counts) - set(counts)),
                                name,
                                sorted(set(counts) - set(base_counts))))
        for k, c in counts.items():
            if c != base_counts[k]:
                pc.fail("%s: SRC point %r has calls, bytes_sent, "
                        "bytes_recv %r in one and %r in the other"
                        % (what, k, base_counts[k], c))
        # The wait states themselves: each run matched the definition
        # applied to its own program's instants above (with batches of
        # 8 as with the default); across runs they differ by the
        # machine's noise (2 cores, busy-polling ranks), not by the
        # batch size, so they are not compared with each other.
        print("%s: the same SRC points, calls and bytes; each run's wait "
              "states match its own instants" % what)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
