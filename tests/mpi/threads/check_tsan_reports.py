"""Sort ThreadSanitizer reports into mpiprof's and the MPI library's own
(see test_threads_tsan.sh).

usage: check_tsan_reports.py REPORTS TOP_SRCDIR TOP_BUILDDIR MPI_FAMILY
       check_tsan_reports.py --selftest

A report counts as mpiprof's when one of its frames is in mpiprof's code
(the library's sources or libmpiprof.so), unless it is Open MPI's own (see
openmpi_own).  Exit status 1 when any report is mpiprof's; they are printed
on standard error.
"""
import os
import re
import sys

OMPI = re.compile(r"\((?:libmpi\.so|mca_|libopen-pal|libopen-rte)[^)]*\)\s*$")
TSAN = ("libtsan", "sanitizer_common")


def blocks_of(text):
    return re.findall(r"WARNING: ThreadSanitizer:.*?(?=\n==================|\Z)",
                      text, re.S)


def innermost(frames_text):
    """The innermost frame outside TSan's interceptors."""
    frames = [f for f in frames_text.splitlines()
              if not any(t in f for t in TSAN)]
    return frames[0] if frames else ""


def accesses(block):
    """[(thread, kind, innermost frame)] of the two accesses of a data
    race; kind is "read" or "write"."""
    out = []
    for m in re.finditer(r"^  (?:Previous )?(?:[Aa]tomic )?(read|write|Read|Write)[^\n]* "
                         r"by (thread T\d+|main thread)[^\n]*:\n((?:    #\d+[^\n]*\n)+)",
                         block, re.M):
        out.append((m.group(2), m.group(1).lower(), innermost(m.group(3))))
    return out


class Classifier:
    def __init__(self, roots, family):
        self.roots = [os.path.join(os.path.realpath(r), "src") + "/" for r in roots]
        self.family = family

    def is_ours(self, line):
        return "libmpiprof.so" in line or any(r in line for r in self.roots)

    def heap_of_ours(self, block):
        """Whether the raced memory is a heap block mpiprof allocated."""
        m = re.search(r"^  Location is heap block[^\n]*:\n((?:    #\d+[^\n]*\n)+)",
                      block + "\n", re.M)
        if m is None:
            return False
        frames = [f for f in m.group(1).splitlines()
                  if not any(t in f for t in TSAN)]
        return bool(frames) and self.is_ours(frames[0])

    def openmpi_own(self, block):
        """Open MPI (not instrumented) completes requests with atomics that
        ThreadSanitizer cannot see, so what it hands over at completion
        looks unsynchronized.  A race is Open MPI's when
          - both accesses are in Open MPI's code;
          - one is in Open MPI and the other mpiprof's, on the stack of
            mpiprof's own thread: Open MPI's request wait object lives on
            the waiter's stack and is signalled after the wait returned;
          - Open MPI writes a heap block mpiprof allocated and mpiprof
            reads it: a message Open MPI delivered into mpiprof's receive
            buffer (the wait-state exchange's), read after its request
            completed.
        With MPICH, whose completion goes through mutexes ThreadSanitizer
        sees, every report with a frame in mpiprof counts: that run checks
        these same reads."""
        acc = accesses(block)
        if self.family != "openmpi" or len(acc) != 2:
            return False
        ompi = [bool(OMPI.search(f)) for _, _, f in acc]
        if all(ompi):
            return True
        if not any(ompi):
            return False
        theirs, mine = (acc[0], acc[1]) if ompi[0] else (acc[1], acc[0])
        _, their_kind, _ = theirs
        our_thread, our_kind, our_frame = mine
        if not self.is_ours(our_frame):
            return False
        loc = re.search(r"Location is stack of (thread T\d+|main thread)", block)
        if loc is not None:
            return our_thread == loc.group(1)
        return their_kind == "write" and our_kind == "read" and self.heap_of_ours(block)

    def ours(self, block):
        return any(self.is_ours(line) for line in block.splitlines()) \
            and not self.openmpi_own(block)


# --selftest: a report of this run's shape (Open MPI's shared-memory copy
# writes mpiprof's receive buffer, mpiprof reads it), and variants of it that
# must stay mpiprof's.
SAMPLE = """WARNING: ThreadSanitizer: data race (pid=1)
  Read of size 4 at 0x7b8c00000000 by thread T5 (mutexes: write M1028):
    #0 mpp_p2p_sent_all /r/src/accumulate/p2p_pairing.c:628 (libmpiprof.so+0x2a9e5a)
    #1 work /r/tests/mpi/threads/threads.c:112 (threads+0x2922)

  Previous write of size 8 at 0x7b8c00000000 by thread T6:
    #0 process_vm_readv ../sanitizer_common/sanitizer_common_interceptors.inc:6700 (libtsan.so.2+0x4c3ed)
    #1 mca_btl_vader_get_cma <null> (mca_btl_vader.so+0x6d02)
    #2 work /r/tests/mpi/threads/threads.c:112 (threads+0x2922)

  Location is heap block of size 6168 at 0x7b8c00000000 allocated by main thread:
    #0 malloc ../tsan/tsan_interceptors_posix.cpp:647 (libtsan.so.2+0x3ebb8)
    #1 mpp_wsx_start /r/src/intercept/ws_exchange.c:359 (libmpiprof.so+0x2d45c7)
    #2 main /r/tests/mpi/threads/threads.c:173 (threads+0x2c38)

SUMMARY: ThreadSanitizer: data race
"""


def selftest():
    c = Classifier(["/r"], "openmpi")
    ompi_frame = "mca_btl_vader_get_cma <null> (mca_btl_vader.so+0x6d02)"
    ours_frame = "mpp_wsx_flush /r/src/intercept/ws_exchange.c:200 (libmpiprof.so+0x1)"
    cases = [
        ("Open MPI writes mpiprof's buffer, mpiprof reads it", SAMPLE, "openmpi", False),
        ("the same with MPICH", SAMPLE, "mpich", True),
        ("mpiprof's write on another thread", SAMPLE.replace(ompi_frame, ours_frame), "openmpi", True),
        ("mpiprof writes, Open MPI reads", SAMPLE.replace("  Read of", "  Write of").replace(
            "Previous write", "Previous read"), "openmpi", True),
        ("a heap block the program allocated", SAMPLE.replace(
            "mpp_wsx_start /r/src/intercept/ws_exchange.c:359 (libmpiprof.so+0x2d45c7)",
            "setup /r/tests/mpi/threads/threads.c:50 (threads+0x10)"), "openmpi", True),
        ("a stack of another thread", SAMPLE.replace(
            "heap block of size 6168 at 0x7b8c00000000 allocated by main thread",
            "stack of thread T6"), "openmpi", True),
        ("the stack of mpiprof's own thread", SAMPLE.replace(
            "heap block of size 6168 at 0x7b8c00000000 allocated by main thread",
            "stack of thread T5"), "openmpi", False),
    ]
    bad = 0
    for name, block, family, want in cases:
        c.family = family
        got = c.ours(blocks_of(block)[0])
        if got != want:
            print("selftest: %s: %s, expected %s" % (name, "mpiprof's" if got else "ignored",
                  "mpiprof's" if want else "ignored"), file=sys.stderr)
            bad += 1
    print("selftest: %d of %d cases sorted as expected" % (len(cases) - bad, len(cases)))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(argv[1], errors="replace").read()
    c = Classifier(argv[2:4], argv[4])
    blocks = blocks_of(text)
    mine = [b for b in blocks if c.ours(b)]
    print("ThreadSanitizer: %d reports, %d with a frame in mpiprof, %d only in "
          "the MPI library, UCX or the program, or Open MPI's own (ignored)"
          % (len(blocks), len(mine), len(blocks) - len(mine)))
    kinds = {}
    for b in blocks:
        if b not in mine:
            k = b.splitlines()[0].split(" (pid=")[0] \
                + (" (Open MPI's own)" if c.openmpi_own(b) else "")
            kinds[k] = kinds.get(k, 0) + 1
    for k in sorted(kinds):
        print("  ignored: %d x %s" % (kinds[k], k))
    for b in mine:
        print("==== report in mpiprof:\n" + b, file=sys.stderr)
    return 1 if mine else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
