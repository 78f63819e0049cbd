#!/bin/sh
# Install the Debian packages mpiprof needs to build, test and run its demo.
# Idempotent: installs only what is missing. Needs root (or sudo).
set -eu
PKGS="build-essential gfortran autoconf automake libtool pkg-config python3 python3-jsonschema
      mpich libmpich-dev hwloc libhwloc-dev libpapi-dev papi-tools check
      libdw-dev libelf-dev libjansson-dev netpipe-mpich2 file
      libotf2-trace-dev otf2-tools python3-otf2
      chromium chromium-driver python3-selenium"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { echo "install-deps: all packages present"; exit 0; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
