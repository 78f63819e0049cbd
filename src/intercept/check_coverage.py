#!/usr/bin/env python3
"""Check mpi_functions.txt against the installed MPI library.

    check_coverage.py DESCRIPTION [--mpicc CC] [--fortran-lib PATH] [--suggest]

Fails (exit 1) when mpi.h declares a function the description lacks, when a
prototype differs (the types; parameter names differ between libraries, and
the wrappers keep the description's), or when the MPI Fortran library
exports an mpi_f08 entry point the description does not mark.  The
description is the union of the MPI libraries' functions: the ones the
installed mpi.h lacks (MPI-4's in Open MPI 4.1, MPICH's MPIX_) are listed,
and have no wrapper in a build for it.  --suggest prints description lines
for what is missing (category 'system' to be reviewed by hand).
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_header  # noqa: E402
from gen_bindings import f08_symbol  # noqa: E402
from gen_description import read_description  # noqa: E402

# mpi_f08 entry points with no C function of the same name.
F08_WITHOUT_C = {
    "mpi_f_sync_reg_f08ts_",           # MPI_F_sync_reg: Fortran only, a compiler barrier
    "mpi_delete_error_class_f08_",     # MPIX_Delete_error_* under their MPI-4.1 names
    "mpi_delete_error_code_f08_",
    "mpi_delete_error_string_f08_",
}
UNTIMED_OR_HANDWRITTEN_F08 = ("untimed", "handwritten")


def f08_exports(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines()
            if re.match(r'^mpix?_\w+_f08(ts)?_(large_)?$', line.split()[-1])}


# Types one library spells differently from another: Open MPI's mpi.h
# declares MPI_Fint as int, and writes it so in some prototypes.
SAME_TYPES = {"MPI_Fint": "int"}


def param_type(text):
    """The type of a parameter (or a return type), its name dropped, an
    array as a pointer: 'const char datarep[]' -> 'const char *'."""
    m = re.match(r'^(.*?)(\w+)\s*((?:\[\s*\w*\s*\])*)$', mpi_header.normalize(text))
    if not m or not m.group(1).strip():
        words = mpi_header.normalize(text)
    else:
        words = m.group(1) + (" *" if m.group(3) else "")
    words = mpi_header.normalize(words)
    for mine, theirs in SAME_TYPES.items():
        words = re.sub(r'\b%s\b' % mine, theirs, words)
    return words


def same_type(mine, theirs):
    return param_type(mine) == param_type(theirs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("description")
    ap.add_argument("--mpicc", default="mpicc")
    ap.add_argument("--fortran-lib", default=None)
    ap.add_argument("--suggest", action="store_true")
    a = ap.parse_args()

    functions = read_description(a.description)[0]
    described = {f.name: f for f in functions}
    declared = mpi_header.declared_functions(a.mpicc)
    problems = []

    for name in sorted(set(declared) - set(described)):
        ret, params = declared[name]
        problems.append("mpi.h declares %s, which has no wrapper in %s" % (name, a.description))
        if a.suggest:
            print("%-34s %-28s %s (%s)" % (name, "system", ret, ", ".join(params)))
    absent = sorted(set(described) - set(declared))
    if absent:
        print("not in this mpi.h, so not wrapped (%d): %s" % (len(absent), " ".join(absent)))
    for name in sorted(set(described) & set(declared)):
        f = described[name]
        ret, params = declared[name]
        mine = [mpi_header.normalize(p.text) for p in f.params]
        if f.cls != "handwritten" and (same_type(f.ret, ret) is False or len(mine) != len(params) or
                                       not all(same_type(x, y) for x, y in zip(mine, params))):
            problems.append("%s: prototype differs from mpi.h:\n  described: %s (%s)\n  mpi.h:     %s (%s)"
                            % (name, f.ret, ", ".join(mine), ret, ", ".join(params)))

    if a.fortran_lib and os.path.exists(a.fortran_lib):
        exported = f08_exports(a.fortran_lib)
        wrapped = set()
        for f in functions:
            if f.actions & {"f08", "f08ts"} or f.cls in UNTIMED_OR_HANDWRITTEN_F08:
                for variant in ("f08", "f08ts"):
                    wrapped.add(f08_symbol(f).replace("f08ts" if "f08ts" in f.actions else "f08", variant))
        for sym in sorted(exported - wrapped - F08_WITHOUT_C):
            problems.append("the MPI Fortran library exports %s, which no description line marks f08/f08ts" % sym)
        for f in functions:
            if f.actions & {"f08", "f08ts"} and f08_symbol(f) not in exported:
                problems.append("%s is marked %s but the Fortran library has no %s"
                                % (f.name, "/".join(sorted(f.actions & {"f08", "f08ts"})), f08_symbol(f)))

    for p in problems:
        print("FAIL: " + p)
    print("%d functions declared by mpi.h, %d described, %d problems" % (len(declared), len(described), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
