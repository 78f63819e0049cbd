# tests/view/local.mk: mpiprof-view's tests.  Included from the top-level
# Makefile.am (paths relative to the top directory).  The .sh tests run
# through tests/mpi/lib/run-mpi-test like the MPI tests (one at a time, under
# its lock): test_view_page.sh runs MPI and drives the pages in a headless
# Chromium (Debian chromium, chromium-driver, python3-selenium; skipped,
# saying which is missing, when one is not installed), test_view_findings.sh
# its Correctness panel the same way, test_view_scaling.sh the page of three
# protocols (its Scaling panel, the matching carried from C), test_view_refuse.sh
# feeds mpiprof-view bad input.  Screenshots of the page tests are kept in
# tests/view/screenshots/ of the build tree.
VIEW_TESTS = tests/view/test_view_refuse.sh tests/view/test_view_page.sh tests/view/test_view_findings.sh \
	tests/view/test_view_scaling.sh
# test_view_trace.sh: the trace links of an SRC point (mpiprof-view --trace)
VIEW_TESTS += tests/view/test_view_trace.sh
VIEW_TESTS += tests/view/test_view_digest.sh
EXTRA_DIST += tests/view/check_view_digest.py
VIEW_TESTS += tests/view/test_view_matrix.sh
EXTRA_DIST += tests/view/check_matrix_view.py tests/view/check_io_view.py tests/view/make_big_matrix.py
TESTS += $(VIEW_TESTS)
EXTRA_DIST += $(VIEW_TESTS) tests/view/local.mk tests/view/.shellcheckrc tests/view/common_view.sh tests/view/view_known.c \
	tests/view/check_view.py tests/view/check_refuse.py tests/view/view_browser.py tests/view/inject_findings.py \
	tests/view/check_findings_view.py tests/view/view_trace_known.c tests/view/check_trace_view.py \
	tests/view/check_view_scaling.py tests/view/make_scaling_runs.py
clean-local: clean-view-screenshots
clean-view-screenshots:
	rm -rf tests/view/screenshots
.PHONY: clean-view-screenshots
# the page marks the frames of inlined functions
VIEW_TESTS += tests/view/test_view_inlined.sh
EXTRA_DIST += tests/view/check_view_inlined.py
# an SRC point's time by thread (MPI_THREAD_MULTIPLE)
VIEW_TESTS += tests/view/test_view_threads.sh
EXTRA_DIST += tests/view/check_threads_view.py
