# MPIPROF_CHECK_SYSTEM: what the C library offers for partial protocols
# (src/intercept/faults.c).  _Fork (glibc 2.34) forks from a signal handler
# without running atfork handlers; without it the fork system call is made
# directly.  dlsym (in libc since glibc 2.34, in libdl before) finds the C++
# runtime's demangler when the program loads one (src/attribute/symbolize.c).
AC_DEFUN([MPIPROF_CHECK_SYSTEM], [
    AC_MSG_NOTICE([=== C library])
    AC_CHECK_FUNCS([_Fork])
    AC_SEARCH_LIBS([dlsym], [dl], [], [AC_MSG_ERROR([dlsym not found (libc or libdl)])])
    AS_IF([test "x$ac_cv_func__Fork" = "xyes"],
          [mpiprof_summary_fork="_Fork"], [mpiprof_summary_fork="fork system call (no _Fork in the C library)"])
])
