#!/usr/bin/env python3
"""view_bench.py [BUILDDIR]: size and speed of mpiprof-view's page for a
large protocol, in a real headless Chromium (a benchmark, run by hand; it
asserts nothing about time).

Generates the protocol of bench/gen_view_protocol.py (1,024 processes,
1,000 SRC points in 100 intervals, MPIPROF_RANKS=auto), writes its page
with BUILDDIR/tools/mpiprof-view (default: the source tree's build), opens
it from disk three times and prints: the page's size, mpiprof-view's time,
first paint and first contentful paint, when the protocol was parsed and
when the page was drawn (ms from navigation start), and how long the page
takes to answer a click: another interval, sorting 1,000 SRC points by
time, an SRC point's stack and source.  Needs chromium, chromium-driver
and python3-selenium (maint/install-deps.sh)."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "view"))
import view_browser  # noqa: E402

TIMINGS = """
var paint = {};
performance.getEntriesByType('paint').forEach(function (e) { paint[e.name] = e.startTime; });
var mark = function (n) { var m = performance.getEntriesByName(n); return m.length ? m[0].startTime : null; };
var nav = performance.getEntriesByType('navigation')[0];
return {fp: paint['first-paint'], fcp: paint['first-contentful-paint'], parsed: mark('mpiprof-parsed'),
        drawn: mark('mpiprof-drawn'), loaded: nav ? nav.loadEventEnd : null};
"""

# Each returns the milliseconds its click took, layout included.
CLICKS = {
    "select interval 55": "var t = performance.now(); document.querySelector('#tree [data-interval=\"55\"] > .node').click();"
                          "document.body.offsetHeight; return performance.now() - t;",
    "sort 1,000 SRC points by time": "var t = performance.now(); document.querySelector('#src-table button[data-sort=\"time\"]').click();"
                                     "document.body.offsetHeight; return performance.now() - t;",
    "show an SRC point's stack and source": "var t = performance.now(); document.querySelector('#src-table tbody tr').click();"
                                            "document.body.offsetHeight; return performance.now() - t;",
}


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, ".."))
    view = os.path.join(build, "tools", "mpiprof-view")
    with tempfile.TemporaryDirectory(prefix="mpiprof-view-bench.") as tmp:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_view_protocol.py"), tmp], check=True)
        doc, page = os.path.join(tmp, "big.json"), os.path.join(tmp, "big.html")
        t = time.time()
        subprocess.run([view, doc, "-o", page, "--source", os.path.join(tmp, "src")], check=True,
                       stdout=subprocess.DEVNULL)
        writing = time.time() - t
        print("protocol %.1f MB, page %.1f MB, mpiprof-view %.2f s" %
              (os.path.getsize(doc) / 1e6, os.path.getsize(page) / 1e6, writing))
        driver = view_browser.start()
        try:
            runs = []
            for _ in range(3):
                view_browser.load(driver, page, timeout=300)
                timing = driver.execute_script(TIMINGS)
                for name, script in CLICKS.items():
                    timing[name] = driver.execute_script(script)
                runs.append(timing)
            for key in ["fp", "fcp", "parsed", "drawn", "loaded"] + list(CLICKS):
                values = [r[key] for r in runs if r[key] is not None]
                label = {"fp": "first paint", "fcp": "first contentful paint", "parsed": "protocol parsed",
                         "drawn": "page drawn (interval 0, 1,000 SRC rows)", "loaded": "load event end"}.get(key, key)
                print("%-42s median %8.0f ms  (runs: %s)" % (label, statistics.median(values),
                                                           ", ".join("%.0f" % v for v in values)))
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
