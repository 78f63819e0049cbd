"""Check the protocol of NetPIPE (NPmpi / NPmpich2) run under LD_PRELOAD.

usage: check_netpipe.py PROTOCOL.json PROTOCOL.txt

A stripped program from a distribution package: every invariant holds, the
text agrees with the JSON, there are SRC points for its point-to-point
calls with data, and every message sent was received (NetPIPE pairs each
MPI_Send with an MPI_Recv, so the summed calls match).
"""
import sys

import protocol_check as pc

SENDS = ("MPI_Send", "MPI_Ssend", "MPI_Isend", "MPI_Rsend")
RECVS = ("MPI_Recv", "MPI_Irecv")


def main(json_path, text_path):
    doc = pc.load_checked(json_path, text_path)
    srcs = pc.src_points(doc)
    listing = pc.describe_srcs(doc)
    sends = [s for s in srcs if s["function"] in SENDS]
    recvs = [s for s in srcs if s["function"] in RECVS]
    if not sends or not recvs:
        pc.fail("no SRC point of a send (%s) or of a receive (%s); "
                "SRC points:\n%s" % ("/".join(SENDS), "/".join(RECVS),
                                     listing))
    calls = pc.calls_by_function(doc)
    nsend = sum(calls.get(f, 0) for f in SENDS)
    nrecv = sum(calls.get(f, 0) for f in RECVS)
    if nsend != nrecv:
        pc.fail("%d send calls but %d receive calls; SRC points:\n%s"
                % (nsend, nrecv, listing))
    sent = sum(s["bytes_sent"] for s in sends)
    if sent <= 0:
        pc.fail("the sends carried %d bytes; SRC points:\n%s"
                % (sent, listing))
    comm = doc["intervals"][0]["real"]["main"]["sendrecv"]
    if comm is not None and comm <= 0:
        pc.fail("SendRecv time is %r for a ping-pong benchmark" % comm)
    print("%d SRC points, %d sends / %d receives, %d bytes sent"
          % (len(srcs), nsend, nrecv, sent))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
