#!/bin/sh
# netpipe: NetPIPE's MPI ping-pong (Debian package netpipe-mpich2, program
# NPmpi or NPmpich2; for a build for Open MPI, netpipe-openmpi's NPopenmpi),
# a stripped binary we did not build, run briefly with
# LD_PRELOAD=libmpiprof.so on 2 processes: it must exit 0 and yield a
# protocol that satisfies every invariant, on the MPI library of this build's
# family.  Skipped when NetPIPE is absent (maint/install-deps.sh installs
# netpipe-mpich2, and netpipe-openmpi with its argument openmpi).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"

np=""
candidates="NPmpi NPmpich2 /usr/bin/NPmpi /usr/bin/NPmpich2" package=netpipe-mpich2
if [ "${MPI_FAMILY:-mpich}" = openmpi ]; then
    candidates="NPopenmpi /usr/bin/NPopenmpi" package=netpipe-openmpi
fi
for cand in $candidates; do
    if p=$(command -v "$cand" 2>/dev/null) && [ -x "$p" ]; then
        np=$p
        break
    fi
done
[ -n "$np" ] || skip "NetPIPE ($candidates) not found; Debian package $package"

need_library

cd "$tmp"
# Messages of 1 byte to 1 KiB (-u), 5 repeats each (-n) and no perturbed
# sizes (-p 0): well under a second.
mpirun_2 out err env LD_PRELOAD="$(preload "$lib")" MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    "$np" -u 1024 -n 5 -p 0 -o "$tmp/np.out"
[ -s np.out ] || fail "NetPIPE wrote no results to np.out"
check_text_protocol prot.txt
# The library NetPIPE ran on is the family this build is for.
case ${MPI_FAMILY:-mpich} in
    openmpi) family='Open MPI' ;;
    *) family='MPICH' ;;
esac
grep -q "^MPI library *: $family" prot.txt || fail "$np ran on another MPI than $family: $(grep '^MPI library' prot.txt)"
echo "NetPIPE: $np, on $family"
"$PYTHON3" "$srcdir/check_netpipe.py" prot.txt.json prot.txt \
    || fail "protocol check failed (see above)"
echo "PASS: netpipe"
