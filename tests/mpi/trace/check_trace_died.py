"""Check the archive and protocols of a traced run that died (see
test_trace_died.sh).

usage: check_trace_died.py ANCHOR ANALYZED.json PARTIAL.json ROUNDS ENDED

Run with the Debian python3 that has python3-otf2 (/usr/bin/python3).
tests/mpi/trace/trace_died.c: rank 0 sent ROUNDS messages to rank 1, then rank 1
ended (ENDED: a regular expression of how, as the archive's
MPIPROF::INCOMPLETE property gives it) and the launcher killed rank 0.
  - the archive reads (python3-otf2) and says it is incomplete;
  - rank 1 wrote its events up to its end: ROUNDS MpiRecv;
  - rank 0 was ended by the launcher: killed outright (MPICH's hydra:
    SIGKILL), its events up to its last write, K MpiSend with 0 < K < ROUNDS
    (some flushed, the last ones lost), and the property says so; or sent
    a signal it could handle first (Open MPI's mpirun: SIGTERM), its events
    up to then, all ROUNDS (it was waiting in MPI_Recv after them);
  - mpiprof-analyze's protocol counts exactly those calls (MPI_Recv ROUNDS,
    MPI_Send K, or K + 1 where the last flush ends between a call's Enter
    and its MpiSend), says the trace is incomplete in its Warnings, and its
    Trace parameter says complete: false;
  - the partial protocol of rank 1 names the archive, complete: false.
"""
import collections
import re
import sys

import otf2

import protocol_check as pc

failures = pc.Failures()
fail = failures.fail


anchor, analyzed, partial, rounds, ended = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]

events = collections.Counter()
entered = 0  # rank 0's MPI_Send calls: its last flush may end between a call's Enter and its MpiSend
with otf2.reader.open(anchor) as trace:
    for loc, ev in trace.events:
        events[(loc.group.name, type(ev).__name__)] += 1
        if loc.group.name == "MPI Rank 0" and type(ev).__name__ == "Enter" and ev.region.name == "MPI_Send":
            entered += 1
recvs = events[("MPI Rank 1", "MpiRecv")]
sends = events[("MPI Rank 0", "MpiSend")]
if recvs != rounds:
    fail("rank 1 (which ended itself): %d MpiRecv events in the archive, expected %d" % (recvs, rounds))

protocol = pc.load(analyzed)
parameters = protocol["parameters"]
said = [w for w in parameters["warnings"] if w.startswith("the trace is incomplete (the run ended early")]
if len(said) != 1:
    fail("mpiprof-analyze: no warning says the trace is incomplete and why: %r" % parameters["warnings"])
    said = [""]
killed = "rank 0: its events up to its last flush only" in said[0]
handled = re.search(r"rank 0: signal SIG[A-Z]+ \([^;]*, its events up to then", said[0])
if killed:
    if not 0 < sends < rounds:
        fail("rank 0 (killed): %d MpiSend events in the archive, expected some of the %d it made (those written "
             "before it was killed), not none nor all" % (sends, rounds))
elif handled:
    if sends != rounds:
        fail("rank 0 (ended by a signal it handled, after its sends): %d MpiSend events, expected all %d" %
             (sends, rounds))
else:
    fail("mpiprof-analyze: the warning says neither that rank 0's events end at its last flush (killed) nor how "
         "it ended by a signal: %s" % said[0])
if not re.search(ended, said[0]):
    fail("mpiprof-analyze: the warning does not say how rank 1 ended (%s): %s" % (ended, said[0]))

calls = collections.Counter(pc.calls_by_function(protocol))  # interval 0's
if calls["MPI_Recv"] != rounds:
    fail("mpiprof-analyze: MPI_Recv calls %d, expected %d" % (calls["MPI_Recv"], rounds))
if calls["MPI_Send"] != entered or not sends <= entered <= sends + 1:
    fail("mpiprof-analyze: MPI_Send calls %d, expected the %d entered in the archive (%d MpiSend events)" %
         (calls["MPI_Send"], entered, sends))
if parameters["trace"]["complete"] is not False:
    fail("mpiprof-analyze: Trace parameter complete: %r" % parameters["trace"]["complete"])

trace = pc.load(partial)["parameters"]["trace"]
if trace["complete"] is not False or not trace["path"] or not trace["path"].endswith(".otf2") or \
        "incomplete: readable up to this process's end" not in trace["text"]:
    fail("rank 1's partial protocol: Trace parameter %r" % trace)

if failures.status():
    sys.exit(1)
print("ok: rank 1 %d receives, rank 0 %d of %d sends (%s), analyzed as incomplete" %
      (recvs, sends, rounds, "killed" if killed else "ended by a signal it handled"))
