# MPIPROF_SETUP_PYTHON: python3 runs the wrapper generator and the tests' checks.
AC_DEFUN([MPIPROF_SETUP_PYTHON], [
    AC_MSG_NOTICE([=== python])
    AC_PATH_PROG([PYTHON3], [python3], [no])
    AS_IF([test "x$PYTHON3" = "xno"], [AC_MSG_ERROR([python3 is required to generate the MPI wrappers])])
])
