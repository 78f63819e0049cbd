"""The ground the protocol checks stand on (protocol_check.py): the JSON
keys in protocol order, tolerances, the error every failed check raises,
loading a protocol, and comparisons of numbers."""

import json
import math
import os

# Per-process characteristics: the rows of the comparative table and the
# columns of the by-process table, in protocol order.
PER_PROCESS_KEYS = (
    "execution_time", "productive_time", "lost_time",
    "insufficient_parallelism", "communication", "sendrecv", "real_sync",
    "collective", "system", "idle_time", "load_imbalance", "potential_sync",
    "time_variation", "overlap",
)

# Keys of "main" (real and predicted).
MAIN_KEYS = (
    "parallelization_efficiency", "execution_time", "processors",
    "total_time", "productive_time", "productive_cpu", "productive_sys",
    "productive_io", "lost_time", "insufficient_parallelism",
    "communication", "sendrecv", "real_sync", "collective", "system",
    "idle_time", "load_imbalance", "potential_sync", "time_variation",
    "overlap",
)

# Tolerances for "equal" sums of floating-point seconds: the library may
# round its output (the text protocol has 6 decimals).
ABS_TOL = 1e-5
REL_TOL = 1e-6


class ProtocolError(AssertionError):
    """A protocol that breaks the contract."""


def fail(msg):
    raise ProtocolError(msg)


# --------------------------------------------------------------------------
# Loading and generic helpers

def load(path):
    """Load the JSON protocol at path (the .json file itself)."""
    if not os.path.exists(path):
        fail("JSON protocol %s does not exist" % path)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError as e:
        fail("JSON protocol %s is not valid JSON: %s" % (path, e))
    if not isinstance(doc, dict):
        fail("JSON protocol %s: top level is %s, not an object"
             % (path, type(doc).__name__))
    if doc.get("format") != "mpiprof-protocol":
        fail("JSON protocol %s: format is %r, expected 'mpiprof-protocol'"
             % (path, doc.get("format")))
    if not isinstance(doc.get("intervals"), list) or not doc["intervals"]:
        fail("JSON protocol %s: no intervals" % path)
    return doc


def approx(actual, expected, rel=0.10, abs_tol=0.0):
    """True when actual is within rel (relative to expected) or abs_tol."""
    if actual is None or expected is None:
        return False
    return abs(actual - expected) <= max(rel * abs(expected), abs_tol)


def check_approx(what, actual, expected, rel=0.10, abs_tol=0.0):
    """Raise with a clear message unless approx(actual, expected, ...)."""
    if actual is None:
        fail("%s is null (n/a), expected about %.6f" % (what, expected))
    if not approx(actual, expected, rel, abs_tol):
        fail("%s = %.6f, expected %.6f within %g%%%s (off by %.1f%%)"
             % (what, actual, expected, rel * 100,
                " or %g s" % abs_tol if abs_tol else "",
                100.0 * abs(actual - expected) / expected if expected
                else float("inf")))


def stat_sum(obj, key):
    """The sum of the statistic key of obj (an SRC point: {"sum", "min",
    ...}), 0 when it is null (n/a)."""
    return (obj.get(key) or {}).get("sum") or 0.0


def check_equal(what, actual, expected):
    if actual != expected:
        fail("%s = %r, expected %r" % (what, actual, expected))


def _close(a, b, scale=None):
    if scale is None:
        scale = max(abs(a), abs(b))
    return abs(a - b) <= ABS_TOL + REL_TOL * scale


def _num(where, x):
    """x if it is a number or None; otherwise fail."""
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        fail("%s is %r, not a number" % (where, x))
    if isinstance(x, float) and not math.isfinite(x):
        fail("%s is %r" % (where, x))
    return x


def _get(where, obj, key):
    if not isinstance(obj, dict):
        fail("%s is %r, not an object" % (where, obj))
    if key not in obj:
        fail("%s has no key %r (keys: %s)"
             % (where, key, ", ".join(sorted(obj))))
    return obj[key]
