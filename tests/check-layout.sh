#!/bin/sh
# The layout of src/ (src/layout.txt: who may include whom; the MPI-free
# library without mpi.h; no import cycle), by tests/check_layout.py.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
exec "${PYTHON3:-python3}" "$top/tests/check_layout.py" "$top"
