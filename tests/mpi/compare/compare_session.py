"""What check_compare.py and check_compare_n.py share: mpiprof-compare run
in the directory of the protocols, checks that print "ok" or keep the
failure with the command's output, the protocols read and written there,
and the end that lists the failures.

    s = compare_session.Session(sys.argv[1], sys.argv[2])
    p = s.run("a.json", "b.json"); s.check(p.returncode == 0, "what", p)
    ...; s.finish("mpiprof-compare")
"""
import json
import os
import subprocess
import sys

import protocol_check as pc


class Session:
    def __init__(self, tool, directory):
        self.tool, self.dir = tool, directory
        self.failures = pc.Failures()

    def run(self, *args):
        return subprocess.run([self.tool, *args], capture_output=True, text=True, cwd=self.dir)

    @staticmethod
    def shown(p):
        return "\n   exit %d\n   stdout: %s\n   stderr: %s" % (p.returncode, p.stdout[-4000:], p.stderr[-2000:])

    def check(self, ok, what, p=None):
        if ok:
            print("ok: %s" % what)
        else:
            self.failures.fail(what + (self.shown(p) if p is not None else ""))

    def path(self, name):
        return os.path.join(self.dir, name)

    def load(self, name):
        return pc.load(self.path(name))

    def save(self, doc, name):
        with open(self.path(name), "w") as f:
            json.dump(doc, f)
        return name

    def finish(self, what):
        if self.failures.status():
            print("\n%d check(s) failed:" % len(self.failures.found))
            for f in self.failures.found:
                print(" - " + f)
            sys.exit(1)
        print("all %s checks passed" % what)
