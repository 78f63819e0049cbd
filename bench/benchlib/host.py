"""The machine and the MPI the benchmark runs on: the MPI's identity and
build settings, the lock shared with make check's MPI jobs, and how busy the
machine was during the run (the report's header says it)."""
import fcntl
import os
import platform
import re
import subprocess
import time


class MpiJobLock:
    """One MPI job at a time on this machine: each mpiexec of the benchmark
    holds the lock tests/mpi/lib/run-mpi-test takes around an MPI test, so
    make check's MPI jobs and the benchmark's do not run at the same time.
    Not taken when the caller holds it already (the smoke test under
    run-mpi-test: MPIPROF_TEST_LOCKED)."""

    def __enter__(self):
        self.f = None
        if os.environ.get("MPIPROF_TEST_LOCKED"):
            return self
        path = os.path.join(os.environ.get("TMPDIR") or "/tmp", "mpiprof-tests.%d.lock" % os.getuid())
        try:
            self.f = open(path, "a")
            fcntl.flock(self.f, fcntl.LOCK_EX)
        except OSError:
            self.f = None
        return self

    def __exit__(self, *exc):
        if self.f:
            self.f.close()


class CpuUsage:
    """CPU time the machine spent on other processes than the benchmark's
    (busy time from /proc/stat minus the CPU time of our children), and time
    stolen by the hypervisor: how noisy the run was."""

    def __init__(self):
        self.t0, self.stat0, self.child0 = time.time(), self.stat(), self.children()

    @staticmethod
    def stat():
        try:
            with open("/proc/stat") as f:
                v = [int(x) for x in f.readline().split()[1:]]
            hz = os.sysconf("SC_CLK_TCK")
            # user nice system idle iowait irq softirq steal
            return (v[0] + v[1] + v[2] + v[5] + v[6]) / hz, (v[7] if len(v) > 7 else 0) / hz
        except (OSError, ValueError, IndexError):
            return None

    @staticmethod
    def children():
        import resource
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    def report(self, now):
        stat1 = self.stat()
        if not self.stat0 or not stat1:
            return "CPU use of other processes: unknown (no /proc/stat)"
        wall = now - self.t0
        cap = wall * (os.cpu_count() or 1)
        other = max(0.0, (stat1[0] - self.stat0[0]) - (self.children() - self.child0))
        steal = stat1[1] - self.stat0[1]
        return ("during the run other processes used %.0f%% of the CPUs, the hypervisor stole %.0f%%%s"
                % (100 * other / cap, 100 * steal / cap,
                   "  (NOT a quiet machine: expect noise, see the [min..max] ranges)" if other / cap > 0.05 else ""))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def makefile_vars(builddir):
    """MPICC, MPIEXEC and MPI_FAMILY of a configured mpiprof build tree."""
    out = {}
    try:
        with open(os.path.join(builddir, "Makefile")) as f:
            for line in f:
                m = re.match(r"(MPICC|MPIEXEC|MPI_FAMILY) = (.*)$", line.rstrip("\n"))
                if m and m.group(2).strip():
                    out.setdefault(m.group(1), m.group(2).strip())
    except OSError:
        pass
    return out


def version_text(mpiexec):
    """What mpiexec --version prints, or None when it cannot be run."""
    try:
        return subprocess.run([mpiexec, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None


def mpi_family(mpiexec):
    """openmpi, mpich, or None when mpiexec --version does not say."""
    out = version_text(mpiexec) or ""
    if "Open MPI" in out or "OpenRTE" in out:
        return "openmpi"
    if "HYDRA" in out or "MPICH" in out:
        return "mpich"
    return None


def is_hydra(mpiexec):
    return "HYDRA" in (version_text(mpiexec) or "")


def mpi_version(mpiexec):
    if mpi_family(mpiexec) == "openmpi":
        out = subprocess.run([mpiexec, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=20).stdout
        m = re.search(r"\(Open(?:RTE| MPI)\) (\S+)", out)
        return "Open MPI " + (m.group(1) if m else "(version unknown)")
    for cmd in (["mpichversion"], [mpiexec, "--version"]):
        try:
            out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 universal_newlines=True, timeout=20).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        m = re.search(r"MPICH Version:\s*(\S+)", out)
        if m:
            return "MPICH " + m.group(1)
        if out.strip():
            return out.strip().splitlines()[0]
    return "unknown"
