# MPIPROF_CHECK_LIBDW: call-site addresses are resolved to file:line
# (function) at MPI_Finalize with elfutils' libdw (required).
AC_DEFUN([MPIPROF_CHECK_LIBDW], [
    AC_MSG_NOTICE([=== libdw])
    PKG_CHECK_MODULES([LIBDW], [libdw], [libdw_happy=yes],
        [AC_MSG_ERROR([libdw not found: install libdw-dev])])
    mpiprof_summary_libdw="yes"
])
