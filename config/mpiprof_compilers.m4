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
    AM_CONDITIONAL([HAVE_FC], [test -n "$FC"])
])
