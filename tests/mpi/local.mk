# tests/mpi/local.mk: the MPI integration tests and the examples.
# Included from the top-level Makefile.am (non-recursive, paths relative to
# the top directory), after it has defined TESTS, EXTRA_DIST,
# TEST_EXTENSIONS and AM_TESTS_ENVIRONMENT.
#
# Each test is a POSIX shell script run by tests/mpi/run-mpi-test (the log
# compiler of .sh tests), which exports the build's wrappers, library and
# tools to it; exit 0 pass, 77 skip, anything else fail.  One test by hand:
#   make check TESTS=tests/mpi/test_known_counts.sh
# and keep its temporary directory with MPIPROF_TEST_KEEP=1.

MPI_TESTS = \
	tests/mpi/test_known_counts.sh \
	tests/mpi/test_load_imbalance.sh \
	tests/mpi/test_idle.sh \
	tests/mpi/test_fortran_mpi.sh \
	tests/mpi/test_fortran_f08.sh \
	tests/mpi/test_preload.sh \
	tests/mpi/test_wrong_family.sh \
	tests/mpi/test_callsite_nofp.sh \
	tests/mpi/test_callsites_cxx.sh \
	tests/mpi/test_callsite_stacks.sh \
	tests/mpi/test_netpipe.sh \
	tests/mpi/test_config_warnings.sh \
	tests/mpi/test_output_name.sh \
	tests/mpi/test_intervals.sh \
	tests/mpi/test_clock_descheduled.sh \
	tests/mpi/test_init_comms.sh \
	tests/mpi/test_intervals_seq.sh \
	tests/mpi/test_trace.sh \
	tests/mpi/test_trace_died.sh \
	tests/mpi/test_intervals_rank1.sh \
	tests/mpi/test_intervals_fortran.sh \
	tests/mpi/test_intervals_pcontrol.sh \
	tests/mpi/test_intervals_misuse.sh \
	tests/mpi/test_intervals_stub.sh \
	tests/mpi/test_model_known.sh \
	tests/mpi/test_model_noise.sh \
	tests/mpi/test_model_overlap.sh \
	tests/mpi/test_model_calibration.sh \
	tests/mpi/test_model_nodes.sh \
	tests/mpi/test_model_load.sh \
	tests/mpi/test_fuzz_config.sh \
	tests/mpi/test_correctness.sh \
	tests/mpi/test_threads.sh \
	tests/mpi/test_threads_invariants.sh \
	tests/mpi/test_threads_many.sh \
	tests/mpi/test_threads_tsan.sh \
	tests/mpi/test_valgrind.sh \
	tests/mpi/test_hang_cycle.sh \
	tests/mpi/test_hang_collective.sh \
	tests/mpi/test_hang_short.sh \
	tests/mpi/test_hang_analyze.sh \
	tests/mpi/test_fault_crash.sh \
	tests/mpi/test_fault_abort.sh \
	tests/mpi/test_fault_exit.sh \
	tests/mpi/test_fault_signal.sh \
	tests/mpi/test_fault_chain.sh \
	tests/mpi/test_fault_merge.sh \
	tests/mpi/test_fault_finalize.sh \
	tests/mpi/test_sessions.sh \
	tests/mpi/test_mixed_completion.sh \
	tests/mpi/test_origin_threads.sh \
	tests/mpi/test_overlapping_windows.sh \
	tests/mpi/test_windows_bound.sh \
	tests/mpi/test_io_split.sh \
	tests/mpi/test_compare.sh \
	tests/mpi/test_analyze_trace.sh \
	tests/mpi/test_cross_mpi.sh

TESTS += $(MPI_TESTS)
# Known bugs, each explained at the top of its test (XPASS fails: remove the
# test here once its bug is fixed).
XFAIL_TESTS =

EXTRA_DIST += tests/mpi/clock_busy.c tests/mpi/clock_delay.c tests/mpi/check_clock_descheduled.py
EXTRA_DIST += tests/mpi/init_comms.c
EXTRA_DIST += \
	$(MPI_TESTS) \
	tests/mpi/local.mk \
	tests/mpi/run-mpi-test \
	tests/mpi/common.sh \
	tests/mpi/busy.h \
	tests/mpi/.shellcheckrc \
	tests/mpi/protocol_check.py tests/mpi/protocol_base.py tests/mpi/protocol_query.py tests/mpi/protocol_selftest.py \
	tests/mpi/check_known_counts.py \
	tests/mpi/check_load_imbalance.py \
	tests/mpi/check_idle.py \
	tests/mpi/check_fortran.py \
	tests/mpi/check_preload.py \
	tests/mpi/check_callsites_cxx.py \
	tests/mpi/check_netpipe.py \
	tests/mpi/check_intervals.py \
	tests/mpi/check_intervals_seq.py \
	tests/mpi/check_trace.py \
	tests/mpi/check_trace_died.py \
	tests/mpi/check_intervals_rank1.py \
	tests/mpi/check_intervals_fortran.py \
	tests/mpi/check_intervals_pcontrol.py \
	tests/mpi/check_intervals_misuse.py \
	tests/mpi/check_intervals_stub.py \
	tests/mpi/check_model.py \
	tests/mpi/check_model_load.py \
	tests/mpi/check_compare.py \
	tests/mpi/known_counts.c \
	tests/mpi/load_imbalance.c \
	tests/mpi/idle.c \
	tests/mpi/fortran_mpi.f90 \
	tests/mpi/fortran_f08.f90 \
	tests/mpi/preload.c \
	tests/mpi/callsite_nofp.c \
	tests/mpi/callsite_nofp_lib.c \
	tests/mpi/callsite_nofp_f08.f90 \
	tests/mpi/callsite_nofp_f08_main.c \
	tests/mpi/callsite_fortran_io.f90 \
	tests/mpi/check_callsite_nofp.py \
	tests/mpi/callsites_cxx.cc \
	tests/mpi/config_warnings.c \
	tests/mpi/output_name.c \
	tests/mpi/intervals.c \
	tests/mpi/intervals_seq.c \
	tests/mpi/trace.c \
	tests/mpi/trace_died.c \
	tests/mpi/intervals_rank1.c \
	tests/mpi/intervals_fortran.f90 \
	tests/mpi/intervals_fortran_fh.f90 \
	tests/mpi/intervals_pcontrol.c \
	tests/mpi/intervals_misuse.c \
	tests/mpi/intervals_stub.c \
	tests/mpi/model_known.c \
	tests/mpi/model_noise.c \
	tests/mpi/model_overlap.c \
	tests/mpi/model_pingpong.c \
	tests/mpi/model_nodes.c \
	tests/mpi/model_load.c \
	tests/mpi/fuzz_config.c \
	tests/mpi/check_fuzz_config.py \
	tests/mpi/correctness.c \
	tests/mpi/threads.c \
	tests/mpi/check_threads.py \
	tests/mpi/check_tsan_reports.py \
	tests/mpi/build-tsan-lib.sh \
	tests/mpi/hang.sh \
	tests/mpi/hang_cycle.c \
	tests/mpi/hang_collective.c \
	tests/mpi/hang_short.c \
	tests/mpi/check_hang_analyze.py \
	tests/mpi/faults.c \
	tests/mpi/faults.sh \
	tests/mpi/check_faults.py \
	tests/mpi/check_merge.py \
	tests/mpi/sessions.c \
	tests/mpi/windows_bound.c \
	tests/mpi/threads_many.c \
	tests/mpi/callsite_stacks.c \
	tests/mpi/sessions_self.c \
	tests/mpi/sessions_f08.f90 \
	tests/mpi/check_sessions.py \
	tests/mpi/mixed_completion.c \
	tests/mpi/check_mixed_completion.py \
	tests/mpi/origin_threads.c \
	tests/mpi/check_origin_threads.py \
	tests/mpi/trace_persistent.c \
	tests/mpi/check_trace_persistent.py \
	tests/mpi/overlapping_windows.c \
	tests/mpi/check_overlapping_windows.py \
	tests/mpi/io_split.c \
	tests/mpi/check_io_split.py \
	examples/jacobi.c \
	examples/jacobi.f90

TEST_EXTENSIONS += .sh
# Through $(SHELL), so the driver needs no execute permission.
SH_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/mpi/run-mpi-test

# Absolute directories and the tools configure found, for run-mpi-test.
AM_TESTS_ENVIRONMENT += \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	MPIEXEC='$(MPIEXEC)'; export MPIEXEC; \
	MPI_FAMILY='$(MPI_FAMILY)'; export MPI_FAMILY; \
	PYTHON3='$(PYTHON3)'; export PYTHON3; \
	MPICC='$(MPICC)'; export MPICC; \
	MPICXX='$(MPICXX)'; export MPICXX; \
	MPIFORT='$(MPIFORT)'; export MPIFORT;

# The library's sources and flags, for test_threads_tsan.sh (which compiles
# them again with ThreadSanitizer), and how it was built.
if MPIPROF_SANITIZERS
MPIPROF_TEST_SANITIZERS = yes
else
MPIPROF_TEST_SANITIZERS = no
endif
MPIPROF_TEST_LIB_ENV = \
	MPIPROF_TEST_LIB_SOURCES='$(src_libmpiprof_core_la_SOURCES) $(libmpiprof_la_SOURCES)' \
	MPIPROF_TEST_LIB_GENERATED='$(nodist_src_libmpiprof_core_la_SOURCES) $(nodist_libmpiprof_la_SOURCES)' \
	MPIPROF_TEST_LIB_CFLAGS='$(MPI_CPPFLAGS) $(JANSSON_CFLAGS) $(LIBDW_CFLAGS) $(HWLOC_CFLAGS) $(PAPI_CFLAGS) $(OTF2_CFLAGS)' \
	MPIPROF_TEST_LIB_LIBS='$(CORE_LIBS) $(LIB_LIBS)' \
	MPIPROF_TEST_CC='$(CC)'
AM_TESTS_ENVIRONMENT += \
	$(MPIPROF_TEST_LIB_ENV); \
	export MPIPROF_TEST_LIB_SOURCES MPIPROF_TEST_LIB_GENERATED MPIPROF_TEST_LIB_CFLAGS MPIPROF_TEST_LIB_LIBS MPIPROF_TEST_CC; \
	MPIPROF_TEST_SANITIZERS='$(MPIPROF_TEST_SANITIZERS)'; export MPIPROF_TEST_SANITIZERS;

# make tsan-lib: test_threads_tsan.sh's ThreadSanitizer library, built ahead
# (maint/test.sh does so for the Open MPI stage beside the MPICH suite); the
# test builds its own when a source is newer.  Nothing to do when the
# compiler has no ThreadSanitizer or the library has AddressSanitizer.
tsan-lib: all
	@if test '$(MPIPROF_TEST_SANITIZERS)' = yes; then \
	    echo "tsan-lib: the library is built with --enable-sanitizers; nothing to do"; \
	else \
	    $(MPIPROF_TEST_LIB_ENV) top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/tests/mpi/build-tsan-lib.sh '$(abs_top_builddir)/tests/mpi/tsan-lib' \
	    || test $$? = 77; \
	fi
.PHONY: tsan-lib
clean-local: clean-tsan-lib
clean-tsan-lib:
	-rm -rf tests/mpi/tsan-lib
.PHONY: clean-tsan-lib

# --- Machine context: hwloc topology and placement, PAPI counters.  Each of
# these tests checks the n/a lines instead when the library was built
# without hwloc or PAPI, and so needs to know how it was built.
CONTEXT_TESTS = \
	tests/mpi/test_machine.sh \
	tests/mpi/test_two_hosts.sh \
	tests/mpi/test_counters_sde.sh \
	tests/mpi/test_counters_kernel.sh \
	tests/mpi/test_counters_none.sh
TESTS += $(CONTEXT_TESTS)
EXTRA_DIST += $(CONTEXT_TESTS) tests/mpi/context.sh tests/mpi/check_context.py tests/mpi/context.c \
	tests/mpi/counters_sde.c
if HAVE_HWLOC
MPIPROF_TEST_HWLOC = yes
else
MPIPROF_TEST_HWLOC = no
endif
if HAVE_PAPI
MPIPROF_TEST_PAPI = yes
else
MPIPROF_TEST_PAPI = no
endif
AM_TESTS_ENVIRONMENT += \
	MPIPROF_TEST_HWLOC='$(MPIPROF_TEST_HWLOC)'; export MPIPROF_TEST_HWLOC; \
	MPIPROF_TEST_PAPI='$(MPIPROF_TEST_PAPI)'; export MPIPROF_TEST_PAPI; \
	MPIPROF_TEST_SDE_LIBS='$(PAPI_SDE_LIBS)'; export MPIPROF_TEST_SDE_LIBS; \
	MPIPROF_TEST_PAPI_CFLAGS='$(PAPI_CFLAGS)'; export MPIPROF_TEST_PAPI_CFLAGS;

# Wait states: Real sync, Potential sync, Time variation (known answers on
# 2 processes; waitstates_events.c is included by the programs).
WAITSTATE_TESTS = \
	tests/mpi/test_waitstates_late_sender.sh \
	tests/mpi/test_waitstates_collective.sh \
	tests/mpi/test_waitstates_p2p_kinds.sh \
	tests/mpi/test_waitstates_comms.sh \
	tests/mpi/test_waitstates_off.sh \
	tests/mpi/test_waitstates_threads.sh \
	tests/mpi/test_waitstates_algorithms.sh \
	tests/mpi/test_waitstates_idup_threads.sh \
	tests/mpi/test_waitstates_f08.sh
TESTS += $(WAITSTATE_TESTS)
EXTRA_DIST += \
	$(WAITSTATE_TESTS) \
	tests/mpi/check_waitstates_common.py \
	tests/mpi/check_waitstates_late_sender.py \
	tests/mpi/check_waitstates_collective.py \
	tests/mpi/check_waitstates_p2p_kinds.py \
	tests/mpi/check_waitstates_comms.py \
	tests/mpi/check_waitstates_off.py \
	tests/mpi/check_waitstates_threads.py \
	tests/mpi/check_waitstates_algorithms.py \
	tests/mpi/check_waitstates_idup_threads.py \
	tests/mpi/check_waitstates_f08.py \
	tests/mpi/waitstates_events.c \
	tests/mpi/waitstates_late_sender.c \
	tests/mpi/waitstates_collective.c \
	tests/mpi/waitstates_p2p_kinds.c \
	tests/mpi/waitstates_comms.c \
	tests/mpi/waitstates_off.c \
	tests/mpi/waitstates_threads.c \
	tests/mpi/waitstates_algorithms.c \
	tests/mpi/waitstates_idup_threads.c \
	tests/mpi/waitstates_f08.f90

# An MPI's hang seen on waitstates_idup_threads.c, kept for the suite's
# other test that asks (common.sh, idup_threads_hang_plain).
CLEANFILES += tests/mpi/idup-threads-hang.txt
