"""Check the OTF2 archive of tests/mpi/trace/trace.c (see test_trace.sh).

usage: check_trace.py ARCHIVE_ANCHOR PROTOCOL.json SOURCE.c FLOOD MIN_FLUSHES

Run with the Debian python3 that has python3-otf2 (/usr/bin/python3).
Reads every event and definition and checks, per rank: the Enter/Leave of
each MPI region and user region (counts, nesting, region roles and
paradigms), the point-to-point events (peers, tags, bytes, communicators,
request ids paired with their completion), the collective operations (op,
communicator, root, bytes), the SRC key on the Enter of every MPI call
(function, then a frame trace.c:LINE at the line of the call in SOURCE.c,
its source "line"),
time order, the locations' event counts, at least MIN_FLUSHES BufferFlush
events, and the protocol's Trace parameter (path and size of the archive).
"""
import collections
import os
import re
import sys

import otf2
from otf2.enums import CollectiveOp, Paradigm, RegionRole

import protocol_check as pc

failures = pc.Failures()
fail, expect = failures.fail, failures.expect


def line_of(source, text):
    """Line number (from 1) of the one line of source containing text."""
    hits = [i + 1 for i, l in enumerate(source) if text in l]
    if len(hits) != 1:
        raise SystemExit("check_trace.py: %r is on lines %r of the source, expected one" % (text, hits))
    return hits[0]


def main(anchor, protocol, source_path, flood, min_flushes):
    flood, min_flushes = int(flood), int(min_flushes)
    source = open(source_path).read().split("\n")
    # the lines of each function's calls, by rank
    lines = {
        ("MPI_Send", 0): {line_of(source, "MPI_Send(ints, 100")} | ({line_of(source, "MPI_Send(NULL, 0")} if flood else set()),
        ("MPI_Recv", 1): {line_of(source, "MPI_Recv(ints, 100"), line_of(source, "MPI_Recv(chars")} |
                         ({line_of(source, "MPI_Recv(NULL, 0")} if flood else set()),
        ("MPI_Irecv", 0): {line_of(source, "MPI_Irecv(doubles")},
        ("MPI_Isend", 0): {line_of(source, "MPI_Isend(chars")},
        ("MPI_Waitall", 0): {line_of(source, "MPI_Waitall(2")},
        ("MPI_Isend", 1): {line_of(source, "MPI_Isend(doubles")},
        ("MPI_Wait", 1): {line_of(source, "MPI_Wait(&r")},
        ("MPI_Bcast", 0): {line_of(source, "MPI_Bcast(")},
        ("MPI_Bcast", 1): {line_of(source, "MPI_Bcast(")},
        ("MPI_Reduce", 1): {line_of(source, "MPI_Reduce(")},
        ("MPI_Init", 0): {line_of(source, "MPI_Init(")},  # the first Enter: interval 0's position
        ("MPI_Init", 1): {line_of(source, "MPI_Init(")},
    }
    enters = collections.Counter()  # (rank, region name)
    leaves = collections.Counter()
    sends, recvs = collections.Counter(), collections.Counter()  # (rank, peer, tag, bytes, comm)
    isends, irecvs = {}, {}  # request id -> (rank, peer, tag, bytes)
    isend_done, irecv_req = collections.Counter(), collections.Counter()
    collectives = collections.Counter()  # (rank, op, comm name, root, sent, received)
    begins = collections.Counter()
    flushes = 0
    counted = collections.Counter()
    in_region = collections.defaultdict(list)  # rank -> stack of region names
    inside = collections.Counter()  # (rank, MPI region, enclosing user region)
    last_time = {}
    sites = {}
    with otf2.reader.open(anchor) as trace:
        defs = trace.definitions
        expect("locations", sorted(l.name for l in defs.locations),
               ["Master thread of rank 0", "Master thread of rank 1"])
        world = [c for c in defs.comms if c.name == "MPI_COMM_WORLD"]
        expect("MPI_COMM_WORLD definitions", len(world), 1)
        for c in defs.comms:
            expect("members of %s" % c.name, [l.name for l in c.group.members],
                   ["Master thread of rank 0", "Master thread of rank 1"])
        for r in defs.regions:
            if r.name.startswith("MPI_"):
                expect("paradigm of %s" % r.name, r.paradigm, Paradigm.MPI)
        roles = {r.name: r.region_role for r in defs.regions}
        expect("role of MPI_Send", roles.get("MPI_Send"), RegionRole.POINT2POINT)
        expect("role of MPI_Barrier", roles.get("MPI_Barrier"), RegionRole.BARRIER)
        expect("role of MPI_Bcast", roles.get("MPI_Bcast"), RegionRole.COLL_ONE2ALL)
        expect("role of MPI_Reduce", roles.get("MPI_Reduce"), RegionRole.COLL_ALL2ONE)
        expect("role of MPI_Allreduce", roles.get("MPI_Allreduce"), RegionRole.COLL_ALL2ALL)
        for name in ("exchange", "collectives", "[replicated code]"):
            user = [r for r in defs.regions if r.name == name]
            expect("user regions named %s" % name, len(user), 1)
            if user:
                expect("paradigm of %s" % name, user[0].paradigm, Paradigm.USER)
        ticks = defs.clock_properties.timer_resolution
        if not 1e8 < ticks < 1e11:
            fail("clock properties: %d ticks per second" % ticks)
        events_of = {l.name: l.number_of_events for l in defs.locations}

        for loc, ev in trace.events:
            rank = int(loc.name.split()[-1])
            kind = type(ev).__name__
            counted[loc.name] += 1
            if ev.time < last_time.get(rank, 0):
                fail("rank %d: %s at %d before the previous event (%d)" % (rank, kind, ev.time, last_time[rank]))
            last_time[rank] = ev.time
            if kind == "Enter":
                name = ev.region.name
                if not any(r == rank for r, _ in enters):
                    expect("rank %d: the first Enter" % rank, name, "MPI_Init")
                enters[rank, name] += 1
                if name.startswith("MPI_"):
                    enclosing = in_region[rank][-1] if in_region[rank] else None
                    inside[rank, name, enclosing] += 1
                    src = (ev.attributes or {}).get(
                        next((a for a in defs.attributes if a.name == "mpiprof::src"), None))
                    if src is None:
                        if name != "MPI_Finalize":
                            fail("rank %d: Enter of %s without mpiprof::src" % (rank, name))
                    else:
                        parts = src.split("\x1e")
                        expect("function of the SRC key %r" % src, parts[0], name)
                        sites.setdefault((name, rank), set()).add(tuple(parts[1:]))
                else:
                    in_region[rank].append(name)
            elif kind == "Leave":
                leaves[rank, ev.region.name] += 1
                if not ev.region.name.startswith("MPI_"):
                    top = in_region[rank].pop() if in_region[rank] else None
                    expect("rank %d: region left" % rank, top, ev.region.name)
            elif kind == "MpiSend":
                sends[rank, ev.receiver, ev.msg_tag, ev.msg_length, ev.communicator.name] += 1
            elif kind == "MpiRecv":
                recvs[rank, ev.sender, ev.msg_tag, ev.msg_length, ev.communicator.name] += 1
            elif kind == "MpiIsend":
                isends[ev.request_id] = (rank, ev.receiver, ev.msg_tag, ev.msg_length, ev.communicator.name)
            elif kind == "MpiIsendComplete":
                isend_done[ev.request_id] += 1
            elif kind == "MpiIrecvRequest":
                irecv_req[ev.request_id] += 1
            elif kind == "MpiIrecv":
                irecvs[ev.request_id] = (rank, ev.sender, ev.msg_tag, ev.msg_length, ev.communicator.name)
            elif kind == "MpiCollectiveBegin":
                begins[rank] += 1
            elif kind == "MpiCollectiveEnd":
                root = ev.root if ev.root is None or isinstance(ev.root, int) else ev.root.name
                collectives[rank, ev.collective_op, ev.communicator.name == "MPI_COMM_WORLD", root,
                            ev.size_sent, ev.size_received] += 1
            elif kind == "BufferFlush":
                flushes += 1
                if ev.stop_time < ev.time:
                    fail("a BufferFlush ends (%d) before it begins (%d)" % (ev.stop_time, ev.time))

    for name, n in counted.items():
        expect("events of %s (its definition's count)" % name, n, events_of.get(name))
    for key in set(enters) | set(leaves):
        expect("rank %d: leaves of %s (enters %d)" % (key[0], key[1], enters[key]), leaves[key], enters[key])
    expected_enters = {
        0: {"MPI_Send": 3 + flood, "MPI_Irecv": 1, "MPI_Isend": 1, "MPI_Waitall": 1},
        1: {"MPI_Recv": 4 + flood, "MPI_Isend": 1, "MPI_Wait": 1},
    }
    for rank in (0, 1):
        want = dict(expected_enters[rank])
        want.update({"MPI_Bcast": 1, "MPI_Allreduce": 1, "MPI_Barrier": 1, "MPI_Comm_dup": 1, "MPI_Reduce": 1,
                     "MPI_Comm_free": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Finalize": 1,
                     "MPI_Init": 1, "exchange": 1, "collectives": 1, "[replicated code]": 1})
        got = {name: n for (r, name), n in enters.items() if r == rank}
        expect("rank %d: Enter events by region" % rank, got, want)
    expect("MPI_Send inside 'exchange' on rank 0", inside[0, "MPI_Send", "exchange"], 3)
    expect("MPI_Bcast inside 'collectives' on rank 1", inside[1, "MPI_Bcast", "collectives"], 1)

    want_sends = {(0, 1, 7, 400, "MPI_COMM_WORLD"): 3}
    if flood:
        want_sends[0, 1, 5, 0, "MPI_COMM_WORLD"] = flood
    expect("MpiSend events (rank, receiver, tag, bytes, communicator)", dict(sends), want_sends)
    want_recvs = {(1, 0, 7, 400, "MPI_COMM_WORLD"): 3, (1, 0, 11, 4, "MPI_COMM_WORLD"): 1}
    if flood:
        want_recvs[1, 0, 5, 0, "MPI_COMM_WORLD"] = flood
    expect("MpiRecv events (rank, sender, tag, bytes, communicator)", dict(recvs), want_recvs)
    expect("MpiIsend events", sorted(isends.values()),
           [(0, 1, 11, 4, "MPI_COMM_WORLD"), (1, 0, 9, 128, "MPI_COMM_WORLD")])
    expect("MpiIsendComplete of each MpiIsend's request", dict(isend_done), {r: 1 for r in isends})
    expect("MpiIrecv events", list(irecvs.values()), [(0, 1, 9, 128, "MPI_COMM_WORLD")])
    expect("MpiIrecvRequest of each MpiIrecv's request", dict(irecv_req), {r: 1 for r in irecvs})

    none = 0xFFFFFFFF  # OTF2_UNDEFINED_UINT32: no root
    want_coll = collections.Counter()
    for rank in (0, 1):
        want_coll[rank, CollectiveOp.BCAST, True, 0, 32 if rank == 0 else 0, 0 if rank == 0 else 32] += 1
        want_coll[rank, CollectiveOp.ALLREDUCE, True, none, 8, 8] += 1
        want_coll[rank, CollectiveOp.BARRIER, True, none, 0, 0] += 1
        want_coll[rank, CollectiveOp.REDUCE, False, 1, 8, 8 if rank == 1 else 0] += 1
    got_coll = collections.Counter({(k[0], k[1], k[2], k[3] if isinstance(k[3], int) else int(k[3].split()[-1]),
                                     k[4], k[5]): n for k, n in collectives.items()})
    expect("MpiCollectiveEnd events (rank, op, on MPI_COMM_WORLD, root, sent, received)", dict(got_coll),
           dict(want_coll))
    expect("MpiCollectiveBegin events by rank", dict(begins), {r: sum(n for k, n in got_coll.items() if k[0] == r)
                                                               for r in (0, 1)})

    for (name, rank), want in lines.items():
        found = set()
        for frames in sites.get((name, rank), set()):
            first = frames[0].split("\x1f") if frames else []
            m = re.match(r"trace\.c:(\d+) \(main\)$", first[3]) if len(first) == 5 else None
            if not m or not first[0].endswith("trace.c") or first[1] != m.group(1) or first[4] != "line":
                fail("rank %d: SRC key of %s: first frame %r, expected trace.c:LINE (main)" % (rank, name, first))
            else:
                found.add(int(m.group(1)))
        expect("rank %d: lines of the SRC keys of %s" % (rank, name), found, want)
    if flushes < min_flushes:
        fail("%d BufferFlush events, expected at least %d" % (flushes, min_flushes))

    doc = pc.load(protocol)
    t = doc["parameters"]["trace"]
    directory = os.path.dirname(os.path.abspath(anchor))
    expect("protocol's trace path", os.path.abspath(t["path"]), directory)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(directory) for f in fs)
    expect("protocol's trace size (bytes of the archive's files)", t["bytes"], size)
    expect("protocol's trace complete", t["complete"], True)
    if not re.search(r"\(%d bytes, OTF2\)" % size, t["text"]):
        fail("protocol's Trace text %r does not give the size %d" % (t["text"], size))
    if failures.status():
        return 1
    print("trace: %d events checked, %d flushes" % (sum(counted.values()), flushes))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
