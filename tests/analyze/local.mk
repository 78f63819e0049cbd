# tests/analyze/local.mk: mpiprof-analyze's tests.  Included from the
# top-level Makefile.am (paths relative to the top directory).  The .sh
# tests run through tests/mpi/lib/run-mpi-test like the MPI tests; they write
# their traces with python3-otf2 (tests/analyze/scorep_trace.py) and are
# skipped, saying what is missing, without it or without libotf2.
ANALYZE_TESTS = tests/analyze/test_analyze_scorep.sh tests/analyze/test_analyze_refuse.sh tests/analyze/test_analyze_mpi.sh
TESTS += $(ANALYZE_TESTS)
EXTRA_DIST += $(ANALYZE_TESTS) tests/analyze/local.mk tests/analyze/.shellcheckrc tests/analyze/common_analyze.sh \
	tests/analyze/scorep_trace.py tests/analyze/ring_trace.py tests/analyze/check_analyze.py tests/analyze/check_refuse.py
