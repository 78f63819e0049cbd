# MPIPROF_CHECK_PAPI: hardware counters (optional), same rules as hwloc.
AC_DEFUN([MPIPROF_CHECK_PAPI], [
    AC_MSG_NOTICE([=== PAPI])
    AC_ARG_WITH([papi], [AS_HELP_STRING([--with-papi], [use PAPI for hardware counters (default: auto)])],
                [], [with_papi=auto])
    papi_happy=no
    AS_IF([test "x$with_papi" != "xno"],
          [PKG_CHECK_MODULES([PAPI], [papi], [papi_happy=yes],
              [mpiprof_save_LIBS=$LIBS
               AC_CHECK_HEADER([papi.h], [AC_CHECK_LIB([papi], [PAPI_library_init],
                   [papi_happy=yes; PAPI_LIBS=-lpapi; PAPI_CFLAGS=])])
               LIBS=$mpiprof_save_LIBS])])
    AS_IF([test "x$with_papi" = "xyes" && test "x$papi_happy" = "xno"],
          [AC_MSG_ERROR([--with-papi given but PAPI was not found: install libpapi-dev])])
    AS_IF([test "x$papi_happy" = "xyes"], [AC_DEFINE([MPIPROF_HAVE_PAPI], [1], [PAPI available])])
    AC_SUBST([PAPI_LIBS])
    AC_SUBST([PAPI_CFLAGS])
    AM_CONDITIONAL([HAVE_PAPI], [test "x$papi_happy" = "xyes"])
    # PAPI's software-defined events (libsde): only the tests use them, to
    # drive counters whose values they know on machines without hardware ones.
    sde_happy=no
    PAPI_SDE_LIBS=
    AS_IF([test "x$papi_happy" = "xyes"],
          [mpiprof_save_CPPFLAGS=$CPPFLAGS
           mpiprof_save_LIBS=$LIBS
           CPPFLAGS="$CPPFLAGS $PAPI_CFLAGS"
           AC_CHECK_HEADER([sde_lib.h], [AC_CHECK_LIB([sde], [papi_sde_init], [sde_happy=yes; PAPI_SDE_LIBS=-lsde])])
           CPPFLAGS=$mpiprof_save_CPPFLAGS
           LIBS=$mpiprof_save_LIBS])
    AC_SUBST([PAPI_SDE_LIBS])
    AS_IF([test "x$papi_happy" = "xyes"], [mpiprof_summary_papi="yes (software-defined events for the tests: $sde_happy)"],
          [test "x$with_papi" = "xno"], [mpiprof_summary_papi="no (--without-papi): Hardware counters are n/a"],
          [mpiprof_summary_papi="no (not found): Hardware counters are n/a"])
])
