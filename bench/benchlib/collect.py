"""The schedule of the runs: every variant in every repetition, in rotated
order, and the raw numbers they report, filed by workload and variant for
the report."""
import os

from .common import say


class Collector:
    """Mixed into Bench: run_all fills self.per_call, self.floor, self.init,
    self.paired, self.memory, self.finalize and self.finalize_src."""

    def run_all(self):
        s = self.size
        os.makedirs(os.path.join(self.work, "protocols"), exist_ok=True)
        variants = self.variants()
        # (measure, workload, variant key) -> [ns per call, one per repetition];
        # measure "whole": the whole loop, "fast": its fastest tenth.
        self.per_call = {}
        self.floor = {}
        self.init = {}  # (nprocs, variant key) -> [MPI_Init seconds, least over the processes]
        single = ["local=%d" % s["local"], "paired=%d" % s["paired"], "paired_query=%d" % s["paired_query"]]
        self.paired = {}
        pair = ["pingpong=%d" % s["pingpong"], "allreduce=%d" % s["allreduce"],
                "nonblocking=%d" % s["nonblocking"], "rma=%d" % s["rma"]]
        pair += ["paired_" + a for a in pair]
        for rep in range(self.reps):
            # Interleaved: every repetition runs every variant; the order is
            # rotated so that no variant always runs first or last.
            order = variants[rep % len(variants):] + variants[:rep % len(variants)]
            say("  repetition %d/%d: %s" % (rep + 1, self.reps, ", ".join(v.key for v in order)))
            for v in order:
                extra = ["floor=%d" % s["floor"]] if v.key == "U" else []
                threads = ["--serialized", "paired_threads=%d" % s["paired_threads"]]
                for nprocs, args, tag in ((1, single + extra, "n1"), (2, pair, "n2"), (1, threads, "threads")):
                    results, protocol = self.launch(v, nprocs, args, tag)
                    if nprocs == 2 and v.key == "Ld" and protocol:
                        self.waitstates_line = self.protocol_line(protocol, "Wait states")
                    for r in results:
                        t = r["test"]
                        if t == "init":
                            self.init.setdefault((nprocs, v.key), []).append(float(r["seconds"]))
                        elif t.startswith("paired"):
                            self.paired.setdefault((t, v.key), []).append(r)
                        elif t in ("floor_plain", "floor_rdtsc"):
                            self.floor.setdefault(("whole", t), []).append(float(r["ns_per_call"]))
                            self.floor.setdefault(("fast", t), []).append(float(r["fastest_slice_ns_per_call"]))
                            if "rdtsc_pair_alone_ns" in r:
                                self.floor.setdefault("pair", []).append(float(r["rdtsc_pair_alone_ns"]))
                        else:
                            self.per_call.setdefault(("whole", t, v.key), []).append(float(r["ns_per_call"]))
                            self.per_call.setdefault(("fast", t, v.key), []).append(
                                float(r["fastest_slice_ns_per_call"]))
        # Memory: once per variant (a resident size is not noisy like a time).
        self.memory = {}
        mem_variants = [v for v in variants if v.key in ("U", "Ld", "Pd", "B")]
        say("  memory: %s" % ", ".join(v.key for v in mem_variants))
        margs = (["--intervals"] if self.opts.intervals else []) + ["memory=%d,%d" % s["memory"]]
        for v in mem_variants:
            if v.baseline:
                continue
            results, protocol = self.launch(v, 1, margs, "memory")
            for r in results:
                self.memory[v.key] = r
                if v.collects:
                    r["protocol_intervals"] = self.protocol_intervals(protocol)
        # Finalize: repeated and interleaved like the rest.
        self.finalize = {}
        self.finalize_src = {}
        for rep in range(self.reps):
            say("  finalize repetition %d/%d" % (rep + 1, self.reps))
            k = rep % len(mem_variants)
            order = mem_variants[k:] + mem_variants[:k]
            for v in order:
                for sites in s["finalize_sites"]:
                    fargs = (["--intervals"] if self.opts.intervals else []) + ["finalize=%d" % sites]
                    results, protocol = self.launch(v, 2, fargs, "finalize%d" % sites)
                    secs = [float(r["seconds"]) for r in results if r["test"] == "finalize"]
                    if len(secs) != 2:
                        if results:
                            self.failures.append("%s finalize=%d: %d of 2 processes reported" % (v.label, sites, len(secs)))
                        continue
                    self.finalize.setdefault((sites, v.key), []).append(max(secs) * 1e6)
                    if v.collects:
                        self.finalize_src[(sites, v.key)] = self.protocol_src_points(protocol)
