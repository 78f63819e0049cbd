# cmake/local.mk: the installed CMake package, find_package(mpiprof) and its
# target mpiprof::mpiprof (mpicc-prof(1), BUILD SYSTEMS).  Included from
# the top-level Makefile.am; paths relative to the top directory.  The
# files are made by make, not configure: a CMake file cannot expand
# ${exec_prefix}, so the directories are substituted expanded.
cmakeconfigdir = $(libdir)/cmake/mpiprof
cmakeconfig_DATA = cmake/mpiprofConfig.cmake cmake/mpiprofConfigVersion.cmake
EXTRA_DIST += cmake/local.mk cmake/mpiprofConfig.cmake.in cmake/mpiprofConfigVersion.cmake.in
CLEANFILES += $(cmakeconfig_DATA)

mpiprof_cmake_subst = sed -e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' -e 's|[@]libdir[@]|$(libdir)|g' \
	-e 's|[@]includedir[@]|$(includedir)|g' -e 's|[@]MPI_FAMILY[@]|$(MPI_FAMILY)|g'

cmake/mpiprofConfig.cmake: $(srcdir)/cmake/mpiprofConfig.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && \
	$(mpiprof_cmake_subst) $(srcdir)/cmake/mpiprofConfig.cmake.in > $@.tmp && mv -f $@.tmp $@

cmake/mpiprofConfigVersion.cmake: $(srcdir)/cmake/mpiprofConfigVersion.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && \
	$(mpiprof_cmake_subst) $(srcdir)/cmake/mpiprofConfigVersion.cmake.in > $@.tmp && mv -f $@.tmp $@
