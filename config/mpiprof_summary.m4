# MPIPROF_SUMMARY: the table of what configure found, printed last.
AC_DEFUN([MPIPROF_SUMMARY], [
    cat <<SUMMARY

mpiprof $PACKAGE_VERSION configuration summary
  MPI library ............. $mpiprof_summary_mpi
  Fortran (mpifort) ....... $MPIFORT
  JSON output (jansson) ... $mpiprof_summary_jansson
  Source lines (libdw) .... $mpiprof_summary_libdw
  Topology (hwloc) ........ $mpiprof_summary_hwloc
  Counters (PAPI) ......... $mpiprof_summary_papi
  Trace mode (OTF2) ....... $mpiprof_summary_otf2
  Unit tests (Check) ...... $mpiprof_summary_check
  Partial protocols fork .. $mpiprof_summary_fork
  Sanitizers .............. $enable_sanitizers
  Test hooks .............. $enable_test_hooks
  Install prefix .......... $prefix

SUMMARY
])
