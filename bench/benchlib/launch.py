"""Launching one variant: its mpiexec command line and environment, the
RESULT lines it prints, and what its protocol or trace archive says."""
import os
import re
import shutil
import subprocess
import time

from .common import LAUNCH_TIMEOUT, Variant
from .host import MpiJobLock


class Launcher:
    """Mixed into Bench: the variants of this run and one mpiexec of each."""

    def variants(self):
        v = [Variant("U", "unprofiled", "plain", False),
             Variant("D", "linked, MPIPROF_DISABLE=1", "prof", False, disable=True)]
        for depth in (1, None):
            v.append(Variant("L%s" % (depth or "d"), "linked (mpicc-prof)", "prof", False, depth))
            v.append(Variant("P%s" % (depth or "d"), "LD_PRELOAD", "plain", True, depth))
            v.append(Variant("O%s" % (depth or "d"), "LD_PRELOAD, no frame ptrs", "nofp", True, depth))
        for depth in (1, None):
            v.append(Variant("W%s" % (depth or "d"), "linked, WAITSTATES=off", "prof", False, depth,
                             waitstates=False))
        if not self.opts.smoke:  # the matrix's own cost: this row against Ld
            v.append(Variant("M", "linked, MATRIX=off", "prof", False, matrix=False))
        # (--smoke runs one level: the test that it runs stays within its time)
        levels = (("Cf", "full"),) if self.opts.smoke else (("Cb", "basic"), ("Cf", "full"), ("Cs", "full,checksum"))
        for key, level in levels:
            v.append(Variant(key, "linked, CHECK=" + level, "prof", False, check=level))
        if self.trace_available:
            v.append(Variant("T", "linked, TRACE=on", "prof", False, trace=True))
        if self.baseline_lib:
            v.append(Variant("B", "LD_PRELOAD, --baseline", "plain", True, baseline=True))
        return v

    def launch(self, variant, nprocs, args, tag):
        cmd = [self.mpiexec, "-n", str(nprocs)]
        cmd += self.bind if nprocs > 1 else self.unbound
        cmd.append("env")
        protocol = None
        if variant.preload:
            cmd.append("LD_PRELOAD=" + (self.baseline_lib if variant.baseline else self.lib))
        if variant.profiled:
            protocol = os.path.join(self.work, "protocols", "%s-%s.prof" % (variant.key, tag))
            cmd += ["MPIPROF_OUTPUT=" + protocol, "MPIPROF_QUIET=1", "MPIPROF_OVERWRITE=1"]
            if variant.depth:
                cmd.append("MPIPROF_DEPTH=%d" % variant.depth)
            if variant.disable:
                cmd.append("MPIPROF_DISABLE=1")
            if not variant.waitstates:
                cmd.append("MPIPROF_WAITSTATES=off")
            if not variant.matrix:
                cmd.append("MPIPROF_MATRIX=off")
            cmd.append("MPIPROF_CHECK=" + (variant.check or "off"))
            if variant.trace:
                cmd.append("MPIPROF_TRACE=on")
        cmd += [self.bin[variant.binary]] + args
        with MpiJobLock():
            t0 = time.time()
            try:
                p = subprocess.run(cmd, env=self.base_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, timeout=LAUNCH_TIMEOUT)
                rc, out, err = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired as e:
                rc, out, err = "timeout", e.stdout or "", e.stderr or ""
                out = out.decode(errors="replace") if isinstance(out, bytes) else out
                err = err.decode(errors="replace") if isinstance(err, bytes) else err
        results = []
        for line in out.splitlines():
            if line.startswith("RESULT "):
                results.append(dict(kv.split("=", 1) for kv in line.split()[1:]))
        self.raw["runs"].append({"variant": variant.key, "nprocs": nprocs, "args": args, "rc": rc,
                                 "wall": time.time() - t0, "results": results})
        if rc != 0 or not results:
            self.failures.append("%s: %s exited with %s\n%s%s" % (variant.label, " ".join(cmd), rc, out, err))
            return [], None
        if protocol and variant.collects and self.default_depth is None and not variant.depth:
            self.default_depth = self.protocol_depth(protocol)
        if variant.trace:
            self.trace_size(protocol + ".otf2", tag)
        return results, protocol

    @property
    def trace_available(self):
        """Whether this tree's library has trace mode (configure found libotf2)."""
        try:
            with open(os.path.join(self.builddir, "src", "autoconf.h")) as f:
                return "#define MPIPROF_HAVE_OTF2 1" in f.read()
        except OSError:
            return False

    def trace_size(self, archive, tag):
        """Bytes of event files and events of a trace-mode run (the locations'
        counts, read with python3-otf2 when Debian's python3 has it); the
        archive is removed (the next repetition writes the same path)."""
        evt = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(archive) for f in fs
                  if f.endswith(".evt"))
        total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(archive) for f in fs)
        events = None
        probe = ("import otf2, sys\nwith otf2.reader.open(sys.argv[1]) as r:\n"
                 "    print(sum(l.number_of_events for l in r.definitions.locations))\n")
        if os.path.exists("/usr/bin/python3"):
            p = subprocess.run(["/usr/bin/python3", "-c", probe, os.path.join(archive, "traces.otf2")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
            if p.returncode == 0 and p.stdout.strip().isdigit():
                events = int(p.stdout.strip())
        self.traces.setdefault(tag, []).append((evt, total, events))
        shutil.rmtree(archive, ignore_errors=True)

    @staticmethod
    def protocol_depth(path):
        try:
            with open(path) as f:
                m = re.search(r"MPIPROF_DEPTH=(\d+)", f.read())
            return int(m.group(1)) if m else None
        except OSError:
            return None

    @staticmethod
    def protocol_line(path, label):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(label):
                        return line.split(":", 1)[1].strip()
        except (OSError, TypeError):
            pass
        return None

    @staticmethod
    def protocol_intervals(path):
        try:
            with open(path) as f:
                return sum(1 for line in f if line.startswith("==== Interval "))
        except (OSError, TypeError):
            return None

    @staticmethod
    def protocol_src_points(path):
        try:
            with open(path) as f:
                return sum(1 for line in f if line.startswith("SRC "))
        except (OSError, TypeError):
            return None
