# MPIPROF_CHECK_CHECK: the Check unit-test framework (needed by make check).
AC_DEFUN([MPIPROF_CHECK_CHECK], [
    AC_MSG_NOTICE([=== Check])
    PKG_CHECK_MODULES([CHECK], [check >= 0.11], [check_happy=yes], [check_happy=no])
    AS_IF([test "x$check_happy" = "xno"],
          [AC_MSG_WARN([Check not found: make check will fail; install the Debian package check])])
    AM_CONDITIONAL([HAVE_CHECK], [test "x$check_happy" = "xyes"])
    mpiprof_summary_check=$check_happy
])
