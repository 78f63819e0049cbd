"""Check the frames of inlined call sites (test_callsites_inlined.sh).

usage: check_callsites_inlined.py MODE PROTOCOL.json PROTOCOL.txt SOURCE

MODE debug: SOURCE is callsites_inlined.cc built -O2 -g.  Its MPI_Sendrecv
is two SRC points, one per instance of the inlined Field<T>::exchange:
each stack starts at the MARK:exchange line, function
Field<double>::exchange(int) or Field<float>::exchange(int), source
"inlined", then main (source "line") at the MARK:double or MARK:float
line; N_ROUNDS calls on each process.  The text protocol marks the
inlined frames ("[inlined]").

MODE nodebug: the same program built -O2 without -g.  Two MPI_Sendrecv
SRC points, each of N_ROUNDS calls a process, every frame named by the
symbol table: text main+0xOFFSET, function main, line null, source
"symbol" (not the module's name and offset); the text protocol marks
them ("[symbol]").

MODE jacobi: SOURCE is examples/jacobi.c built -O2.  Its two MPI_Sendrecv
lines are in exchange_halo, inlined into main: two SRC points, each
starting at its own MPI_Sendrecv line in exchange_halo (source
"inlined"), then main.
"""
import re
import sys

import protocol_check as pc

N_ROUNDS = 5                        # as in callsites_inlined.cc
INSTANCES = {"double": "Field<double>::exchange(int)",
             "float": "Field<float>::exchange(int)"}


def sendrecvs(doc, count):
    found = [s for s in doc["intervals"][0]["src"]
             if s["function"] == "MPI_Sendrecv"]
    if len(found) != count:
        pc.fail("%d MPI_Sendrecv SRC points, expected %d:\n%s"
                % (len(found), count, pc.describe_srcs(doc)))
    return found


def frame_is(s, k, line, function, source):
    stack = s["stack"]
    if len(stack) <= k:
        pc.fail("%s: no frame %d" % (pc.describe_src(s), k))
    f = stack[k]
    if (f.get("line"), f.get("function"), f.get("source")) != \
            (line, function, source):
        pc.fail("%s: frame %d is %r, expected line %r, function %r, "
                "source %r" % (pc.describe_src(s), k, f, line, function,
                               source))


def check_debug(doc, text, source):
    exchange = pc.marker_line(source, "exchange")
    seen = set()
    for s in sendrecvs(doc, 2):
        pc.check_counts(s, calls={0: N_ROUNDS, 1: N_ROUNDS}, ranks=(0, 1),
                        exact=True)
        function = s["stack"][0].get("function")
        kind = [k for k, f in INSTANCES.items() if f == function]
        if not kind:
            pc.fail("%s: the first frame is not one of %r"
                    % (pc.describe_src(s), sorted(INSTANCES.values())))
        frame_is(s, 0, exchange, INSTANCES[kind[0]], "inlined")
        frame_is(s, 1, pc.marker_line(source, kind[0]), "main", "line")
        if len(s["stack"]) != 2:
            pc.fail("%s: frames below main" % pc.describe_src(s))
        seen.add(kind[0])
        print("%s: %s" % (kind[0], pc.describe_src(s)))
    if seen != set(INSTANCES):
        pc.fail("the SRC points are not one per instance: %r" % seen)
    if "(Field<double>::exchange(int)) [inlined] <- " not in text:
        pc.fail("the text protocol does not mark the inlined frame")


def check_nodebug(doc, text):
    for s in sendrecvs(doc, 2):
        pc.check_counts(s, calls={0: N_ROUNDS, 1: N_ROUNDS}, ranks=(0, 1),
                        exact=True)
        for k, f in enumerate(s["stack"]):
            if not re.fullmatch(r"main\+0x[0-9a-f]+", f["text"]) or \
                    f.get("function") != "main" or f.get("line") is not None \
                    or f.get("source") != "symbol":
                pc.fail("%s: frame %d %r is not named by the symbol table "
                        "(main+0xOFFSET, source symbol)"
                        % (pc.describe_src(s), k, f))
            if "%s [symbol]" % f["text"] not in text:
                pc.fail("the text protocol does not mark %r as the symbol "
                        "table's" % f["text"])
        print(pc.describe_src(s))


def check_jacobi(doc, source):
    with open(source, encoding="utf-8") as f:
        lines = [n for n, ln in enumerate(f, 1) if "MPI_Sendrecv(" in ln]
    if len(lines) != 2:
        pc.fail("%s: MPI_Sendrecv on lines %r, expected two" % (source, lines))
    at = set()
    for s in sendrecvs(doc, 2):
        line = s["stack"][0].get("line")
        frame_is(s, 0, line, "exchange_halo", "inlined")
        if s["stack"][1].get("function") != "main":
            pc.fail("%s: exchange_halo not called from main"
                    % pc.describe_src(s))
        at.add(line)
        print(pc.describe_src(s))
    if at != set(lines):
        pc.fail("the SRC points are at lines %r, expected the MPI_Sendrecv "
                "lines %r" % (sorted(at), lines))


def main(mode, json_path, text_path, source):
    doc = pc.load_checked(json_path, text_path, say=False)
    text = "\n".join(pc.read_lines(text_path))
    if mode == "debug":
        check_debug(doc, text, source)
    elif mode == "nodebug":
        check_nodebug(doc, text)
    elif mode == "jacobi":
        check_jacobi(doc, source)
    else:
        pc.fail("unknown mode %r" % mode)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
