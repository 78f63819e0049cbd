"""Calibration and clock alignment on a loaded node (mpiprof(7), MODEL,
Calibration; WAIT STATES, Clocks), for tests/mpi/model/test_model_load.sh.

usage:
  check_model_load.py [--again] SCHEMA.json QUIET.json... -- LOADED.json...

QUIET: tests/mpi/model/model_load.c run on the quiet node before, between and
after the loaded runs (the host changes speed for seconds at a time: the
largest of their figures is the reference).  Every LOADED protocol must
either have an intra-node latency within LATENCY_FACTOR of the reference,
or say in Warnings that the model could not be calibrated (with the
figure) and give no predicted characteristics and no Overlap, with that
reason; and either a clock offset uncertainty at MPI_Init within
max(UNCERTAINTY_FACTOR x the reference, UNCERTAINTY_FLOOR), or a warning
that says why the differences below which waits count as 0 are that large.

--again: a LOADED run (beside busy processes, not bound to one CPU) whose
latency alone fails is named on a line 'AGAIN: PATH' and the exit status is
3 (when nothing else failed): the caller runs it again between two new quiet
runs.  The host moves the VM's processors for seconds at a time: a quiet run
was seen at 0.56 us one way with an offset uncertainty of 0.57 us, 3x the
runs before and after it, so a reference taken a few runs away can be the
other machine's.  Runs named bound* are never run again.
"""
import re
import sys

import protocol_check as pc

LATENCY_FACTOR = 2.0
UNCERTAINTY_FACTOR = 10.0
UNCERTAINTY_FLOOR = 20e-6  # s
NOT_CALIBRATED = "could not be calibrated"
THRESHOLD_WARNING = "Wait states: differences below"


def init_uncertainty(doc):
    clock = doc["parameters"]["clock"]
    m = re.search(r"at MPI_Init \(largest offset uncertainty ([0-9.e+-]+) s\)", clock)
    if not m:
        pc.fail("the Clock line does not give the offset uncertainty at MPI_Init: %r" % clock)
    return float(m.group(1))


def intra_latency(doc):
    """The calibrated intra-node latency, or None when the protocol says the
    model could not be calibrated."""
    pm = doc["parameters"]["prediction_model"]
    if pm is None:
        pc.fail("parameters.prediction_model is null: the model did not run")
    lat = pm["parameters"]["lat_intra"]
    if lat["source"] != "calibrated":
        pc.fail("lat_intra comes from %r, expected calibrated" % lat["source"])
    return lat["value"]


def check_not_calibrated(doc, name, latency, reference):
    found = pc.find_warnings(doc, NOT_CALIBRATED)
    if not found:
        pc.fail("%s: lat_intra=%.3g s, more than %g x the quiet runs' %.3g s, and no warning says the model "
                "%s. Warnings: %r" % (name, latency, LATENCY_FACTOR, reference, NOT_CALIBRATED, pc.warnings(doc)))
    if not any(re.search(r"[0-9.]+ ?(ms|us|s)\b", w) for w in found):
        pc.fail("%s: the warning that the model %s gives no figure: %r" % (name, NOT_CALIBRATED, found))
    with pc.prefixed(name):
        # why the predicted characteristics are n/a
        pc.need_warning(doc, "the predicted characteristics are n/a", NOT_CALIBRATED)
        pc.check_no_prediction(doc, "the model " + NOT_CALIBRATED)


def main(*argv):
    again = argv[:1] == ("--again",)
    if again:
        argv = argv[1:]
    if "--" not in argv[1:] or len(argv) < 4:
        pc.bad_usage()
    cut = argv.index("--", 1)
    schema, quiet, loaded = argv[0], argv[1:cut], argv[cut + 1:]
    if not quiet or not loaded:
        pc.bad_usage()
    docs = {path: pc.load_checked(path, schema=schema, say=False) for path in quiet + loaded}
    ref_latency = max(intra_latency(docs[p]) or 0 for p in quiet)
    ref_uncertainty = max(init_uncertainty(docs[p]) for p in quiet)
    print("quiet runs: lat_intra %s, clock uncertainty at MPI_Init %s"
          % (["%.3g" % intra_latency(docs[p]) for p in quiet], ["%.3g" % init_uncertainty(docs[p]) for p in quiet]))
    for p in quiet:
        if intra_latency(docs[p]) > 100e-6:
            pc.fail("%s: a quiet run calibrated lat_intra=%.3g s, more than 100 us" % (p, intra_latency(docs[p])))
    limit = max(UNCERTAINTY_FACTOR * ref_uncertainty, UNCERTAINTY_FLOOR)
    repeat = []
    for p in loaded:
        doc = docs[p]
        latency, uncertainty = intra_latency(doc), init_uncertainty(doc)
        said = [w for w in pc.warnings(doc) if NOT_CALIBRATED in w or THRESHOLD_WARNING in w]
        print("%s: lat_intra %.3g s (%.2f x quiet), clock uncertainty at MPI_Init %.3g s%s"
              % (p, latency, latency / ref_latency, uncertainty,
                 "; says: %s" % " | ".join(said) if said else ""))
        if latency > LATENCY_FACTOR * ref_latency:
            try:
                check_not_calibrated(doc, p, latency, ref_latency)
            except AssertionError as e:
                if not again or p.split("/")[-1].startswith("bound"):
                    raise
                print("%s\nAGAIN: %s" % (e, p))
                repeat.append(p)
        if uncertainty > limit and not pc.find_warnings(doc, THRESHOLD_WARNING):
            pc.fail("%s: the clock offset uncertainty at MPI_Init is %.3g s, more than %.3g s (10 x the quiet "
                    "runs', at least %g s), and no warning says why ('%s ...'). Clock: %s"
                    % (p, uncertainty, limit, UNCERTAINTY_FLOOR, THRESHOLD_WARNING, doc["parameters"]["clock"]))
    if repeat:
        return 3
    print("check_model_load: ok")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
