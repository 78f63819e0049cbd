"""Check the protocol and the summary of tests/mpi/callsites/callsites_cxx.cc.

usage: check_callsites_cxx.py PROTOCOL.json PROTOCOL.txt SOURCE.cc STDERR

C++ names demangled, as the source writes them: no frame of the JSON (function,
text) and no line of the text protocol or of the summary rank 0 printed on
stderr holds a mangled name (_Z...); the frames of the three MPI_Waitall
SRC points read halo::exchange(halo::Grid&, int) at the MARK:waitall line,
called from halo::update_density(halo::Grid&), update_energy and
update_velocity at their marked lines, each one SRC point of both
processes (N_ROUNDS calls on each: their keys agree); the template's
MPI_Allreduce reads
double halo::sum_all<double>(std::vector<double, std::allocator<double> >&).

The summary tells apart call sites that share their first frame: its
three lines are the three
MPI_Waitall SRC points (the program makes them the ones of most time), with
their SRC numbers, and each names its caller's frame after the shared first
one, so no two lines read the same.
"""
import os
import re
import sys

import protocol_check as pc

MANGLED = re.compile(r"(?<![A-Za-z0-9_])_Z[A-Za-z0-9_]")
EXCHANGE = "halo::exchange(halo::Grid&, int)"
CALLERS = {"density": "halo::update_density(halo::Grid&)",
           "energy": "halo::update_energy(halo::Grid&)",
           "velocity": "halo::update_velocity(halo::Grid&)"}
SUM_ALL = ("double halo::sum_all<double>(std::vector<double, "
           "std::allocator<double> >&)")
N_ROUNDS = 10                       # as in callsites_cxx.cc
SUMMARY = re.compile(r"^ +#(\d) SRC (\d+) (\S+) at (.*): ([0-9.]+) s in "
                     r"(\d+) calls")


def no_mangled(where, text):
    m = MANGLED.search(text or "")
    if m:
        pc.fail("%s holds a mangled C++ name at %r: %r"
                % (where, text[m.start():m.start() + 40], text))


def frame_text(base, line, function):
    return "%s:%d (%s)" % (base, line, function)


def main(json_path, text_path, source, stderr_path):
    base = os.path.basename(source)
    doc = pc.load_checked(json_path, text_path, say=False)

    for iv in doc["intervals"]:
        for s in iv["src"]:
            for k, f in enumerate(s.get("stack") or []):
                where = "SRC %s (%s) frame %d" % (s["id"], s["function"], k)
                no_mangled(where + " function", f.get("function"))
                no_mangled(where + " text", f.get("text"))
    for n, ln in enumerate(pc.read_lines(text_path), 1):
        no_mangled("%s:%d" % (text_path, n), ln)

    line = {k: pc.marker_line(source, k)
            for k in ("waitall", "allreduce", *CALLERS)}
    first = frame_text(base, line["waitall"], EXCHANGE)
    # one per caller
    waitalls = pc.sites(doc, 0, "MPI_Waitall", source, "waitall", 3)
    callers = {}
    for s in waitalls:
        # one SRC point on both processes: their keys, demangled, agree
        pc.check_counts(s, calls={0: N_ROUNDS, 1: N_ROUNDS}, ranks=(0, 1),
                        exact=True, where="%s (the processes' keys of one "
                        "call site must be equal)" % pc.describe_src(s))
        stack = s["stack"]
        if len(stack) < 2:
            pc.fail("%s: no caller frame" % pc.describe_src(s))
        if stack[0]["function"] != EXCHANGE or stack[0]["text"] != first:
            pc.fail("%s: first frame %r, expected function %r, text %r"
                    % (pc.describe_src(s), stack[0], EXCHANGE, first))
        for key, function in CALLERS.items():
            if stack[1]["line"] == line[key]:
                want = frame_text(base, line[key], function)
                if stack[1]["function"] != function or \
                        stack[1]["text"] != want:
                    pc.fail("%s: caller frame %r, expected function %r, "
                            "text %r" % (pc.describe_src(s), stack[1],
                                         function, want))
                callers[s["id"]] = want
    if len(set(callers.values())) != 3:
        pc.fail("the MPI_Waitall SRC points are not called from the three "
                "marked lines: %r" % callers)
    alls = pc.site(doc, 0, "MPI_Allreduce", source, "allreduce")
    if alls["stack"][0]["function"] != SUM_ALL:
        pc.fail("MPI_Allreduce at %s:%d: expected its SRC point in %r: %s"
                % (base, line["allreduce"], SUM_ALL, pc.describe_src(alls)))
    print("frames demangled: %s <- %s; %s"
          % (first, ", ".join(sorted(callers.values())), SUM_ALL))

    # the digest's top SRC points: the three MPI_Waitall first
    summary = [ln for ln in pc.read_lines(stderr_path) if SUMMARY.match(ln)]
    print("summary:\n" + "\n".join(summary))
    if len(summary) < 3:
        pc.fail("%s: %d summary lines '#N SRC ...', expected at least 3"
                % (stderr_path, len(summary)))
    summary = summary[:3]
    sites = set()
    for ln in summary:
        no_mangled("summary line", ln)
        rank, sid, function, site = SUMMARY.match(ln).groups()[:4]
        if function != "MPI_Waitall" or int(sid) not in callers:
            pc.fail("summary line %r: expected one of the MPI_Waitall SRC "
                    "points %r" % (ln, sorted(callers)))
        want = "%s <- %s" % (first, callers[int(sid)])
        if site != want:
            pc.fail("summary line %r: the call site reads %r, expected %r "
                    "(the first frame, then the caller that tells it "
                    "apart)" % (ln, site, want))
        sites.add(site)
    if len(sites) != 3:
        pc.fail("summary lines do not tell the call sites apart: %r"
                % summary)
    print("summary: three MPI_Waitall call sites, each with its caller")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
