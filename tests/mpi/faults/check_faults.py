"""Check the partial protocols of tests/mpi/faults/faults.c (test_fault_*.sh).

usage: check_faults.py CASE PROTOCOL SOURCE SCHEMA RANK...

PROTOCOL is the MPIPROF_OUTPUT of the run: each RANK must have written
PROTOCOL.partial.RANK (text) and its .json.  CASE names how the run ended:
a mode of faults.c (segv, bus, fpe, ill, abrt, segv_in_mpi, abort, exit,
return, chain_segv), sig:NAME (the mode wait, ended by signal NAME) or
finalize:NAME (the mode finalize_hold, ended by signal NAME: rank 0 inside
MPI_Finalize, rank 1 held back outside MPI).
Each partial protocol must hold the data of its process alone (marked
partial, the other rank missing), satisfy every invariant, agree with the
text, validate against the schema, count exactly the MPI calls the process
made before it ended, name how it ended, the MPI call it was in and where,
and carry its process data.
"""
import os
import sys

import protocol_check as pc

N_ALLREDUCE, N_SEND, N_PEER = 100, 50, 3
SIGNALS = {"SIGSEGV": 11, "SIGBUS": 7, "SIGFPE": 8, "SIGILL": 4,
           "SIGABRT": 6, "SIGTERM": 15, "SIGINT": 2, "SIGXCPU": 24,
           "SIGUSR1": 10}
# mode -> (end, signal name or code, MPI call, marker of the site, function
# of the site's first frame)
CASES = {
    "segv": ("signal", "SIGSEGV", None, "fault_segv", "fault"),
    "chain_segv": ("signal", "SIGSEGV", None, "fault_segv", "fault"),
    "bus": ("signal", "SIGBUS", None, "fault_bus", "fault"),
    "fpe": ("signal", "SIGFPE", None, "fault_fpe", "fault"),
    "ill": ("signal", "SIGILL", None, "fault_ill", "fault"),
    "abrt": ("signal", "SIGABRT", None, "fault_abrt", "fault"),
    "segv_in_mpi": ("signal", "SIGSEGV", "MPI_Allreduce", "inmpi", "main"),
    "abort": ("MPI_Abort", 7, "MPI_Abort", "abort", "main"),
    "abort_self": ("MPI_Abort", 7, "MPI_Abort", "abort_self", "main"),
    "abort_split": ("MPI_Abort", 7, "MPI_Abort", "abort_split", "main"),
    "abort_both": ("MPI_Abort", 7, "MPI_Abort", "abort_both", "main"),
    "exit": ("exit", 3, None, "exit", "main"),
    "return": ("return", 4, None, None, None),
}
OTHERS = ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size")
# the communicator an MPI_Abort names (detail)
ABORTED = {"abort": "MPI_COMM_WORLD", "abort_self": "MPI_COMM_SELF",
           "abort_both": "MPI_COMM_SELF",
           "abort_split": "a communicator of 1 process"}
# finalize:NAME, by rank: (MPI call, marker of the site, function of its
# first frame)
FINALIZE_HOLD = {0: ("MPI_Finalize", "finalize", "main"),
                 1: (None, "hold", "hold_back")}
# signals a batch system or launcher sends to every process: the end is an
# abort finding, not an abend (the profiler's caught[].job_control)
JOB_CONTROL = ("SIGTERM", "SIGINT", "SIGXCPU", "SIGUSR1")
ENDINGS = ("abort", "abend", "incomplete-call")


def expected_calls(case, rank):
    """The SRC points a process made before it ended."""
    exp = [{"function": "MPI_Allreduce", "marker": "allreduce",
            "calls": {rank: N_ALLREDUCE},
            "bytes_sent": {rank: N_ALLREDUCE * 16},
            "bytes_recv": {rank: N_ALLREDUCE * 16}}]
    if case == "abort_split":
        exp.append({"function": "MPI_Comm_split", "marker": "split",
                    "calls": {rank: 1}})
    if rank == 0:
        exp.append({"function": "MPI_Send", "marker": "send",
                    "calls": {0: N_SEND}, "bytes_sent": {0: N_SEND * 32}})
    else:
        exp.append({"function": "MPI_Recv", "marker": "recv",
                    "calls": {1: N_SEND}, "bytes_recv": {1: N_SEND * 32}})
    if case.startswith("sig:") or case == "chain_term":
        # the peer messages, and the receives that returned (the next one
        # never did)
        exp.append({"function": "MPI_Send", "marker": "peer_send",
                    "calls": {rank: N_PEER}, "bytes_sent": {rank: N_PEER * 4}})
        exp.append({"function": "MPI_Recv", "marker": "peer",
                    "calls": {rank: N_PEER}, "bytes_recv": {rank: N_PEER * 4}})
    return exp


def check_calls(doc, case, rank, source):
    for e in expected_calls(case, rank):
        s = pc.site(doc, 0, e["function"], source, e["marker"])
        # the process's alone
        pc.check_counts(s, e.get("calls"), e.get("bytes_sent"),
                        e.get("bytes_recv"), ranks=(rank,), exact=True,
                        where="rank %d: %s" % (rank, pc.describe_src(s)))
    known = ({"MPI_Allreduce", "MPI_Send", "MPI_Recv"} | set(OTHERS)
             | {e["function"] for e in expected_calls(case, rank)})
    for s in pc.src_points(doc):
        if s["function"] not in known:
            pc.fail("rank %d: unexpected SRC point %s" % (rank,
                                                         pc.describe_src(s)))


def check_end(doc, case, rank, source):
    base = os.path.basename(source)
    partial = doc["parameters"]["partial"]
    if not isinstance(partial, dict):
        pc.fail("parameters.partial is %r, expected the partial object"
                % (partial,))
    pc.check_equal("partial.count", partial["count"], 1)
    pc.check_equal("partial.ranks", partial["ranks"], str(rank))
    pc.check_equal("partial.missing", partial["missing"], str(1 - rank))
    pc.check_equal("parameters.processes", doc["parameters"]["processes"], 2)
    (end,) = partial["processes"]
    pc.check_equal("partial.processes[0].rank", end["rank"], rank)
    if case.startswith("sig:") or case == "chain_term":
        name = case[4:] if case.startswith("sig:") else "SIGTERM"
        want = ("signal", name, "MPI_Recv", "peer", "receive_forever")
    elif case.startswith("finalize:"):
        want = ("signal", case[len("finalize:"):]) + FINALIZE_HOLD[rank]
    else:
        want = CASES[case]
    kind, what, call, marker, function = want
    pc.check_equal("end", end["end"], kind)
    if kind == "signal":
        pc.check_equal("signal", end["signal"], SIGNALS[what])
        if not end["detail"].startswith(what + " ("):
            pc.fail("detail %r does not name %s" % (end["detail"], what))
    else:
        pc.check_equal("code", end["code"], what)
    if case in ABORTED:
        pc.check_equal("detail", end["detail"], ABORTED[case])
    pc.check_equal("mpi_call", end["mpi_call"], call)
    if call and kind == "signal" and not (end["call_seconds"] or 0) > 0:
        pc.fail("call_seconds = %r, expected > 0" % end["call_seconds"])
    if marker:
        line = pc.marker_line(source, marker)
        head = "%s:%d (%s)" % (base, line, function)
        if not (end["site"] or "").startswith(head):
            pc.fail("site %r does not start with %r" % (end["site"], head))
    else:
        pc.check_equal("site", end["site"], None)
    # the SRC point of the call it was in, when calls from there returned
    if case.startswith("sig:") or case == "chain_term":
        pc.check_equal("src", end["src"],
                       pc.site(doc, 0, "MPI_Recv", source, "peer")["id"])
    else:
        pc.check_equal("src", end["src"], None)
    for piece in (kind if kind != "signal" else what,):
        if piece not in end["text"]:
            pc.fail("text %r lacks %r" % (end["text"], piece))
    check_end_findings(doc, kind, what, call)


def check_end_findings(doc, kind, what, call):
    """How the process ended is a correctness finding (MPIPROF_CHECK, on
    in every test): MPI_Abort and a job-control signal an abort, a fault
    an abend, an MPI call the process never returned from an
    incomplete-call; exit or return outside MPI none."""
    if doc["correctness"]["level"] == "off":
        return
    want = set()
    if kind == "MPI_Abort":
        want.add("abort")
    elif kind == "signal":
        want.add("abort" if what in JOB_CONTROL else "abend")
    if call and kind != "MPI_Abort":
        want.add("incomplete-call")
    got = sorted(f["kind"] for f in doc["correctness"]["findings"])
    pc.check_equal("findings of the end", got, sorted(want))


def check_text_partial(doc, text_path):
    lines = pc.read_lines(text_path)
    text = "\n".join(lines)
    end = doc["parameters"]["partial"]["processes"][0]
    line = "   rank %d: %s" % (end["rank"], end["text"])
    if line not in lines:
        pc.fail("%s lacks the line %r" % (text_path, line))
    if "\n--- Process data " not in text:
        pc.fail("%s lacks the process data" % text_path)


def check_process_data(doc, rank):
    p = doc.get("process")
    if not isinstance(p, dict):
        pc.fail("no process data")
    pc.check_equal("process.rank", p["rank"], rank)
    calls = sum(c["calls"] for c in p["cells"])
    total = sum(s["calls"] for s in pc.src_points(doc))
    pc.check_equal("calls in the process data", calls, total)


def check_finalize_end(docs):
    """Rank 0 ended inside MPI_Finalize: its intervals end at MPI_Finalize's
    entry, as in a complete protocol, so the time it then waited there is
    not counted (rank 1's run until the signal, which both got at once)."""
    if set(docs) != {0, 1}:
        return
    exec_time = {r: d["intervals"][0]["real"]["main"]["execution_time"]
                 for r, d in docs.items()}
    waited = docs[0]["parameters"]["partial"]["processes"][0]["call_seconds"]
    if not exec_time[1] - exec_time[0] > waited / 2:
        pc.fail("rank 0 spent %.3f s in MPI_Finalize, yet its execution time "
                "%.3f s is not that much shorter than rank 1's %.3f s: its "
                "intervals did not end at MPI_Finalize's entry"
                % (waited, exec_time[0], exec_time[1]))


def main(case, base, source, schema, *ranks):
    if not ranks:
        pc.bad_usage()
    docs = {}
    with pc.prefixed(case):
        for rank in (int(r) for r in ranks):
            json_path = "%s.partial.%d.json" % (base, rank)
            text_path = "%s.partial.%d" % (base, rank)
            for path in (json_path, text_path):
                if not os.path.exists(path):
                    pc.fail("%s: rank %d wrote no %s" % (case, rank, path))
            os.environ["MPIPROF_TEST_EXPECT_FINDINGS"] = " ".join(ENDINGS)
            doc = docs[rank] = pc.load_checked(json_path, text_path, schema,
                                               say=False)
            check_end(doc, case, rank, source)
            check_calls(doc, case, rank, source)
            check_text_partial(doc, text_path)
            check_process_data(doc, rank)
            print("%s: rank %d: %s" % (case, rank, doc["parameters"]["partial"]
                                      ["processes"][0]["text"]))
        if case.startswith("finalize:"):
            check_finalize_end(docs)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
