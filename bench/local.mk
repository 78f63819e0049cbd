# bench/local.mk: the overhead benchmark (bench/README.md).  Included from the
# top-level Makefile.am (paths relative to the top directory).
#
# bench/run is run by hand (it takes minutes); make check runs only its smoke
# test, bench/run --smoke (a few seconds, no timing assertions).  Its files
# are listed in EXTRA_DIST below.  smoke.sh needs nothing but top_srcdir and
# top_builddir (and optionally PYTHON3, MPICC, MPIEXEC) in its environment, so
# it runs the same directly or through the .sh log compiler.
TESTS += bench/smoke.sh
EXTRA_DIST += bench/README.md bench/run bench/mpibench.c bench/gen_sites.py bench/smoke.sh bench/local.mk \
	bench/gen_view_protocol.py bench/view_bench.py bench/analyze_bench
# bench/run's modules (it imports them from beside itself)
EXTRA_DIST += bench/benchlib/__init__.py bench/benchlib/bench.py bench/benchlib/build.py bench/benchlib/collect.py \
	bench/benchlib/common.py bench/benchlib/host.py bench/benchlib/launch.py bench/benchlib/report.py \
	bench/benchlib/report_paired.py bench/benchlib/report_targets.py

# bench/scaling: what MPI_Init and MPI_Finalize do between processes, with
# P threads standing for P processes (the in-memory exchange), or under
# mpiexec (bench/README.md, Scaling).  Linked with the MPI-free stages, as
# mpiprof-merge is; MPI only for its --mpi mode.
noinst_PROGRAMS += bench/scaling
bench_scaling_SOURCES = bench/scaling.c
bench_scaling_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS) $(JANSSON_CFLAGS)
bench_scaling_LDADD = src/libmpiprof_core.la $(MPI_LIBS)
TESTS += bench/scaling-smoke.sh
EXTRA_DIST += bench/scaling-smoke.sh
