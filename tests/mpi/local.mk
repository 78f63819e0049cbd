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
	tests/mpi/test_netpipe.sh \
	tests/mpi/test_config_warnings.sh \
	tests/mpi/test_output_name.sh

TESTS += $(MPI_TESTS)

EXTRA_DIST += \
	$(MPI_TESTS) \
	tests/mpi/local.mk \
	tests/mpi/run-mpi-test \
	tests/mpi/common.sh \
	tests/mpi/.shellcheckrc \
	tests/mpi/protocol_check.py \
	tests/mpi/check_known_counts.py \
	tests/mpi/check_load_imbalance.py \
	tests/mpi/check_idle.py \
	tests/mpi/check_fortran.py \
	tests/mpi/check_preload.py \
	tests/mpi/check_netpipe.py \
	tests/mpi/known_counts.c \
	tests/mpi/load_imbalance.c \
	tests/mpi/idle.c \
	tests/mpi/fortran_mpi.f90 \
	tests/mpi/fortran_f08.f90 \
	tests/mpi/preload.c \
	tests/mpi/config_warnings.c \
	tests/mpi/output_name.c \
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
	PYTHON3='$(PYTHON3)'; export PYTHON3; \
	MPICC='$(MPICC)'; export MPICC; \
	MPIFORT='$(MPIFORT)'; export MPIFORT;
