#!/bin/sh
# The protocol checks every integration test relies on (tests/mpi/lib/
# protocol_check.py and the modules it is made of) must be able to fail:
# their self test breaks hand-made protocols one way at a time, and each
# must be caught for the right reason.
set -eu
cd "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib"
exec "${PYTHON3:?}" protocol_check.py --selftest
