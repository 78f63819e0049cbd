"""Check the protocol of tests/mpi/sessions/sessions.c (see test_sessions.sh).

usage: check_sessions.py MODE PROTOCOL.json PROTOCOL.txt SOURCE.c SCHEMA.json

MODE is the program's ("" for sessions only, "two", "world").  The protocol
must hold interval 0 from the call that started MPI (the first
MPI_Session_init, or MPI_Init in mode world) with exactly the calls made
on the session's communicator, the interval "exchange" with the late
sender's wait as Real sync (the wait-state analysis translated the
communicator's ranks through the profiler's world), every message paired,
the clocks aligned at the calls that started and ended the profile, and
satisfy the invariants, the text and the schema.
"""
import sys

import protocol_check as pc

N_ALLREDUCE, N_SEND, MSG_BYTES, LATE = 100, 20, 8 * 4, 0.020

BOTH = {0: 1, 1: 1}
# interval 0 (outside "exchange")
EXPECTED = [
    {"function": "MPI_Allreduce", "marker": "allreduce", "in_function": "main",
     "calls": {0: N_ALLREDUCE, 1: N_ALLREDUCE},
     "bytes_sent": {0: 4 * N_ALLREDUCE, 1: 4 * N_ALLREDUCE},
     "bytes_recv": {0: 4 * N_ALLREDUCE, 1: 4 * N_ALLREDUCE}},
    {"function": "MPI_Barrier", "marker": "barrier", "calls": BOTH},
]
EXCHANGE = [
    {"function": "MPI_Send", "marker": "send", "in_function": "main",
     "calls": {0: N_SEND}, "bytes_sent": {0: N_SEND * MSG_BYTES}},
    {"function": "MPI_Recv", "marker": "recv", "in_function": "main",
     "calls": {1: N_SEND}, "bytes_recv": {1: N_SEND * MSG_BYTES}},
]
# Calls that neither start nor end the profile are SRC points like others.
SESSION_CALLS = {
    "": [],
    "two": [{"function": "MPI_Session_init", "marker": "second_init",
             "calls": BOTH},
            {"function": "MPI_Session_finalize",
             "marker": "session_finalize", "calls": BOTH}],
    "world": [{"function": "MPI_Session_init", "marker": "session_init",
               "calls": BOTH},
              {"function": "MPI_Session_finalize",
               "marker": "session_finalize", "calls": BOTH}],
}
OTHERS = ("MPI_Comm_rank", "MPI_Comm_size", "MPI_Group_from_session_pset",
          "MPI_Comm_create_from_group", "MPI_Group_free", "MPI_Comm_free")
# The calls the Clock line names: (started, ended)
BOUNDS = {"": ("MPI_Session_init", "MPI_Session_finalize"),
          "two": ("MPI_Session_init", "MPI_Session_finalize"),
          "world": ("MPI_Init", "MPI_Finalize")}


def check(mode, json_path, text_path, source, schema):
    doc = pc.load_checked(json_path, text_path, schema, say=False)
    pc.check_interval_tree(doc)
    pc.check_equal("processes", doc["parameters"]["processes"], 2)
    start = "init" if mode == "world" else "session_init"
    pc.check_interval(doc, 0, name="whole program", file=source,
                      marker=start, level=0)
    pc.check_call_sites(doc, source, EXPECTED + SESSION_CALLS[mode],
                        OTHERS)
    print("%s: interval 0 at the %s line, SRC points as expected"
          % (mode or "sessions", start))
    exchange = pc.find_interval(doc, "exchange", parent=0)
    pc.check_interval(doc, exchange, file=source, marker="exchange")
    pc.check_call_sites(doc, source, EXCHANGE, (), exchange["id"])
    main_real = exchange["real"]["main"]
    if not (main_real["real_sync"] or 0) >= LATE / 2:
        pc.fail("interval exchange: Real sync %r, expected at least "
                "%g s (rank 1 waited %g s for the first message)"
                % (main_real["real_sync"], LATE / 2, LATE))
    params = doc["parameters"]
    paired = "%d messages paired of %d sent" % (N_SEND, N_SEND)
    if paired not in params["wait_states"]:
        pc.fail("Wait states %r does not say %r"
                % (params["wait_states"], paired))
    started, ended = BOUNDS[mode]
    aligned = "aligned to rank 0 at %s (" % started
    if aligned not in params["clock"] or " and %s (" % ended \
            not in params["clock"]:
        pc.fail("Clock %r does not name %s and %s"
                % (params["clock"], started, ended))
    print("%s: Real sync %.4f s in exchange, %s, clocks aligned at %s "
          "and %s" % (mode or "sessions", main_real["real_sync"], paired,
                      started, ended))


def main(mode, json_path, text_path, source, schema):
    with pc.prefixed(mode or "sessions"):
        check(mode, json_path, text_path, source, schema)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
