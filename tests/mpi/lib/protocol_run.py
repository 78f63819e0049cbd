"""How a check script runs (re-exported by protocol_check.py as pc.run,
pc.prefixed, pc.RunAgain, pc.bad_usage, pc.Failures): its arguments, its
exit status and the line that says why it failed.

    def main(json_path, text_path, source, schema=None):
        doc = pc.load_checked(json_path, text_path, schema)
        ...

    if __name__ == "__main__":
        sys.exit(pc.run(main, __doc__))

Exit status: 0 when every check holds, 1 when one fails (its reason on
stderr, 'FAIL: ...'), 2 on wrong usage (the script's usage on stderr), 3
when the machine, not the program, made a check fail (RunAgain: the caller
runs the program again), or what main returns.
"""

import contextlib
import inspect
import sys

from protocol_base import ProtocolError


class RunAgain(ProtocolError):
    """A check failed because of the machine (a run disturbed by other
    jobs), not of the program: run() says 'AGAIN: ...' and exits 3."""


class Usage(Exception):
    """Wrong arguments: run() prints the script's usage and exits 2."""


def bad_usage():
    """Raise Usage (a main that parses its own options calls it)."""
    raise Usage()


@contextlib.contextmanager
def prefixed(what):
    """Failed checks inside say what first: 'FAIL: WHAT: ...' (the case,
    the thread level, the run a message is about)."""
    try:
        yield
    except AssertionError as e:
        raise type(e)("%s: %s" % (what, e)) from None


def run(main, usage, argv=None):
    """Call main with the command line's arguments (sys.argv[1:] when argv
    is None) and return the exit status: 2 with usage on stderr
    when their number does not fit main's parameters or main raises Usage;
    1 with 'FAIL: reason' on stderr when a check fails (AssertionError); 3
    with 'AGAIN: reason' on RunAgain; otherwise what main returns (None:
    0)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        inspect.signature(main).bind(*args)
    except TypeError:
        print(usage, file=sys.stderr)
        return 2
    try:
        status = main(*args)
    except Usage:
        print(usage, file=sys.stderr)
        return 2
    except RunAgain as e:
        print("AGAIN: %s" % e, file=sys.stderr)
        return 3
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return status or 0


class Failures:
    """Checks that go on after one fails (a script that runs a tool on many
    cases): each failure printed when found and kept; status() is 1 when
    any failed."""

    def __init__(self):
        self.found = []

    def fail(self, msg):
        self.found.append(msg)
        print("FAIL: " + msg, file=sys.stderr)

    def expect(self, what, actual, expected):
        """A failure unless actual == expected."""
        if actual != expected:
            self.fail("%s: %r, expected %r" % (what, actual, expected))

    def status(self):
        return 1 if self.found else 0
