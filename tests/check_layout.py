"""The layout of src/ against src/layout.txt (tests/check-layout.sh).

usage: check_layout.py TOP_SRCDIR

Fails (exit 1, one line per offence) when a file of a stage includes a
header of a stage its line in src/layout.txt does not name (an include
that runs back up against the flow, or into a stage the rule leaves out),
when a source of the MPI-free library (src_libmpiprof_core_la_SOURCES in
Makefile.am) includes mpi.h directly or through the project's headers, or
when a file sits in a folder layout.txt does not know, when a source of
src/ or tools/, or a script (Python, JavaScript, shell, CSS, HTML: bench/run
too) of src/, tools/, tests/, bench/, maint/, examples/ or cmake/ has more
than 800 lines, or a C function more than 80
(counted as formatted, signature to closing brace) without a comment just
above it that says why it is longer ("longer than 80 lines: ...").
Prints the number of includes between stages and of import cycles between
files.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def read_rule(path):
    allowed = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        stage, _, rest = line.partition(":")
        allowed[stage.strip()] = set(rest.split())
    return allowed


def core_sources(makefile):
    text = open(makefile).read().replace("\\\n", " ")
    out = []
    for m in re.finditer(r"^src_libmpiprof_core_la_SOURCES\s*\+?=(.*)$", text, re.M):
        out += [w for w in m.group(1).split() if w.endswith(".c")]
    return out


def main(top):
    src = os.path.join(top, "src")
    allowed = read_rule(os.path.join(src, "layout.txt"))
    files = []
    for stage in sorted(os.listdir(src)):
        d = os.path.join(src, stage)
        if not os.path.isdir(d) or stage == "gen":
            continue
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith((".c", ".h"))]
    bad = []
    graph = {}
    between = 0
    for f in sorted(files):
        rel = os.path.relpath(f, src)
        stage = rel.split(os.sep)[0]
        if stage not in allowed:
            bad.append("%s: the folder %s/ is not a stage of src/layout.txt" % (rel, stage))
            continue
        graph[rel] = []
        for kind, inc in INCLUDE.findall(open(f, errors="replace").read()):
            if kind == "<":
                continue
            target = inc.split("/")[0] if "/" in inc else None
            if target is None:
                # the build's configuration, the public API, a file beside it
                if inc not in ("autoconf.h", "mpiprof.h") and not os.path.exists(os.path.join(os.path.dirname(f), inc)):
                    bad.append('%s: #include "%s" names no stage (write "stage/%s")' % (rel, inc, inc))
                continue
            graph[rel].append(inc)
            if target == stage:
                continue
            between += 1
            if target not in allowed[stage]:
                why = "runs back up against the flow" if stage in allowed.get(target, ()) or \
                    target in allowed and _above(allowed, stage, target) else "is not on %s's line" % stage
                bad.append('%s: #include "%s": %s includes %s, which %s (src/layout.txt)' % (rel, inc, stage,
                                                                                          target, why))
    bad += mpi_free(src, core_sources(os.path.join(top, "Makefile.am")), top)
    bad += sizes(top, files) + script_sizes(top)
    cycles = file_cycles(graph)
    for c in cycles:
        bad.append("an import cycle: %s" % " -> ".join(c))
    print("layout: %d files, %d includes between stages, %d import cycles, %d offences"
          % (len(graph), between, len(cycles), len(bad)))
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


MAX_FILE_LINES, MAX_FUNCTION_LINES = 800, 80


def sizes(top, files):
    """Files over MAX_FILE_LINES, functions over MAX_FUNCTION_LINES."""
    tools = os.path.join(top, "tools")
    files = files + [os.path.join(tools, n) for n in sorted(os.listdir(tools)) if n.endswith(".c")]
    bad = []
    for f in files:
        rel = os.path.relpath(f, top)
        lines = open(f, errors="replace").read().split("\n")
        if len(lines) - 1 > MAX_FILE_LINES:
            bad.append("%s: %d lines, more than %d (a file of one responsibility)" % (rel, len(lines) - 1,
                                                                                      MAX_FILE_LINES))
        for name, first, length, excused in functions(lines):
            if length > MAX_FUNCTION_LINES and not excused:
                bad.append("%s:%d: %s() has %d lines, more than %d, and no comment says why" % (
                    rel, first + 1, name, length, MAX_FUNCTION_LINES))
    return bad


# Scripts, pages and the test programs' helpers are held to the same limit
# (the C sources above, these by their names); src/gen/ is generated.
SCRIPT_DIRS = ("src", "tools", "tests", "bench", "maint", "examples", "cmake")
SCRIPT_ENDINGS = (".py", ".js", ".sh", ".css", ".html")


def script_sizes(top):
    """Scripts over MAX_FILE_LINES (bench/run by name: a script without an ending)."""
    bad = []
    for d in SCRIPT_DIRS:
        for root, dirs, names in os.walk(os.path.join(top, d)):
            dirs[:] = sorted(x for x in dirs if x not in ("gen", "screenshots", "__pycache__", ".libs", ".deps"))
            for n in sorted(names):
                f = os.path.join(root, n)
                rel = os.path.relpath(f, top)
                if not (n.endswith(SCRIPT_ENDINGS) or rel == os.path.join("bench", "run")):
                    continue
                count = open(f, errors="replace").read().count("\n")
                if count > MAX_FILE_LINES:
                    bad.append("%s: %d lines, more than %d (a file of one responsibility)" % (rel, count,
                                                                                              MAX_FILE_LINES))
    return bad


def functions(lines):
    """(name, first line, lines, excused) of each function definition: as
    the formatter writes them, its body opens with "{" alone at column 0 and
    closes with "}" at column 0; its signature is the lines just above."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        first = i
        while first > 0 and lines[first - 1].strip() and not lines[first - 1].startswith(("/*", " *", "#", "}", "//")) \
                and not lines[first - 1].rstrip().endswith(";"):
            first -= 1
        end = i
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        m = re.search(r"(\w+)\s*\(", " ".join(lines[first:i]))
        above = " ".join(lines[max(0, first - 6):first])
        out.append((m.group(1) if m else "?", first, end - first + 1, "longer than 80 lines" in above))
        i = end + 1
    return out


def _above(allowed, stage, target):
    """Whether target's line names stage (target is above stage)."""
    return stage in allowed.get(target, ())


def mpi_free(src, sources, top):
    """Sources of the MPI-free library that reach mpi.h."""
    bad = []
    seen = {}

    def reaches(path, trail):
        if path in seen:
            return seen[path]
        seen[path] = None
        found = None
        try:
            text = open(path, errors="replace").read()
        except OSError:
            return None
        for kind, inc in INCLUDE.findall(text):
            if kind == "<" and inc == "mpi.h" or kind == '"' and inc == "mpi.h":
                found = trail + [os.path.relpath(path, top)]
                break
            if kind == '"' and "/" in inc and os.path.exists(os.path.join(src, inc)):
                found = reaches(os.path.join(src, inc), trail + [os.path.relpath(path, top)])
                if found:
                    break
        seen[path] = found
        return found

    for s in sources:
        if s.startswith("src/gen/"):
            continue
        chain = reaches(os.path.join(top, s), [])
        if chain:
            bad.append("%s is in the MPI-free library but includes mpi.h (%s)" % (s, " -> ".join(chain + ["mpi.h"])))
    return bad


def file_cycles(graph):
    """Import cycles between files: a header and its source are one module
    (x.h, x.c); the strongly connected components of more than one."""
    def module(path):
        return os.path.splitext(path)[0]
    edges = {}
    for f, incs in graph.items():
        m = module(f)
        edges.setdefault(m, set()).update(module(i) for i in incs if module(i) != m)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
