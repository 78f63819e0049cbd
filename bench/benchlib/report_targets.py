"""The report's MPI_Init times and the table of targets: the default
configuration's figures against the targets of bench/README.md (and a
--baseline library's beside them)."""
import statistics

from .common import say


class TargetReport:
    """Mixed into Bench: print_init, then the targets from the same numbers."""

    def print_init(self):
        """MPI_Init's time per variant (-n 1 and -n 2 runs), and what the
        profiler adds to it."""
        med = statistics.median
        say("MPI_Init: from the last process's entry to the last process's return (CLOCK_MONOTONIC, one host;")
        say("  the launcher starts the processes at different instants), median over the runs, ms")
        say("  %-27s %-7s %14s %14s" % ("variant", "depth", "-n 1 (added)", "-n 2 (added)"))
        for v in self.variants():
            depth = "-" if not v.collects else (str(v.depth) if v.depth else "default")
            cells = []
            for n in (1, 2):
                vals, base = self.init.get((n, v.key)), self.init.get((n, "U"))
                if not vals or not base:
                    cells.append("FAILED")
                elif v.key == "U":
                    cells.append("%.2f" % (1e3 * med(vals)))
                else:
                    cells.append("%.2f (%+.2f)" % (1e3 * med(vals), 1e3 * (med(vals) - med(base))))
            say("  %-27s %-7s %14s %14s" % (v.label, depth, cells[0], cells[1]))
        say("")
        self.print_targets()

    def target_figures(self, vkey):
        """The figures of the table of targets for one variant: {row: text}."""
        med = statistics.median
        out = {}
        runs = self.paired.get(("paired", vkey))
        floor = med(float(r["floor_ns"]) for r in runs) if runs else None
        if runs:
            added = med(float(r["added_ns"]) for r in runs)
            out["iprobe"] = "%+.1f ns = %.2fx" % (added, med(float(r["ratio"]) for r in runs))
        for key in ("pingpong", "allreduce", "nonblocking"):
            pr = self.paired.get(("paired_" + key, vkey))
            if pr and floor:
                added = med(float(r["added_ns"]) for r in pr)
                out[key] = "%+.1f ns = %.1fx" % (added, added / floor)
        tr = self.paired.get(("paired_threads", vkey))
        if tr:
            out["threads"] = "%+.1f us = %.2fx" % (med(float(r["added_us"]) for r in tr),
                                                   med(float(r["ratio"]) for r in tr))
        qr = self.paired.get(("paired_query", vkey))
        if qr:
            for key in ("type_size", "comm_rank"):
                out[key] = "%+.1f ns = %.2fx" % (med(float(r[key + "_added_ns"]) for r in qr),
                                                      med(float(r[key + "_ratio"]) for r in qr))
        vals, base = self.init.get((2, vkey)), self.init.get((2, "U"))
        if vals and base:
            out["init"] = "%+.2f ms" % (1e3 * (med(vals) - med(base)))
        sites = max(self.size["finalize_sites"])
        vals, base = self.finalize.get((sites, vkey)), self.finalize.get((sites, "U"))
        if vals and base:
            out["finalize"] = "%+.1f ms" % (1e-3 * (med(vals) - med(base)))
        return out, floor

    def print_targets(self):
        """The targets of the default configuration (wait states on, the
        model on, the default depth), preloaded, against the floor measured
        in the same runs; with --baseline, that library's figures beside."""
        rows = (("iprobe", "MPI_Iprobe", "<= 1.5x floor"),
                ("pingpong", "8-byte ping-pong, per Send or Recv", "<= 3x floor"),
                ("allreduce", "1-int MPI_Allreduce", "<= 3x floor"),
                ("nonblocking", "Irecv/Isend/Waitall, per call", "<= 3x floor"),
                ("type_size", "MPI_Type_size, 3 stacks at one site", "<= 1x Iprobe"),
                ("comm_rank", "MPI_Comm_rank in a loop", "<= 1x Iprobe"),
                ("threads", "a short-lived thread (2 local queries)", "<= 2x thread"),
                ("init", "MPI_Init, added, 2 processes", "<= 5 ms"),
                ("finalize", "MPI_Finalize, %d SRC x %s, added" % (
                    max(self.size["finalize_sites"]), "10 intervals" if self.opts.intervals else "1 interval"),
                 "<= 50 ms"))
        cols = [("B", "--baseline")] if self.baseline_lib else []
        cols.append(("Pd", "this tree"))
        figures = {k: self.target_figures(k) for k, _ in cols}
        say("Targets: the default configuration (wait states on, model on, default depth), LD_PRELOAD;")
        say("  added cost per call against the floor (PMPI_Iprobe between two rdtsc reads) of the same runs")
        say("  (-n 1 paired=); MPI_Init and MPI_Finalize: median added time against the unprofiled runs")
        if self.baseline_lib:
            say("  --baseline: %s" % getattr(self, "baseline_info", self.baseline_lib))
        say("  %-44s %-14s" % ("workload", "target") + "".join(" %22s" % label for _, label in cols))
        for key, name, target in rows:
            say("  %-44s %-14s" % (name, target) + "".join(" %22s" % figures[k][0].get(key, "FAILED")
                                                            for k, _ in cols))
        say("  floor (ns)" + " " * 49 + "".join(" %22s" % ("%.1f" % figures[k][1] if figures[k][1] else "FAILED")
                                                for k, _ in cols))
        say("")
