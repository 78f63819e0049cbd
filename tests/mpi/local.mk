# tests/mpi/local.mk: the MPI integration tests and the examples.
# Included from the top-level Makefile.am (non-recursive, paths relative to
# the top directory), after it has defined TESTS, EXTRA_DIST,
# TEST_EXTENSIONS and AM_TESTS_ENVIRONMENT.
#
# The tests are grouped by feature, one folder each (below); a folder holds
# its tests (test_*.sh), their programs and their check scripts (check_*.py),
# and lib/ what the groups share.  Each test is a POSIX shell script run by
# tests/mpi/lib/run-mpi-test (the log compiler of .sh tests), which exports
# the build's wrappers, library and tools to it; exit 0 pass, 77 skip,
# anything else fail.  One test by hand:
#   make check TESTS=tests/mpi/callsites/test_known_counts.sh
# and keep its temporary directory with MPIPROF_TEST_KEEP=1.  Every file of
# a folder is listed here (EXTRA_DIST): the Open MPI and sanitizer stages of
# maint/test.sh build from a make distdir copy.

MPI_TESTS =
EXTRA_DIST += tests/mpi/local.mk tests/mpi/.shellcheckrc

# --- lib/: what the groups share: the driver (run-mpi-test, the log
# compiler), common.sh (sourced by every test), the protocol checks' python
# modules (protocol_check.py and the modules it is made of: protocol_base,
# protocol_query, protocol_text, protocol_run; protocol_selftest, their self
# test; protocol_waitstates, the wait-state checks), and what the programs
# include (busy.h, waitstates_events.c)
EXTRA_DIST += \
	tests/mpi/lib/busy.h \
	tests/mpi/lib/common.sh \
	tests/mpi/lib/protocol_base.py \
	tests/mpi/lib/protocol_check.py \
	tests/mpi/lib/protocol_query.py \
	tests/mpi/lib/protocol_run.py \
	tests/mpi/lib/protocol_selftest.py \
	tests/mpi/lib/protocol_text.py \
	tests/mpi/lib/protocol_waitstates.py \
	tests/mpi/lib/run-mpi-test \
	tests/mpi/lib/waitstates_events.c

# --- callsites/: SRC points: exact counts and bytes at the marked call
# sites, call stacks without frame pointers, from C++ (demangled), on the
# fast path
MPI_TESTS += \
	tests/mpi/callsites/test_persistent_bytes.sh \
	tests/mpi/callsites/test_known_counts.sh \
	tests/mpi/callsites/test_callsite_nofp.sh \
	tests/mpi/callsites/test_callsite_stacks.sh \
	tests/mpi/callsites/test_callsites_cxx.sh
EXTRA_DIST += \
	tests/mpi/callsites/callsite_fortran_io.f90 \
	tests/mpi/callsites/callsite_nofp.c \
	tests/mpi/callsites/callsite_nofp_f08.f90 \
	tests/mpi/callsites/callsite_nofp_f08_main.c \
	tests/mpi/callsites/callsite_nofp_lib.c \
	tests/mpi/callsites/callsite_stacks.c \
	tests/mpi/callsites/callsites_cxx.cc \
	tests/mpi/callsites/check_callsite_nofp.py \
	tests/mpi/callsites/check_callsites_cxx.py \
	tests/mpi/callsites/check_known_counts.py \
	tests/mpi/callsites/known_counts.c \
	tests/mpi/callsites/persistent_bytes.c
# inlined functions' frames, the symbol table's, a thread's stack
MPI_TESTS += \
	tests/mpi/callsites/test_callsites_inlined.sh \
	tests/mpi/callsites/test_callsites_thread.sh
EXTRA_DIST += \
	tests/mpi/callsites/callsites_inlined.cc \
	tests/mpi/callsites/callsites_thread.c \
	tests/mpi/callsites/check_callsites_inlined.py \
	tests/mpi/callsites/check_callsites_thread.py

# --- characteristics/: the main characteristics against the programs' own
# measurements: Load imbalance, Idle time, the I/O part of Productive time
MPI_TESTS += \
	tests/mpi/characteristics/test_load_imbalance.sh \
	tests/mpi/characteristics/test_idle.sh \
	tests/mpi/characteristics/test_io_split.sh \
	tests/mpi/characteristics/test_io_digest.sh \
	tests/mpi/characteristics/test_io_bytes.sh
EXTRA_DIST += \
	tests/mpi/characteristics/check_idle.py \
	tests/mpi/characteristics/check_io_split.py \
	tests/mpi/characteristics/check_io_digest.py \
	tests/mpi/characteristics/io_digest.c \
	tests/mpi/characteristics/check_io_bytes.py \
	tests/mpi/characteristics/io_bytes.c \
	tests/mpi/characteristics/check_load_imbalance.py \
	tests/mpi/characteristics/idle.c \
	tests/mpi/characteristics/io_split.c \
	tests/mpi/characteristics/load_imbalance.c

# --- context/: the run's context: hwloc topology and placement, PAPI counters (each
# of these checks the n/a lines instead when the library was built without
# hwloc or PAPI, and so needs to know how it was built), the configuration
# (malformed settings, the protocol's name), the clocks
MPI_TESTS += \
	tests/mpi/context/test_machine.sh \
	tests/mpi/context/test_two_hosts.sh \
	tests/mpi/context/test_counters_sde.sh \
	tests/mpi/context/test_counters_kernel.sh \
	tests/mpi/context/test_counters_none.sh \
	tests/mpi/context/test_config_warnings.sh \
	tests/mpi/context/test_fuzz_config.sh \
	tests/mpi/context/test_output_name.sh \
	tests/mpi/context/test_clock_descheduled.sh
EXTRA_DIST += \
	tests/mpi/context/check_clock_descheduled.py \
	tests/mpi/context/check_context.py \
	tests/mpi/context/check_fuzz_config.py \
	tests/mpi/context/clock_busy.c \
	tests/mpi/context/clock_delay.c \
	tests/mpi/context/config_warnings.c \
	tests/mpi/context/context.c \
	tests/mpi/context/context.sh \
	tests/mpi/context/counters_sde.c \
	tests/mpi/context/fuzz_config.c \
	tests/mpi/context/output_name.c

# --- preload/: the library preloaded (LD_PRELOAD) into programs built without it:
# its own, NetPIPE's, another MPI family's; the communicators it makes
MPI_TESTS += \
	tests/mpi/preload/test_preload.sh \
	tests/mpi/preload/test_init_comms.sh \
	tests/mpi/preload/test_wrong_family.sh \
	tests/mpi/preload/test_netpipe.sh
EXTRA_DIST += \
	tests/mpi/preload/check_netpipe.py \
	tests/mpi/preload/check_preload.py \
	tests/mpi/preload/init_comms.c \
	tests/mpi/preload/preload.c

# --- check/: the correctness checks (MPIPROF_CHECK, correctness.md): one
# program per group of kinds, each scenario with one known misuse marked at
# its line (/* expect SCENARIO: KIND ... */), run with and without the
# profiler by scenario.sh and compared with the protocol's findings by
# check_findings.py; clean.c, correct uses that must give none
MPI_TESTS += \
	tests/mpi/check/test_check_clean.sh \
	tests/mpi/check/test_check_requests.sh \
	tests/mpi/check/test_check_resources.sh \
	tests/mpi/check/test_check_threads.sh \
	tests/mpi/check/test_check_outside.sh \
	tests/mpi/check/test_check_errors.sh \
	tests/mpi/check/test_check_ends.sh \
	tests/mpi/check/test_check_arguments.sh \
	tests/mpi/check/test_check_buffers.sh \
	tests/mpi/check/test_check_rma.sh
EXTRA_DIST += \
	tests/mpi/check/check_findings.py \
	tests/mpi/check/scenario.sh \
	tests/mpi/check/clean.c \
	tests/mpi/check/local.c \
	tests/mpi/check/errors.c \
	tests/mpi/check/errors_f08.f90 \
	tests/mpi/check/datatype_fortran.f90 \
	tests/mpi/check/datatype_fortran_f08.f90 \
	tests/mpi/check/args.c \
	tests/mpi/check/args_f08.f90 \
	tests/mpi/check/buffers.c \
	tests/mpi/check/rma.c
# between processes (between.c): collectives' members that disagree, and
# messages whose receive disagrees with their send or that never pair
MPI_TESTS += tests/mpi/check/test_check_collectives.sh tests/mpi/check/test_check_p2p.sh
EXTRA_DIST += tests/mpi/check/between.c

# --- correctness/: the profiler changes nothing the program sees of MPI, and
# valgrind finds no error in it
MPI_TESTS += \
	tests/mpi/correctness/test_correctness.sh \
	tests/mpi/correctness/test_valgrind.sh
EXTRA_DIST += \
	tests/mpi/correctness/correctness.c

# --- fortran/: the Fortran bindings ('use mpi', 'use mpi_f08')
MPI_TESTS += \
	tests/mpi/fortran/test_fortran_mpi.sh \
	tests/mpi/fortran/test_fortran_f08.sh
EXTRA_DIST += \
	tests/mpi/fortran/check_fortran.py \
	tests/mpi/fortran/fortran_f08.f90 \
	tests/mpi/fortran/fortran_mpi.f90

# --- intervals/: intervals and replicated code: marks from C and Fortran,
# MPI_Pcontrol, the stub library, intervals some processes enter, misuse
MPI_TESTS += \
	tests/mpi/intervals/test_intervals.sh \
	tests/mpi/intervals/test_intervals_fortran.sh \
	tests/mpi/intervals/test_intervals_misuse.sh \
	tests/mpi/intervals/test_intervals_pcontrol.sh \
	tests/mpi/intervals/test_intervals_rank1.sh \
	tests/mpi/intervals/test_intervals_seq.sh \
	tests/mpi/intervals/test_intervals_stub.sh \
	tests/mpi/intervals/test_intervals_digest.sh
EXTRA_DIST += \
	tests/mpi/intervals/check_intervals.py \
	tests/mpi/intervals/check_intervals_digest.py \
	tests/mpi/intervals/check_intervals_fortran.py \
	tests/mpi/intervals/check_intervals_misuse.py \
	tests/mpi/intervals/check_intervals_pcontrol.py \
	tests/mpi/intervals/check_intervals_rank1.py \
	tests/mpi/intervals/check_intervals_seq.py \
	tests/mpi/intervals/check_intervals_stub.py \
	tests/mpi/intervals/intervals.c \
	tests/mpi/intervals/intervals_fortran.f90 \
	tests/mpi/intervals/intervals_fortran_fh.f90 \
	tests/mpi/intervals/intervals_misuse.c \
	tests/mpi/intervals/intervals_pcontrol.c \
	tests/mpi/intervals/intervals_rank1.c \
	tests/mpi/intervals/intervals_seq.c \
	tests/mpi/intervals/intervals_stub.c

# --- waitstates/: wait states: Real sync, Potential sync, Time variation (known
# answers on 2 processes, from the instants the programs record with
# lib/waitstates_events.c), and the windows they and Overlap are made of
MPI_TESTS += \
	tests/mpi/waitstates/test_waitstates_algorithms.sh \
	tests/mpi/waitstates/test_waitstates_collective.sh \
	tests/mpi/waitstates/test_waitstates_comms.sh \
	tests/mpi/waitstates/test_waitstates_f08.sh \
	tests/mpi/waitstates/test_waitstates_idup_threads.sh \
	tests/mpi/waitstates/test_waitstates_late_sender.sh \
	tests/mpi/waitstates/test_waitstates_off.sh \
	tests/mpi/waitstates/test_waitstates_p2p_kinds.sh \
	tests/mpi/waitstates/test_waitstates_threads.sh \
	tests/mpi/waitstates/test_mixed_completion.sh \
	tests/mpi/waitstates/test_overlapping_windows.sh \
	tests/mpi/waitstates/test_windows_bound.sh \
	tests/mpi/waitstates/test_windows_split.sh \
	tests/mpi/waitstates/test_many_collectives.sh
EXTRA_DIST += \
	tests/mpi/waitstates/check_mixed_completion.py \
	tests/mpi/waitstates/check_windows_split.py \
	tests/mpi/waitstates/check_overlapping_windows.py \
	tests/mpi/waitstates/check_waitstates_algorithms.py \
	tests/mpi/waitstates/check_waitstates_collective.py \
	tests/mpi/waitstates/check_waitstates_comms.py \
	tests/mpi/waitstates/check_waitstates_f08.py \
	tests/mpi/waitstates/check_waitstates_idup_threads.py \
	tests/mpi/waitstates/check_waitstates_late_sender.py \
	tests/mpi/waitstates/check_waitstates_off.py \
	tests/mpi/waitstates/check_waitstates_p2p_kinds.py \
	tests/mpi/waitstates/check_waitstates_threads.py \
	tests/mpi/waitstates/mixed_completion.c \
	tests/mpi/waitstates/overlapping_windows.c \
	tests/mpi/waitstates/waitstates_algorithms.c \
	tests/mpi/waitstates/waitstates_collective.c \
	tests/mpi/waitstates/waitstates_comms.c \
	tests/mpi/waitstates/waitstates_f08.f90 \
	tests/mpi/waitstates/waitstates_idup_threads.c \
	tests/mpi/waitstates/waitstates_late_sender.c \
	tests/mpi/waitstates/waitstates_off.c \
	tests/mpi/waitstates/waitstates_p2p_kinds.c \
	tests/mpi/waitstates/waitstates_threads.c \
	tests/mpi/waitstates/windows_bound.c \
	tests/mpi/waitstates/windows_split.c \
	tests/mpi/waitstates/many_collectives.c

# --- model/: the communication model: predicted characteristics, Overlap,
# calibration, on a loaded node, on two nodes
MPI_TESTS += \
	tests/mpi/model/test_model_calibration.sh \
	tests/mpi/model/test_model_known.sh \
	tests/mpi/model/test_model_load.sh \
	tests/mpi/model/test_model_nodes.sh \
	tests/mpi/model/test_model_noise.sh \
	tests/mpi/model/test_model_overlap.sh
EXTRA_DIST += \
	tests/mpi/model/check_model.py \
	tests/mpi/model/check_model_load.py \
	tests/mpi/model/model_known.c \
	tests/mpi/model/model_load.c \
	tests/mpi/model/model_nodes.c \
	tests/mpi/model/model_noise.c \
	tests/mpi/model/model_overlap.c \
	tests/mpi/model/model_pingpong.c

# clock alignment: one host's shared clock, two hosts (a skewed clock, a
# disturbed alignment at MPI_Finalize), offsets the trace's messages bound,
# offsets the wait states' messages bound while the program runs
MPI_TESTS += \
	tests/mpi/clock/test_clock_shared.sh \
	tests/mpi/clock/test_clock_two_hosts.sh \
	tests/mpi/clock/test_clock_bounds.sh \
	tests/mpi/clock/test_clock_run_bounds.sh
EXTRA_DIST += \
	tests/mpi/clock/check_bounds.py \
	tests/mpi/clock/check_clock.py \
	tests/mpi/clock/check_run_bounds.py \
	tests/mpi/clock/clock_bounds.c \
	tests/mpi/clock/clock_late_sender.c \
	tests/mpi/clock/clock_run_bounds.c

# --- faults/: processes that end early: crashes, signals, MPI_Abort, exit; their
# partial protocols and mpiprof-merge
MPI_TESTS += \
	tests/mpi/faults/test_fault_abort.sh \
	tests/mpi/faults/test_fault_chain.sh \
	tests/mpi/faults/test_fault_crash.sh \
	tests/mpi/faults/test_fault_exit.sh \
	tests/mpi/faults/test_fault_finalize.sh \
	tests/mpi/faults/test_fault_merge.sh \
	tests/mpi/faults/test_fault_signal.sh
EXTRA_DIST += \
	tests/mpi/faults/check_faults.py \
	tests/mpi/faults/check_merge.py \
	tests/mpi/faults/faults.c \
	tests/mpi/faults/faults.sh

# --- hangs/: the hang watchdog's dumps and mpiprof-hang's report
MPI_TESTS += \
	tests/mpi/hangs/test_hang_analyze.sh \
	tests/mpi/hangs/test_hang_collective.sh \
	tests/mpi/hangs/test_hang_cycle.sh \
	tests/mpi/hangs/test_hang_short.sh
EXTRA_DIST += \
	tests/mpi/hangs/check_hang_analyze.py \
	tests/mpi/hangs/hang.sh \
	tests/mpi/hangs/hang_collective.c \
	tests/mpi/hangs/hang_cycle.c \
	tests/mpi/hangs/hang_short.c

# --- threads/: MPI from several threads: exact counts at every thread level,
# the invariants, many short-lived threads, ThreadSanitizer, a request
# completed by another thread than the one that started it
MPI_TESTS += \
	tests/mpi/threads/test_threads.sh \
	tests/mpi/threads/test_threads_invariants.sh \
	tests/mpi/threads/test_threads_many.sh \
	tests/mpi/threads/test_threads_tsan.sh \
	tests/mpi/threads/test_origin_threads.sh
EXTRA_DIST += \
	tests/mpi/threads/build-tsan-lib.sh \
	tests/mpi/threads/check_origin_threads.py \
	tests/mpi/threads/check_threads.py \
	tests/mpi/threads/check_tsan_reports.py \
	tests/mpi/threads/origin_threads.c \
	tests/mpi/threads/threads.c \
	tests/mpi/threads/threads_many.c
# the threads each process ran, the OpenMP team, oversubscription by
# threads; per-thread times of one call site under MPI_THREAD_MULTIPLE
MPI_TESTS += \
	tests/mpi/threads/test_threads_openmp.sh \
	tests/mpi/threads/test_thread_times.sh
EXTRA_DIST += \
	tests/mpi/threads/check_threads_openmp.py \
	tests/mpi/threads/openmp_hybrid.c \
	tests/mpi/threads/thread_times.c

# --- matrix/: the communication matrix (per process pair and node pair, two
# host names by UTS namespaces)
MPI_TESTS += \
	tests/mpi/matrix/test_matrix_off.sh \
	tests/mpi/matrix/test_matrix_ring.sh \
	tests/mpi/matrix/test_matrix_trace.sh
EXTRA_DIST += \
	tests/mpi/matrix/check_matrix.py \
	tests/mpi/matrix/matrix_roles.c \
	tests/mpi/matrix/pairs.c \
	tests/mpi/matrix/ring.c

# --- trace/: trace mode: the OTF2 archive, a run that died, mpiprof-analyze
# against the dynamic protocol
MPI_TESTS += \
	tests/mpi/trace/test_trace.sh \
	tests/mpi/trace/test_trace_died.sh \
	tests/mpi/trace/test_analyze_trace.sh \
	tests/mpi/trace/test_analyze_findings.sh \
	tests/mpi/trace/test_analyze_io.sh \
	tests/mpi/trace/test_analyze_functions.sh
EXTRA_DIST += \
	tests/mpi/trace/check_trace.py \
	tests/mpi/trace/check_trace_died.py \
	tests/mpi/trace/check_trace_persistent.py \
	tests/mpi/trace/trace.c \
	tests/mpi/trace/io_calls.c \
	tests/mpi/trace/calls_coll.c \
	tests/mpi/trace/calls_file.c \
	tests/mpi/trace/calls_handles.c \
	tests/mpi/trace/calls_p2p.c \
	tests/mpi/trace/calls_rma.c \
	tests/mpi/trace/trace_died.c \
	tests/mpi/trace/trace_persistent.c

# --- sessions/: the MPI-4 Sessions Model
MPI_TESTS += \
	tests/mpi/sessions/test_sessions.sh
EXTRA_DIST += \
	tests/mpi/sessions/check_sessions.py \
	tests/mpi/sessions/sessions.c \
	tests/mpi/sessions/sessions_f08.f90 \
	tests/mpi/sessions/sessions_self.c

# --- compare/: mpiprof-compare on real protocols, and the same programs on the two
# MPI families
MPI_TESTS += \
	tests/mpi/compare/test_compare.sh \
	tests/mpi/compare/test_compare_n.sh \
	tests/mpi/compare/test_cross_mpi.sh
EXTRA_DIST += \
	tests/mpi/compare/check_compare.py \
	tests/mpi/compare/check_compare_n.py \
	tests/mpi/compare/compare_session.py
TESTS += $(MPI_TESTS)
EXTRA_DIST += $(MPI_TESTS) examples/jacobi.c examples/jacobi.f90
# Known bugs, each explained at the top of its test (XPASS fails: remove the
# test here once its bug is fixed).
XFAIL_TESTS =

TEST_EXTENSIONS += .sh
# Through $(SHELL), so the driver needs no execute permission.
SH_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/mpi/lib/run-mpi-test

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
	    $(SHELL) $(srcdir)/tests/mpi/threads/build-tsan-lib.sh '$(abs_top_builddir)/tests/mpi/threads/tsan-lib' \
	    || test $$? = 77; \
	fi
.PHONY: tsan-lib
clean-local: clean-tsan-lib
clean-tsan-lib:
	-rm -rf tests/mpi/threads/tsan-lib
.PHONY: clean-tsan-lib

# How the library was built, for the context/ tests (n/a lines without
# hwloc or PAPI).
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

# An MPI's hang seen on waitstates_idup_threads.c, kept for the suite's
# other test that asks (common.sh, idup_threads_hang_plain).
CLEANFILES += tests/mpi/idup-threads-hang.txt
