"""Check the protocols of the programs of tests/mpi/callsites/test_callsite_nofp.sh.

usage: check_callsite_nofp.py c SRCDIR PROTOCOL.json...
       check_callsite_nofp.py f08 SRCDIR PROTOCOL.json...
       check_callsite_nofp.py io [--dwarf BINARY] SRCDIR PROTOCOL.json...

Every protocol (one per run of the same program) must hold every invariant
and the SRC points the program's calls make: the right functions, counts on
the right processes, and call stacks whose frames are the marked source lines
(MARK:name comments in SRCDIR's sources), with no unresolved or garbage
frame; and all the runs the same set of SRC points.

--dwarf BINARY: the innermost frame of an SRC point may also have the line
the binary's own DWARF line table gives at the return address - 1 of a call
to that function (objdump finds the calls, addr2line the lines), as the
profiler reads it: gfortran -O2 with Open MPI's `use mpi` module puts the
call to MPI_File_close on the line of the `program` statement.  Where DWARF
gives the marked line (MPICH), this accepts nothing more.
"""
import os
import re
import subprocess
import sys

import protocol_check as pc

N = 5  # as in callsite_nofp.c and callsite_nofp_f08.f90
IO_N = 8  # as in callsite_fortran_io.f90

C_MAIN, C_LIB = "callsite_nofp.c", "callsite_nofp_lib.c"
F08, F08_MAIN = "callsite_nofp_f08.f90", "callsite_nofp_f08_main.c"
IO = "callsite_fortran_io.f90"

# Each expected SRC point: function, its frames as (source, MARK name),
# (source, None, function name) where the line is the compiler's to choose,
# or (source, MARK name, function name), and calls per rank.
PROGRAMS = {
    "c": {
        "init": (C_MAIN, "init"),
        "others": ("MPI_Comm_rank", "MPI_Comm_size"),
        "expected": [
            ("MPI_Allreduce", [(C_LIB, "allreduce"), (C_LIB, "reduce"), (C_MAIN, "phase_a"), (C_MAIN, "call_a")],
             {0: N, 1: N}),
            ("MPI_Allreduce", [(C_LIB, "allreduce"), (C_LIB, "reduce"), (C_MAIN, "phase_b"), (C_MAIN, "call_b")],
             {0: N, 1: N}),
            ("MPI_Sendrecv", [(C_LIB, "sendrecv"), (C_MAIN, "phase_a"), (C_MAIN, "call_a")], {0: N, 1: N}),
            ("MPI_Sendrecv", [(C_LIB, "sendrecv"), (C_MAIN, "phase_b"), (C_MAIN, "call_b")], {0: N, 1: N}),
            ("MPI_Bcast", [(C_MAIN, "bcast")], {0: 1, 1: 1}),
        ],
    },
    "f08": {
        "init": (F08, "f08_init"),
        "others": ("MPI_Comm_rank", "MPI_Comm_size"),
        "expected": [
            ("MPI_Allreduce", [(F08, "f08_allreduce", "callsite_f08_work::exchange"), (F08, None, "callsite_f08_run"),
                               (F08_MAIN, None, "main")],
             {0: N, 1: N}),
            ("MPI_Send", [(F08, "f08_send"), (F08_MAIN, None, "main")], {0: N}),
            ("MPI_Recv", [(F08, "f08_recv"), (F08_MAIN, None, "main")], {1: N}),
        ],
    },
    "io": {
        "init": None,
        "others": ("MPI_Comm_rank",),
        "expected": [
            ("MPI_File_open", [(IO, "open")], {0: 1, 1: 1}),
            ("MPI_File_write_at", [(IO, "write")], {0: IO_N, 1: IO_N}),
            ("MPI_File_read_at", [(IO, "read")], {0: 1, 1: 1}),
            ("MPI_File_close", [(IO, "close")], {0: 1, 1: 1}),
        ],
    },
}


def dwarf_call_lines(binary, function):
    """The source lines DWARF gives at return address - 1 of every call from
    BINARY to FUNCTION's bindings (mpi_file_close_, pmpi_file_close__, ...)."""
    symbol = re.compile(r"p?%s(_|__|_f|_f08)?$" % function.lower())
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], stdout=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
    insns = re.findall(r"^\s*([0-9a-f]+):\s+(\S.*)$", listing, re.M)
    returns = []
    for (addr, insn), (after, _) in zip(insns, insns[1:]):
        m = re.match(r"call\S*\s+[0-9a-f]+ <([^@>+]+)", insn)
        if m and symbol.match(m.group(1).lower()):
            returns.append(int(after, 16))
    if not returns:
        return set()
    out = subprocess.run(["addr2line", "-e", binary] + ["0x%x" % (r - 1) for r in returns], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return set(int(m) for m in re.findall(r":(\d+)", out))


def frame_matches(frame, want, srcdir, dwarf_lines=()):
    source = want[0]
    if not pc.frame_file_matches(frame, source):
        return False
    if want[1] is not None and frame.get("line") != pc.marker_line(os.path.join(srcdir, source), want[1]) \
            and frame.get("line") not in dwarf_lines:
        return False
    return len(want) < 3 or frame.get("function") == want[2]


def describe_want(want, srcdir):
    where = want[0] if want[1] is None else "%s:%d" % (want[0], pc.marker_line(os.path.join(srcdir, want[0]), want[1]))
    return where if len(want) < 3 else "%s (%s)" % (where, want[2])


def calls_by_rank(src):
    bp = src.get("by_process") or {}
    return {r: c for r, c in zip(bp.get("ranks", []), bp.get("calls", [])) if c}


def check_one(doc, program, srcdir, binary=None):
    spec = PROGRAMS[program]
    listing = pc.describe_srcs(doc)
    srcs = pc.src_points(doc)
    for s in srcs:
        for fr in s["stack"]:
            text = fr.get("text", "")
            if "??" in text or "+0x" in text:
                pc.fail("SRC %s %s has an unresolved frame %r (a garbage return address?). All SRC points:\n%s"
                        % (s["id"], s["function"], text, listing))
    expected_functions = set(e[0] for e in spec["expected"])
    matched = set()
    for function, frames, calls in spec["expected"]:
        dwarf = set()
        if binary and frames[0][1] is not None:
            dwarf = dwarf_call_lines(binary, function)
            mark = pc.marker_line(os.path.join(srcdir, frames[0][0]), frames[0][1])
            if dwarf - {mark}:
                print("note: DWARF puts the calls to %s at line(s) %s of %s, the mark %s at line %d: both accepted"
                      % (function, sorted(dwarf), frames[0][0], frames[0][1], mark))
        found = [s for s in srcs if s["function"] == function and len(s["stack"]) == len(frames) and
                 all(frame_matches(f, w, srcdir, dwarf if i == 0 else ())
                     for i, (f, w) in enumerate(zip(s["stack"], frames)))]
        where = "%s at %s" % (function, " <- ".join(describe_want(w, srcdir) for w in frames))
        if len(found) != 1:
            pc.fail("%d SRC points for %s, expected exactly 1. All SRC points:\n%s" % (len(found), where, listing))
        got = calls_by_rank(found[0])
        if got != calls:
            pc.fail("%s: calls by rank %r, expected %r (an SRC point of one process only is a call site "
                    "the processes did not agree on)" % (where, got, calls))
        matched.add(found[0]["id"])
    for s in srcs:
        if s["id"] in matched:
            continue
        if s["function"] in expected_functions or s["function"] not in spec["others"]:
            pc.fail("unexpected SRC point %s (a call the program does not make, a split call site, or a call "
                    "the MPI library made itself). All SRC points:\n%s" % (pc.describe_src(s), listing))
        if sorted(calls_by_rank(s)) != [0, 1]:
            pc.fail("SRC point %s is not called on both processes: %r" % (pc.describe_src(s), calls_by_rank(s)))
    if spec["init"]:
        iv = doc["intervals"][0]
        line = pc.marker_line(os.path.join(srcdir, spec["init"][0]), spec["init"][1])
        if os.path.basename(iv["file"]) != spec["init"][0] or iv["line"] != line:
            pc.fail("interval 0 is at %s:%s, expected MPI_Init's call site %s:%d"
                    % (iv["file"], iv["line"], spec["init"][0], line))


def key_set(doc):
    return sorted((s["function"], tuple(f.get("text") for f in s["stack"])) for s in pc.src_points(doc))


def main(*argv):
    binary = None
    if argv[0:1] == ("io",) and argv[1:2] == ("--dwarf",) and len(argv) > 2:
        binary = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3 or argv[0] not in PROGRAMS:
        pc.bad_usage()
    program, srcdir, paths = argv[0], argv[1], argv[2:]
    first = None
    for path in paths:
        doc = pc.load_checked(path, say=False)
        check_one(doc, program, srcdir, binary)
        keys = key_set(doc)
        if first is None:
            first = (path, keys)
        elif keys != first[1]:
            pc.fail("%s and %s have different SRC points:\n%r\n%r" % (first[0], path, first[1], keys))
    print("%s: %d protocols, the same SRC points, the marked call sites, every invariant"
          % (program, len(paths)))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
