#!/usr/bin/python3
"""Score-P-shaped OTF2 traces with known answers, written with python3-otf2
(no mpiprof attribute: SRC points are MPI functions alone), for the tests of
mpiprof-analyze (tests/analyze/).

    scorep_trace.py SCENARIO DIR     writes DIR/traces.otf2 (and its files)

Each scenario is what every rank did, in milliseconds on one clock: MPI
calls with the events Score-P writes inside them (regions of the MPI
paradigm with Score-P's roles, MpiSend/MpiRecv/MpiIsend/MpiIsendComplete/
MpiIrecvRequest/MpiIrecv, MpiCollectiveBegin/End), communicators as groups
of ranks, the clock properties (ns).  EXPECTED[scenario] is the answer the
protocol must give (seconds), from characteristics.md by hand."""
import sys

MS = 1000000  # ticks (ns) per millisecond

# Score-P's region roles of the MPI functions used here (names of
# otf2.RegionRole), and the collective operation of each collective.
ROLES = {
    "MPI_Send": "POINT2POINT", "MPI_Recv": "POINT2POINT", "MPI_Isend": "POINT2POINT",
    "MPI_Irecv": "POINT2POINT", "MPI_Wait": "POINT2POINT", "MPI_Waitall": "POINT2POINT",
    "MPI_Barrier": "BARRIER", "MPI_Allreduce": "COLL_ALL2ALL", "MPI_Bcast": "COLL_ONE2ALL",
}
COLLECTIVE_OPS = {"MPI_Barrier": "BARRIER", "MPI_Allreduce": "ALLREDUCE", "MPI_Bcast": "BCAST"}


def mark(kind, region, time):
    """An interval's or replicated code's mark in mpiprof's convention
    (mpiprof-trace(5)): kind "begin" or "end", region a name of REGIONS."""
    return ("@" + kind, region, time, ())


def call(function, enter, leave, *events):
    """One MPI call from `enter` to `leave` ms; events: ("send", dest, tag,
    bytes, comm), ("isend", dest, tag, bytes, req, comm), ("isend_done", req),
    ("irecv_req", req), ("recv", source, tag, bytes, comm), ("irecv", source,
    tag, bytes, req, comm), ("coll", comm, root, sent, received).  A
    function "MPI_Send@21" is called from line 21 of prog.c (mpiprof's
    call-site attribute)."""
    return (function, enter, leave, events)


def late_sender():
    """Rank 1 receives before rank 0 sends, twice with MPI_Recv (9 ms late
    each) and once with MPI_Irecv + MPI_Wait (2.98 ms late); one receive
    whose send came first (no wait)."""
    r0 = [call("MPI_Init", 0, 1), call("MPI_Comm_rank", 1.5, 1.6),
          call("MPI_Send", 11, 11.1, ("send", 1, 5, 800, "world")),
          call("MPI_Send", 21, 21.1, ("send", 1, 5, 800, "world")),
          call("MPI_Send", 22, 22.2, ("send", 1, 6, 64, "world")),
          call("MPI_Isend", 26, 26.05, ("isend", 1, 7, 4096, 1, "world")),
          call("MPI_Wait", 26.05, 26.2, ("isend_done", 1)),
          call("MPI_Finalize", 30, 31)]
    r1 = [call("MPI_Init", 0, 1), call("MPI_Comm_rank", 1.5, 1.6),
          call("MPI_Recv", 2, 11.2, ("recv", 0, 5, 800, "world")),
          call("MPI_Recv", 12, 21.3, ("recv", 0, 5, 800, "world")),
          call("MPI_Recv", 22.5, 22.6, ("recv", 0, 6, 64, "world")),
          call("MPI_Irecv", 23, 23.01, ("irecv_req", 9)),
          call("MPI_Wait", 23.02, 26.1, ("irecv", 0, 7, 4096, 9, "world")),
          call("MPI_Finalize", 30, 31)]
    return {"comms": {"world": [0, 1]}, "ranks": [r0, r1]}


def collective_skew():
    """Three ranks enter one MPI_Barrier at 2, 4 and 8 ms and leave it at 8.1,
    8.3 and 8.2 ms; ranks 0 and 2 then meet in an MPI_Allreduce on their own
    communicator, entered at 10 and 12 ms, left at 12.1 ms both."""
    ranks = []
    barrier = [(2, 8.1), (4, 8.3), (8, 8.2)]
    for r in range(3):
        calls = [call("MPI_Init", 0, 1),
                 call("MPI_Barrier", barrier[r][0], barrier[r][1], ("coll", "world", None, 0, 0))]
        if r != 1:
            calls.append(call("MPI_Allreduce", 10 if r == 0 else 12, 12.1, ("coll", "pair", None, 8, 8)))
        calls.append(call("MPI_Finalize", 20, 21))
        ranks.append(calls)
    return {"comms": {"world": [0, 1, 2], "pair": [0, 2]}, "ranks": ranks}


def imbalance():
    """Rank 0 computes 5 ms, rank 1 15 ms, then both meet in MPI_Allreduce
    (rank 0 waits 10 ms in it), from MPI_Init's return at 1 ms to
    MPI_Finalize at 20 ms."""
    r0 = [call("MPI_Init", 0, 1), call("MPI_Allreduce", 6, 16, ("coll", "world", None, 8, 8)),
          call("MPI_Finalize", 20, 21)]
    r1 = [call("MPI_Init", 0, 1), call("MPI_Allreduce", 16, 16.1, ("coll", "world", None, 8, 8)),
          call("MPI_Finalize", 20, 21)]
    return {"comms": {"world": [0, 1]}, "ranks": [r0, r1]}


def died():
    """The late sender's run where rank 1 died inside its second MPI_Recv:
    its events end there (no Leave, no MPI_Finalize)."""
    spec = late_sender()
    r1 = spec["ranks"][1]
    spec["ranks"][1] = r1[:3] + [call("MPI_Recv", 12, None)]
    return spec


# mpiprof's user regions: interval "solver" begun at prog.c:20, and
# replicated code.
REGIONS = {"solver": ("mpiprof interval", "prog.c", 20, "CODE"),
           "[replicated code]": ("mpiprof replicated code (mpiprof_seq_begin)", "prog.c", 0, "ARTIFICIAL")}


def intervals_sites():
    """mpiprof's shape: the call-site attribute on every MPI call, the
    interval "solver" entered twice (2-10 and 11-15 ms), replicated code
    (3-5 ms) in its first execution; in it rank 0 sends from lines 21 and 22
    and rank 1 receives there, 0.5 ms late at line 21 each time, early at
    line 22; outside it an MPI_Barrier from line 30, rank 1 0.5 ms late."""
    ranks = []
    for r in range(2):
        p2p = "MPI_Send" if r == 0 else "MPI_Recv"
        ev = (lambda tag: ("send", 1, tag, 8, "world")) if r == 0 else (lambda tag: ("recv", 0, tag, 8, "world"))
        at21 = [(6, 6.1), (5.5, 6.2)][r]
        at22 = [(7, 7.1), (7.05, 7.2)][r]
        again = [(12, 12.1), (11.5, 12.2)][r]
        ranks.append([
            call("MPI_Init@5", 0, 1),
            mark("begin", "solver", 2),
            mark("begin", "[replicated code]", 3), mark("end", "[replicated code]", 5),
            call(p2p + "@21", at21[0], at21[1], ev(1)),
            call(p2p + "@22", at22[0], at22[1], ev(2)),
            mark("end", "solver", 10),
            mark("begin", "solver", 11),
            call(p2p + "@21", again[0], again[1], ev(1)),
            mark("end", "solver", 15),
            call("MPI_Barrier@30", 16 + 0.5 * r, 17, ("coll", "world", None, 0, 0)),
            call("MPI_Finalize", 20, 21)])
    return {"comms": {"world": [0, 1]}, "ranks": ranks, "sites": True}


def skewed():
    """The late sender, rank 1's clock 5 ms ahead and drifting 1e-3 fast: its
    timestamps are true + 5 ms + 1e-3 true, with the ClockOffset definitions
    that correct them (at its first and last event), so the answers are the
    late sender's."""
    spec = late_sender()
    spec["clock"] = {1: lambda t: t + 5 * MS + t // 1000}
    return spec


def no_mpi():
    """A trace of one process with user regions only."""
    return {"comms": {}, "ranks": [[("compute", 0, 5, ())]], "no_mpi": True}


SCENARIOS = {"late_sender": late_sender, "collective_skew": collective_skew, "imbalance": imbalance,
             "died": died, "intervals_sites": intervals_sites, "skewed": skewed, "no_mpi": no_mpi}

# The answers (seconds): per SRC point by function, and interval 0's main
# characteristics.  Interval 0 of each process runs from MPI_Init's return to
# MPI_Finalize's entry.
EXPECTED = {
    "skewed": None,  # the late sender's (below)
    "late_sender": {
        "src": {"MPI_Recv": {"calls": 3, "bytes_recv": 1664, "real_sync": 0.018},
                "MPI_Wait": {"calls": 2, "real_sync": 0.00298},
                "MPI_Send": {"calls": 3, "bytes_sent": 1664, "real_sync": 0.0},
                "MPI_Irecv": {"calls": 1, "bytes_recv": 4096, "real_sync": 0.0},
                "MPI_Isend": {"calls": 1, "bytes_sent": 4096},
                "MPI_Comm_rank": {"calls": 2}},
        "main": {"execution_time": 0.029, "processors": 2, "real_sync": 0.02098,
                 # rank 0: 0.1 + 0.1 + 0.2 + 0.05 + 0.15 ms; rank 1: 9.2 + 9.3 + 0.1 + 0.01 + 3.08 ms
                 "sendrecv": 0.0006 + 0.02169, "system": 0.0002},
    },
    "collective_skew": {
        "src": {"MPI_Barrier": {"calls": 3, "potential_sync": 0.010, "time_variation": 0.0003},
                "MPI_Allreduce": {"calls": 2, "potential_sync": 0.002, "time_variation": 0.0,
                                  "bytes_sent": 16, "bytes_recv": 16}},
        "main": {"execution_time": 0.019, "processors": 3, "potential_sync": 0.012, "time_variation": 0.0003},
    },
    # SRC points "function@stack" when the trace has call sites; one entry
    # per interval, in the protocol's order.
    "intervals_sites": {"intervals": [
        {"name": "whole program", "file": "prog.c", "line": 5, "level": 0, "executions": 1,
         # an interval's SRC points are the calls made in it, outside nested ones
         "src": {"MPI_Barrier@prog.c:30 (main)": {"calls": 2, "potential_sync": 0.0005, "time_variation": 0.0}},
         # replicated code of 2 ms on each of 2 processes: 2 x 2 x (2 - 1) / 2
         "main": {"execution_time": 0.019, "insufficient_parallelism": 0.002, "real_sync": 0.001,
                  "potential_sync": 0.0005}},
        {"name": "solver", "file": "prog.c", "line": 20, "level": 1, "parent": 0, "executions": 2,
         "src": {"MPI_Recv@prog.c:21 (main)": {"calls": 2, "real_sync": 0.001, "bytes_recv": 16},
                 "MPI_Recv@prog.c:22 (main)": {"calls": 1, "real_sync": 0.0, "bytes_recv": 8},
                 "MPI_Send@prog.c:21 (main)": {"calls": 2, "bytes_sent": 16},
                 "MPI_Send@prog.c:22 (main)": {"calls": 1, "bytes_sent": 8}},
         "main": {"execution_time": 0.012, "insufficient_parallelism": 0.002, "real_sync": 0.001,
                  "potential_sync": 0.0}}]},
    "imbalance": {
        "src": {"MPI_Allreduce": {"calls": 2, "potential_sync": 0.010, "time_variation": 0.0001}},
        # C(0) = 19 - 10 = 9 ms, C(1) = 19 - 0.1 = 18.9 ms
        "main": {"execution_time": 0.019, "processors": 2, "load_imbalance": 0.0099, "collective": 0.0101,
                 "potential_sync": 0.010, "time_variation": 0.0001},
    },
}


class OnClock:
    """An event writer whose timestamps are read on another clock."""

    def __init__(self, writer, clock):
        self.writer, self.clock = writer, clock

    def __getattr__(self, name):
        method = getattr(self.writer, name)
        return lambda time, *args, **kwargs: method(self.clock(time), *args, **kwargs)


def write(scenario, directory):
    """Write the trace (python3-otf2: Debian's /usr/bin/python3 only)."""
    import otf2
    from otf2.enums import (CollectiveOp, GroupType, LocationGroupType, LocationType, Paradigm, RegionRole)
    spec = SCENARIOS[scenario]()
    nranks = len(spec["ranks"])
    with otf2.writer.open(directory, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        machine = defs.system_tree_node("machine")
        node = defs.system_tree_node("node0", parent=machine)
        locations = []
        for r in range(nranks):
            group = defs.location_group("MPI Rank %d" % r, location_group_type=LocationGroupType.PROCESS,
                                        system_tree_parent=node)
            locations.append(defs.location("Master thread", type=LocationType.CPU_THREAD, group=group))
        regions = {}

        def region(name):
            if name not in regions:
                mpi = name.startswith("MPI_")
                regions[name] = defs.region(name, region_role=getattr(RegionRole, ROLES.get(name, "FUNCTION")),
                                            paradigm=Paradigm.MPI if mpi else Paradigm.USER)
            return regions[name]

        comms = {}
        if not spec.get("no_mpi"):
            defs.group("MPI_COMM_WORLD locations", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                       members=locations)
            for name, members in spec["comms"].items():
                g = defs.group(name + " group", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                               members=members)
                comms[name] = (defs.comm("MPI_COMM_WORLD" if name == "world" else name, group=g, parent=None),
                               members)
        main = region("main")
        src = defs.attribute("mpiprof::src", type=otf2.Type.STRING) if spec.get("sites") else None
        for name, (description, file, line, role) in REGIONS.items():
            regions[name] = defs.region(name, description=description, region_role=getattr(RegionRole, role),
                                        paradigm=Paradigm.USER, source_file=file,
                                        begin_line_number=line)
        for r, calls in enumerate(spec["ranks"]):
            w = trace.event_writer_from_location(locations[r])
            clock = spec.get("clock", {}).get(r)
            if clock:
                w = OnClock(w, clock)
            w.enter(0, main)
            died = False
            for function, enter, leave, events in calls:
                if function.startswith("@"):  # a mark: enter at, leave
                    (w.enter if function == "@begin" else w.leave)(int(round(leave * MS)), regions[enter])
                    continue
                attributes = None
                if "@" in function:
                    function, line = function.split("@")
                    attributes = {src: "%s\x1eprog.c\x1f%s\x1fmain\x1fprog.c:%s (main)" % (function, line, line)}
                reg = region(function)
                w.enter(int(round(enter * MS)), reg, attributes=attributes)
                if leave is None:  # the process died here
                    died = True
                    break
                t0, t1 = int(round(enter * MS)), int(round(leave * MS))
                for ev in events:
                    kind = ev[0]
                    if kind in ("send", "isend", "recv", "irecv"):
                        comm, members = comms[ev[-1]]
                        peer = members.index(ev[1])
                    if kind == "send":
                        w.mpi_send(t0, peer, comm, ev[2], ev[3])
                    elif kind == "isend":
                        w.mpi_isend(t0, peer, comm, ev[2], ev[3], ev[4])
                    elif kind == "isend_done":
                        w.mpi_isend_complete(t1, ev[1])
                    elif kind == "irecv_req":
                        w.mpi_irecv_request(t0, ev[1])
                    elif kind == "recv":
                        w.mpi_recv(t1, peer, comm, ev[2], ev[3])
                    elif kind == "irecv":
                        w.mpi_irecv(t1, peer, comm, ev[2], ev[3], ev[4])
                    elif kind == "coll":
                        comm, members = comms[ev[1]]
                        w.mpi_collective_begin(t0)
                        w.mpi_collective_end(t1, getattr(CollectiveOp, COLLECTIVE_OPS[function]), comm,
                                             0xFFFFFFFF if ev[2] is None else ev[2], ev[3], ev[4])
                w.leave(t1, reg)
            if not died:
                w.leave(int(round(max(c[2] for c in calls if c[2] is not None) * MS)) + 1000, main)
            if clock:  # its ClockOffset definitions: at its first and last event
                import _otf2
                last = int(round(max(c[2] for c in calls if c[2] is not None) * MS)) + 1000
                dw = _otf2.Archive_GetDefWriter(trace.handle, locations[r]._ref)
                for true in (0, last):
                    _otf2.DefWriter_WriteClockOffset(dw, clock(true), true - clock(true), 0.0)


EXPECTED["skewed"] = EXPECTED["late_sender"]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        sys.exit("usage: scorep_trace.py {%s} DIR" % ",".join(SCENARIOS))
    write(sys.argv[1], sys.argv[2])
