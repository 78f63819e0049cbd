"""mpiprof-hang on hand-made hang dumps, for test_hang_analyze.sh.

usage: check_hang_analyze.py MPIPROF_HANG WORKDIR

Each case writes the dumps of a run (in the format of mpiprof-hang(1),
FILES) into a directory of its own, runs mpiprof-hang on them and asserts
what the report must say and must not say:

  ring        a cycle of three: MPI_Ssend -> MPI_Waitall (request from
              MPI_Irecv) -> MPI_Recv, reported with every SRC stack
  any_source  MPI_Recv(MPI_ANY_SOURCE) can be served by a running member:
              no deadlock, two blocked processes
  waitall     MPI_Waitall on two partners, one of them running and one
              waiting for it: a deadlock (it needs both)
  waitany     the same with MPI_Waitany: no deadlock (either partner will do)
  mismatch    MPI_Bcast and MPI_Barrier on one communicator: each reported
              as a collective not reached by all, mismatched, and a deadlock
  subcomm     a collective on a communicator of 2 of 4 processes: only its
              member is missing, the other processes are not
  resumed     a dump whose call returned: that process is running again
  threads     one of two threads stuck: the process is running
  stale       dumps of two runs at one path: the earlier run's is ignored
  self        a process receiving from itself waits for itself
  ring_dir    the ring's directory given: the same report; a directory
              without dumps: exit status 2
  errors      missing file, not a dump, a call cut short, two dumps of one
              rank, wrong usage (no argument, an unknown option): exit
              status 2, a message
"""
import os
import subprocess
import sys

import protocol_check as pc

failures = pc.Failures()


def dump(rank, world, calls, run="host-1-100", threads=1, written=1000.0):
    lines = ["mpiprof-hang-dump 1", "run %s" % run, "rank %d" % rank, "world_size %d" % world,
             "pid %d" % (100 + rank), "host h", "program ./p", "timeout 1", "threads %d" % threads,
             "written %.6f" % written]
    for c in calls:
        lines += c
    return "\n".join(lines) + "\n"


def call(function, frame, category="SendRecv", comm="size=2 inter=0 id=00000000000000aa members=0-1",
         thread=None, extra=(), requests=(), handles=0, resumed=None, entered=990.0):
    lines = ["call", "thread %d" % (thread or 1), "function %s" % function, "category %s" % category,
             "entered %.6f" % entered, "stuck_for 2.000"]
    if comm:
        lines.append("comm " + comm)
    lines += list(extra)
    lines.append("frame %s" % frame)
    lines.append("frame main.c:99 (main)")
    if handles:
        lines.append("handles %d" % handles)
    lines.append("outstanding %d" % len(requests))
    lines += ["request " + r for r in requests]
    if resumed is not None:
        lines.append("resumed %.6f" % resumed)
    lines.append("end")
    return lines


COMM3 = "size=3 inter=0 id=00000000000000bb members=0-2"


def run_case(tool, workdir, name, files, args=None):
    d = os.path.join(workdir, name)
    os.mkdir(d)
    for fname, text in files.items():
        with open(os.path.join(d, fname), "w") as f:
            f.write(text)
    argv = [tool] + (args if args is not None else [os.path.join(d, "p.txt")])
    p = subprocess.run(argv, capture_output=True, text=True, cwd=d)
    print("==== %s: exit %d" % (name, p.returncode))
    print(p.stdout, end="")
    if p.stderr:
        print("stderr: " + p.stderr, end="")
    return p


def expect(name, p, status=0, has=(), lacks=(), stderr_has=()):
    if p.returncode != status:
        failures.fail("%s: exit status %d, not %d" % (name, p.returncode, status))
    for text in has:
        if text not in p.stdout:
            failures.fail("%s: the report lacks %r" % (name, text))
    for text in lacks:
        if text in p.stdout:
            failures.fail("%s: the report has %r" % (name, text))
    for text in stderr_has:
        if text not in p.stderr:
            failures.fail("%s: stderr lacks %r" % (name, text))


def main():
    tool, workdir = sys.argv[1], sys.argv[2]

    p = run_case(tool, workdir, "ring", {
        "p.txt.hang.0": dump(0, 3, [call("MPI_Ssend", "ring.c:10 (send)", comm=COMM3,
                                         extra=["dest rank=1 world=1", "tag 4", "count 8"])]),
        "p.txt.hang.1": dump(1, 3, [call("MPI_Waitall", "ring.c:20 (wait)", comm=None, handles=1, requests=[
            "handle=0x2c000001 category=SendRecv op=MPI_Irecv persistent=0 waited=1 peer=2 tag=4"])]),
        "p.txt.hang.2": dump(2, 3, [call("MPI_Recv", "ring.c:30 (recv)", comm=COMM3,
                                         extra=["source rank=0 world=0", "tag 5", "count 8"])]),
    })
    expect("ring", p, has=[
        "blocked: 0-2; running: none",
        "DEADLOCK 1: ranks 0-2 wait for each other (cycle 0 -> 1 -> 2 -> 0)",
        "in MPI_Ssend (dest 1, tag 4, count 8, communicator of 3 processes, world ranks 0-2)",
        "stack  ring.c:10 (send) <- main.c:99 (main)",
        "stack  ring.c:20 (wait) <- main.c:99 (main)",
        "waits on request 0x2c000001 from MPI_Irecv peer 2 tag 4",
        "stack  ring.c:30 (recv) <- main.c:99 (main)",
        "waits for rank 1", "waits for rank 2", "waits for rank 0", "RUNNING: none"],
        lacks=["COLLECTIVE", "BLOCKED"])
    # the directory of the dumps stands for them: the same report
    ring = p.stdout
    p = subprocess.run([tool, os.path.join(workdir, "ring")], capture_output=True, text=True)
    if p.returncode != 0 or p.stdout != ring:
        failures.fail("ring, its directory given: exit %d, a report that differs from the protocol path's:\n%s%s"
                      % (p.returncode, p.stdout, p.stderr))
    p = run_case(tool, workdir, "empty_dir", {}, args=["."])
    expect("empty_dir", p, status=2, stderr_has=[".: a directory without hang dumps"])

    p = run_case(tool, workdir, "any_source", {
        "p.txt.hang.0": dump(0, 3, [call("MPI_Recv", "a.c:1 (f)", comm=COMM3,
                                         extra=["source rank=any", "tag any", "count 1"])]),
        "p.txt.hang.1": dump(1, 3, [call("MPI_Recv", "a.c:2 (g)", comm=COMM3,
                                         extra=["source rank=0 world=0", "tag 1", "count 1"])]),
    })
    expect("any_source", p, has=[
        "blocked: 0-1; running: 2", "BLOCKED (not in a cycle):",
        "in MPI_Recv (source MPI_ANY_SOURCE, tag any, count 1",
        "waits for rank 1 (blocked in MPI_Recv at a.c:2 (g)); rank 2 (running: no dump)",
        "waits for rank 0 (blocked in MPI_Recv at a.c:1 (f))",
        "rank 2: running: no dump"],
        lacks=["DEADLOCK", "can never proceed"])

    def waits(function):
        return {
            "p.txt.hang.0": dump(0, 3, [call(function, "w.c:5 (w)", comm=None, handles=2, requests=[
                "handle=0x2c000001 category=SendRecv op=MPI_Irecv persistent=0 waited=1 peer=1 tag=0",
                "handle=0x2c000002 category=SendRecv op=MPI_Irecv persistent=0 waited=1 peer=2 tag=0",
                "handle=0x2c000003 category=SendRecv op=MPI_Isend persistent=0 waited=0 peer=1 tag=9"])]),
            "p.txt.hang.1": dump(1, 3, [call("MPI_Recv", "w.c:9 (r)", comm=COMM3,
                                             extra=["source rank=0 world=0", "tag 0"])]),
        }
    p = run_case(tool, workdir, "waitall", waits("MPI_Waitall"))
    expect("waitall", p, has=["DEADLOCK 1: ranks 0-1 wait for each other (cycle 0 -> 1 -> 0)",
                              "waits on request 0x2c000001 from MPI_Irecv peer 1 tag 0",
                              "waits on request 0x2c000002 from MPI_Irecv peer 2 tag 0",
                              "rank 2: running: no dump"],
           lacks=["0x2c000003"])
    p = run_case(tool, workdir, "waitany", waits("MPI_Waitany"))
    expect("waitany", p, has=["BLOCKED (not in a cycle):", "rank 2: running: no dump"], lacks=["DEADLOCK"])

    p = run_case(tool, workdir, "mismatch", {
        "p.txt.hang.0": dump(0, 2, [call("MPI_Bcast", "m.c:3 (main)", category="Collective",
                                         extra=["root rank=0 world=0", "count 4"])]),
        "p.txt.hang.1": dump(1, 2, [call("MPI_Barrier", "m.c:7 (main)", category="Collective")]),
    })
    expect("mismatch", p, has=[
        "DEADLOCK 1: ranks 0-1 wait for each other (cycle 0 -> 1 -> 0)",
        "COLLECTIVE NOT REACHED BY ALL: MPI_Bcast on a communicator of 2 processes, world ranks 0-1",
        "COLLECTIVE NOT REACHED BY ALL: MPI_Barrier on a communicator of 2 processes, world ranks 0-1",
        "rank 1: blocked in MPI_Barrier at m.c:7 (main)",
        "(another collective on the same communicator: mismatched calls)"])

    sub = "size=2 inter=0 id=00000000000000cc members=1,3"
    p = run_case(tool, workdir, "subcomm", {
        "p.txt.hang.1": dump(1, 4, [call("MPI_Allreduce", "s.c:4 (main)", category="Collective", comm=sub,
                                         extra=["count 1"])]),
        "p.txt.hang.3": dump(3, 4, [call("MPI_Recv", "s.c:8 (main)", comm=None,
                                         extra=["source rank=0 world=0", "tag 0"])]),
    })
    expect("subcomm", p, has=[
        "COLLECTIVE NOT REACHED BY ALL: MPI_Allreduce on a communicator of 2 processes, world ranks 1,3",
        "reached by rank 1", "missing: rank 3", "rank 3: blocked in MPI_Recv at s.c:8 (main)",
        "ranks 0,2: running: no dump"],
        lacks=["DEADLOCK", "missing: ranks"])

    p = run_case(tool, workdir, "resumed", {
        "p.txt.hang.0": dump(0, 2, [call("MPI_Recv", "r.c:1 (main)", extra=["source rank=1 world=1"],
                                         resumed=995.5, entered=990.0)]),
        "p.txt.hang.1": dump(1, 2, [call("MPI_Recv", "r.c:2 (main)", extra=["source rank=0 world=0"])]),
    })
    expect("resumed", p, has=["blocked: 1; running: 0", "rank 0: running: left MPI_Recv (r.c:1 (main)) after 5.5 s",
                              "waits for rank 0 (running: left MPI_Recv"],
           lacks=["DEADLOCK"])

    p = run_case(tool, workdir, "threads", {
        "p.txt.hang.0": dump(0, 2, [call("MPI_Recv", "t.c:1 (main)", extra=["source rank=1 world=1"])],
                             threads=2),
        "p.txt.hang.1": dump(1, 2, [call("MPI_Recv", "t.c:2 (main)", extra=["source rank=0 world=0"])]),
    })
    expect("threads", p, has=["blocked: 1; running: 0", "rank 0: running: 1 of its 2 threads are not blocked"],
           lacks=["DEADLOCK"])

    p = run_case(tool, workdir, "stale", {
        "p.txt.hang.0": dump(0, 2, [call("MPI_Recv", "n.c:1 (main)", extra=["source rank=1 world=1"])],
                             run="new", written=2000.0),
        "p.txt.hang.1": dump(1, 2, [call("MPI_Recv", "o.c:1 (main)", extra=["source rank=0 world=0"])],
                             run="old", written=1000.0),
    })
    expect("stale", p, has=["dumps of rank 0; blocked: 0; running: 1", "rank 1: running: no dump"],
           lacks=["o.c:1", "DEADLOCK"], stderr_has=["ignored (an earlier run):", "p.txt.hang.1"])

    p = run_case(tool, workdir, "self", {
        "p.txt.hang.0": dump(0, 1, [call("MPI_Recv", "x.c:1 (main)", comm="size=1 inter=0 id=01 members=0",
                                         extra=["source rank=0 world=0"])]),
    })
    expect("self", p, has=["DEADLOCK 1: rank 0 waits for itself"])

    good = dump(0, 2, [call("MPI_Recv", "e.c:1 (main)", extra=["source rank=1 world=1"])])
    p = run_case(tool, workdir, "missing", {}, args=["nothere.txt"])
    expect("missing", p, status=2, stderr_has=["nothere.txt"])
    p = run_case(tool, workdir, "not_a_dump", {"p.txt.hang.0": "hello\n"})
    expect("not_a_dump", p, status=2, stderr_has=["not a hang dump"])
    p = run_case(tool, workdir, "cut_short", {"p.txt.hang.0": good[:good.rindex("end")]})
    expect("cut_short", p, status=2, stderr_has=["cut short"])
    p = run_case(tool, workdir, "malformed", {"p.txt.hang.0": good.replace("world_size 2", "world_size two")})
    expect("malformed", p, status=2, stderr_has=["malformed line"])
    p = run_case(tool, workdir, "twice", {"a": good, "b": good}, args=["a", "b"])
    expect("twice", p, status=2, stderr_has=["two dumps of rank 0"])
    p = run_case(tool, workdir, "usage", {}, args=[])
    expect("usage", p, status=2, stderr_has=["usage"])
    p = run_case(tool, workdir, "unknown_option", {}, args=["--no-such-option", "p.txt"])
    expect("unknown_option", p, status=2, stderr_has=["unknown option '--no-such-option'", "--help"])

    if failures.status():
        sys.exit(1)
    print("check_hang_analyze: all cases pass")


if __name__ == "__main__":
    main()
