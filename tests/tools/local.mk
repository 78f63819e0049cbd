# tests/tools/local.mk: the conventions every command follows (mpiprof(7),
# COMMANDS): --help, --version and unknown options (test_cli.sh), the
# variables' listing against mpiprof(7)'s ENVIRONMENT (test_list_vars.sh),
# an unknown MPIPROF_* variable at MPI_Init (test_unknown_var.sh), the
# protocols and archives the commands take (test_inputs.sh).  Included from
# the top-level Makefile.am (paths relative to the top directory); the .sh
# tests run through tests/mpi/lib/run-mpi-test like the MPI tests.
TOOLS_TESTS = tests/tools/test_cli.sh tests/tools/test_list_vars.sh tests/tools/test_unknown_var.sh \
	tests/tools/test_inputs.sh
TESTS += $(TOOLS_TESTS)
EXTRA_DIST += $(TOOLS_TESTS) tests/tools/local.mk tests/tools/.shellcheckrc tests/tools/tools_hello.c \
	tests/tools/check_list_vars.py
