"""Read the C prototypes of MPI functions from the installed mpi.h.

Used by the coverage test (every function mpi.h declares must be in
mpi_functions.txt, with the same prototype) and to bootstrap entries for a
new MPI version.  The header is run through the MPI C compiler's
preprocessor so that macros and attributes are expanded the way user code
sees them.
"""
import re
import subprocess
import tempfile
import os

_ATTRIBUTE = re.compile(r'__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)')
_DECL = re.compile(r'^(?:extern\s+)?([\w\s\*]+?)\s*\b((?:MPI|MPIX)_\w+)\s*\((.*)\)$')


def preprocess(cc="mpicc"):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "inc.c")
        with open(src, "w") as f:
            f.write("#include <mpi.h>\n")
        return subprocess.run(cc.split() + ["-E", "-P", src], check=True,
                              capture_output=True, text=True).stdout


def normalize(text):
    """Collapse white space and put '*' next to the type: 'const void *buf'."""
    text = " ".join(text.split())
    text = re.sub(r'\s*\*\s*', ' *', text)
    text = re.sub(r'\*\s+\*', '**', text)
    text = text.replace('( ', '(').replace(' )', ')')
    return text.strip()


def split_params(params):
    """Split a parameter list at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [normalize(p) for p in out]


def declared_functions(cc="mpicc"):
    """Return {name: (return_type, [param, ...])} for every MPI_/MPIX_ function."""
    src = _ATTRIBUTE.sub("", preprocess(cc))
    found = {}
    for decl in src.split(";"):
        decl = " ".join(decl.split())
        if decl.startswith("typedef"):
            continue
        m = _DECL.match(decl)
        if not m:
            continue
        params = split_params(m.group(3))
        if params == ["void"]:
            params = []
        found[m.group(2)] = (normalize(m.group(1)), params)
    return found
