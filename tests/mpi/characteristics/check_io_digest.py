"""Check that the digest of io_digest.c's run names I/O (see
test_io_digest.sh).

usage: check_io_digest.py PROTOCOL.json PROTOCOL.txt STDERR SCHEMA.json

The run is nearly all MPI-IO: I/O is at least half of Total time, so the
digest's productive.io_large holds, with io_share = productive_io /
total_time of interval 0; the text's first 40 lines have the I/O line with
the JSON's figures, and its top SRC point is an MPI_File_* call that is no
Lost time; the summary on stderr names I/O too.
"""
import re
import sys

import protocol_check as pc


def main():
    if len(sys.argv) != 5:
        pc.fail(__doc__)
    json_path, text_path, stderr_path, schema = sys.argv[1:]
    doc = pc.load_checked(json_path, text_path, schema)
    d = doc["digest"]
    m = doc["intervals"][0]["real"]["main"]
    q = d["productive"]
    share = m["productive_io"] / m["total_time"]
    # the JSON's numbers have 10 significant digits
    if abs(q["io_share"] - share) > 1e-8 or q["io"] != m["productive_io"]:
        pc.fail("digest I/O %r (%r of total), interval 0's %r (%r)" % (q["io"], q["io_share"], m["productive_io"],
                                                                      share))
    if share < 0.5 or not q["io_large"]:
        pc.fail("I/O is %.3f of Total time, io_large %r: expected at least 0.5 and named" % (share, q["io_large"]))
    top = d["top_src"][0]
    if not top["function"].startswith("MPI_File_") or top["lost"] or top["share_of_lost"] is not None:
        pc.fail("the top SRC point %r: expected an MPI_File_* call, no Lost time" % top)
    with open(text_path) as f:
        head = f.read().splitlines()[:40]
    line = r"^   I/O +%s s, %s%% of Total time: MPI-IO, productive by the method$" % (
        re.escape("%.6f" % q["io"]), re.escape("%.1f" % (100 * q["io_share"])))
    if not any(re.match(line, ln) for ln in head):
        pc.fail("the text's first 40 lines lack /%s/:\n%s" % (line, "\n".join(head)))
    first = r"^      #1 SRC %d %s at .*: %s s in %d calls?, not Lost time \(MPI-IO, productive\)$" % (
        top["id"], top["function"], re.escape("%.6f" % top["time"]), top["calls"])
    if not any(re.match(first, ln) for ln in head):
        pc.fail("the text's first 40 lines lack /%s/" % first)
    # its bytes (io_digest.c: each process writes and reads ROUNDS blocks of 4 MiB) and bandwidth
    want = doc["parameters"]["processes"] * 8 * (4 << 20)
    io = doc["intervals"][0]["io"]
    if (q["io_bytes_read"], q["io_bytes_written"]) != (want, want) or (io["bytes_read"], io["bytes_written"]) != (want, want):
        pc.fail("the digest's I/O bytes read and written %r, interval 0's %r; expected %d each"
                % ((q["io_bytes_read"], q["io_bytes_written"]), (io["bytes_read"], io["bytes_written"]), want))
    if abs(q["io_bandwidth"] - 2 * want / io["time"]) > 1e-6 * q["io_bandwidth"]:
        pc.fail("the digest's bandwidth %r is not the bytes over the I/O time %r" % (q["io_bandwidth"], io["time"]))
    bw = r"^      %d B read, %d B written; bandwidth %d B/s \(bytes over the I/O time\)$" % (want, want, round(q["io_bandwidth"]))
    if not any(re.match(bw, ln) for ln in head):
        pc.fail("the text's first 40 lines lack /%s/" % bw)
    with open(stderr_path, errors="replace") as f:
        err = f.read()
    if "; %d B read, %d B written, %d B/s" % (want, want, round(q["io_bandwidth"])) not in err:
        pc.fail("the summary on stderr does not give I/O's bytes and bandwidth:\n%s" % err)
    if "  I/O %.6f s, %.1f%% of total: MPI-IO, productive by the method" % (q["io"], 100 * q["io_share"]) not in err:
        pc.fail("the summary on stderr does not name I/O:\n%s" % err)
    print("the digest names I/O: %.6f s, %.1f%% of Total time; top SRC point %s, no Lost time"
          % (q["io"], 100 * share, top["function"]))


if __name__ == "__main__":
    main()
