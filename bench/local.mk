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
	bench/gen_view_protocol.py bench/view_bench.py
