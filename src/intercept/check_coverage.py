#!/usr/bin/env python3
"""Check mpi_functions.txt against the installed MPI library.

    check_coverage.py DESCRIPTION [--mpicc CC] [--fortran-lib PATH] [--suggest]

Fails (exit 1) when mpi.h declares a function the description lacks, when a
prototype differs, when the description names a function mpi.h does not
declare, or when the MPI Fortran library exports an mpi_f08 entry point the
description does not mark.  --suggest prints description lines for what is
missing (category 'system' to be reviewed by hand).
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_header  # noqa: E402
import gen_wrappers  # noqa: E402

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("description")
    ap.add_argument("--mpicc", default="mpicc")
    ap.add_argument("--fortran-lib", default=None)
    ap.add_argument("--suggest", action="store_true")
    a = ap.parse_args()

    functions = gen_wrappers.read_description(a.description)[0]
    described = {f.name: f for f in functions}
    declared = mpi_header.declared_functions(a.mpicc)
    problems = []

    for name in sorted(set(declared) - set(described)):
        ret, params = declared[name]
        problems.append("mpi.h declares %s, which has no wrapper in %s" % (name, a.description))
        if a.suggest:
            print("%-34s %-28s %s (%s)" % (name, "system", ret, ", ".join(params)))
    for name in sorted(set(described) - set(declared)):
        problems.append("%s is described but mpi.h does not declare it" % name)
    for name in sorted(set(described) & set(declared)):
        f = described[name]
        ret, params = declared[name]
        mine = [mpi_header.normalize(p) for p in re.split(r',\s*', ", ".join(p.text for p in f.params))] if f.params else []
        if f.cls != "handwritten" and (mpi_header.normalize(f.ret) != ret or mine != params):
            problems.append("%s: prototype differs from mpi.h:\n  described: %s (%s)\n  mpi.h:     %s (%s)"
                            % (name, f.ret, ", ".join(mine), ret, ", ".join(params)))

    if a.fortran_lib and os.path.exists(a.fortran_lib):
        exported = f08_exports(a.fortran_lib)
        wrapped = set()
        for f in functions:
            if f.actions & {"f08", "f08ts"} or f.cls in UNTIMED_OR_HANDWRITTEN_F08:
                for variant in ("f08", "f08ts"):
                    wrapped.add(gen_wrappers.f08_symbol(f).replace("f08ts" if "f08ts" in f.actions else "f08", variant))
        for sym in sorted(exported - wrapped - F08_WITHOUT_C):
            problems.append("the MPI Fortran library exports %s, which no description line marks f08/f08ts" % sym)
        for f in functions:
            if f.actions & {"f08", "f08ts"} and gen_wrappers.f08_symbol(f) not in exported:
                problems.append("%s is marked %s but the Fortran library has no %s"
                                % (f.name, "/".join(sorted(f.actions & {"f08", "f08ts"})), gen_wrappers.f08_symbol(f)))

    for p in problems:
        print("FAIL: " + p)
    print("%d functions declared by mpi.h, %d described, %d problems" % (len(declared), len(described), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
