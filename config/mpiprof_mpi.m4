# MPIPROF_CHECK_MPI: the MPI compiler wrappers and mpi.h.  The library is
# built with the MPI C compiler so it sees exactly the mpi.h users compile with.
AC_DEFUN([MPIPROF_CHECK_MPI], [
    AC_MSG_NOTICE([=== MPI])
    AC_ARG_VAR([MPICC], [MPI C compiler wrapper])
    AC_ARG_VAR([MPIFORT], [MPI Fortran compiler wrapper])
    AC_ARG_VAR([MPIEXEC], [MPI launcher used by the tests])
    AC_PATH_PROGS([MPICC], [mpicc mpicc.mpich], [no])
    AS_IF([test "x$MPICC" = "xno"], [AC_MSG_ERROR([mpicc not found: install mpich and libmpich-dev])])
    AC_PATH_PROGS([MPICXX], [mpicxx mpicxx.mpich], [no])
    AC_PATH_PROGS([MPIFORT], [mpifort mpifort.mpich mpif90], [no])
    AC_PATH_PROGS([MPIEXEC], [mpiexec mpiexec.mpich mpirun], [no])
    AS_IF([test "x$MPIEXEC" = "xno"], [AC_MSG_ERROR([mpiexec not found: install mpich])])
    MPI_CPPFLAGS=`$MPICC -show -c | tr ' ' '\n' | grep '^-I' | tr '\n' ' '`
    MPI_LIBS=`$MPICC -show | tr ' ' '\n' | grep '^-[[lL]]\|^-Wl' | tr '\n' ' '`
    mpiprof_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $MPI_CPPFLAGS"
    AC_CHECK_HEADER([mpi.h], [], [AC_MSG_ERROR([mpi.h not usable with $MPICC])])
    AC_MSG_CHECKING([MPI library])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#if !defined(MPICH_VERSION)
#error not MPICH
#endif
]])], [mpiprof_mpi_flavor=MPICH], [mpiprof_mpi_flavor=other])
    AC_MSG_RESULT([$mpiprof_mpi_flavor])
    CPPFLAGS=$mpiprof_save_CPPFLAGS
    AS_IF([test "x$mpiprof_mpi_flavor" != "xMPICH"],
          [AC_MSG_WARN([mpiprof is tested with MPICH; another MPI may need a regenerated description])])
    MPI_LIBDIR=`$MPICC -show | tr ' ' '\n' | grep '^-L' | head -n 1 | sed 's/^-L//'`
    AS_IF([test -z "$MPI_LIBDIR"], [MPI_LIBDIR=`dirname \`$MPICC -print-file-name=libmpich.so\``])
    AC_SUBST([MPI_CPPFLAGS])
    AC_SUBST([MPI_LIBS])
    AC_SUBST([MPI_LIBDIR])
    mpiprof_summary_mpi="$mpiprof_mpi_flavor ($MPICC)"
    AM_CONDITIONAL([HAVE_MPIFORT], [test "x$MPIFORT" != "xno"])
])
