"""Check the thread's stack of tests/mpi/callsites/callsites_thread.c.

usage: check_callsites_thread.py PROTOCOL.json PROTOCOL.txt SOURCE.c

The MPI_Sendrecv at the MARK:thread line, made by the thread that
pthread_create started: one SRC point of N_ROUNDS calls on each process,
whose stack is the one frame worker() at that line: nothing of the C
library's code below it (start_thread, clone, clone3) in the JSON or in
the text protocol.  Exit status 77 when the C library's frames are not
named (its symbols are not installed): they cannot be told then.
"""
import os
import sys

import protocol_check as pc

N_ROUNDS = 5                        # as in callsites_thread.c
RUNTIME = ("start_thread", "clone", "__libc_start")


def main(json_path, text_path, source):
    doc = pc.load_checked(json_path, text_path, say=False)
    s = pc.site(doc, 0, "MPI_Sendrecv", source, "thread")
    pc.check_counts(s, calls={0: N_ROUNDS, 1: N_ROUNDS}, ranks=(0, 1),
                    exact=True)
    stack = s["stack"]
    if len(stack) > 1 and all(f.get("source") == "unresolved" and
                              "libc" in os.path.basename(f.get("path") or "")
                              for f in stack[1:]):
        print("the C library's frames are not named here: its symbols are "
              "not installed (Debian: libc6-dbg)")
        return 77
    if len(stack) != 1 or stack[0].get("function") != "worker":
        pc.fail("%s: expected the one frame worker() at the marked line"
                % pc.describe_src(s))
    for n, ln in enumerate(pc.read_lines(text_path), 1):
        if ln.lstrip().startswith("stack") and \
                any(r in ln for r in RUNTIME):
            pc.fail("%s:%d: a stack with the C library's frames: %r"
                    % (text_path, n, ln))
    print("thread's stack: %s" % pc.describe_src(s))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
