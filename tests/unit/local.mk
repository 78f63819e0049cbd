# tests/unit/local.mk: Check suites of the MPI-free stages, and static checks
# of the library (wrapper coverage of mpi.h, exported symbols, the layout).
# The suites link the MPI-free stages (src/libmpiprof_core.la), never
# libmpiprof or MPI.
TESTS += tests/unit/check_units tests/check-mpi-coverage.sh tests/check-exports.sh tests/check-protocol-checks.sh \
	tests/check-layout.sh tests/check-format.sh tests/check-headers.sh
EXTRA_DIST += tests/check-mpi-coverage.sh tests/check-exports.sh tests/check-protocol-checks.sh src/intercept/check_coverage.py \
	tests/check-layout.sh tests/check_layout.py tests/check-format.sh tests/check-headers.sh
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_units
tests_unit_check_units_SOURCES = tests/unit/check_units.c tests/unit/suites.h \
	tests/unit/test_config.c tests/unit/test_characteristics.c tests/unit/test_characteristics_predicted.c tests/unit/characteristics_fixture.c tests/unit/characteristics_fixture.h tests/unit/test_dictionary.c \
	tests/unit/test_table.c tests/unit/test_profile.c tests/unit/test_requests.c \
	tests/unit/test_writer.c tests/unit/test_writer_files.c tests/unit/writer_fixture.c tests/unit/writer_fixture.h tests/unit/test_warnings.c \
	tests/unit/test_machine.c tests/unit/test_counter_stats.c tests/unit/test_intervals.c \
	tests/unit/test_model.c tests/unit/test_waitstates.c tests/unit/test_p2p_pairing.c tests/unit/test_hang_dump.c \
	tests/unit/test_reduce.c tests/unit/test_partial.c tests/unit/test_callsite.c tests/unit/test_headline.c \
	tests/unit/test_cover.c tests/unit/test_commids.c tests/unit/test_treereduce.c tests/unit/test_view.c tests/unit/test_compare.c tests/unit/test_scaling.c tests/unit/test_clock.c tests/unit/test_numfmt.c tests/unit/test_signature.c tests/unit/test_findings.c tests/unit/test_tally.c tests/unit/test_layout.c tests/unit/test_pending.c tests/unit/test_rma_conflicts.c tests/unit/test_functions.c tests/unit/failing_alloc.c \
	tests/unit/test_between.c tests/unit/test_config_unknown.c tests/unit/test_digest.c tests/unit/test_text_wrap.c
tests_unit_check_units_SOURCES += tests/unit/test_srckey.c
tests_unit_check_units_SOURCES += tests/unit/test_matrix.c
tests_unit_check_units_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS) $(JANSSON_CFLAGS) -DMPP_TEST_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_check_units_LDADD = src/libmpiprof_core.la $(CHECK_LIBS)
endif
# tests/check-headers.sh: the compiler and every include path of the build
AM_TESTS_ENVIRONMENT += HEADER_CC='$(CC)' HEADER_CPPFLAGS='$(AM_CPPFLAGS) $(MPI_CPPFLAGS) $(JANSSON_CFLAGS) $(LIBDW_CFLAGS) $(HWLOC_CFLAGS) $(PAPI_CFLAGS) $(OTF2_CFLAGS)'; export HEADER_CC HEADER_CPPFLAGS;
# With --enable-sanitizers, undefined behaviour fails a test instead of
# printing a line (the MPI tests get the same from run-mpi-test).
if MPIPROF_SANITIZERS
AM_TESTS_ENVIRONMENT += UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1'; export UBSAN_OPTIONS;
endif
