# shellcheck shell=sh
# Shared by the analyzer's tests (tests/analyze/test_*.sh), after
# tests/mpi/lib/common.sh: the analyzer, and the python3 that has python3-otf2
# (Debian's, /usr/bin/python3: a python3 of its own on PATH does not see
# it), or a skip saying which is missing.
analyze="${top_builddir:?}/tools/mpiprof-analyze"
[ -x "$analyze" ] || skip "mpiprof-analyze is not built (configure found no libotf2: install libotf2-trace-dev)"
OTF2_PYTHON=${OTF2_PYTHON:-/usr/bin/python3}
"$OTF2_PYTHON" -c 'import otf2' 2>/dev/null ||
    skip "$OTF2_PYTHON cannot import otf2 (install python3-otf2, or set OTF2_PYTHON)"
PYTHONPATH="${top_srcdir:?}/tests/analyze:${PYTHONPATH:-}"
export PYTHONPATH

# scorep_trace SCENARIO DIR: the Score-P-shaped trace of SCENARIO in DIR.
scorep_trace() {
    "$OTF2_PYTHON" "$top_srcdir/tests/analyze/scorep_trace.py" "$1" "$2" ||
        fail "scorep_trace.py $1 did not write its trace"
}
