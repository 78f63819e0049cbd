"""The report's same-process sections: a variant against the PMPI_ versions
slice by slice in one process (MPI_Iprobe and the floor, local queries,
short-lived threads, the two-process workloads), and trace mode's sizes."""
import statistics

from .common import fmt_count, say


class PairedReport:
    """Mixed into Bench: the sections of mpibench.c's paired_* workloads."""

    def print_trace(self):
        """Trace mode's size: bytes of event files per event, per workload run."""
        if not self.trace_available:
            say("Trace mode: not built (configure found no libotf2)")
            say("")
            return
        say("Trace mode (MPIPROF_TRACE=on, the 'linked, TRACE=on' rows above: its added ns per call): archive")
        say("  size per run (median over the repetitions); bytes/event = bytes of the event files / events")
        say("  (the locations' counts, read with Debian's python3-otf2).")
        med = statistics.median
        for tag in sorted(self.traces):
            runs = self.traces[tag]
            evt, total = med(r[0] for r in runs), med(r[1] for r in runs)
            counts = [r[2] for r in runs if r[2]]
            per = "%.1f bytes/event (%s events)" % (evt / med(counts), fmt_count(int(med(counts)))) if counts \
                else "events not counted (no python3-otf2)"
            name = {"n1": "the -n 1 workloads", "n2": "the -n 2 workloads", "memory": "memory (-n 1)",
                    "threads": "short-lived threads (-n 1)"}.get(
                tag, tag.replace("finalize", "finalize, call sites: "))
            say("  %-30s archive %10d bytes, event files %10d: %s" % (name, int(total), int(evt), per))
        say("")

    def print_paired(self):
        """The measure of the targets: the profiler's added cost on MPI_Iprobe
        against the floor, both measured in the same process, slice by
        slice (mpibench.c, paired=)."""
        med = statistics.median
        s = self.size
        say("Same process, slice by slice: MPI_Iprobe against PMPI_Iprobe (never intercepted) and the floor")
        say("  (PMPI_Iprobe between two rdtsc reads), %s calls of each in %s slices alternated every ~0.1 ms"
            % (fmt_count(s["paired"]), "200"))
        say("  (-n 1).  The host changes speed from one millisecond to the next (other virtual CPUs on the")
        say("  same physical core): the tables above compare different processes at different moments, these")
        say("  triples do not.  Per triple: added = MPI_Iprobe - PMPI_Iprobe, floor = the rdtsc loop -")
        say("  PMPI_Iprobe, ratio = added / floor; median over the triples of each run, then over the runs.")
        say("  %-27s %-7s %12s %10s %10s %8s %16s" % ("variant", "depth", "PMPI_Iprobe", "floor", "added", "ratio",
                                                   "ratio [q1..q3]"))
        for v in self.variants():
            runs = self.paired.get(("paired", v.key))
            depth = "-" if not v.collects else (str(v.depth) if v.depth else "default")
            if not runs:
                say("  %-27s %-7s %12s" % (v.label, depth, "FAILED"))
                continue
            val = {k: med(float(r[k]) for r in runs) for k in
                   ("plain_ns", "floor_ns", "added_ns", "ratio", "ratio_q1", "ratio_q3")}
            say("  %-27s %-7s %9.1f ns %+7.1f ns %+7.1f ns %7.2fx %16s" % (
                v.label, depth, val["plain_ns"], val["floor_ns"], val["added_ns"], val["ratio"],
                "[%.2f..%.2f]" % (val["ratio_q1"], val["ratio_q3"])))
        say("  unprofiled: MPI_Iprobe is PMPI_Iprobe, so its 'added' shows what the method itself reads as cost.")
        say("  Targets: ratio <= 1.5 at depth 1, <= 3 at the default depth.")
        say("  Call-site capture without frame pointers (target: within 2x of the frame-pointer binary at")
        say("  the same depth): added ns, mpibench-nofp / mpibench-plain, both LD_PRELOAD:")
        for d, label in (("1", "depth 1"), ("d", "default depth")):
            fp_runs, nofp_runs = self.paired.get(("paired", "P" + d)), self.paired.get(("paired", "O" + d))
            if not fp_runs or not nofp_runs:
                say("    %-14s FAILED" % label)
                continue
            fp_added = med(float(r["added_ns"]) for r in fp_runs)
            nofp_added = med(float(r["added_ns"]) for r in nofp_runs)
            say("    %-14s %+7.1f ns / %+7.1f ns = %.2fx" % (label, nofp_added, fp_added,
                                                          nofp_added / fp_added if fp_added > 0 else float("nan")))
        say("")
        say("Local queries in hot loops, same process, slice by slice (-n 1, paired_query=): MPI_Type_size from")
        say("  one call site reached through a recursion 1, 2 and 3 deep in turn (three stacks at one site, as")
        say("  MPICH's datatype library checks its buffers), MPI_Comm_rank in a plain loop and MPI_Iprobe, each")
        say("  against its PMPI_ version, %s calls of each in 200 slices alternated; added per call, and its ratio"
            % fmt_count(s["paired_query"]))
        say("  to MPI_Iprobe's added in the same slices (median over the slices, then over the runs [quartiles]).")
        say("  %-27s %-7s %10s %10s %10s %22s %10s" % ("variant", "depth", "Iprobe", "Type_size", "Comm_rank",
                                                        "Type_size/Iprobe", "Rank/Ipr."))
        for v in self.variants():
            runs = self.paired.get(("paired_query", v.key))
            depth = "-" if not v.collects else (str(v.depth) if v.depth else "default")
            if not runs:
                say("  %-27s %-7s %10s" % (v.label, depth, "FAILED"))
                continue
            val = {k: med(float(r[k]) for r in runs) for k in
                   ("iprobe_added_ns", "type_size_added_ns", "comm_rank_added_ns", "type_size_ratio",
                    "type_size_ratio_q1", "type_size_ratio_q3", "comm_rank_ratio")}
            say("  %-27s %-7s %+7.1f ns %+7.1f ns %+7.1f ns %22s %9.2fx" % (
                v.label, depth, val["iprobe_added_ns"], val["type_size_added_ns"], val["comm_rank_added_ns"],
                "%.2fx [%.2f..%.2f]" % (val["type_size_ratio"], val["type_size_ratio_q1"],
                                        val["type_size_ratio_q3"]), val["comm_rank_ratio"]))
        say("")
        say("Short-lived threads, same process, slice by slice (-n 1, MPI_THREAD_SERIALIZED, paired_threads=):")
        say("  %s threads one after the other, each asking MPI_Comm_rank and MPI_Type_size and ending, against"
            % fmt_count(s["paired_threads"]))
        say("  as many asking the PMPI_ versions, alternated in 200 slices; time per thread from its creation to")
        say("  its join, added and ratio (median over the slices, then over the runs [quartiles]).")
        say("  %-27s %-7s %12s %10s %22s" % ("variant", "depth", "PMPI_ thread", "added", "ratio [q1..q3]"))
        for v in self.variants():
            runs = self.paired.get(("paired_threads", v.key))
            depth = "-" if not v.collects else (str(v.depth) if v.depth else "default")
            if not runs:
                say("  %-27s %-7s %12s" % (v.label, depth, "FAILED"))
                continue
            val = {k: med(float(r[k]) for r in runs) for k in ("plain_us", "added_us", "ratio", "ratio_q1",
                                                                 "ratio_q3")}
            say("  %-27s %-7s %9.1f us %+7.1f us %22s" % (
                v.label, depth, val["plain_us"], val["added_us"],
                "%.2fx [%.2f..%.2f]" % (val["ratio"], val["ratio_q1"], val["ratio_q3"])))
        say("")
        say("Same processes, slice by slice: the two-process workloads (-n 2), their MPI_ and PMPI_ versions")
        say("  alternated in 100 slice pairs, each slice after a PMPI_Barrier, timed by the slowest process.")
        say("  added = MPI_ - PMPI_ per call of one process, median over the pairs of each run [quartiles], then")
        say("  over the runs; ratio = MPI_ / PMPI_.  The benchmark's own barriers and reductions call PMPI_.")
        for key, name in (("pingpong", "8-byte ping-pong"), ("allreduce", "1-int MPI_Allreduce"),
                          ("nonblocking", "Irecv/Isend/Waitall"), ("rma", "MPI_Put, fence epochs")):
            say("  %s" % name)
            say("    %-27s %-7s %11s %10s %20s %7s" % ("variant", "depth", "PMPI_", "added", "added [q1..q3]",
                                                      "ratio"))
            for v in self.variants():
                runs = self.paired.get(("paired_" + key, v.key))
                depth = "-" if not v.collects else (str(v.depth) if v.depth else "default")
                if not runs:
                    say("    %-27s %-7s %11s" % (v.label, depth, "FAILED"))
                    continue
                val = {k: med(float(r[k]) for r in runs) for k in
                       ("plain_ns", "added_ns", "added_q1", "added_q3", "ratio")}
                say("    %-27s %-7s %8.1f ns %+7.1f ns %20s %6.2fx" % (
                    v.label, depth, val["plain_ns"], val["added_ns"],
                    "[%+.1f..%+.1f]" % (val["added_q1"], val["added_q3"]), val["ratio"]))
        say("")
