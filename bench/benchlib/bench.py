"""The benchmark's state: the options, the tree measured, its MPI and the
environment every run starts from; main() builds, runs and reports."""
import json
import os
import shutil
import sys
import tempfile
import time

from .build import Builder
from .collect import Collector
from .common import FULL, SMOKE, say
from .host import CpuUsage, is_hydra, makefile_vars, mpi_family
from .launch import Launcher
from .report import Report
from .report_paired import PairedReport
from .report_targets import TargetReport

# bench/, the directory of bench/run and of mpibench.c
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Bench(Builder, Launcher, Collector, Report, PairedReport, TargetReport):
    """One benchmark run; each base class is one step, all share this state."""

    def __init__(self, opts):
        self.opts = opts
        self.size = SMOKE if opts.smoke else FULL
        self.reps = opts.reps or self.size["reps"]
        self.srcdir = os.path.abspath(os.environ.get("top_srcdir") or os.path.join(HERE, ".."))
        self.builddir = os.path.abspath(opts.builddir or os.environ.get("top_builddir") or self.srcdir)
        self.benchsrc = os.path.join(self.srcdir, "bench")
        # The MPI of the build measured (its Makefile: configure --with-mpi),
        # unless $MPICC and $MPIEXEC say otherwise.
        made = makefile_vars(self.builddir)
        self.mpicc = os.environ.get("MPICC") or made.get("MPICC") or "mpicc"
        self.mpiexec = os.environ.get("MPIEXEC") or made.get("MPIEXEC") or "mpiexec"
        self.family = mpi_family(self.mpiexec)
        if made.get("MPI_FAMILY") and self.family and made["MPI_FAMILY"] != self.family:
            say("bench/run: %s is %s's, but the build in %s is for %s (configure --with-mpi=%s): set MPIEXEC and "
                "MPICC to that MPI's, or give --builddir a build for %s"
                % (self.mpiexec, self.family, self.builddir, made["MPI_FAMILY"], made["MPI_FAMILY"], self.family))
            sys.exit(2)
        self.python = sys.executable or "python3"
        self.lib = os.path.join(self.builddir, ".libs", "libmpiprof.so")
        self.mpicc_prof = os.path.join(self.builddir, "wrappers", "mpicc-prof")
        self.failures = []
        self.raw = {"runs": []}
        self.traces = {}  # run tag -> [(bytes of .evt files, bytes of the archive, events)] of trace mode
        # Two-process jobs: one rank per core (MPICH's Hydra), so that other
        # load cannot put both busy-polling ranks on one core.  One-process
        # jobs stay unbound: the scheduler may move them to the idle core.
        # Open MPI binds by default: one-process jobs are unbound explicitly.
        self.bind, self.unbound = [], []
        if self.family == "openmpi":
            self.bind = [] if opts.no_bind else ["--bind-to", "core"]
            self.unbound = ["--bind-to", "none"]
        elif not opts.no_bind and is_hydra(self.mpiexec):
            self.bind = ["-bind-to", "core"]
        self.default_depth = None
        # --baseline: another build's library (main before a change), preloaded
        # as one more variant, so that the table of targets compares both in one run
        self.baseline_lib = None
        if opts.baseline:
            lib = opts.baseline
            if os.path.isdir(lib):
                lib = os.path.join(lib, ".libs", "libmpiprof.so")
            if not os.path.exists(lib):
                say("bench/run: --baseline %s: no libmpiprof.so there (give a built tree or the library)" % opts.baseline)
                sys.exit(2)
            self.baseline_lib = os.path.realpath(lib)

        # The profiler's settings in the caller's environment must not change
        # what is measured: every variant sets its own.
        env = {k: v for k, v in os.environ.items() if not k.startswith("MPIPROF_") and k != "LD_PRELOAD"}
        if self.family == "openmpi" and os.geteuid() == 0:
            # Open MPI refuses to run as root without its documented opt-in.
            env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
            env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        self.base_env = env

    def main(self):
        self.cpu_usage = CpuUsage()
        start = time.time()
        self.work = os.path.abspath(self.opts.workdir) if self.opts.workdir else tempfile.mkdtemp(prefix="mpiprof-bench.")
        os.makedirs(self.work, exist_ok=True)
        try:
            say("bench/run: building in %s" % self.work)
            self.build()
            say("bench/run: running (%d repetitions%s)" % (self.reps, ", smoke" if self.opts.smoke else ""))
            self.run_all()
            self.print_report()
            say("bench/run: %.0f s" % (time.time() - start))
            if self.opts.raw:
                with open(self.opts.raw, "w") as f:
                    json.dump(self.raw, f, indent=1)
        finally:
            if self.opts.keep:
                say("bench/run: kept %s" % self.work)
            elif not self.opts.workdir:
                shutil.rmtree(self.work, ignore_errors=True)
        return 1 if self.failures else 0
