"""The wait-state checks shared by the check scripts (tests/mpi/waitstates/
check_*.py, and those of other groups whose programs record their instants
with waitstates_events.c).

Wait states (spec/characteristics.md): Real sync (late sender, per SRC point
of the receiving call and in SendRecv), Potential sync and Time variation
(collective operation instances).  What the spec and the schema fix is used
exactly: the JSON keys real_sync / potential_sync / time_variation of an
interval's real.main, real.comparative, real.by_process and of each SRC
point (a statistic {"sum", "min", "min_rank", "max", "max_rank", "mean"} or
null); "Real_sync=" in the text's Communication line; the SRC entries' text
lines "real sync", "potential sync", "time variation".  What the spec does
not fix is matched loosely: the Parameters entry describing the wait-state
analyses (a JSON key containing "wait", a text line starting "Wait states").

Not a test by itself: imported by the checkers (tests/mpi/lib is on
PYTHONPATH when run through run-mpi-test).
"""
import os
import re

import protocol_check as pc

WS_KEYS = ("real_sync", "potential_sync", "time_variation")


# --------------------------------------------------------------------------
# The program's own measurements and instants

def program_measurements(path, keys=()):
    """The program's lines 'rank=R key=V ... errors=N' (pc.measurements),
    from ranks 0 and 1; fails when it counted errors (it checks what its
    MPI calls returned, and says which on stderr)."""
    meas = pc.measurements(path, tuple(keys) + ("errors",))
    if meas[0]["errors"] or meas[1]["errors"]:
        pc.fail("%s: the program reports errors (see its output)" % path)
    return meas


def read_events(prefix, ranks=(0, 1), any_host=False):
    """The instants the program recorded (waitstates_events.c): from
    PREFIX.RANK, {key: {i: {rank: (start, end)}}}.  Fails unless all ranks
    ran on one host (CLOCK_MONOTONIC instants of different hosts cannot be
    compared), but with any_host: host names of UTS namespaces on one
    machine (tests/mpi/clock), whose CLOCK_MONOTONIC is one."""
    hosts, ev = {}, {}
    for r in ranks:
        path = "%s.%d" % (prefix, r)
        if not os.path.exists(path):
            pc.fail("%s: the program did not write its events" % path)
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, ln in enumerate(f, 1):
                w = ln.split()
                if len(w) == 2 and w[0] == "host":
                    hosts[r] = w[1]
                elif len(w) == 5 and w[0] == "ev":
                    try:
                        i, s, e = int(w[2]), float(w[3]), float(w[4])
                    except ValueError:
                        pc.fail("%s:%d: bad event line %r" % (path, n, ln))
                    if e < s:
                        pc.fail("%s:%d: the event ends before it starts: %r"
                                % (path, n, ln))
                    per = ev.setdefault(w[1], {}).setdefault(i, {})
                    if r in per:
                        pc.fail("%s:%d: event %s %d recorded twice"
                                % (path, n, w[1], i))
                    per[r] = (s, e)
                else:
                    pc.fail("%s:%d: not an event line: %r" % (path, n, ln))
        if r not in hosts:
            pc.fail("%s: no 'host' line" % path)
    if len(set(hosts.values())) != 1 and not any_host:
        pc.fail("the ranks ran on different hosts %r: the instants they "
                "recorded (CLOCK_MONOTONIC) cannot be compared; run the test "
                "on one host" % hosts)
    return ev


def events(ev, key):
    """The instances of key, {i: {rank: (start, end)}}; fails when none."""
    if key not in ev or not ev[key]:
        pc.fail("the program recorded no events %r (recorded: %s)"
                % (key, ", ".join(sorted(ev))))
    return ev[key]


def expected_collective(ev, key, ranks=(0, 1)):
    """Potential sync and Time variation of the collective instances key
    (each recorded by every rank): ({'potential_sync': total,
    'time_variation': total}, {rank: {...}})."""
    tot = {"potential_sync": 0.0, "time_variation": 0.0}
    per = {r: {"potential_sync": 0.0, "time_variation": 0.0} for r in ranks}
    for i, inst in sorted(events(ev, key).items()):
        if sorted(inst) != sorted(ranks):
            pc.fail("event %s %d: recorded by ranks %r, expected %r"
                    % (key, i, sorted(inst), list(ranks)))
        smax = max(s for s, _ in inst.values())
        emax = max(e for _, e in inst.values())
        for r, (s, e) in inst.items():
            per[r]["potential_sync"] += smax - s
            per[r]["time_variation"] += emax - e
            tot["potential_sync"] += smax - s
            tot["time_variation"] += emax - e
    return tot, per


def expected_real_sync(ev, recv_key, send_key):
    """Real sync of the messages received at recv_key (recorded by the
    receiver: the receiving call's entry and exit) and sent at send_key (the
    sender: its send call's entry), paired by number: sum over messages of
    min(time in the receiving call, max(0, sendStart - recvStart))."""
    recv, send = events(ev, recv_key), events(ev, send_key)
    if sorted(recv) != sorted(send):
        pc.fail("events %s (%d) and %s (%d) do not pair up"
                % (recv_key, len(recv), send_key, len(send)))
    total = 0.0
    for i in recv:
        if len(recv[i]) != 1 or len(send[i]) != 1:
            pc.fail("events %s/%s %d: expected one receiver and one sender"
                    % (recv_key, send_key, i))
        (rs, re_), = recv[i].values()
        (ss, _), = send[i].values()
        total += min(re_ - rs, max(0.0, ss - rs))
    return total


def expected_late(ev, recv_key, send_keys, optional=False):
    """Real sync of the receiving calls recorded as recv_key, each of which
    completed the messages sent (same number) at every one of send_keys:
    sum over calls of min(time in the call, max over its messages of
    max(0, sendStart - callStart)) -- a call that completes several
    messages waits for the latest one, once.  optional: no recv_key events
    at all is 0 (e.g. no MPI_Waitsome call completed both messages)."""
    if optional and not ev.get(recv_key):
        return 0.0
    total = 0.0
    for i, inst in sorted(events(ev, recv_key).items()):
        if len(inst) != 1:
            pc.fail("event %s %d: expected one receiver" % (recv_key, i))
        (rs, re_), = inst.values()
        late = 0.0
        for sk in send_keys:
            sent = events(ev, sk).get(i)
            if not sent or len(sent) != 1:
                pc.fail("event %s %d: no send %s %d to pair it with"
                        % (recv_key, i, sk, i))
            (ss, _), = sent.values()
            late = max(late, ss - rs)
        total += min(re_ - rs, late)
    return total


def expected_sendrecv(ev, key):
    """{rank: Real sync} of the MPI_Sendrecv calls recorded as key (by
    both ranks, each receiving from the other): each one's receive waits
    for the other's entry."""
    out = {0: 0.0, 1: 0.0}
    for i, inst in sorted(events(ev, key).items()):
        if sorted(inst) != [0, 1]:
            pc.fail("event %s %d: expected both ranks" % (key, i))
        for r in (0, 1):
            (s0, e0), (s1, _) = inst[r], inst[1 - r]
            out[r] += min(e0 - s0, max(0.0, s1 - s0))
    return out


def note_nominal(what, measured, nominal, rel=0.25, abs_tol=0.0):
    """A note (not a failure) when the program's own measurement is far from
    the nominal value of the program: a loaded machine stretches waits, and
    the profiler must then see what really happened, not the nominal."""
    print("%s: %.6f (nominal %.6f)" % (what, measured, nominal))
    if not pc.approx(measured, nominal, rel, abs_tol):
        print("NOTE: %s measured %.6f is far from the nominal %.6f: a loaded "
              "machine?" % (what, measured, nominal))


# --------------------------------------------------------------------------
# Whole-protocol checks

def load_checked(json_path, text_path, schema=None):
    """The JSON protocol at json_path (None: text_path + ".json"), checked:
    every invariant (Real sync <= SendRecv among them, per interval, per
    process and per SRC point), the text agreeing with the JSON (wait states
    too), the JSON valid against the schema when one is given, every message
    paired."""
    doc = pc.load_checked(json_path, text_path, schema, say=False)
    check_text_waitstates(doc, text_path)
    check_all_paired(doc)
    return doc


def check_all_paired(doc):
    """When the Parameters entry of the wait-state analyses counts messages
    ('N messages paired of M sent', as the profiler writes it; not fixed
    by the spec, so only checked when it is there), every
    message sent was paired with its receive: the test programs receive
    every message they send with a profiled call, so a message left over is
    a Real sync lost."""
    keys = [k for k in doc["parameters"] if "wait" in k.lower()]
    if len(keys) != 1:
        return
    m = re.search(r"(\d+) messages? paired of (\d+) sent",
                  str(doc["parameters"][keys[0]]))
    if m and m.group(1) != m.group(2):
        pc.fail("parameters.%s = %r: %s of the %s messages sent were not "
                "paired with their receive (every one is received by a "
                "profiled call), so their Real sync is lost%s"
                % (keys[0], doc["parameters"][keys[0]],
                   int(m.group(2)) - int(m.group(1)), m.group(2),
                   "" if pc.find_warnings(doc, "paired") else
                   ", and no warning says so"))


def text_src_waitstates(text_path):
    """{interval id: {src id: {"real sync": str, "potential sync": str,
    "time variation": str}}}: the first value on each of those lines of each
    SRC entry of the text ('n/a' or the number after 'sum=')."""
    out = {}
    for iid, block in pc.interval_blocks(pc.read_lines(text_path)).items():
        entries, cur = {}, None
        inside = False
        for ln in block:
            if ln == "--- SRC points ---":
                inside = True
                continue
            if not inside:
                continue
            if ln.startswith("---") or ln.startswith("===="):
                break
            m = re.match(r"^SRC\s+(\d+)\s", ln)
            if m:
                cur = entries.setdefault(int(m.group(1)), {})
                continue
            m = re.match(r"^\s+(real sync|potential sync|time variation)\s+"
                         r"(?:sum=)?(\S+)", ln)
            if m and cur is not None:
                cur.setdefault(m.group(1), m.group(2))
        out[iid] = entries
    return out


def check_text_waitstates(doc, text_path):
    """The text says what the JSON says about wait states: the Communication
    line's Real_sync= of each interval (real part), and each SRC entry's
    'real sync', 'potential sync', 'time variation' lines (n/a for null,
    otherwise the sum to the 6 printed decimals).  (check_text already
    compares the main Potential sync and Time variation lines.)"""
    blocks = pc.interval_blocks(pc.read_lines(text_path))
    srcs_text = text_src_waitstates(text_path)
    for iv in doc["intervals"]:
        iid = iv["id"]
        where = "text protocol %s, interval %s" % (text_path, iid)
        block = blocks.get(iid)
        if block is None:
            pc.fail("%s: no interval header" % where)
        found = None
        for ln in pc.text_part(block, "--- Main characteristics (real) ---",
                               where):
            m = re.search(r"Real_sync=(\S+?)[ )]", ln)
            if m:
                found = m.group(1)
                break
        if found is None:
            pc.fail("%s: the real main characteristics have no "
                    "'Real_sync=' (in the Communication line)" % where)
        want = iv["real"]["main"]["real_sync"]
        _same_text_value("%s: Real_sync= of the Communication line" % where,
                         found, want)
        for s in iv["src"]:
            lines = srcs_text.get(iid, {}).get(s["id"])
            if lines is None:
                pc.fail("%s: no text entry for SRC %s" % (where, s["id"]))
            for label, key in (("real sync", "real_sync"),
                               ("potential sync", "potential_sync"),
                               ("time variation", "time_variation")):
                st = s.get(key)
                if label not in lines:
                    if st is not None:
                        pc.fail("%s: SRC %s has no '%s' line"
                                % (where, s["id"], label))
                    continue
                _same_text_value("%s: SRC %s (%s) '%s'"
                                 % (where, s["id"], s["function"], label),
                                 lines[label], None if st is None
                                 else st.get("sum"))


def _same_text_value(what, text_value, json_value):
    if json_value is None:
        if text_value != "n/a":
            pc.fail("%s is %s in the text, null in the JSON"
                    % (what, text_value))
        return
    try:
        tv = float(text_value)
    except ValueError:
        pc.fail("%s is %r in the text, %r in the JSON"
                % (what, text_value, json_value))
    if abs(tv - json_value) > 2e-6 + 1e-9 * abs(json_value):
        pc.fail("%s is %s in the text, %r in the JSON"
                % (what, text_value, json_value))


# --------------------------------------------------------------------------
# The Parameters entry of the wait-state analyses (name not fixed by the
# spec: a JSON key containing "wait", a text line starting "Wait states")

def waitstates_parameter(doc):
    """(key, value) of the one parameters entry whose key contains 'wait'
    (case-insensitive, the configuration block aside)."""
    params = doc["parameters"]
    keys = [k for k in params if "wait" in k.lower()]
    if len(keys) != 1:
        pc.fail("parameters: %d keys contain 'wait' (%r), expected exactly "
                "one describing which wait-state analyses ran. Keys: %s"
                % (len(keys), keys, ", ".join(sorted(params))))
    return keys[0], params[keys[0]]


def text_waitstates_line(text_path):
    """The Parameters line 'Wait states... : value' of the text protocol
    (with its continuation lines, indented), as one string."""
    lines = pc.read_lines(text_path)
    for i, ln in enumerate(lines):
        if ln.startswith("===="):
            break
        if re.match(r"^ *Wait states[^:]*:", ln):
            out = [ln]
            for more in lines[i + 1:]:
                if not more.startswith("   ") or more.strip().startswith("warning:"):
                    break
                out.append(more)
            return "\n".join(out)
    pc.fail("text protocol %s: no Parameters line 'Wait states ... : ...'"
            % text_path)


def check_waitstates_reported(doc, text_path):
    """The analyses that ran are stated (JSON and text); returns the JSON
    value."""
    key, value = waitstates_parameter(doc)
    if value in (None, "", [], {}):
        pc.fail("parameters.%s is %r: it should say which wait-state analyses "
                "ran" % (key, value))
    line = text_waitstates_line(text_path)
    print("wait states: parameters.%s = %r; text: %s" % (key, value,
                                                          line.strip()))
    return value


def configuration(doc, var):
    """The configuration block's entry for var ({'value', 'default'}) or
    None."""
    cfg = doc["parameters"].get("configuration") or {}
    return cfg.get(var)


# --------------------------------------------------------------------------
# Intervals and SRC points

def phase(doc, name):
    """The interval named name (a phase of the program, nested in
    interval 0)."""
    iv = pc.find_interval(doc, name, 0)
    if iv.get("executions") != 1:
        pc.fail("interval %r: executions = %r, expected 1 (entered once)"
                % (name, iv.get("executions")))
    return iv


def check_src_value(what, s, key, expected, rel, on_rank=None, abs_tol=0.0,
                    per_rank=None):
    """SRC point s's key (sum over processes) within rel of expected.  With
    on_rank, all of it is that process's (max_rank, and max = sum).  With
    per_rank ({rank: expected value}, e.g. from the program's instants),
    the largest process's value is the largest expected (within rel of the
    sum), and its rank the expected one unless the two are too close to
    tell apart."""
    st = pc.src_stat(s, key)
    pc.check_approx("%s: %s.sum of %s" % (what, key, pc.describe_src(s)),
                    st["sum"], expected, rel, abs_tol)
    if on_rank is not None:
        if st.get("max_rank") != on_rank:
            pc.fail("%s: %s of %s has max_rank %r, expected rank %d (%r)"
                    % (what, key, pc.describe_src(s), st.get("max_rank"),
                       on_rank, st))
        pc.check_approx("%s: %s.max of %s (all of it on rank %d)"
                        % (what, key, pc.describe_src(s), on_rank),
                        st["max"], st["sum"], rel, abs_tol)
    if per_rank:
        tol = max(rel * abs(expected), abs_tol)
        top = max(per_rank, key=lambda r: per_rank[r])
        pc.check_approx("%s: %s.max of %s (the program's instants give %r)"
                        % (what, key, pc.describe_src(s), per_rank),
                        st["max"], per_rank[top], 0, tol)
        second = max([v for r, v in per_rank.items() if r != top] or [0.0])
        if per_rank[top] - second > 2 * tol and st.get("max_rank") != top:
            pc.fail("%s: %s of %s has max_rank %r, expected rank %d (the "
                    "program's instants give %r): %r"
                    % (what, key, pc.describe_src(s), st.get("max_rank"), top,
                       per_rank, st))
    print("%s: %s %s sum=%.6f (expected %.6f)"
          % (what, pc.describe_src(s).split(" at ")[0], key, st["sum"],
             expected))
    return st["sum"]


def check_src_zero(what, s, key, tol, allow_null=True):
    """SRC point s's key is about zero (at most tol), or null (n/a) when
    allow_null (e.g. Real sync of a collective, Potential sync of a send)."""
    st = s.get(key)
    if st is None:
        if not allow_null:
            pc.fail("%s: %s of %s is null (n/a), expected about 0"
                    % (what, key, pc.describe_src(s)))
        return 0.0
    v = st.get("sum")
    if v is None:
        if not allow_null:
            pc.fail("%s: %s.sum of %s is null" % (what, key,
                                                  pc.describe_src(s)))
        return 0.0
    if v > tol:
        pc.fail("%s: %s.sum of %s = %.6f, expected about 0 (at most %.6f)"
                % (what, key, pc.describe_src(s), v, tol))
    return v


def check_le_time(s, key, tol):
    """SRC point s's statistic key (a value, not n/a) is at most its time
    (within tol)."""
    v = pc.src_stat(s, key)["sum"]
    if v > s["time"]["sum"] + tol:
        pc.fail("%s: %s %.6f exceeds its time %.6f"
                % (pc.describe_src(s), key, v, s["time"]["sum"]))
    return v


def check_realsync_le_sendrecv(iv):
    """Real sync <= SendRecv in the interval, in total and per process
    (protocol_check's invariants check it too: this names the interval)."""
    m = iv["real"]["main"]
    if m["real_sync"] is not None and m["sendrecv"] is not None \
            and m["real_sync"] > m["sendrecv"] + 1e-5:
        pc.fail("interval %s (%r): real_sync %.6f > sendrecv %.6f"
                % (iv["id"], iv["name"], m["real_sync"], m["sendrecv"]))
    rs = pc.by_rank(iv["real"], "real_sync")
    sr = pc.by_rank(iv["real"], "sendrecv")
    for r, v in rs.items():
        if v is not None and sr.get(r) is not None and v > sr[r] + 1e-5:
            pc.fail("interval %s (%r): real_sync of rank %s %.6f > its "
                    "sendrecv %.6f" % (iv["id"], iv["name"], r, v, sr[r]))


def src_key(doc, iv, s):
    """A key identifying SRC point s across runs of the same program:
    (interval name, function, text of every frame)."""
    return (iv["name"], s["function"],
            tuple(f.get("text") for f in s.get("stack") or []))


# --------------------------------------------------------------------------
# Late senders: the SRC points a message may wait at, phase by phase

def check_late_sites(what, doc, iv, sites, source, rel, zero, on_rank=0):
    """The SRC points of a phase (interval iv) of a program whose sender is
    late: sites [(function, marker, expected, (calls, bytes_sent,
    bytes_recv))], each one SRC point at the line of source marked
    MARK:marker, with exactly those counts ({rank: n}, None: not checked).
    expected: the Real sync the program's instants give (a number; all of
    it on_rank's, None: not checked per process), "together" (a probe or
    the receive after it: check_together), or a key of zero, {key:
    tolerance}: no wait for a message here, about 0 (at most the
    tolerance) or n/a.  Returns ({marker: SRC point}, the sum of the
    numbers, [the SRC points the wait is on])."""
    found, total, carriers = {}, 0.0, []
    for fn, marker, expected, (calls, sent, recv) in sites:
        s = found[marker] = pc.site(doc, iv, fn, source, marker)
        pc.check_counts(s, calls, sent, recv)
        if expected == "together":
            carriers.append(s)
        elif expected is None or isinstance(expected, str):
            check_src_zero(what, s, "real_sync", zero[expected])
        else:
            check_src_value(what, s, "real_sync", expected, rel,
                            on_rank=on_rank)
            total += expected
            carriers.append(s)
    return found, total, carriers


def check_together(what, srcs, expected, rel):
    """A probe and the receive after it: the wait is in the probe, the
    receive takes the message at once; whichever of the two the Real sync
    is booked on (it cannot exceed an SRC point's time, which the
    invariants check), each has a value (not n/a) and the two hold the
    whole wait, expected within rel."""
    for s in srcs:
        pc.src_stat(s, "real_sync")
    both = sum(pc.stat_sum(s, "real_sync") for s in srcs)
    pc.check_approx("%s: Real sync of the probe and the receive together"
                    % what, both, expected, rel)
    print("%s: Real sync of probe + receive %.6f (expected %.6f)"
          % (what, both, expected))
    return both


def check_phase_real_sync(what, iv, expected, rel, zero_tol, rank1=0.0,
                          rank0=False):
    """A phase's Real sync: the sum of its receiving SRC points' (expected,
    within rel or zero_tol for a phase whose waits are all about 0), rank
    1's (the sender's) rank1, rank 0's the rest (when rank0), and at most
    SendRecv."""
    pc.check_main(what, iv, "real_sync", expected, rel, zero_tol)
    if rank0:
        pc.check_rank(what, iv, "real_sync", 0, expected - rank1, rel,
                      zero_tol)
    pc.check_rank(what + " (rank 1's, the late sender's)", iv, "real_sync",
                  1, rank1, 0, zero_tol)
    check_realsync_le_sendrecv(iv)
