"""Hostile MPIPROF_* settings for tests/mpi/context/fuzz_config.c: run it, check it.

usage: check_fuzz_config.py CONFIG_VARS.def PROGRAM WORKDIR

Driven by test_fuzz_config.sh.  Environment: MPIEXEC (the launcher),
MPIPROF_TEST_PAPI (yes: the library counts with PAPI).

The variables come from the configuration table (config_vars.def), read
here at test time: a variable added to the table is fuzzed without a change
to this file.  Every variable gets every malformed value that applies to
its kind (empty, 10^30, 2^63, -2^63-1, -1, non-numeric, out of range,
5000 bytes, printf formats, control characters; file names and event lists
that cannot work).  Several variables are fuzzed in one run (one value
class per run, every variable it applies to), since each check below is
about one variable and cannot be confused with another's:

  - the program exits 0 and its stdout is byte for byte that of a run
    without settings (the baseline);
  - a protocol is written where it should be (MPIPROF_OUTPUT's, or the
    default name in the working directory when MPIPROF_OUTPUT is the one
    fuzzed) and its invariants hold;
  - the warnings that the baseline does not have are exactly one per
    fuzzed variable, each naming the variable, the value (control
    characters shown as '?') and the default; on stderr the same, once
    (rank 0 only);
  - the JSON configuration block gives the variable's default with
    "default": true.
MPIPROF_FORMAT is fuzzed in runs of its own (its default writes no JSON;
the text protocol's Configuration line is checked instead).

Then the output path: a directory that is a regular file, /proc (which even
root cannot write), a read-only directory (not as root: root ignores
permissions), a missing directory, an unwritable working directory as well
(the /tmp fallback), an existing directory, a long program name, and an
existing protocol (never overwritten without MPIPROF_OVERWRITE=1).  Each:
one warning that says where the protocol went, and the protocol is there.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import protocol_check as pc

PROGRAM_LINE = "fuzz_config: 2 processes, rank sum 1\n"
RUNS = 0


# --------------------------------------------------------------------------
# The configuration table

def parse_table(path):
    """[{name, kind, default, min, max, accepted}] from config_vars.def."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    token = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[-\w]+|[(),])')
    out = []
    pos = 0
    while True:
        i = text.find("MPP_VAR(", pos)
        if i < 0:
            break
        pos = i + len("MPP_VAR(")
        args, cur = [], []
        while True:
            m = token.match(text, pos)
            if not m:
                pc.fail("%s: cannot parse MPP_VAR at offset %d" % (path, i))
            pos = m.end()
            t = m.group(1)
            if t in (",", ")"):
                args.append(cur)
                cur = []
                if t == ")":
                    break
            else:
                cur.append(t)

        def value(parts):
            if parts and parts[0].startswith('"'):
                return "".join(json.loads(p) for p in parts)
            return " ".join(parts)
        args = [value(a) for a in args]
        if len(args) != 7:
            pc.fail("%s: MPP_VAR with %d arguments: %r" % (path, len(args), args))
        out.append({"name": args[0], "kind": args[1], "default": args[2],
                    "min": int(args[3]), "max": int(args[4]),
                    "accepted": args[5]})
    if not out:
        pc.fail("%s: no MPP_VAR entries" % path)
    return out


# --------------------------------------------------------------------------
# Malformed values by kind

def valid_value(var):
    """A value the kind accepts (to which control characters are added; for
    a string of unknown syntax, any printable text)."""
    kind = var["kind"]
    if kind == "MPP_VT_INT":
        return str(var["min"])
    if kind == "MPP_VT_BOOL":
        return "yes"
    if kind == "MPP_VT_ENUM":
        return var["accepted"].split("|")[0]
    if kind == "MPP_VT_FORMAT":
        return "text,json"
    if kind == "MPP_VT_CHECK":
        return "full,checksum"
    if kind == "MPP_VT_RANKS":
        return "0"
    if var["name"] == "OUTPUT":
        return "run.prof"
    return "none"


def overlong(var):
    """5000 bytes, as close to valid as the kind allows."""
    kind = var["kind"]
    if kind == "MPP_VT_RANKS":
        return ("0," * 2500)[:4999] + "1"  # valid syntax, far too long
    if kind == "MPP_VT_STRING":
        if var["name"] == "OUTPUT":  # a path of short names
            v = "/tmp/" + ("d" * 99 + "/") * 49
            return v + "x" * (5000 - len(v))
        return ("PAPI_TOT_INS," * 400)[:4999] + "X"
    return "9" * 5000


CONTROL = "\x01\x1b[31m\t\r\n\x7f"

# (class, {kind: value or function of var}); a kind left out: the class
# does not apply (a valid value of that kind, e.g. "abc" as a file name).
NUMERIC = ("MPP_VT_INT", "MPP_VT_BOOL", "MPP_VT_ENUM", "MPP_VT_FORMAT", "MPP_VT_CHECK", "MPP_VT_RANKS")
CLASSES = [
    ("empty", {k: "" for k in NUMERIC + ("MPP_VT_STRING",)}),
    ("10^30", {k: "1" + "0" * 30 for k in NUMERIC}),
    ("2^63", {k: "9223372036854775808" for k in NUMERIC}),
    ("-2^63-1", {k: "-9223372036854775809" for k in NUMERIC}),
    ("negative", {k: "-1" for k in NUMERIC}),
    ("non-numeric", {k: "abc" for k in NUMERIC}),
    ("out of range", {
        "MPP_VT_INT": lambda v: str(v["max"] + 1),
        "MPP_VT_BOOL": "2",
        "MPP_VT_ENUM": lambda v: str(len(v["accepted"].split("|"))),
        "MPP_VT_FORMAT": "text,json,text",
        "MPP_VT_CHECK": "off,checksum",
        "MPP_VT_RANKS": "3-1"}),
    ("overlong", {k: overlong for k in NUMERIC + ("MPP_VT_STRING",)}),
    ("printf format", {k: "%n%n%s%s" for k in NUMERIC + ("MPP_VT_STRING",)}),
    ("control characters", {k: (lambda v: valid_value(v) + CONTROL)
                            for k in NUMERIC + ("MPP_VT_STRING",)}),
    # file names and event lists that cannot work (other strings: their
    # syntax is not known here, only the classes above apply to them)
    ("unusable string", {"MPP_VT_STRING": lambda v: {
        "OUTPUT": "/tmp/" + "L" * 300 + ".prof", "PAPI_EVENTS": ",,,"}.get(v["name"])}),
    ("unusable string 2", {"MPP_VT_STRING": lambda v: {
        "OUTPUT": "/tmp/", "PAPI_EVENTS": "PAPI_TOT_INS PAPI_TOT_CYC"}.get(v["name"])}),
]


def class_values(cls, variables):
    """{name: value} of the class for every variable it applies to."""
    _, by_kind = cls
    out = {}
    for var in variables:
        v = by_kind.get(var["kind"])
        if callable(v):
            v = v(var)
        if v is not None:  # None: the class does not apply to this variable
            out[var["name"]] = v
    return out


def shown(value):
    """The value as a warning shows it (control characters as '?')."""
    return "".join("?" if ord(c) < 0x20 or ord(c) >= 0x7f else c
                   for c in value)


# --------------------------------------------------------------------------
# Running the program

class Run:
    def __init__(self, stdout, stderr, cwd):
        self.stdout, self.stderr, self.cwd = stdout, stderr, cwd

    def stderr_warnings(self):
        return [ln[len("mpiprof: warning: "):] for ln in self.stderr.splitlines()
                if ln.startswith("mpiprof: warning: ") and not MACHINE_STATE.search(ln)]


def run(program, workdir, label, settings, cwd=None, what=""):
    """Run the program on 2 processes with settings ({NAME: value}, names
    without MPIPROF_) in a fresh directory (or cwd)."""
    global RUNS
    RUNS += 1
    rundir = os.path.join(workdir, "run%02d" % RUNS)
    os.mkdir(rundir)
    spec = os.path.join(rundir, "settings")
    with open(spec, "wb") as f:
        for name, value in settings.items():
            f.write(("MPIPROF_%s=" % name).encode() + value.encode("utf-8", "surrogateescape") + b"\0")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MPIPROF_")}
    cmd = [os.environ.get("MPIEXEC", "mpiexec"), "-n", "2", program, spec]
    p = subprocess.run(cmd, cwd=cwd or rundir, env=env, capture_output=True,
                       timeout=120)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    where = "%s%s" % (label, (" (%s)" % what) if what else "")
    if p.returncode != 0:
        pc.fail("%s: the program exited %d\n--- stdout\n%s--- stderr\n%s"
                % (where, p.returncode, out, err))
    if out != PROGRAM_LINE:
        pc.fail("%s: stdout is %r, expected exactly %r" % (where, out, PROGRAM_LINE))
    return Run(out, err, cwd or rundir)


# Warnings about the machine's state, not the settings: the model's
# calibration and the clock alignment on a loaded machine (their ping-pongs
# then measure the scheduler).  Set aside, so that a busy CI host does not
# fail the test.
MACHINE_STATE = re.compile(r"the communication model could not be calibrated|Wait states: differences below")


def protocol_warnings(doc):
    return [w for w in pc.warnings(doc) if not MACHINE_STATE.search(w)]


def text_warnings(path):
    """The Warnings lines of a text protocol."""
    return [w for w in pc.text_warnings(path) if not MACHINE_STATE.search(w)]


def text_configuration(path):
    params = pc.text_parameters(pc.read_lines(path))
    if "Configuration" not in params:
        pc.fail("%s: no Configuration line" % path)
    # one variable a line, under the Configuration line
    return ", ".join([params["Configuration"][0].strip()] + params["Configuration"][1])


def names_var(text, name):
    return re.search(r"MPIPROF_%s(?![A-Z0-9_])" % name, text) is not None


def check_var_warnings(where, new, name, value, default, source):
    """Exactly one of the new warnings names the variable; it shows the
    value and the default."""
    mine = [w for w in new if names_var(w, name)]
    if len(mine) != 1:
        pc.fail("%s: %s: %d new warnings name MPIPROF_%s, expected exactly 1:"
                "\n  %s" % (where, source, len(mine), name, "\n  ".join(new) or "(none)"))
    w = mine[0]
    s = shown(value)
    want = "MPIPROF_%s='%s" % (name, s[:60])
    if want not in w:
        pc.fail("%s: %s: the warning does not show the value as %r: %s"
                % (where, source, want, w))
    if len(value) <= 81 and "MPIPROF_%s='%s'" % (name, s) not in w:
        pc.fail("%s: %s: the warning does not show the whole value %r: %s"
                % (where, source, s, w))
    if "'%s'" % default not in w:
        pc.fail("%s: %s: the warning does not name the default '%s': %s"
                % (where, source, default, w))
    return mine


# --------------------------------------------------------------------------
# Parts of the test

def baseline(program, workdir):
    r = run(program, workdir, "baseline", {"FORMAT": "both",
                                           "OUTPUT": "prot.txt"})
    doc = pc.load_checked(os.path.join(r.cwd, "prot.txt.json"), say=False)
    return r, doc


def fuzz_class(program, workdir, cls, variables, base_run, base_doc):
    """One run with every variable but FORMAT fuzzed by the class, and one
    with FORMAT alone."""
    label = "class '%s'" % cls[0]
    values = class_values(cls, variables)
    defaults = {v["name"]: v["default"] for v in variables}
    base_warnings = set(protocol_warnings(base_doc))
    base_stderr = set(base_run.stderr_warnings())
    base_cfg = base_doc["parameters"]["configuration"]
    checked = []

    values_main = {k: v for k, v in values.items() if k != "FORMAT"}
    if values_main:
        settings = dict(values_main)
        settings.setdefault("FORMAT", "both")
        settings.setdefault("OUTPUT", "prot.txt")
        where = "%s (%s)" % (label, ", ".join("MPIPROF_" + k for k in sorted(values_main)))
        r = run(program, workdir, label, settings, what=", ".join(sorted(values_main)))
        if "OUTPUT" in values_main:
            texts = [p for p in glob.glob(os.path.join(r.cwd, "fuzz_config.2p.*.prof"))]
            if len(texts) != 1:
                pc.fail("%s: MPIPROF_OUTPUT's default should put one protocol "
                        "fuzz_config.2p.<unique>.prof in the working directory; "
                        "found %r (directory: %r)" % (where, texts, sorted(os.listdir(r.cwd))))
            text = texts[0]
        else:
            text = os.path.join(r.cwd, "prot.txt")
        doc = pc.load_checked(text + ".json", say=False)
        new = [w for w in protocol_warnings(doc) if w not in base_warnings]
        new_err = [w for w in r.stderr_warnings() if w not in base_stderr]
        mine = []
        for name, value in sorted(values_main.items()):
            mine += check_var_warnings(where, new, name, value, defaults[name], "protocol Warnings")
            check_var_warnings(where, new_err, name, value, defaults[name], "stderr")
            cfg = doc["parameters"]["configuration"]["MPIPROF_" + name]
            if cfg != {"value": defaults[name], "default": True}:
                pc.fail("%s: configuration of MPIPROF_%s is %r, expected the "
                        "default %r with default=true" % (where, name, cfg, defaults[name]))
            checked.append(name)
        extra = [w for w in new if w not in mine]
        if extra:
            pc.fail("%s: warnings besides one per fuzzed variable:\n  %s"
                    % (where, "\n  ".join(extra)))
        if len(new_err) != len(values_main):
            pc.fail("%s: %d new warning lines on stderr for %d fuzzed variables "
                    "(rank 0 only, once each):\n%s"
                    % (where, len(new_err), len(values_main), r.stderr))
        for name, cfg in doc["parameters"]["configuration"].items():
            if name[len("MPIPROF_"):] not in values_main and cfg != base_cfg.get(name):
                pc.fail("%s: %s changed although not fuzzed: %r (baseline %r)"
                        % (where, name, cfg, base_cfg.get(name)))

    if "FORMAT" in values:
        value = values["FORMAT"]
        r = run(program, workdir, label, {"FORMAT": value, "OUTPUT": "prot.txt"},
                what="FORMAT")
        where = "%s (MPIPROF_FORMAT)" % label
        text = os.path.join(r.cwd, "prot.txt")
        if not os.path.exists(text):
            pc.fail("%s: no text protocol prot.txt (the default format)" % where)
        if os.path.exists(text + ".json"):
            pc.fail("%s: a JSON protocol was written: the default format is text" % where)
        base_text = set(text_warnings(os.path.join(base_run.cwd, "prot.txt")))
        new = [w for w in text_warnings(text) if w not in base_text]
        new_err = [w for w in r.stderr_warnings() if w not in base_stderr]
        mine = check_var_warnings(where, new, "FORMAT", value, defaults["FORMAT"], "protocol Warnings")
        check_var_warnings(where, new_err, "FORMAT", value, defaults["FORMAT"], "stderr")
        if len(new) != 1 or len(new_err) != 1:
            pc.fail("%s: new warnings besides the one for MPIPROF_FORMAT:\n  %s\nstderr:\n%s"
                    % (where, "\n  ".join(new), r.stderr))
        cfg = text_configuration(text)
        if "MPIPROF_FORMAT=%s (default)" % defaults["FORMAT"] not in cfg:
            pc.fail("%s: the Configuration line does not give MPIPROF_FORMAT=%s "
                    "(default): %s" % (where, defaults["FORMAT"], cfg))
        checked.append("FORMAT")
    return checked


def papi_unknown_event(program, workdir, base_doc):
    """A well-formed list with an event PAPI does not know: kept (not the
    default), the event dropped with one warning naming the variable and
    the event."""
    value = "NO_SUCH_EVENT_MPIPROF"
    r = run(program, workdir, "unknown PAPI event",
            {"PAPI_EVENTS": value, "FORMAT": "both", "OUTPUT": "prot.txt"})
    doc = pc.load(os.path.join(r.cwd, "prot.txt.json"))
    cfg = doc["parameters"]["configuration"]["MPIPROF_PAPI_EVENTS"]
    if cfg != {"value": value, "default": False}:
        pc.fail("unknown PAPI event: configuration %r, expected the value kept" % cfg)
    named = [w for w in protocol_warnings(doc) if value in w]
    if os.environ.get("MPIPROF_TEST_PAPI") != "yes":
        print("NOTE: built without PAPI: MPIPROF_PAPI_EVENTS has no effect, no warning expected")
        if named:
            pc.fail("unknown PAPI event without PAPI: unexpected warnings %r" % named)
        return
    if len(named) != 1 or not names_var(named[0], "PAPI_EVENTS"):
        pc.fail("unknown PAPI event: expected exactly one warning naming "
                "MPIPROF_PAPI_EVENTS and %s; got %r" % (value, protocol_warnings(doc)))
    if len([w for w in r.stderr_warnings() if value in w]) != 1:
        pc.fail("unknown PAPI event: not exactly one stderr warning:\n%s" % r.stderr)


def output_warning(where, r, doc_path_hint=None):
    """The one warning about MPIPROF_OUTPUT on stderr."""
    ws = [w for w in r.stderr_warnings() if names_var(w, "OUTPUT")]
    if len(ws) != 1:
        pc.fail("%s: %d warnings about MPIPROF_OUTPUT on stderr, expected 1:\n%s"
                % (where, len(ws), r.stderr))
    return ws[0]


def fallback_cases(program, workdir):
    """Unusable directories: one warning stating the fallback, protocol there."""
    tag = "%d-%d" % (os.getpid(), int(time.time()))
    cases = [
        ("directory is a regular file", "/etc/passwd/x-%s.prof" % tag, None),
        ("/proc, which even root cannot write", "/proc/x-%s.prof" % tag, None),
        ("missing directory", "missing/sub/x-%s.prof" % tag, None),
    ]
    if os.geteuid() != 0:
        ro = os.path.join(workdir, "readonly")
        os.mkdir(ro, 0o555)
        cases.append(("read-only directory (chmod 555)", os.path.join(ro, "x-%s.prof" % tag), None))
    else:
        print("NOTE: running as root, which ignores permissions: the chmod 555 case is "
              "replaced by /etc/passwd/x.prof and /proc (unwritable for root too)")
    # The working directory is unwritable too (/proc): the fallback is /tmp.
    cases.append(("unwritable directory and working directory", "/etc/passwd/x-%s.prof" % tag, "/proc"))
    for what, path, cwd in cases:
        r = run(program, workdir, "MPIPROF_OUTPUT=%s" % path,
                {"OUTPUT": path, "FORMAT": "both"}, cwd=cwd, what=what)
        w = output_warning(what, r)
        m = re.search(r"the protocol goes to (the working directory|/tmp) instead: (.+)$", w)
        if not m or path not in w:
            pc.fail("%s: the warning does not name the path and state the fallback: %s" % (what, w))
        target = os.path.join(r.cwd, m.group(2))
        try:
            doc = pc.load_checked(target + ".json", say=False)
            if not os.path.exists(target):
                pc.fail("%s: no text protocol at the fallback %s" % (what, target))
            if w not in protocol_warnings(doc):
                pc.fail("%s: the protocol's Warnings lack %r" % (what, w))
        finally:
            if m.group(1) == "/tmp":
                for f in (target, target + ".json"):
                    if os.path.exists(f):
                        os.unlink(f)
        print("ok: %s: protocol at the fallback %s" % (what, m.group(2)))


def existing_file_cases(program, workdir):
    d = os.path.join(workdir, "existing")
    os.mkdir(d)
    precious = os.path.join(d, "prot.txt")
    with open(precious, "w") as f:
        f.write("precious\n")
    for n in (1, 2):
        r = run(program, workdir, "existing protocol, run %d" % n,
                {"OUTPUT": precious, "FORMAT": "both"})
        w = output_warning("existing protocol", r)
        want = "'%s' exists and MPIPROF_OVERWRITE is off; the protocol is written to '%s.%d'" % (precious, precious, n)
        if want not in w:
            pc.fail("existing protocol, run %d: warning %r lacks %r" % (n, w, want))
        if open(precious).read() != "precious\n":
            pc.fail("existing protocol, run %d: %s was overwritten" % (n, precious))
        pc.load_checked("%s.%d.json" % (precious, n), say=False)
    # numbered files are not overwritten either
    if not os.path.exists(precious + ".1") or not os.path.exists(precious + ".2"):
        pc.fail("existing protocol: %s.1 and .2 expected" % precious)
    r = run(program, workdir, "existing protocol, MPIPROF_OVERWRITE=1",
            {"OUTPUT": precious, "FORMAT": "both", "OVERWRITE": "1"})
    if any(names_var(w, "OUTPUT") for w in r.stderr_warnings()):
        pc.fail("MPIPROF_OVERWRITE=1: unexpected warning:\n%s" % r.stderr)
    if open(precious).read() == "precious\n":
        pc.fail("MPIPROF_OVERWRITE=1: %s was not replaced" % precious)
    pc.load_checked(precious + ".json", say=False)
    print("ok: an existing protocol is kept (numbered suffix and a warning), replaced with MPIPROF_OVERWRITE=1")


def directory_and_long_name_cases(program, workdir):
    # MPIPROF_OUTPUT names an existing directory: the default name inside it
    d = os.path.join(workdir, "outdir")
    os.mkdir(d)
    r = run(program, workdir, "MPIPROF_OUTPUT=<a directory>", {"OUTPUT": d, "FORMAT": "both"})
    w = output_warning("a directory", r)
    m = re.search(r"is a directory; the protocol is written into it: '(.+)'$", w)
    if not m or not os.path.exists(m.group(1)) or os.path.dirname(m.group(1)) != d:
        pc.fail("a directory as MPIPROF_OUTPUT: %s; directory holds %r" % (w, os.listdir(d)))
    pc.load_checked(m.group(1) + ".json", say=False)
    # a program name so long that the default file name cannot be created
    long_program = os.path.join(workdir, "p" * 250)
    shutil.copy(program, long_program)
    r = run(long_program, workdir, "a 250-character program name", {"FORMAT": "both"})
    w = output_warning("a long program name", r)
    m = re.search(r"the protocol is written to '(.+?)', as the file name of", w)
    if not m or not os.path.exists(os.path.join(r.cwd, m.group(1))):
        pc.fail("a long program name: %s; directory holds %r" % (w, os.listdir(r.cwd)))
    pc.load_checked(os.path.join(r.cwd, m.group(1)) + ".json", say=False)
    print("ok: a directory as MPIPROF_OUTPUT, and a file name too long for the file system")


def main(table, program, workdir):
    program = os.path.abspath(program)
    start = time.time()
    variables = parse_table(table)
    base_run, base_doc = baseline(program, workdir)
    names = [v["name"] for v in variables]
    json_names = sorted(k[len("MPIPROF_"):] for k in base_doc["parameters"]["configuration"])
    if sorted(names) != json_names:
        pc.fail("the table has %r, the protocol's configuration %r" % (sorted(names), json_names))
    fuzzed = {n: 0 for n in names}
    for cls in CLASSES:
        for name in fuzz_class(program, workdir, cls, variables, base_run, base_doc):
            fuzzed[name] += 1
    print("ok: %d variables from %s, malformed values per variable: %s"
          % (len(names), os.path.basename(table),
             ", ".join("%s %d" % (n, c) for n, c in fuzzed.items())))
    never = [n for n, c in fuzzed.items() if c == 0]
    if never:
        pc.fail("variables never fuzzed (no value class for their kind): %r" % never)
    papi_unknown_event(program, workdir, base_doc)
    fallback_cases(program, workdir)
    existing_file_cases(program, workdir)
    directory_and_long_name_cases(program, workdir)
    print("ok: %d runs in %.1f s" % (RUNS, time.time() - start))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
