# MPIPROF_CHECK_JANSSON: the JSON protocol is written with jansson (required).
AC_DEFUN([MPIPROF_CHECK_JANSSON], [
    AC_MSG_NOTICE([=== jansson])
    PKG_CHECK_MODULES([JANSSON], [jansson >= 2.10], [jansson_happy=yes],
        [AC_MSG_ERROR([jansson not found: install libjansson-dev])])
    mpiprof_summary_jansson="yes"
])
