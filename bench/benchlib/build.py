"""Building the benchmark binaries against this tree: a snapshot of the
library, mpibench.c compiled with plain mpicc (with and without frame
pointers) and with mpicc-prof, and the checks that they differ only in what
they link."""
import os
import shutil
import subprocess
import sys
import time

from .common import say


class Builder:
    """Mixed into Bench: fills self.lib, self.bin, self.same_code, self.linked_ok."""

    def run_tool(self, cmd, env=None, cwd=None):
        p = subprocess.run(cmd, env=env or self.base_env, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            say("bench/run: command failed: " + " ".join(cmd))
            say(p.stdout)
            sys.exit(2)
        return p.stdout

    def build(self):
        for path, what in ((self.lib, "libmpiprof.so"), (self.mpicc_prof, "wrappers/mpicc-prof")):
            for _ in range(10):  # a rebuild of the tree may be relinking it right now
                if os.path.exists(path):
                    break
                time.sleep(1)
            if not os.path.exists(path):
                say("bench/run: %s not found in %s: build mpiprof first (make), or give --builddir"
                    % (what, self.builddir))
                sys.exit(2)
        w = self.work
        # A snapshot of the library: the tree may be rebuilt while we run.
        real = os.path.realpath(self.lib)
        self.lib_info = "%s (modified %s)" % (real, time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(real))))
        libdir = os.path.join(w, "lib")
        os.makedirs(libdir, exist_ok=True)
        shutil.copy2(real, os.path.join(libdir, os.path.basename(real)))
        for name in ("libmpiprof.so", "libmpiprof.so.0"):
            if name != os.path.basename(real):
                link = os.path.join(libdir, name)
                if os.path.lexists(link):  # --workdir used before
                    os.remove(link)
                os.symlink(os.path.basename(real), link)
        self.lib = os.path.join(libdir, "libmpiprof.so")
        if self.baseline_lib:
            bdir = os.path.join(w, "baseline-lib")
            os.makedirs(bdir, exist_ok=True)
            self.baseline_info = "%s (modified %s)" % (self.baseline_lib, time.strftime(
                "%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(self.baseline_lib))))
            copy = os.path.join(bdir, "libmpiprof.so")
            shutil.copy2(self.baseline_lib, copy)
            self.baseline_lib = copy
        self.run_tool([self.python, os.path.join(self.benchsrc, "gen_sites.py"),
                       str(max(self.size["finalize_sites"])), w])
        prof_env = dict(self.base_env)
        prof_env.update(MPIPROF_WRAPPER_LIBDIR=libdir,
                        MPIPROF_WRAPPER_INCDIR=os.path.join(self.srcdir, "include"),
                        MPIPROF_MPICC=self.mpicc)
        # mpicc-prof adds -g -fno-omit-frame-pointer; the plain build gets the
        # same flags, so both binaries run the same benchmark code.
        flags = ["-g", "-fno-omit-frame-pointer"]
        main_src = os.path.join(self.benchsrc, "mpibench.c")
        sites_src = os.path.join(w, "bench_sites.c")
        # mpibench-nofp: as distributions and most users build, no frame
        # pointers (the call-site capture's hard case), profiled by preloading.
        nofp = ["-g", "-fomit-frame-pointer"]
        for kind, cc, env, extra in (("plain", [self.mpicc], None, flags), ("prof", [self.mpicc_prof], prof_env, []),
                                     ("nofp", [self.mpicc], None, nofp)):
            d = os.path.join(w, kind)
            os.makedirs(d, exist_ok=True)
            self.run_tool(cc + ["-O2"] + extra + ["-I" + w, "-c", main_src, "-o", os.path.join(d, "mpibench.o")], env)
            # -O0: no cross-jumping or identical code folding may merge the
            # call sites of bench_sites.c.
            self.run_tool(cc + ["-O0"] + extra + ["-I" + w, "-c", sites_src, "-o", os.path.join(d, "bench_sites.o")], env)
            self.run_tool(cc + ["-o", os.path.join(w, "mpibench-" + kind), os.path.join(d, "mpibench.o"),
                                os.path.join(d, "bench_sites.o")], env)
        self.bin = {k: os.path.join(w, "mpibench-" + k) for k in ("plain", "prof", "nofp")}
        self.same_code = self.compare_code()
        self.linked_ok = self.needs_lib(self.bin["prof"]) and not self.needs_lib(self.bin["plain"])

    def compare_code(self):
        objcopy = shutil.which("objcopy")
        if not objcopy:
            return "unknown (no objcopy)"
        texts = []
        for kind in ("plain", "prof"):
            blob = b""
            for obj in ("mpibench.o", "bench_sites.o"):
                out = os.path.join(self.work, kind, obj + ".text")
                p = subprocess.run([objcopy, "-O", "binary", "--only-section=.text",
                                    os.path.join(self.work, kind, obj), out],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if p.returncode != 0:
                    return "unknown (objcopy failed)"
                with open(out, "rb") as f:
                    blob += f.read()
            texts.append(blob)
        return "yes" if texts[0] == texts[1] else "NO"

    def needs_lib(self, binary):
        readelf = shutil.which("readelf")
        if not readelf:
            return True
        out = subprocess.run([readelf, "-d", binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout
        return "libmpiprof" in out
