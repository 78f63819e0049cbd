"""Check the protocol of tests/mpi/waitstates/waitstates_late_sender.c.

usage: check_waitstates_late_sender.py PROTOCOL.json PROTOCOL.txt SOURCE.c
                                       STDOUT EVENTS [SCHEMA.json]

STDOUT: the program's lines 'rank=R compute1=S wait1=S compute2=S wait2=S'
(see waitstates_late_sender.c); EVENTS: the prefix of the files of the
instants it entered and left its MPI_Send and MPI_Recv calls
(waitstates_events.c).

Known answers (REL = 10%):
  interval "late_sender": Real sync of the MPI_Recv SRC point (MARK:recv1)
      ~ 20 x 20 ms = 0.4 s: every message's sender was late by the 20 ms it
      computed and the receiver waited that long in MPI_Recv.  Reference:
      the definition, sum over messages of min(time in the MPI_Recv,
      max(0, sendStart - recvStart)), computed from the program's own
      instants; the nominal 0.4 s, rank 1's measured computation and rank
      0's measured waits are printed beside it.  All of it rank 0's (the
      receiver): the interval's main Real sync and rank 0's by-process Real
      sync the same, rank 1's ~ 0.
  interval "late_receiver": Real sync of its MPI_Recv (MARK:recv2) ~ 0
      (below 10% of 0.4 s): the receiver was the late one.
  interval 0: Real sync ~ the late sender's (it includes both intervals; the
      barriers are collectives).
  Real sync <= SendRecv everywhere (invariants), and Real sync of an SRC
      point <= its time.
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

N_MSG, T_LATE, COUNT_BYTES = 20, 0.020, 16   # as in waitstates_late_sender.c
NOMINAL = N_MSG * T_LATE                     # 0.4 s of late-sender waits
REL = 0.10
ZERO_TOL = REL * NOMINAL                     # "about 0": below 10% of 0.4 s
KEYS = ("compute1", "wait1", "compute2", "wait2")


def main(json_path, text_path, source, out, prefix, schema=None):
    meas = pc.measurements(out, KEYS)
    compute1 = meas[1]["compute1"]    # rank 1's lateness, summed
    wait1 = meas[0]["wait1"]          # rank 0's waits in MPI_Recv
    ev = ws.read_events(prefix)
    # The definition applied to what happened: ~ 20 x 20 ms.
    exp1 = ws.expected_real_sync(ev, "recv1", "send1")
    # The receiver is late: every send came first: 0.
    exp2 = ws.expected_real_sync(ev, "recv2", "send2")
    ws.note_nominal("late-sender computation (rank 1)", compute1, NOMINAL)
    ws.note_nominal("late-sender waits in MPI_Recv (rank 0)", wait1,
                    NOMINAL)
    ws.note_nominal("Real sync of the late sender, from the program's "
                    "instants", exp1, NOMINAL)
    print("program's instants: Real sync of the late receiver %.6f"
          % exp2)

    doc = ws.load_checked(json_path, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)

    # Phase 1: the late sender.
    late = ws.phase(doc, "late_sender")
    pc.check_interval(doc, late, file=source,
                      line=pc.marker_line(source, "iv_late_sender"))
    recv1 = pc.site(doc, late, "MPI_Recv", source, "recv1")
    send1 = pc.site(doc, late, "MPI_Send", source, "send1")
    pc.check_counts(recv1, calls={0: N_MSG},
                    bytes_recv={0: N_MSG * COUNT_BYTES},
                    bytes_sent={})
    pc.check_counts(send1, calls={1: N_MSG},
                    bytes_sent={1: N_MSG * COUNT_BYTES}, bytes_recv={})
    # ~ 20 x 20 ms, all of it the receiver's.
    ws.check_src_value("late sender", recv1, "real_sync", exp1, REL,
                       on_rank=0)
    rs = ws.check_le_time(recv1, "real_sync", 1e-5)
    # The sender did not wait for anything: no Real sync at MPI_Send,
    # and a point-to-point call has no Potential sync.
    ws.check_src_zero("late sender", send1, "real_sync", ZERO_TOL)
    for s in (recv1, send1):
        ws.check_src_zero("late sender", s, "potential_sync", 1e-6)
        ws.check_src_zero("late sender", s, "time_variation", 1e-6)
    pc.check_main("late sender", late, "real_sync", exp1, REL)
    pc.check_rank("late sender (the receiver's)", late, "real_sync", 0,
                  exp1, REL)
    pc.check_rank("late sender (the sender's: none)", late, "real_sync",
                  1, 0.0, 0, ZERO_TOL)
    ws.check_realsync_le_sendrecv(late)
    # Real sync is part of SendRecv: rank 0's SendRecv is its waits.
    pc.check_rank("late sender: rank 0's SendRecv (its waits)",
                  late, "sendrecv", 0, wait1, REL)

    # Phase 2: the late receiver.
    lr = ws.phase(doc, "late_receiver")
    recv2 = pc.site(doc, lr, "MPI_Recv", source, "recv2")
    send2 = pc.site(doc, lr, "MPI_Send", source, "send2")
    pc.check_counts(recv2, calls={0: N_MSG},
                    bytes_recv={0: N_MSG * COUNT_BYTES})
    pc.check_counts(send2, calls={1: N_MSG},
                    bytes_sent={1: N_MSG * COUNT_BYTES})
    # Every message was sent before its receive began: ~ 0 (and a
    # value, not n/a: the analysis ran).
    v = ws.check_src_zero("late receiver", recv2, "real_sync",
                          exp2 + ZERO_TOL, allow_null=False)
    ws.check_src_zero("late receiver", send2, "real_sync", ZERO_TOL)
    pc.check_approx("late receiver: interval main real_sync",
                    pc.main_value(lr, "real_sync"), exp2, 0, ZERO_TOL)
    ws.check_realsync_le_sendrecv(lr)
    print("late receiver: Real sync %.6f (about 0)" % v)

    # Interval 0: inclusive, the same waits.
    iv0 = pc.interval(doc, 0)
    pc.check_main("whole program", iv0, "real_sync", exp1 + exp2, REL)
    pc.check_rank("whole program", iv0, "real_sync", 0, exp1 + exp2, REL)
    pc.check_rank("whole program", iv0, "real_sync", 1, 0.0, 0, ZERO_TOL)
    ws.check_realsync_le_sendrecv(iv0)
    print("late sender: Real sync %.6f on rank 0, as the program's "
          "instants give (%.6f)" % (rs, exp1))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
