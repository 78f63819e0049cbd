# MPIPROF_CHECK_OTF2: trace mode (MPIPROF_TRACE=on) writes OTF2 archives with
# libotf2 (optional; without it trace mode is refused at MPI_Init, with a
# warning).  --with-otf2=PATH: libotf2 installed under PATH.
AC_DEFUN([MPIPROF_CHECK_OTF2], [
    AC_MSG_NOTICE([=== OTF2 (trace mode)])
    AC_ARG_WITH([otf2], [AS_HELP_STRING([--with-otf2@<:@=PATH@:>@],
                [write OTF2 traces with libotf2 (under PATH) in trace mode (default: auto)])],
                [], [with_otf2=auto])
    otf2_happy=no
    OTF2_CFLAGS=
    OTF2_LIBS=
    AS_IF([test "x$with_otf2" != "xno"],
          [AS_CASE([$with_otf2], [yes|auto], [],
                   [OTF2_CFLAGS="-I$with_otf2/include"
                    AS_IF([test -d "$with_otf2/lib64"], [OTF2_LIBS="-L$with_otf2/lib64 -Wl,-rpath,$with_otf2/lib64"],
                          [OTF2_LIBS="-L$with_otf2/lib -Wl,-rpath,$with_otf2/lib"])])
           mpiprof_save_CPPFLAGS=$CPPFLAGS
           mpiprof_save_LIBS=$LIBS
           CPPFLAGS="$CPPFLAGS $OTF2_CFLAGS"
           LIBS="$OTF2_LIBS $LIBS"
           AC_CHECK_HEADER([otf2/otf2.h], [AC_CHECK_LIB([otf2], [OTF2_Archive_Open],
               [otf2_happy=yes; OTF2_LIBS="$OTF2_LIBS -lotf2"])])
           CPPFLAGS=$mpiprof_save_CPPFLAGS
           LIBS=$mpiprof_save_LIBS])
    AS_IF([test "x$with_otf2" != "xno" && test "x$with_otf2" != "xauto" && test "x$otf2_happy" = "xno"],
          [AC_MSG_ERROR([--with-otf2 given but libotf2 was not found: install libotf2-trace-dev])])
    AS_IF([test "x$otf2_happy" = "xyes"], [AC_DEFINE([MPIPROF_HAVE_OTF2], [1], [libotf2 available: trace mode])])
    AC_SUBST([OTF2_LIBS])
    AC_SUBST([OTF2_CFLAGS])
    AM_CONDITIONAL([HAVE_OTF2], [test "x$otf2_happy" = "xyes"])
    AC_PATH_PROG([OTF2_PRINT], [otf2-print], [])
    AS_IF([test "x$otf2_happy" = "xyes"], [mpiprof_summary_otf2="yes: MPIPROF_TRACE=on writes OTF2 traces"],
          [test "x$with_otf2" = "xno"], [mpiprof_summary_otf2="no (--without-otf2): MPIPROF_TRACE=on is refused"],
          [mpiprof_summary_otf2="no (not found): MPIPROF_TRACE=on is refused"])
])
