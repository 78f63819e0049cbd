#!/bin/sh
# Install the Debian packages mpiprof needs to build, test and run its demo.
# Idempotent: installs only what is missing. Needs root (or sudo).
#
#   maint/install-deps.sh            MPICH (the default MPI)
#   maint/install-deps.sh openmpi    Open MPI too, for configure --with-mpi=openmpi
#
# Installing Open MPI switches Debian's mpicc/mpiexec alternatives (and
# /usr/include/<arch>/mpi, libmpi.so) to it: they are set back to MPICH, so
# that MPICH stays the default; Open MPI is reached by its explicit names
# (mpicc.openmpi, mpiexec.openmpi).
set -eu
PKGS="build-essential gfortran autoconf automake libtool pkg-config cmake python3 python3-jsonschema
      mpich libmpich-dev hwloc libhwloc-dev libpapi-dev papi-tools check
      libdw-dev libelf-dev libc6-dbg libjansson-dev netpipe-mpich2 file valgrind clang-format groff-base
      libotf2-trace-dev otf2-tools python3-otf2
      chromium chromium-driver python3-selenium"
case "${1:-}" in
    "") ;;
    openmpi) PKGS="$PKGS libopenmpi-dev openmpi-bin netpipe-openmpi" ;;
    *) echo "install-deps: unknown argument '$1'; accepted: openmpi (or nothing: MPICH only)" >&2; exit 2 ;;
esac
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# MPICH as Debian's default MPI, whatever installed Open MPI beside it.
mpich_default() {
    command -v update-alternatives >/dev/null 2>&1 || return 0
    arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    for alt in "mpi /usr/bin/mpicc.mpich" "mpirun /usr/bin/mpirun.mpich" \
               "mpi-$arch /usr/include/$arch/mpich"; do
        # shellcheck disable=SC2086  # two words: the alternative and its MPICH choice
        set -- $alt
        if update-alternatives --query "$1" 2>/dev/null | grep -q "^Alternative: $2\$"; then
            update-alternatives --query "$1" | grep -q "^Value: $2\$" || $SUDO update-alternatives --set "$1" "$2"
        fi
    done
}

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    mpich_default
    exit 0
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086  # a list of package names
$SUDO apt-get install -y -qq --no-install-recommends $missing
mpich_default
