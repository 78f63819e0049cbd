"""benchlib: the modules of bench/run, the overhead benchmark (bench/README.md).

bench/run is the entry point (its command line); the benchmark's state is one
object, benchlib.bench.Bench, assembled from one class per step: building the
binaries, launching the variants, collecting their numbers, printing the
report.  Split so that each file holds one responsibility.
"""
