# tests/toolchain/local.mk: building against mpiprof as installed: the
# CMake package and its example, the pkg-config file and the Makefile
# example, mpiprof-run and the README's preload line, the link-order check.
# Included from the top-level Makefile.am (paths relative to the top
# directory).  The .sh tests run through tests/mpi/lib/run-mpi-test like
# the MPI tests; each installs the build tree with make install DESTDIR=.
TOOLCHAIN_TESTS = tests/toolchain/test_link_order.sh tests/toolchain/test_cmake_package.sh \
	tests/toolchain/test_make_example.sh tests/toolchain/test_preload_by_name.sh
TESTS += $(TOOLCHAIN_TESTS)
EXTRA_DIST += $(TOOLCHAIN_TESTS) tests/toolchain/local.mk tests/toolchain/.shellcheckrc tests/toolchain/common_toolchain.sh tests/toolchain/barrier.c tests/toolchain/version_check.cmake tests/toolchain/pkgconfig_target/CMakeLists.txt \
	tests/toolchain/fortran_target/CMakeLists.txt tests/toolchain/fortran_target/barrier_f08.f90 \
	examples/cmake/CMakeLists.txt examples/make/Makefile
