# MPIPROF_SETUP_COMPILERS: C11 compiler, Fortran compiler for the f08 glue
# checks and the Fortran tests, and the flags every object of the library
# is built with (hidden visibility: the library lives in other programs).
AC_DEFUN([MPIPROF_SETUP_COMPILERS], [
    AC_MSG_NOTICE([=== compilers])
    AC_REQUIRE([AC_PROG_CC])

    AC_PROG_FC([gfortran mpifort f95])
    AM_PROG_AR
    AC_PROG_LN_S
    MPIPROF_CFLAGS="-std=gnu11 -fvisibility=hidden -fno-omit-frame-pointer -Wall -Wextra -Wno-unused-parameter -Werror=implicit-function-declaration"
    AC_SUBST([MPIPROF_CFLAGS])
    AC_ARG_ENABLE([sanitizers],
        [AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
        [], [enable_sanitizers=no])
    AS_IF([test "x$enable_sanitizers" = "xyes"],
          [MPIPROF_CFLAGS="$MPIPROF_CFLAGS -fsanitize=address,undefined"])
    AM_CONDITIONAL([MPIPROF_SANITIZERS], [test "x$enable_sanitizers" = "xyes"])
    dnl Test hooks: knobs the tests turn that a release build must not pay
    dnl for (MPIPROF_TEST_CLOCK_SKEW adds to every clock reading).
    AC_ARG_ENABLE([test-hooks],
        [AS_HELP_STRING([--enable-test-hooks], [honour the MPIPROF_TEST_* variables (tests only: they falsify measurements)])],
        [], [enable_test_hooks=no])
    AS_IF([test "x$enable_test_hooks" = "xyes"],
          [AC_DEFINE([MPP_TEST_HOOKS], [1], [Define to honour the MPIPROF_TEST_* variables (tests only).])])
    AM_CONDITIONAL([HAVE_FC], [test -n "$FC"])
])
