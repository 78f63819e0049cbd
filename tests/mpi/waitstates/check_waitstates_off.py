"""Check the protocols of tests/mpi/waitstates/waitstates_off.c run with the wait-state
analyses on (the default), off (MPIPROF_WAITSTATES=off) and with a bad value
(MPIPROF_WAITSTATES=bogus).

usage: check_waitstates_off.py [--again] SOURCE.c SCHEMA.json|- ON OFF BOGUS BOGUS_STDERR
  ON, OFF, BOGUS: PROTOCOL.txt:EVENTS:STDOUT of each run (the JSON protocol
  is PROTOCOL.txt.json; EVENTS the prefix of the program's event files)

--again: when the on and off runs differ in times alone (beyond SAME_REL and
SAME_ABS; every count equal and every other check passed), the differences
are printed with a line 'AGAIN: times' and the exit status is 3: the caller
runs on and off again, once, and checks them without --again.  The cause:
the host's load moves a process's arrival at a synchronizing call from one
run to the next (seen on MPICH: the first MPI_Barrier, which waits for the
other process to leave MPI_Init, 20.7 ms in one run and 0.17 ms in the
other).

on (default):
  Real sync of the MPI_Recv and of the MPI_Wait ~ 10 x 10 ms each, Potential
  sync of the MPI_Allreduce ~ 10 x 10 ms, within REL = 10% of what the
  definitions give from the program's instants, all rank 0's; no warning
  about MPIPROF_WAITSTATES; the Parameters say which analyses ran.
off:
  real_sync, potential_sync and time_variation null (n/a) in every interval
  (main; comparative rows and by-process columns null or all null) and in
  every SRC point, "n/a" in the text; exactly one warning giving the reason,
  MPIPROF_WAITSTATES=off, in the JSON and the text Warnings; the Parameters
  entry of the wait-state analyses differs from the on run's; the
  configuration gives MPIPROF_WAITSTATES=off (not the default).  Everything
  else as with them on: the same SRC points with exactly the same calls and
  bytes, the same intervals, times about the same (40% or 20 ms: two runs
  of a program whose waits depend on the machine's scheduling).
bogus:
  exactly one warning naming MPIPROF_WAITSTATES, the bad value and what is
  accepted (off among it), in the protocol and once on stderr (rank 0); the
  default used: values as in the on run (REL of the program's instants),
  the same Parameters entry as the on run, the configuration's
  MPIPROF_WAITSTATES marked default; no "MPIPROF_WAITSTATES=off" reason.
Every invariant in every run; the text agrees with the JSON.
"""
import re
import sys

import protocol_check as pc
import protocol_waitstates as ws

N, T = 10, 0.010                # as in waitstates_off.c
NOMINAL = N * T
REL = 0.10
# "Times roughly the same" across two runs of a timing-dependent program:
# gross differences only (a run that lost its times, doubled them, ...).
SAME_REL, SAME_ABS = 0.40, 0.020
# "MPIPROF_WAITSTATES=off", "MPIPROF_WAITSTATES='off'", "... is off"
OFF_REASON = re.compile(r"MPIPROF_WAITSTATES\s*(?:=|:|\bis\b|\bset to\b)"
                        r"\s*['\"]?off\b")
VAR = "MPIPROF_WAITSTATES"


def load_run(name, spec, source, schema):
    parts = spec.split(":")
    if len(parts) != 3:
        pc.fail("bad run %r: expected PROTOCOL.txt:EVENTS:STDOUT" % spec)
    text_path, prefix, out = parts
    with pc.prefixed("run %s" % name):
        ws.program_measurements(out)
    doc = ws.load_checked(None, text_path, schema)
    return doc, text_path, ws.read_events(prefix)


def check_values(name, doc, source, ev):
    """The analyses ran: the known answers, from the program's instants."""
    what = "run %s" % name
    p2p, coll = ws.phase(doc, "p2p"), ws.phase(doc, "coll")
    exp_recv = ws.expected_real_sync(ev, "recv", "send1")
    exp_wait = ws.expected_real_sync(ev, "wait", "send2")
    tot, per = ws.expected_collective(ev, "allreduce")
    for label, v in (("Real sync of the MPI_Recv", exp_recv),
                     ("Real sync of the MPI_Wait", exp_wait),
                     ("Potential sync of the MPI_Allreduce",
                      tot["potential_sync"])):
        ws.note_nominal("%s: %s, from the program's instants" % (what, label),
                        v, NOMINAL)
    ws.check_src_value(what, pc.site(doc, p2p, "MPI_Recv", source, "recv"),
                       "real_sync", exp_recv, REL, on_rank=0)
    ws.check_src_value(what, pc.site(doc, p2p, "MPI_Wait", source, "wait"),
                       "real_sync", exp_wait, REL, on_rank=0)
    pc.check_main(what, p2p, "real_sync", exp_recv + exp_wait, REL)
    ar = pc.site(doc, coll, "MPI_Allreduce", source, "allreduce")
    ws.check_src_value(what, ar, "potential_sync", tot["potential_sync"], REL,
                       per_rank={r: per[r]["potential_sync"] for r in (0, 1)})
    pc.check_approx("%s: Time variation of %s" % (what, pc.describe_src(ar)),
                    pc.src_stat(ar, "time_variation")["sum"],
                    tot["time_variation"], 0, REL * NOMINAL)
    pc.check_main(what, coll, "potential_sync", tot["potential_sync"], REL)


def check_all_null(name, doc):
    """Every wait-state value of every interval (real part) and SRC point is
    null."""
    for iv in doc["intervals"]:
        where = "run %s, interval %s (%r)" % (name, iv["id"], iv["name"])
        real = iv["real"]
        for key in ws.WS_KEYS:
            if real["main"].get(key) is not None:
                pc.fail("%s: main %s = %r, expected null (n/a: the analyses "
                        "are off)" % (where, key, real["main"][key]))
            row = (real.get("comparative") or {}).get(key)
            if row is not None and any(row.get(k) is not None
                                       for k in ("min", "max", "mean")):
                pc.fail("%s: comparative %s = %r, expected null" % (where,
                                                                   key, row))
            col = (real.get("by_process") or {}).get(key)
            if col is not None and any(x is not None for x in col):
                pc.fail("%s: by_process %s = %r, expected null" % (where, key,
                                                                  col))
        for s in iv["src"]:
            for key in ws.WS_KEYS:
                if s.get(key) is not None:
                    pc.fail("%s: %s of %s = %r, expected null (n/a)"
                            % (where, key, pc.describe_src(s), s[key]))


def src_table(doc):
    out = {}
    for iv in doc["intervals"]:
        for s in iv["src"]:
            out[ws.src_key(doc, iv, s)] = s
    return out


def check_same_otherwise(on, off, times):
    """Apart from wait states, the off run says what the on run says: counts
    exactly (else fail), times roughly (the differences appended to
    TIMES)."""
    names_on = [(iv["name"], iv["level"], iv["executions"])
                for iv in on["intervals"]]
    names_off = [(iv["name"], iv["level"], iv["executions"])
                 for iv in off["intervals"]]
    if names_on != names_off:
        pc.fail("the intervals differ: on %r, off %r" % (names_on, names_off))
    a, b = src_table(on), src_table(off)
    if set(a) != set(b):
        pc.fail("the SRC points differ: only with the analyses on: %r; only "
                "with them off: %r" % (sorted(set(a) - set(b)),
                                       sorted(set(b) - set(a))))
    for k, s in a.items():
        t = b[k]
        for key in ("calls", "bytes_sent", "bytes_recv"):
            if s[key] != t[key]:
                pc.fail("SRC point %r: %s = %r with the analyses on, %r off"
                        % (k, key, s[key], t[key]))
            if pc.by_rank(s, key) != pc.by_rank(t, key):
                pc.fail("SRC point %r: %s by process %r on, %r off"
                        % (k, key, pc.by_rank(s, key), pc.by_rank(t, key)))
        if not pc.approx(t["time"]["sum"], s["time"]["sum"], SAME_REL,
                         SAME_ABS):
            times.append("SRC point %r: time %.6f with the analyses on, %.6f "
                         "off" % (k, s["time"]["sum"], t["time"]["sum"]))
    for ivon, ivoff in zip(on["intervals"], off["intervals"]):
        for key in ("execution_time", "communication", "sendrecv",
                    "collective", "idle_time"):
            x, y = ivon["real"]["main"][key], ivoff["real"]["main"][key]
            if x is None or y is None:
                if x != y:
                    pc.fail("interval %r: %s = %r on, %r off"
                            % (ivon["name"], key, x, y))
                continue
            if not pc.approx(y, x, SAME_REL, SAME_ABS):
                times.append("interval %r: %s = %.6f with the analyses on, "
                             "%.6f off" % (ivon["name"], key, x, y))
        pon, poff = ivon["predicted"] is None, ivoff["predicted"] is None
        if pon != poff:
            pc.fail("interval %r: the predicted part is %s on, %s off"
                    % (ivon["name"], "null" if pon else "there",
                       "null" if poff else "there"))


def main(*argv):
    again = argv[:1] == ("--again",)
    if again:
        argv = argv[1:]
    if len(argv) != 6:
        pc.bad_usage()
    times = []
    source, schema, on_spec, off_spec, bogus_spec, bogus_err = argv
    schema = None if schema == "-" else schema
    # ---- on (the default)
    on, on_text, on_ev = load_run("on", on_spec, source, schema)
    on_param = ws.check_waitstates_reported(on, on_text)
    check_values("on", on, source, on_ev)
    if pc.find_warnings(on, VAR):
        pc.fail("run on: warnings about %s although it is not set: %r"
                % (VAR, pc.find_warnings(on, VAR)))
    cfg = ws.configuration(on, VAR)
    if cfg is not None and not cfg.get("default"):
        pc.fail("run on: the configuration gives %s = %r, expected the "
                "default" % (VAR, cfg))
    on_line = ws.text_waitstates_line(on_text)

    # ---- off
    off, off_text, _ = load_run("off", off_spec, source, schema)
    check_all_null("off", off)
    reasons = [w for w in pc.warnings(off) if OFF_REASON.search(w)]
    if len(reasons) != 1:
        pc.fail("run off: %d warnings give the reason %s=off, expected "
                "exactly 1. Warnings:\n  %s"
                % (len(reasons), VAR, "\n  ".join(pc.warnings(off))))
    if not any(OFF_REASON.search(w) for w in pc.text_warnings(off_text)):
        pc.fail("run off: the text protocol's Warnings do not give the "
                "reason %s=off: %r" % (VAR, pc.text_warnings(off_text)))
    key, off_param = ws.waitstates_parameter(off)
    if off_param == on_param:
        pc.fail("run off: parameters.%s = %r, the same as with the "
                "analyses on" % (key, off_param))
    off_line = ws.text_waitstates_line(off_text)
    if off_line.split(":", 1)[1].strip() == \
            on_line.split(":", 1)[1].strip():
        pc.fail("run off: the text's %r is the same as with the analyses "
                "on" % off_line)
    cfg = ws.configuration(off, VAR)
    if not cfg or cfg.get("value") != "off" or cfg.get("default"):
        pc.fail("run off: the configuration gives %s = %r, expected value "
                "'off', not the default" % (VAR, cfg))
    check_same_otherwise(on, off, times)
    print("run off: every wait state n/a, reason %r; parameters.%s = %r; "
          "the same counts as with them on" % (reasons[0], key, off_param))

    # ---- bogus
    bogus, bogus_text, bogus_ev = load_run("bogus", bogus_spec, source,
                                           schema)
    mine = pc.find_warnings(bogus, VAR)
    if len(mine) != 1:
        pc.fail("run bogus: %d warnings name %s, expected exactly 1:\n  %s"
                % (len(mine), VAR, "\n  ".join(pc.warnings(bogus))))
    w = mine[0]
    if "bogus" not in w:
        pc.fail("run bogus: the warning does not show the bad value "
                "'bogus': %r" % w)
    if OFF_REASON.search(w) or not re.search(r"\boff\b",
                                             w.replace("bogus", "")):
        pc.fail("run bogus: the warning should say what is accepted "
                "(off among it) and not that the analyses are off: %r"
                % w)
    if not any(VAR in x and "bogus" in x
               for x in pc.text_warnings(bogus_text)):
        pc.fail("run bogus: the text protocol's Warnings do not name %s "
                "and 'bogus': %r" % (VAR, pc.text_warnings(bogus_text)))
    err = [ln for ln in pc.read_lines(bogus_err) if VAR in ln]
    if len(err) != 1 or "bogus" not in err[0]:
        pc.fail("run bogus: stderr has %d lines naming %s, expected "
                "exactly 1 (rank 0's) showing 'bogus': %r"
                % (len(err), VAR, err))
    cfg = ws.configuration(bogus, VAR)
    if not cfg or not cfg.get("default"):
        pc.fail("run bogus: the configuration gives %s = %r, expected "
                "the default (the bad value is not used)" % (VAR, cfg))
    key, bogus_param = ws.waitstates_parameter(bogus)
    if bogus_param != on_param:
        pc.fail("run bogus: parameters.%s = %r, expected the default's "
                "%r" % (key, bogus_param, on_param))
    check_values("bogus", bogus, source, bogus_ev)
    print("run bogus: warning %r; the default used" % w)
    if times:
        what = ("the times of the runs on and off differ beyond %d%% or "
                "%g s:\n  %s" % (SAME_REL * 100, SAME_ABS,
                                  "\n  ".join(times)))
        if again:
            print("%s\nAGAIN: times" % what)
            return 3
        pc.fail(what)
    print("runs on and off: the same times (within %d%% or %g s)"
          % (SAME_REL * 100, SAME_ABS))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
