# shellcheck shell=sh
# Helpers of the machine-context tests (test_machine.sh, test_two_hosts.sh,
# test_counters_*.sh), sourced after common.sh.
#
#   built_with hwloc|papi   true when libmpiprof was built with that library
#                           (MPIPROF_TEST_HWLOC / MPIPROF_TEST_PAPI from make
#                           check; run by hand: what the library itself
#                           links, not through libmpi, which may use hwloc)

built_with() {
    case $1 in
        hwloc) _b=${MPIPROF_TEST_HWLOC:-} ;;
        papi) _b=${MPIPROF_TEST_PAPI:-} ;;
        *) fail "built_with: unknown library $1" ;;
    esac
    if [ -z "$_b" ]; then
        if readelf -d "$MPIPROF_LIBDIR/libmpiprof.so" 2>/dev/null | grep -q "NEEDED.*\[lib$1[.]"; then
            _b=yes
        else
            _b=no
        fi
    fi
    [ "$_b" = yes ]
}

# check_context ARGS...: run check_context.py, fail the test when it fails.
check_context() {
    # shellcheck disable=SC2154  # srcdir: common.sh
    "$PYTHON3" "$srcdir/check_context.py" "$@" || fail "protocol check '$1' failed (see above)"
}
