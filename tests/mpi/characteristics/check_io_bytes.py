#!/usr/bin/env python3
"""check_io_bytes.py PROT PROT.json [TRACE.json]: io_bytes.c's known bytes
read and written per SRC point and per interval (the interval's include its
nested intervals'), I/O time and bandwidth; the text equals the JSON; the
trace analyzer's protocol (when given) has the same bytes and I/O figures."""
import json
import re
import sys

P = 2
WANT = {  # function: (calls, bytes_read, bytes_written)
    "MPI_File_write_at": (P * 3, 0, P * 3 * 4096),
    "MPI_File_read_at_all": (P * 2, P * 2 * 8192, 0),
    "MPI_File_iwrite_at": (P, 0, P * 4000),
}


def fail(msg):
    sys.exit("check_io_bytes: " + msg)


def points(doc):
    """{function: point} of every interval, {interval name: interval}."""
    out = {}
    for iv in doc["intervals"]:
        for s in iv["src"]:
            if s["function"] in WANT:
                out[s["function"]] = s
    return out, {iv["name"]: iv for iv in doc["intervals"]}


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-9


def check_json(doc, path):
    pts, ivs = points(doc)
    for fn, (calls, rd, wr) in WANT.items():
        s = pts.get(fn)
        if not s:
            fail("%s: no SRC point of %s" % (path, fn))
        got = (s["calls"], s["bytes_read"], s["bytes_written"])
        if got != (calls, rd, wr) or s["bytes_sent"] or s["bytes_recv"]:
            fail("%s: %s calls, bytes read, written %s (sent %s, received %s); expected %s, none sent or received"
                 % (path, fn, got, s["bytes_sent"], s["bytes_recv"], (calls, rd, wr)))
        if s["time"]["sum"] <= 0 or not close(s["bandwidth"], (rd + wr) / s["time"]["sum"]):
            fail("%s: %s bandwidth %s, not its bytes over its time %s" % (path, fn, s["bandwidth"], s["time"]["sum"]))
    send = [s for iv in doc["intervals"] for s in iv["src"] if s["function"] == "MPI_Send"]
    if not send or send[0]["bytes_sent"] != 64 or send[0]["bytes_read"] or send[0]["bytes_written"]:
        fail("%s: MPI_Send is not 64 bytes sent and none read or written: %s" % (path, send))
    phase, whole = ivs.get("write phase"), doc["intervals"][0]
    if not phase:
        fail("%s: no interval 'write phase'" % path)
    for iv, rd, wr in ((phase, 0, P * 3 * 4096), (whole, P * 2 * 8192, P * 3 * 4096 + P * 4000)):
        io = iv["io"]
        if (io["bytes_read"], io["bytes_written"]) != (rd, wr):
            fail("%s: interval %r reads %s and writes %s bytes, expected %s and %s"
                 % (path, iv["name"], io["bytes_read"], io["bytes_written"], rd, wr))
        main = iv["real"]["main"]
        if not close(io["time"], main["productive_io"], 1e-6) or io["time"] <= 0:
            fail("%s: interval %r I/O time %s is not its Productive I/O %s"
                 % (path, iv["name"], io["time"], main["productive_io"]))
        if not close(io["bandwidth"], (rd + wr) / io["time"]):
            fail("%s: interval %r bandwidth %s, not bytes over time" % (path, iv["name"], io["bandwidth"]))
        total = P * main["execution_time"] if "execution_time" in main else None
        if io["share"] is None or not 0 < io["share"] <= 1:
            fail("%s: interval %r I/O share %s" % (path, iv["name"], io["share"]))
        del total
    return pts, ivs


def check_text(text, doc):
    pts, _ = points(doc)
    for fn, s in pts.items():
        m = re.search(r"^SRC %d  %s  calls=(\d+)  bytes_read=(\d+)  bytes_written=(\d+)\n"
                      r"   time .*\n   bandwidth       (\d+) B/s$" % (s["id"], fn), text, re.M)
        if not m:
            fail("text: no SRC %d %s line with bytes_read, bytes_written and bandwidth" % (s["id"], fn))
        if (int(m.group(1)), int(m.group(2)), int(m.group(3))) != (s["calls"], s["bytes_read"], s["bytes_written"]):
            fail("text: SRC %d %s %s differs from the JSON" % (s["id"], fn, m.groups()))
        if abs(int(m.group(4)) - s["bandwidth"]) > 1:
            fail("text: SRC %d bandwidth %s, JSON %s" % (s["id"], m.group(4), s["bandwidth"]))
    blocks = re.split(r"^==== Interval ", text, flags=re.M)[1:]
    for iv, block in zip(doc["intervals"], blocks):
        io = iv["io"]
        m = re.search(r"^--- I/O ---\ncalls=(\d+)  bytes_read=(\d+)  bytes_written=(\d+)\n"
                      r"time\s+([0-9.]+) s \(summed over processes\)  share ([0-9.]+) of execution time\n"
                      r"bandwidth\s+(\d+) B/s", block, re.M)
        if not m:
            fail("text: interval %r has no I/O section with figures" % iv["name"])
        got = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if got != (io["calls"], io["bytes_read"], io["bytes_written"]) or abs(float(m.group(4)) - io["time"]) > 1e-6 \
                or abs(float(m.group(5)) - io["share"]) > 1e-4 or abs(int(m.group(6)) - io["bandwidth"]) > 1:
            fail("text: interval %r I/O %s differs from the JSON %s" % (iv["name"], m.groups(), io))


def main():
    doc = json.load(open(sys.argv[2]))
    check_json(doc, sys.argv[2])
    check_text(open(sys.argv[1]).read(), doc)
    if len(sys.argv) > 3:
        trace = json.load(open(sys.argv[3]))
        check_json(trace, sys.argv[3])
        a, b = points(doc)[1], points(trace)[1]
        for name in a:
            ka = {k: a[name]["io"][k] for k in ("calls", "bytes_read", "bytes_written")}
            kb = {k: b[name]["io"][k] for k in ("calls", "bytes_read", "bytes_written")}
            if ka != kb:
                fail("interval %r: dynamic %s, trace %s" % (name, ka, kb))
    print("check_io_bytes: ok")


main()
