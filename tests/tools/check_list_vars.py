"""mpiprof-view --list-vars against the ENVIRONMENT section of mpiprof(7),
for tests/tools/test_list_vars.sh:

    check_list_vars.py MPIPROF-VIEW MPIPROF.7

Both come from src/context/config_vars.def (the listing at run time, the
man page by maint/config-doc.c): the listing must name the same variables
in the same order, each with the man page's default, accepted values and
description, and the value this environment gives it: the listing runs
with MPIPROF_DEPTH=7, MPIPROF_RANKS=0- (malformed), MPIPROF_DEPHT=2 (not a
variable: said at the end with the nearest name), MPIPROF_XYZZY_PLUGH=1
(not a variable, near none) and variables mpiprof reads outside the table
(MPIPROF_WRAPPER_LIBDIR, MPIPROF_TEST_*: not said), and no other MPIPROF_*."""
import os
import re
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def words(text):
    return " ".join(text.split())


def unroff(text):
    return text.replace("\\:", "").replace("\\-", "-").replace("\\e", "\\").replace("\\fB", "").replace("\\fR", "")


def man_table(path):
    """[(name, description, accepted, default)] of the man page's ENVIRONMENT."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = lines.index(".SH ENVIRONMENT")
    out = []
    i = start + 1
    while i < len(lines) and not lines[i].startswith(".SH "):
        if lines[i] == ".TP" and lines[i + 1].startswith(".B MPIPROF_"):
            name = lines[i + 1][3:]
            body = []
            i += 2
            while lines[i] not in (".TP",) and not lines[i].startswith(".SH "):
                body.append(lines[i])
                i += 1
            text = "\n".join(body)
            desc, sep, rest = text.partition("\n.br\nAccepted: ")
            m = re.fullmatch(r"(.*)\.  Default: \\fB(.*)\\fR\.", rest, re.S)
            if not sep or not m:
                fail("%s: the entry of %s is not 'description .br Accepted: ... Default: ...': %r"
                     % (path, name, text))
            out.append((name, words(unroff(desc)), words(unroff(m.group(1))), unroff(m.group(2))))
            continue
        i += 1
    if not out:
        fail("%s: no variable in its ENVIRONMENT section" % path)
    return out


def listing(view, env):
    p = subprocess.run([view, "--list-vars"], capture_output=True, text=True, env=env)
    if p.returncode != 0 or p.stderr:
        fail("mpiprof-view --list-vars: exit %d, stderr %r" % (p.returncode, p.stderr))
    blocks = p.stdout.split("\n\n")
    entries, tail = [], ""
    for b in blocks:
        lines = b.split("\n")
        if lines[0].startswith("MPIPROF_") and len(lines) >= 5:
            fields = {}
            for ln in lines[1:4]:
                key, sep, value = ln.strip().partition(":")
                if not sep:
                    fail("listing of %s: %r is not 'field: value'" % (lines[0], ln))
                fields[key] = value.strip()
            desc = " ".join(ln.strip() for ln in lines[4:])
            entries.append((lines[0], fields, words(desc)))
        else:
            tail += b + "\n"
    return entries, tail


def main(view, man):
    table = man_table(man)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MPIPROF_")}
    env.update(MPIPROF_DEPTH="7", MPIPROF_RANKS="0-", MPIPROF_DEPHT="2", MPIPROF_XYZZY_PLUGH="1",
               MPIPROF_WRAPPER_LIBDIR="/nowhere", MPIPROF_TEST_KEEP="0")
    entries, tail = listing(view, env)
    names = [e[0] for e in entries]
    if names != [t[0] for t in table]:
        fail("the listing names %s, the man page %s" % (names, [t[0] for t in table]))
    for (name, fields, desc), (_, man_desc, accepted, default) in zip(entries, table):
        if fields.get("default") != default:
            fail("%s: default %r in the listing, %r in the man page" % (name, fields.get("default"), default))
        if words(fields.get("accepted", "")) != accepted:
            fail("%s: accepted %r in the listing, %r in the man page" % (name, fields.get("accepted"), accepted))
        if desc != man_desc:
            fail("%s: the description differs:\n  listing:  %s\n  man page: %s" % (name, desc, man_desc))
        want = {"MPIPROF_DEPTH": "7", "MPIPROF_RANKS": "'0-' is not valid: the default is used"}.get(
            name, "not set (the default)")
        if fields.get("value") != want:
            fail("%s: value %r, expected %r" % (name, fields.get("value"), want))
    unknown = [ln for ln in tail.split("\n") if "not an mpiprof variable" in ln]
    if sorted(unknown) != sorted([
            "MPIPROF_DEPHT is not an mpiprof variable; did you mean MPIPROF_DEPTH? (it is ignored)",
            "MPIPROF_XYZZY_PLUGH is not an mpiprof variable (it is ignored; mpiprof(7), ENVIRONMENT, and "
            "mpiprof-view --list-vars list them)"]):
        fail("the variables of the environment mpiprof does not know: %r" % tail)
    print("check_list_vars: %d variables as in %s, their values here, 2 unknown ones said" % (len(entries), man))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check_list_vars.py MPIPROF-VIEW MPIPROF.7")
    main(*sys.argv[1:])
