"""Check the Threads parameter and the per-thread times of an SRC point
(test_threads_openmp.sh, test_thread_times.sh).

usage: check_threads_openmp.py openmp PROTOCOL.json PROTOCOL.txt SCHEMA T [bound|env]
       check_threads_openmp.py times PROTOCOL.json PROTOCOL.txt SCHEMA SOURCE.c LATE_MS

Both check the invariants, the text against the JSON and the schema.

openmp: tests/mpi/threads/openmp_hybrid.c on 2 processes with
OMP_NUM_THREADS=T.  Known answers: each process ran T threads, 1 of them
called MPI, its OpenMP team is T (from the OpenMP runtime), in the JSON
(min and max, each process) and the text alike; and, when the protocol
gives the placement, the Placement warning that the node is
oversubscribed, naming 2 processes x T threads against its cores, exactly
when 2 x T exceeds them (never for T = 1 on 2 cores or more).  With
"bound" (each rank bound to a core of its own, mpiexec -bind-to core):
for T > 1, the warning of each rank that its T threads share its core,
none for T = 1.  With "env" (the program built without -fopenmp,
OMP_NUM_THREADS=T): 1 thread per process, and the OpenMP team T labelled
as OMP_NUM_THREADS's, no OpenMP runtime being loaded.

times: tests/mpi/threads/thread_times.c on 2 processes.  Known answers:
3 threads per process (main and two workers alive at once), all calling
MPI; the marked MPI_Sendrecv is one SRC point, called by 2 threads on
each process; rank 0's two threads spent LATE_MS and LATE_MS / 3 there
(within TOL), at the same time, rank 1's both less than QUICK; min and
max per thread over the processes say the same; the text gives the same
numbers; rank 0's Communication is LATE_MS (within TOL: the time one of
its threads was inside MPI, not the threads' sum), and every invariant
holds (Productive time is not negative).
"""
import re
import sys

import protocol_check as pc

TOL = 0.35  # relative, for the late partner's wait (a loaded 2-core host)
QUICK = 0.1  # seconds: a call whose partner is there


def params_line(text_path, label):
    """The value of a Parameters line 'label : value' and its continuation
    lines (indented), long lines joined again."""
    lines = pc.read_lines(text_path)
    for i, ln in enumerate(lines):
        m = re.match(r"^%s\s*: (.*)$" % re.escape(label), ln)
        if m:
            rest = []
            for more in lines[i + 1:]:
                if not more.startswith("   "):
                    break
                rest.append(more.strip())
            return m.group(1), rest
    pc.fail("%s: no Parameters line '%s'" % (text_path, label))


def check_counts(doc, text_path, alive, mpi, omp, source="omp_get_max_threads"):
    th = doc["parameters"].get("threads")
    if th is None:
        pc.fail("parameters.threads is missing")
    pc.check_equal("parameters.threads.processes", th["processes"], 2)
    for key, want in (("alive", alive), ("mpi", mpi), ("openmp", omp)):
        got = th[key]
        if want is None:
            pc.check_equal("parameters.threads.%s" % key, got, None)
            continue
        pc.check_equal("parameters.threads.%s min, max" % key, (got["min"], got["max"]), (want, want))
    if omp is not None:
        pc.check_equal("parameters.threads.openmp.source", th["openmp"]["source"], source)
    pc.check_equal("parameters.threads.by_process",
                   [(p["rank"], p["alive"], p["mpi"], p["openmp"]) for p in th["by_process"]],
                   [(r, alive, mpi, omp) for r in (0, 1)])
    value, more = params_line(text_path, "Threads")
    want = "%d per process (alive at once, at most), %d called MPI; OpenMP team %s" % (
        alive, mpi, ("%d (omp_get_max_threads)" if source == "omp_get_max_threads" else
                     "%d (OMP_NUM_THREADS, no OpenMP runtime was loaded)") % omp if omp else
        "none (no OpenMP runtime, OMP_NUM_THREADS unset)")
    pc.check_equal("text: Threads", value, want)
    pc.check_equal("parameters.threads.text", th["text"], want)
    cell = lambda v: "-" if v is None else str(v)
    pc.check_equal("text: Threads by process", more[:1],
                   ["by process (alive, called MPI, OpenMP team):  " + "  ".join(
                       "%d: %d %d %s" % (r, alive, mpi, cell(omp)) for r in (0, 1))])


def check_oversubscription(doc, threads):
    p = doc["parameters"]
    if p.get("placement") is None or not p.get("machine"):
        print("NOTE: the protocol gives no placement (built without hwloc): the oversubscription warning is not checked")
        return
    cores = p["machine"][0]["cores"]
    host = p["placement"]["hosts"][0]["host"]
    over = [w for w in p["placement"]["warnings"] if "oversubscribed" in w]
    if 2 * threads > cores:
        want = ("%s: 2 processes x %d threads on %d core%s and ranks 0-1 unbound: the node is oversubscribed, "
                "threads compete for cores" % (host, threads, cores, "" if cores == 1 else "s"))
        pc.check_equal("placement warnings (2 x %d threads on %d cores)" % (threads, cores), over, [want])
        if want not in p["warnings"]:
            pc.fail("parameters.warnings lack %r: %r" % (want, p["warnings"]))
    else:
        pc.check_equal("placement warnings (2 x %d threads on %d cores)" % (threads, cores), over, [])
    print("oversubscription: 2 x %d threads on %d cores: %s" % (threads, cores, "warned" if over else "no warning"))


def check_bound(doc, threads):
    p = doc["parameters"]
    if p.get("placement") is None:
        print("NOTE: the protocol gives no placement (built without hwloc): the bound ranks' warning is not checked")
        return
    host = p["placement"]["hosts"][0]["host"]
    got = p["placement"]["warnings"]
    if threads == 1:
        pc.check_equal("placement warnings (bound, 1 thread each)", got, [])
        return
    want = [r"^%s: rank %d: 1 process x %d threads bound to 1 core \(PU \d+\): threads compete for cores$"
            % (re.escape(host), r, threads) for r in (0, 1)]
    if len(got) != 2 or not all(re.match(w, g) for w, g in zip(want, got)):
        pc.fail("placement warnings (bound, %d threads each) = %r, expected 2 matching %r" % (threads, got, want))
    print("bound: %r" % got)


def openmp(json_path, text_path, schema, threads, bound=None):
    t = int(threads)
    doc = pc.load_checked(json_path, text_path, schema=schema, say=False)
    if bound == "env":
        check_counts(doc, text_path, 1, 1, t, "OMP_NUM_THREADS")
        check_oversubscription(doc, 1)
        print("env: 1 thread, OpenMP team %d from OMP_NUM_THREADS, labelled so" % t)
        return
    check_counts(doc, text_path, t, 1, t)
    if bound == "bound":
        check_bound(doc, t)
    elif bound is not None:
        pc.bad_usage()
    else:
        check_oversubscription(doc, t)
    print("openmp: %d threads, 1 called MPI, OpenMP team %d, per process and in the text" % (t, t))


def per_thread_times(src, rank):
    """The times of rank's threads at the SRC point, sorted."""
    th = src.get("threads")
    if not th:
        pc.fail("SRC %s has no per-thread times: %r" % (src["id"], th))
    for p in th["by_process"]:
        if p["rank"] == rank:
            pc.check_equal("SRC %s: threads of rank %d that called it" % (src["id"], rank), p["threads"], 2)
            return sorted(p["by_index"].values()), p
    pc.fail("SRC %s: no per-thread times of rank %d" % (src["id"], rank))


def times(json_path, text_path, schema, source, late_ms):
    late = int(late_ms) / 1000.0
    doc = pc.load_checked(json_path, text_path, schema=schema, say=False)
    check_counts(doc, text_path, 3, 3, None)
    src = pc.site(doc, 0, "MPI_Sendrecv", source, "sendrecv")
    pc.check_equal("SRC %s calls" % src["id"], src["calls"], 4)
    th = src["threads"]
    pc.check_equal("SRC %s: most threads in one process" % src["id"], th["threads_max"], 2)
    got = {}
    for rank in (0, 1):
        got[rank], _ = per_thread_times(src, rank)
    third0, late0 = got[0]
    for what, v, want in (("the late partner", late0, late), ("the partner late by a third", third0, late / 3)):
        if not pc.approx(v, want, rel=TOL):
            pc.fail("rank 0's thread with %s: %.6f s, expected %.3f s (within %d%%)" % (what, v, want, TOL * 100))
    if max(got[1]) >= QUICK:
        pc.fail("rank 1's threads: %.6f s, expected less than %.3f s" % (max(got[1]), QUICK))
    bp = doc["intervals"][0]["real"]["by_process"]
    comm0 = bp["communication"][bp["ranks"].index(0)]
    if not pc.approx(comm0, late, rel=TOL):
        pc.fail("rank 0's Communication: %.6f s, expected %.3f s (within %d%%): the time one of its threads was in "
                "MPI, not the sum of its threads' %.6f s" % (comm0, late, TOL * 100, late0 + third0))
    pc.check_equal("SRC %s per thread max (rank)" % src["id"],
                   (round(th["per_thread"]["max"], 6), th["per_thread"]["max_rank"]), (round(late0, 6), 0))
    if th["per_thread"]["min"] > min(third0, min(got[1])) + 1e-9:
        pc.fail("per thread min %r is more than the least thread's time %r" % (th["per_thread"], got))
    # the text gives them too
    lines = pc.read_lines(text_path)
    for rank in (0, 1):
        _, p = per_thread_times(src, rank)
        want = "   by thread of rank %d  %s" % (rank, "  ".join(
            "%s: %.6f" % (i, v) for i, v in sorted(p["by_index"].items(), key=lambda kv: int(kv[0]))))
        if want not in lines:
            pc.fail("the text lacks the line %r" % want)
    print("times: one SRC point, 2 threads per process; rank 0: %.6f s and %.6f s (partners late by %.3f s and "
          "%.3f s), Communication %.6f s; rank 1: %s; the text says the same"
          % (late0, third0, late, late / 3, comm0, ", ".join("%.6f" % v for v in got[1])))


def main(mode, *args):
    if mode == "openmp" and len(args) in (4, 5):
        return openmp(*args)
    if mode == "times" and len(args) == 5:
        return times(*args)
    pc.bad_usage()


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
