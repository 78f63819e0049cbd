"""The report: its header, the per-workload tables, the costs of single
features, the floor, memory and MPI_Finalize, in the order printed (the
same-process sections are in report_paired.py, MPI_Init and the targets in
report_targets.py)."""
import os
import statistics
import time

from .common import fmt_count, say
from .host import cpu_model, mpi_version


class Report:
    """Mixed into Bench: print_report prints from what run_all collected."""

    def print_report(self):
        """The whole report, section by section, in this order."""
        self.print_header()
        self.print_workloads()
        self.print_feature_costs()
        self.print_floor()
        self.print_paired()
        self.print_trace()
        self.print_init()
        self.print_memory()
        self.print_finalize()
        self.print_outcome()

    def print_header(self):
        """The machine, the MPI, the binaries, the variants and the method."""
        depth_default = self.default_depth or 4
        say("")
        say("=" * 100)
        say("mpiprof overhead benchmark%s" % ("  (--smoke: tiny counts, numbers meaningless)" if self.opts.smoke else ""))
        say("=" * 100)
        say("machine     : %s, %d cores" % (cpu_model(), os.cpu_count() or 0))
        say("              %s" % self.cpu_usage.report(time.time()))
        say("MPI         : %s; mpiexec -n 1 for MPI_Iprobe, the floor and memory, -n 2%s for the rest" % (
            mpi_version(self.mpiexec), (" " + " ".join(self.bind)) if self.bind else ""))
        say("binaries    : mpibench-plain = mpicc -O2 -g -fno-omit-frame-pointer (unprofiled and LD_PRELOAD runs);")
        say("              mpibench-nofp  = mpicc -O2 -g -fomit-frame-pointer (LD_PRELOAD, no frame pointers);")
        say("              mpibench-prof  = the same source with mpicc-prof -O2 (linked runs); benchmark machine code")
        say("              identical in both: %s; only mpibench-prof links libmpiprof: %s" % (
            self.same_code, "yes" if self.linked_ok else "NO"))
        say("library     : %s," % self.lib_info)
        say("              copied to the work directory before building (linked and preloaded from there)")
        say("repetitions : %d; each repetition runs every variant (one mpiexec per variant and process count)," % self.reps)
        say("              in an order rotated from one repetition to the next")
        say("")
        say("Variants")
        say("  unprofiled                 mpibench-plain, no profiler")
        say("  linked, MPIPROF_DISABLE=1  mpibench-prof, profiler present but switched off (every call passed through)")
        say("  linked (mpicc-prof)        mpibench-prof, profiling (MPIPROF_DEPTH as in the depth column)")
        say("  LD_PRELOAD                 mpibench-plain with LD_PRELOAD=<work directory>/lib/libmpiprof.so")
        say("  LD_PRELOAD, no frame ptrs  mpibench-nofp, the same way")
        say("  linked, WAITSTATES=off     mpibench-prof, profiling without the wait-state analysis")
        say("  linked, MATRIX=off         mpibench-prof, default depth, without the communication matrix (its cost:"
            " linked at default depth minus this row)")
        say("  linked, CHECK=level        mpibench-prof, default depth, with the correctness checks of that level"
            " (the others: MPIPROF_CHECK=off)")
        say("  depth 'default' is MPIPROF_DEPTH unset (the protocol says %d)." % depth_default)
        say("")
        say("Time per call: each timed loop runs in 10 equal slices, each after a barrier and timed on its own")
        say("  (CLOCK_MONOTONIC, the maximum over the processes), after an untimed warm-up of a tenth of it.")
        say("  whole loop    = the sum of the slices / MPI calls per process in the loop")
        say("  fastest tenth = the fastest slice / MPI calls per process in it (what is left when other")
        say("                  processes' interruptions are dropped; same rule for every variant)")
        say("Each column is the median over the %d repetitions, one value per repetition; [min..max] is the" % self.reps)
        say("  range of the whole-loop values.  added = median(variant) - median(unprofiled), in ns per call;")
        say("  ratio = median(variant) / median(unprofiled).")
        say("")

    def print_workloads(self):
        """One table per workload: ns per call of every variant, whole loop and fastest tenth."""
        s = self.size
        med = statistics.median
        workloads = [
            ("local", "MPI_Iprobe with nothing pending (no communication)", "-n 1, %s calls" % fmt_count(s["local"])),
            ("pingpong", "8-byte ping-pong, MPI_Send + MPI_Recv",
             "-n 2, %s round trips, 2 calls per process each" % fmt_count(s["pingpong"])),
            ("allreduce", "MPI_Allreduce of 1 int", "-n 2, %s calls" % fmt_count(s["allreduce"])),
            ("nonblocking", "MPI_Irecv + MPI_Isend + MPI_Waitall(2), 8 bytes, both ranks",
             "-n 2, %s iterations, 3 calls each" % fmt_count(s["nonblocking"])),
            ("rma", "16 x MPI_Put of 8 bytes to the other rank's window + MPI_Win_fence, both ranks",
             "-n 2, %s fence epochs, 17 calls each" % fmt_count(s["rma"])),
        ]
        head1 = "%-27s %-7s | %-43s | %-26s" % ("", "", "whole loop".center(43), "fastest tenth".center(26))
        head2 = "%-27s %-7s | %8s  %-17s %8s %6s | %8s %8s %6s" % (
            "variant", "depth", "ns/call", "[min..max]", "added", "ratio", "ns/call", "added", "ratio")
        for key, name, detail in workloads:
            say("%s  (%s)" % (name, detail))
            say(head1)
            say(head2)
            base = {m: self.per_call.get((m, key, "U")) for m in ("whole", "fast")}
            for v in self.variants():
                depth = "-" if not v.collects else (str(v.depth) if v.depth else "default")
                row = "%-27s %-7s |" % (v.label, depth)
                for m in ("whole", "fast"):
                    vals = self.per_call.get((m, key, v.key))
                    if not vals:
                        row += " %8s  %-17s %8s %6s |" % ("FAILED", "", "", "") if m == "whole" else " %8s %8s %6s" % ("FAILED", "", "")
                        continue
                    med_v = med(vals)
                    b = med(base[m]) if base[m] else None
                    if v.key == "U" or b is None:
                        added, ratio = "-", "1.00" if v.key == "U" else "-"
                    else:
                        added, ratio = "%+.1f" % (med_v - b), "%.2f" % (med_v / b)
                    if m == "whole":
                        rng = "[%.1f..%.1f]" % (min(vals), max(vals))
                        row += " %8.1f  %-17s %8s %6s |" % (med_v, rng, added, ratio)
                    else:
                        row += " %8.1f %8s %6s" % (med_v, added, ratio)
                say(row)
            say("")


    def print_feature_costs(self):
        """What the wait-state analysis, the communication matrix and the
        correctness checks each add: one variant with the feature against one without."""
        med = statistics.median
        say("Wait-state analysis: ns per call it adds (linked, on - off), whole loop / fastest tenth:")
        for key, name in (("pingpong", "8-byte ping-pong"), ("allreduce", "1-int MPI_Allreduce"),
                          ("nonblocking", "Irecv/Isend/Waitall"), ("local", "MPI_Iprobe")):
            cells = []
            for depth in ("1", "d"):
                for m in ("whole", "fast"):
                    on, off = self.per_call.get((m, key, "L" + depth)), self.per_call.get((m, key, "W" + depth))
                    cells.append("%+.1f" % (med(on) - med(off)) if on and off else "FAILED")
            say("  %-22s depth 1: %s / %s   default depth: %s / %s" % (name, *cells))
        say("  what it sent in the 2-process run (linked, default depth; its protocol's Wait states line):")
        say("    %s" % (getattr(self, "waitstates_line", None) or "FAILED (no protocol)"))
        say("")

        if not self.opts.smoke:
            say("Communication matrix: ns per call it adds (linked, default depth, MPIPROF_MATRIX on - off),"
                " whole loop / fastest tenth:")
            for key, name in (("pingpong", "8-byte ping-pong"), ("nonblocking", "Irecv/Isend/Waitall"),
                              ("allreduce", "1-int MPI_Allreduce (no pair)")):
                cells = []
                for m in ("whole", "fast"):
                    on, off = self.per_call.get((m, key, "Ld")), self.per_call.get((m, key, "M"))
                    cells.append("%+.1f" % (med(on) - med(off)) if on and off else "FAILED")
                say("  %-30s %s / %s" % (name, *cells))
            say("")

        say("Correctness checks: ns per call they add (linked, default depth, MPIPROF_CHECK=level - off),"
            " whole loop / fastest tenth:")
        for key, name in (("pingpong", "8-byte ping-pong"), ("allreduce", "1-int MPI_Allreduce"),
                          ("nonblocking", "Irecv/Isend/Waitall"), ("rma", "MPI_Put, fence epochs"),
                          ("local", "MPI_Iprobe")):
            cells = []
            for level in ("Cb", "Cf", "Cs"):
                for m in ("whole", "fast"):
                    on, off = self.per_call.get((m, key, level)), self.per_call.get((m, key, "Ld"))
                    skipped = self.opts.smoke and level != "Cf"
                    cells.append("-" if skipped else "%+.1f" % (med(on) - med(off)) if on and off else "FAILED")
            say("  %-22s basic: %s / %s   full: %s / %s   full,checksum: %s / %s" % (name, *cells))
        say("")


    def print_floor(self):
        """The floor (two rdtsc reads per call) and mpiprof's cost on MPI_Iprobe above it."""
        s = self.size
        med = statistics.median
        say("Floor: what any profiler that times each call adds at least (mpiprof's clock is __rdtsc())")
        say("  measured in the unprofiled -n 1 processes above: %s MPI_Iprobe calls in a plain loop and %s"
            % (fmt_count(s["floor"]), fmt_count(s["floor"])))
        say("  with two rdtsc reads around each call, alternated slice by slice; medians over the repetitions")
        if self.floor.get(("whole", "floor_plain")) and self.floor.get(("whole", "floor_rdtsc")):
            say("  %-62s %12s %14s" % ("", "whole loop", "fastest tenth"))
            fl = {}
            for m in ("whole", "fast"):
                fl[m] = med(self.floor[(m, "floor_rdtsc")]) - med(self.floor[(m, "floor_plain")])
            say("  %-62s %12.1f %14.1f  ns/call" % ("plain loop: MPI_Iprobe", med(self.floor[("whole", "floor_plain")]),
                                                   med(self.floor[("fast", "floor_plain")])))
            say("  %-62s %12.1f %14.1f  ns/call" % ("t0 = __rdtsc(); MPI_Iprobe; t1 = __rdtsc(); acc += t1 - t0",
                                                   med(self.floor[("whole", "floor_rdtsc")]),
                                                   med(self.floor[("fast", "floor_rdtsc")])))
            say("  %-62s %+12.1f %+14.1f  ns/call" % ("FLOOR = the difference (two rdtsc reads per call)", fl["whole"], fl["fast"]))
            if self.floor.get("pair"):
                say("  %-62s %12.1f %14s  ns" % ("(an rdtsc pair in a loop with no MPI call)", med(self.floor["pair"]), ""))
            say("  mpiprof's added cost on MPI_Iprobe (table above) minus the floor:")
            for vkey, label in (("L1", "linked, depth 1"), ("Ld", "linked, default depth"),
                                ("P1", "LD_PRELOAD, depth 1"), ("Pd", "LD_PRELOAD, default depth"),
                                ("O1", "LD_PRELOAD, no frame pointers, depth 1"),
                                ("Od", "LD_PRELOAD, no frame pointers, default depth")):
                cells = []
                for m in ("whole", "fast"):
                    base, vals = self.per_call.get((m, "local", "U")), self.per_call.get((m, "local", vkey))
                    cells.append("%+.1f" % (med(vals) - med(base) - fl[m]) if base and vals else "FAILED")
                say("  %-62s %12s %14s  ns/call" % ("  " + label, cells[0], cells[1]))
        else:
            say("  FAILED (no floor measurement)")
        say("")

    def print_memory(self):
        """The resident size after few and after many profiled calls."""
        s = self.size
        s_mem = s["memory"]
        say("Memory: resident set size (/proc/self/statm) of one process (-n 1): MPI_Comm_rank from 100 distinct")
        say("  call sites (bench_sites.c), %s and then %s calls in all, default depth" % (fmt_count(s_mem[0]), fmt_count(s_mem[1])))
        if self.opts.intervals:
            say("  in 10 intervals: MPI_Pcontrol(1, name) / MPI_Pcontrol(-1, name) around each interval's calls")
        else:
            say("  (--no-intervals: all calls in the whole program only)")
        hdr = "  %-28s %14s %16s %16s %20s" % ("variant", "after MPI_Init", "after %s" % fmt_count(s_mem[0]),
                                              "after %s" % fmt_count(s_mem[1]), "difference")
        say(hdr)
        base_rss = None
        for v in self.variants():
            if v.key not in ("U", "Ld", "Pd"):
                continue
            r = self.memory.get(v.key)
            if not r:
                say("  %-28s %14s" % (v.label, "FAILED"))
                continue
            r0, r1, r2 = int(r["rss0_kib"]), int(r["rss1_kib"]), int(r["rss2_kib"])
            if v.key == "U":
                base_rss = r1
            more = "" if v.key == "U" or base_rss is None else "   (%+d KiB vs unprofiled; protocol: %s intervals)" % (
                r1 - base_rss, r.get("protocol_intervals", "?"))
            say("  %-28s %10d KiB %12d KiB %12d KiB %+16d KiB%s" % (v.label, r0, r1, r2, r2 - r1, more))
        say("  difference = RSS after %s - RSS after %s calls (should be ~0: the table grows with call sites, not calls)"
            % (fmt_count(s_mem[1]), fmt_count(s_mem[0])))
        say("")

    def print_finalize(self):
        """MPI_Finalize's time with 1 and with 1000 call sites."""
        s = self.size
        med = statistics.median
        say("Finalize: time from MPI_Finalize's entry to its return (rank 0 writes the protocol inside it),")
        say("  the maximum over the 2 processes, median of %d repetitions, in microseconds; default depth" % self.reps)
        if not self.opts.intervals:
            say("  (--no-intervals: each call site in the whole program only)")
        else:
            say("  every call site runs in each of 10 intervals (MPI_Pcontrol(1/-1, name)): 10 SRC entries per site")
        hdr = "  %-20s %12s %22s %22s %16s" % ("call sites", "unprofiled", "linked (added)", "LD_PRELOAD (added)",
                                              "SRC entries")
        say(hdr)
        for sites in s["finalize_sites"]:
            row = "  %-20s" % ("%d distinct" % sites)
            base = self.finalize.get((sites, "U"))
            bm = med(base) if base else None
            row += " %12s" % ("%.0f us" % bm if bm is not None else "FAILED")
            for vkey in ("Ld", "Pd"):
                vals = self.finalize.get((sites, vkey))
                if vals and bm is not None:
                    row += " %22s" % ("%.0f us (%+.0f)" % (med(vals), med(vals) - bm))
                else:
                    row += " %22s" % "FAILED"
            src = [self.finalize_src.get((sites, k)) for k in ("Ld", "Pd")]
            row += " %16s" % "/".join(str(x) if x is not None else "?" for x in src)
            say(row)
        say("  SRC entries = SRC lines in the protocol, all intervals (linked/LD_PRELOAD): the call sites plus")
        say("  the program's own 3 calls (MPI_Comm_rank, MPI_Comm_size, MPI_Barrier).")
        say("")

    def print_outcome(self):
        """How many runs failed, and the first failures' output."""
        if self.failures:
            say("FAILED runs: %d" % len(self.failures))
            for f in self.failures[:10]:
                say("  " + f.strip().replace("\n", "\n    "))
        else:
            say("All %d runs succeeded." % len(self.raw["runs"]))
