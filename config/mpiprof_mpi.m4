# MPIPROF_CHECK_MPI: the MPI library, its compiler wrappers and mpi.h.  The
# library is built with the MPI C compiler so it sees exactly the mpi.h users
# compile with; one build is for one MPI library (--with-mpi).
AC_DEFUN([MPIPROF_CHECK_MPI], [
    AC_MSG_NOTICE([=== MPI])
    AC_ARG_VAR([MPICC], [MPI C compiler wrapper])
    AC_ARG_VAR([MPICXX], [MPI C++ compiler wrapper])
    AC_ARG_VAR([MPIFORT], [MPI Fortran compiler wrapper])
    AC_ARG_VAR([MPIEXEC], [MPI launcher used by the tests])
    AC_ARG_WITH([mpi],
        [AS_HELP_STRING([--with-mpi=mpich|openmpi|PATH],
            [the MPI library to build for: MPICH or Open MPI through their
             explicit names (mpicc.mpich, mpicc.openmpi ...), or PATH of an
             mpicc whose directory holds its mpicxx, mpifort and mpiexec
             (default: mpicc as found)])],
        [], [with_mpi=default])
    # The tools of the selected MPI, unless preset (MPICC=... etc.).
    case "$with_mpi" in
        default|yes) mpiprof_mpi_names="" mpiprof_mpi_dir="" ;;
        mpich|openmpi) mpiprof_mpi_names=".$with_mpi" mpiprof_mpi_dir="" ;;
        no) AC_MSG_ERROR([--without-mpi: mpiprof profiles MPI programs; it needs an MPI library (--with-mpi=mpich|openmpi|PATH-to-mpicc)]) ;;
        */*) AS_IF([test -x "$with_mpi"], [],
                   [AC_MSG_ERROR([--with-mpi=$with_mpi: no such executable; accepted: mpich, openmpi or the path of an MPI C compiler wrapper])])
             mpiprof_mpi_names="" mpiprof_mpi_dir=`dirname "$with_mpi"`
             AS_IF([test -z "$MPICC"], [MPICC=$with_mpi]) ;;
        *) AC_MSG_ERROR([--with-mpi=$with_mpi: unknown MPI; accepted: mpich, openmpi or the path of an MPI C compiler wrapper]) ;;
    esac
    AS_IF([test -n "$mpiprof_mpi_dir"], [
        AC_PATH_PROGS([MPICXX], [mpicxx mpic++ mpiCC], [no], [$mpiprof_mpi_dir])
        AC_PATH_PROGS([MPIFORT], [mpifort mpif90], [no], [$mpiprof_mpi_dir])
        AC_PATH_PROGS([MPIEXEC], [mpiexec mpirun], [no], [$mpiprof_mpi_dir])
    ], [test -n "$mpiprof_mpi_names"], [
        AC_PATH_PROGS([MPICC], [mpicc$mpiprof_mpi_names], [no])
        AC_PATH_PROGS([MPICXX], [mpicxx$mpiprof_mpi_names], [no])
        AC_PATH_PROGS([MPIFORT], [mpifort$mpiprof_mpi_names mpif90$mpiprof_mpi_names], [no])
        AC_PATH_PROGS([MPIEXEC], [mpiexec$mpiprof_mpi_names mpirun$mpiprof_mpi_names], [no])
    ], [
        AC_PATH_PROGS([MPICC], [mpicc mpicc.mpich], [no])
        AC_PATH_PROGS([MPICXX], [mpicxx mpicxx.mpich], [no])
        AC_PATH_PROGS([MPIFORT], [mpifort mpifort.mpich mpif90], [no])
        AC_PATH_PROGS([MPIEXEC], [mpiexec mpiexec.mpich mpirun], [no])
    ])
    AS_IF([test "x$MPICC" = "xno"],
          [AC_MSG_ERROR([mpicc${mpiprof_mpi_names} not found: install mpich and libmpich-dev (or libopenmpi-dev for --with-mpi=openmpi)])])
    AS_IF([test "x$MPIEXEC" = "xno"],
          [AC_MSG_ERROR([mpiexec${mpiprof_mpi_names} not found: install mpich (or openmpi-bin for --with-mpi=openmpi)])])
    # (Open MPI names its -I only when given a file to compile.)
    MPI_CPPFLAGS=`$MPICC -show -c conftest.c | tr ' ' '\n' | grep '^-I' | tr '\n' ' '`
    MPI_LIBS=`$MPICC -show | tr ' ' '\n' | grep '^-[[lL]]\|^-Wl' | tr '\n' ' '`
    mpiprof_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $MPI_CPPFLAGS"
    AC_CHECK_HEADER([mpi.h], [], [AC_MSG_ERROR([mpi.h not usable with $MPICC])])
    # The family and version from mpi.h: MPICH_VERSION, or Open MPI's
    # OMPI_{MAJOR,MINOR,RELEASE}_VERSION.
    AC_MSG_CHECKING([MPI library])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#if !defined(MPICH_VERSION)
#error not MPICH
#endif
]])], [mpiprof_mpi_family=mpich], [
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#if !defined(OMPI_MAJOR_VERSION)
#error not Open MPI
#endif
]])], [mpiprof_mpi_family=openmpi], [mpiprof_mpi_family=other])])
    cat > conftest.c <<_MPIPROF_EOF
#include <mpi.h>
#if defined(MPICH_VERSION)
mpiprof_version=MPICH_VERSION
#elif defined(OMPI_MAJOR_VERSION)
mpiprof_version=OMPI_MAJOR_VERSION.OMPI_MINOR_VERSION.OMPI_RELEASE_VERSION
#endif
_MPIPROF_EOF
    mpiprof_mpi_version=`$CC -E $CPPFLAGS conftest.c 2>/dev/null | sed -n 's/^mpiprof_version=//p' | tr -d '" '`
    rm -f conftest.c
    AS_CASE([$mpiprof_mpi_family],
        [mpich], [mpiprof_mpi_name="MPICH $mpiprof_mpi_version"],
        [openmpi], [mpiprof_mpi_name="Open MPI $mpiprof_mpi_version"],
        [mpiprof_mpi_name="unknown MPI"])
    AC_MSG_RESULT([$mpiprof_mpi_name])
    # Request handles: ints (MPICH) keyed by their 32 bits, pointers (Open
    # MPI) by 44 (src/intercept/handle_keys.h).
    AC_COMPUTE_INT([mpiprof_request_size], [(long)sizeof(MPI_Request)], [[#include <mpi.h>]],
                   [AC_MSG_ERROR([cannot compile with $MPICC's mpi.h])])
    AS_IF([test "$mpiprof_request_size" -le 4], [mpiprof_request_bits=32], [mpiprof_request_bits=44])
    AC_DEFINE_UNQUOTED([MPP_REQUEST_HANDLE_BITS], [$mpiprof_request_bits],
        [Bits of a request's key in the request table: 32 for int handles, 44 for pointers])
    CPPFLAGS=$mpiprof_save_CPPFLAGS
    AS_IF([test "x$with_mpi" = xmpich -o "x$with_mpi" = xopenmpi],
          [AS_IF([test "x$mpiprof_mpi_family" != "x$with_mpi"],
                 [AC_MSG_ERROR([--with-mpi=$with_mpi: $MPICC compiles with the mpi.h of $mpiprof_mpi_name])])])
    AS_IF([test "x$mpiprof_mpi_family" = "xother"],
          [AC_MSG_WARN([mpiprof is tested with MPICH and Open MPI; another MPI may need a regenerated description])])
    MPI_FAMILY=$mpiprof_mpi_family
    AC_SUBST([MPI_FAMILY])
    AC_DEFINE_UNQUOTED([MPP_MPI_FAMILY], ["$mpiprof_mpi_family"],
        [The MPI family the library is built for: mpich, openmpi or other])
    AC_DEFINE_UNQUOTED([MPP_MPI_BUILT_FOR], ["$mpiprof_mpi_name"],
        [The MPI library and version the library is built for])
    MPI_LIBDIR=`$MPICC -show | tr ' ' '\n' | grep '^-L' | head -n 1 | sed 's/^-L//'`
    AS_IF([test -z "$MPI_LIBDIR"], [MPI_LIBDIR=`dirname \`$MPICC -print-file-name=libmpich.so\``])
    AC_SUBST([MPI_CPPFLAGS])
    AC_SUBST([MPI_LIBS])
    AC_SUBST([MPI_LIBDIR])
    # Open MPI's Fortran bindings are entry points of their own (mpi_send_,
    # mpi_send_f08_): the wrappers of those its Fortran libraries define.
    MPI_FORTRAN_LIBS=
    AS_IF([test "x$mpiprof_mpi_family" = xopenmpi && test "x$MPIFORT" != xno], [
        AC_MSG_CHECKING([Open MPI's Fortran libraries])
        mpiprof_dirs=`{ $MPIFORT -show; $MPICC -show; } 2>/dev/null | tr ' ' '\n' | sed -n 's/^-L//p'`
        for mpiprof_lib in libmpi_mpifh.so libmpi_usempif08.so; do
            mpiprof_found=
            for mpiprof_dir in $mpiprof_dirs; do
                AS_IF([test -z "$mpiprof_found" && test -f "$mpiprof_dir/$mpiprof_lib"], [mpiprof_found=$mpiprof_dir/$mpiprof_lib])
            done
            AS_IF([test -z "$mpiprof_found"], [mpiprof_found=`$MPIFORT -print-file-name=$mpiprof_lib 2>/dev/null`])
            AS_IF([test -f "$mpiprof_found"], [MPI_FORTRAN_LIBS="$MPI_FORTRAN_LIBS $mpiprof_found"])
        done
        AC_MSG_RESULT([${MPI_FORTRAN_LIBS:-none}])
    ])
    AC_SUBST([MPI_FORTRAN_LIBS])
    # Debian's mpifort.openmpi names no -L of Open MPI's libmpi.so and links
    # whatever the libmpi.so alternative is (MPICH's, when MPICH stays the
    # default): the wrappers name Open MPI's library directory.
    MPI_WRAPPER_LDFLAGS=
    AS_IF([test "x$mpiprof_mpi_family" = xopenmpi && test -n "$MPI_LIBDIR"], [MPI_WRAPPER_LDFLAGS="-L$MPI_LIBDIR"])
    AC_SUBST([MPI_WRAPPER_LDFLAGS])
    mpiprof_summary_mpi="$mpiprof_mpi_name ($MPICC, $MPIEXEC)"
    AM_CONDITIONAL([HAVE_MPIFORT], [test "x$MPIFORT" != "xno"])
])
