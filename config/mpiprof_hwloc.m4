# MPIPROF_CHECK_HWLOC: machine topology and placement (optional).
# --with-hwloc=yes makes a missing hwloc an error; auto builds without it.
AC_DEFUN([MPIPROF_CHECK_HWLOC], [
    AC_MSG_NOTICE([=== hwloc])
    AC_ARG_WITH([hwloc], [AS_HELP_STRING([--with-hwloc], [use hwloc for topology (default: auto)])],
                [], [with_hwloc=auto])
    hwloc_happy=no
    AS_IF([test "x$with_hwloc" != "xno"],
          [PKG_CHECK_MODULES([HWLOC], [hwloc >= 2.0], [hwloc_happy=yes], [hwloc_happy=no])])
    AS_IF([test "x$with_hwloc" = "xyes" && test "x$hwloc_happy" = "xno"],
          [AC_MSG_ERROR([--with-hwloc given but hwloc was not found: install libhwloc-dev])])
    AS_IF([test "x$hwloc_happy" = "xyes"], [AC_DEFINE([MPIPROF_HAVE_HWLOC], [1], [hwloc available])])
    AM_CONDITIONAL([HAVE_HWLOC], [test "x$hwloc_happy" = "xyes"])
    AS_IF([test "x$hwloc_happy" = "xyes"], [mpiprof_summary_hwloc=yes],
          [test "x$with_hwloc" = "xno"], [mpiprof_summary_hwloc="no (--without-hwloc): Machine and Placement are n/a"],
          [mpiprof_summary_hwloc="no (not found): Machine and Placement are n/a"])
])
